"""Upload forms that help: a new version starts from the previous one's metadata, a form shown again says to
choose the file again, and a new document's key is suggested from its title."""

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from kb import services

pytestmark = pytest.mark.django_db

GUIDE = "# Guide\n\n## Refunds\n\nRefunds are paid within 14 days.\n"


@pytest.fixture
def document(curator):
    return services.document_create(key="guide", title="Guide", owner=curator, security_level="internal",
                                    created_by=curator)


def test_new_version_form_starts_from_the_previous_versions_expiry_and_shows_its_note_beside_an_empty_one(
        client, curator, document):
    expires = timezone.localtime(timezone.now() + timedelta(days=200)).replace(second=0, microsecond=0)
    services.version_upload(document=document, raw=GUIDE.encode(), filename="guide.md", uploaded_by=curator,
                            expires_at=expires, note="Refund window confirmed by finance")
    client.force_login(curator)

    page = client.get("/kb/guide/upload/").content.decode()

    assert f'name="expires_at" value="{expires:%Y-%m-%dT%H:%M}"' in page
    assert 'value="Refund window confirmed by finance"' not in page  # what changed in v2 is the curator's to say
    assert 'id="prefill-note"' in page and "start from v1" in page
    assert "v1's note: “Refund window confirmed by finance”" in page


def test_an_expired_previous_version_leaves_the_expiry_to_the_curator(client, curator, document):
    version = services.version_upload(document=document, raw=GUIDE.encode(), filename="guide.md",
                                      uploaded_by=curator, effective_from=timezone.now() - timedelta(days=30),
                                      expires_at=timezone.now() - timedelta(days=1))
    client.force_login(curator)

    page = client.get("/kb/guide/upload/").content.decode()

    # No value: a date in the past would be refused.
    assert ('<input type="datetime-local" name="expires_at" aria-describedby="id_expires_at_helptext" '
            'id="id_expires_at">') in page
    assert f"which expired {timezone.localtime(version.expires_at):%Y-%m-%d %H:%M}" in page


def test_form_shown_again_with_an_error_asks_for_the_file_again(client, curator, document):
    client.force_login(curator)

    response = client.post("/kb/guide/upload/", {
        "file": SimpleUploadedFile("guide.md", GUIDE.encode()),
        "effective_from": "2027-01-10T00:00", "expires_at": "2027-01-01T00:00",
    })

    assert response.status_code == 400
    page = response.content.decode()
    assert "Choose “guide.md” again" in page
    assert document.versions.count() == 0


def test_new_document_form_suggests_the_key_from_the_title(client, curator):
    client.force_login(curator)

    page = client.get("/kb/new/").content.decode()

    assert 'data-key-from-title="id_title"' in page
    assert page.index('name="title"') < page.index('name="key"')  # the title first, so the key can follow it
