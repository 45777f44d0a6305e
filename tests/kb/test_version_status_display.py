"""Readable version status everywhere, and "effective from approval" until an approval sets it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from kb import services

pytestmark = pytest.mark.django_db

GUIDE = "# Guide\n\n## Refunds\n\nRefunds are paid within 14 days.\n"


@pytest.fixture
def pending(curator):
    document = services.document_create(key="guide", title="Guide", owner=curator, security_level="internal",
                                        created_by=curator)
    return services.version_upload(document=document, raw=GUIDE.encode(), filename="guide.md", uploaded_by=curator)


def test_status_labels_read_as_words(client, reviewer, pending):
    client.force_login(reviewer)

    for path in ("/kb/", "/kb/guide/v1/"):
        page = client.get(path).content.decode()
        assert "Pending approval</span>" in page, path
        assert "Pendingapproval" not in page, path


def test_pending_version_is_effective_from_approval_until_approved(client, reviewer, approver, pending):
    client.force_login(reviewer)

    before = client.get("/kb/guide/v1/").content.decode()
    services.version_approve(version=pending, approver=approver)
    pending.refresh_from_db()
    after = client.get("/kb/guide/v1/").content.decode()

    assert '<dd id="effective-from">approval</dd>' in before
    assert f'<dd id="effective-from">approval ({timezone.localtime(pending.approved_at):%Y-%m-%d %H:%M})</dd>' in after


def test_a_future_start_date_is_shown_as_a_date(client, reviewer, curator, pending):
    start = timezone.now() + timedelta(days=10)
    version = services.version_upload(document=pending.document, raw=(GUIDE + "\nMore.\n").encode(),
                                      filename="guide.md", uploaded_by=curator, effective_from=start)
    client.force_login(reviewer)

    page = client.get(version.get_absolute_url()).content.decode()

    shown = f"{timezone.localtime(start):%Y-%m-%d %H:%M}"
    assert f'<dd id="effective-from">{shown} <span class="badge warn">not yet effective</span></dd>' in page
