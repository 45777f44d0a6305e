import pytest

from kb import services

pytestmark = pytest.mark.django_db

DOC = "# Guide\n\n## Refunds\n\nRefunds are paid within 14 days.\n\n<script>alert(1)</script>\n"


@pytest.fixture
def version(curator):
    document = services.document_create(key="guide", title="Guide", owner=curator, security_level="internal",
                                        created_by=curator)
    return services.version_upload(document=document, raw=DOC.encode(), filename="guide.md", uploaded_by=curator)


def test_document_list_filters_by_status_and_level(client, reviewer, version, admin_user):
    services.document_create(key="secret", title="Secret plan", owner=admin_user, security_level="restricted",
                             created_by=admin_user)
    client.force_login(reviewer)

    page = client.get("/kb/").content.decode()
    assert "Guide" in page
    assert "Secret plan" not in page  # above the reviewer's clearance

    assert "Guide" not in client.get("/kb/?status=approved").content.decode()
    assert "Guide" in client.get("/kb/?status=pending_approval").content.decode()


def test_empty_knowledge_base_says_so(client, curator):
    client.force_login(curator)

    page = client.get("/kb/").content.decode()

    assert "The knowledge base is empty" in page
    assert "Upload the first document" in page


def test_version_page_renders_sanitized_markdown_with_anchors(client, reviewer, version):
    client.force_login(reviewer)

    page = client.get(version.get_absolute_url()).content.decode()

    assert 'id="L5"' in page  # the refunds paragraph's anchor
    assert "<script>alert(1)</script>" not in page
    assert "Waiting for an approver" in page


def test_document_above_clearance_is_404(client, viewer_user, version):
    client.force_login(viewer_user)  # public clearance; the guide is internal

    assert client.get("/kb/guide/").status_code == 404


def test_unknown_version_is_404(client, reviewer, version):
    client.force_login(reviewer)

    assert client.get("/kb/guide/v9/").status_code == 404


def test_progress_partial_polls_until_ready(client, reviewer, version):
    client.force_login(reviewer)

    partial = client.get("/kb/guide/v1/progress/", headers={"HX-Request": "true"})

    assert 'hx-trigger="every 1s"' in partial.content.decode()
    assert "HX-Refresh" not in partial


def test_outsider_without_role_gets_403(client, outsider, version):
    client.force_login(outsider)

    assert client.get("/kb/").status_code == 403
    assert client.get("/kb/search/?q=refund").status_code == 403
