import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from console.models import AuditEvent
from kb import services
from kb.models import Document, DocumentVersion, IndexState, VersionStatus

pytestmark = pytest.mark.django_db

GUIDE = "# Guide\n\n## Refunds\n\nRefunds are paid within 14 days.\n"


@pytest.fixture
def document(curator):
    return services.document_create(key="guide", title="Guide", owner=curator, security_level="internal",
                                    created_by=curator)


def _upload(client, document, name, content, **extra):
    return client.post(f"/kb/{document.key}/upload/",
                       {"file": SimpleUploadedFile(name, content), "submit_for_approval": "on", **extra})


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("guide.pdf", b"%PDF-1.4", "is not a Markdown file"),
        ("guide.md", b"caf\xe9 au lait", "is not valid UTF-8 (byte 0xe9 at position 3)"),
        ("guide.md", b"   \n\n  ", "is empty"),
        ("guide.md", b"# x\x00\x01", "looks like a binary file"),
    ],
)
def test_refused_upload_says_why_and_stores_nothing(client, curator, document, name, content, message):
    client.force_login(curator)

    response = _upload(client, document, name, content)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not DocumentVersion.objects.exists()


def test_upload_over_the_size_limit_is_refused(client, curator, document, settings):
    settings.KB_MAX_UPLOAD_BYTES = 1024
    client.force_login(curator)

    response = _upload(client, document, "guide.md", b"# Big\n\n" + b"word " * 400)

    assert response.status_code == 400
    assert "the limit is" in response.content.decode()
    assert not DocumentVersion.objects.exists()


def test_expiry_before_effective_date_is_refused(client, curator, document):
    client.force_login(curator)

    response = _upload(client, document, "guide.md", GUIDE.encode(),
                       effective_from="2027-01-10T00:00", expires_at="2027-01-01T00:00")

    assert response.status_code == 400
    assert "expiry date must be after the effective date" in response.content.decode()


def test_identical_reupload_is_refused(curator, document):
    services.version_upload(document=document, raw=GUIDE.encode(), filename="guide.md", uploaded_by=curator)

    with pytest.raises(services.UploadError, match="identical to version 1"):
        services.version_upload(document=document, raw=GUIDE.encode(), filename="guide.md", uploaded_by=curator)
    assert document.versions.count() == 1


def test_new_version_leaves_the_old_one_untouched(curator, approver, document):
    first = services.version_upload(document=document, raw=GUIDE.encode(), filename="guide.md", uploaded_by=curator)
    services.version_approve(version=first, approver=approver)
    before = DocumentVersion.objects.filter(pk=first.pk).values("text", "sha256", "number", "approved_by").get()

    second = services.version_upload(document=document, raw=GUIDE.replace("14", "30").encode(),
                                     filename="guide.md", uploaded_by=curator)

    assert second.number == 2
    after = DocumentVersion.objects.filter(pk=first.pk).values("text", "sha256", "number", "approved_by").get()
    assert after == before
    assert after["sha256"] == hashlib.sha256(GUIDE.encode()).hexdigest()
    assert DocumentVersion.objects.get(pk=first.pk).status == VersionStatus.APPROVED


def test_curator_uploads_a_new_document_through_the_form(client, curator):
    client.force_login(curator)

    response = client.post("/kb/new/", {
        "key": "travel", "title": "Travel policy", "owner": curator.pk, "security_level": "internal",
        "file": SimpleUploadedFile("travel.md", "# Travel\n\nEconomy class only — café.\n".encode()),
        "submit_for_approval": "on",
    })

    version = DocumentVersion.objects.get(document__key="travel")
    assert response.status_code == 302
    assert response["Location"] == version.get_absolute_url()
    assert version.status == VersionStatus.PENDING_APPROVAL
    assert version.index_state == IndexState.QUEUED
    assert "café" in version.text
    assert list(AuditEvent.objects.filter(object_id__in=[str(version.pk), str(version.document.pk)])
                .values_list("verb", flat=True).order_by("id")) == ["document.create", "version.upload", "version.submit"]


def test_duplicate_document_key_is_refused(client, curator, document):
    client.force_login(curator)

    response = client.post("/kb/new/", {
        "key": document.key, "title": "Again", "owner": curator.pk, "security_level": "internal",
        "file": SimpleUploadedFile("g.md", b"# G\n\ntext\n"),
    })

    assert response.status_code == 400
    assert "already exists" in response.content.decode()
    assert Document.objects.count() == 1


def test_new_document_form_offers_only_levels_the_curator_may_open(client, curator):
    client.force_login(curator)  # internal clearance

    form = client.get("/kb/new/").content.decode()
    refused = client.post("/kb/new/", {
        "key": "merger", "title": "Merger plan", "owner": curator.pk, "security_level": "confidential",
        "file": SimpleUploadedFile("merger.md", b"# Merger\n\ntext\n"),
    })

    assert 'value="public"' in form and 'value="internal"' in form
    assert 'value="confidential"' not in form and 'value="restricted"' not in form
    assert refused.status_code == 400
    assert "Select a valid choice" in refused.content.decode()
    assert not Document.objects.exists()


def test_service_refuses_a_document_or_version_above_the_uploaders_clearance(curator, admin_user):
    with pytest.raises(services.UploadError, match="internal clearance and cannot add to a restricted document"):
        services.document_create(key="merger", title="Merger plan", owner=curator, security_level="restricted",
                                 created_by=curator)
    secret = services.document_create(key="merger", title="Merger plan", owner=admin_user,
                                      security_level="restricted", created_by=admin_user)
    with pytest.raises(services.UploadError, match="cannot add to a restricted document"):
        services.version_upload(document=secret, raw=b"# M\n\ntext\n", filename="m.md", uploaded_by=curator)

    assert list(Document.objects.values_list("key", flat=True)) == ["merger"]
    assert not DocumentVersion.objects.exists()


def test_reviewer_cannot_upload(client, reviewer, document):
    client.force_login(reviewer)

    assert _upload(client, document, "guide.md", GUIDE.encode()).status_code == 403


def test_huge_upload_is_refused_from_its_declared_length(client, curator, document, settings):
    settings.KB_MAX_UPLOAD_BYTES = 1024
    client.force_login(curator)

    response = client.post(f"/kb/{document.key}/upload/", data=b"x" * 200_000,
                           content_type="multipart/form-data; boundary=nothing")

    assert response.status_code == 413
    assert "Nothing was stored" in response.content.decode()
    assert not DocumentVersion.objects.exists()
