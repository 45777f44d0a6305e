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
    assert "Answers received, last 14 days" in page


def test_dashboard_with_nothing_happening_has_clear_empty_states(client, reviewer):
    client.force_login(reviewer)

    page = client.get("/").content.decode()

    assert "No approved source expires in the next 30 days." in page
    assert "every version is indexed" in page
