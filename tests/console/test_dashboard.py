import pytest

pytestmark = pytest.mark.django_db


def test_dashboard_shows_queue_depth_and_expiring_sources(client, reviewer, make_answer, publish):
    from datetime import timedelta

    from django.utils import timezone

    make_answer(risk="high")
    make_answer(risk="high")
    make_answer(risk="medium")
    publish("# Policy\n\n## Part\n\nText.\n", key="policy", expires_at=timezone.now() + timedelta(days=10))
    client.force_login(reviewer)

    page = client.get("/").content.decode()

    assert 'aria-label="Queue depth by risk: high 2, medium 1, low 0"' in page
    assert "Policy v1</a> — expires" in page
    assert "Answers received per day" in page


def test_dashboard_with_nothing_happening_has_clear_empty_states(client, reviewer):
    client.force_login(reviewer)

    page = client.get("/").content.decode()

    assert "No approved source expires in the next 30 days." in page
    assert "every version is indexed" in page


def test_dashboard_index_jobs_show_only_documents_within_the_viewers_clearance(client, reviewer, admin_user):
    from kb import services

    for key, title, level in (("handbook", "Staff handbook", "internal"), ("merger", "Merger plan", "restricted")):
        document = services.document_create(key=key, title=title, owner=admin_user, security_level=level,
                                             created_by=admin_user)
        services.version_upload(document=document, raw=b"# T\n\ntext\n", filename="t.md", uploaded_by=admin_user)

    client.force_login(reviewer)
    page = client.get("/").content.decode()
    client.force_login(admin_user)
    admin_page = client.get("/").content.decode()

    assert "Staff handbook v1" in page  # still queued: no commit in this test, so no worker picked it up
    assert "Merger plan" not in page
    assert "Merger plan v1" in admin_page
