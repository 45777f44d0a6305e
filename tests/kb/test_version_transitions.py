from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from console.models import AuditEvent
from kb import services
from kb.models import DocumentVersion, VersionStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(curator):
    return services.document_create(key="faq", title="FAQ", owner=curator, security_level="internal",
                                    created_by=curator)


def _upload(document, user, text="# FAQ\n\nAnswer one.\n", **kwargs):
    return services.version_upload(document=document, raw=text.encode(), filename="faq.md", uploaded_by=user, **kwargs)


def _verbs(version):
    return list(AuditEvent.objects.filter(object_type="kb.documentversion", object_id=str(version.pk))
                .order_by("id").values_list("verb", flat=True))


def test_draft_is_submitted_then_approved(curator, approver, document):
    version = _upload(document, curator, submit=False)
    assert version.status == VersionStatus.DRAFT

    version = services.version_submit(version=version, user=curator)
    assert version.status == VersionStatus.PENDING_APPROVAL

    version = services.version_approve(version=version, approver=approver, note="checked")
    assert version.status == VersionStatus.APPROVED
    assert version.approved_by == approver
    assert _verbs(version) == ["version.upload", "version.submit", "version.approve"]


def test_pending_version_is_rejected_with_a_reason(curator, approver, document):
    version = _upload(document, curator)

    with pytest.raises(services.TransitionError, match="Say why"):
        services.version_reject(version=version, approver=approver, reason="  ")
    version = services.version_reject(version=version, approver=approver, reason="numbers are outdated")

    assert version.status == VersionStatus.REJECTED
    assert AuditEvent.objects.get(verb="version.reject").note == "numbers are outdated"


def test_approving_a_version_not_yet_indexed_leaves_the_previous_one_approved(curator, approver, document):
    first = services.version_approve(version=_upload(document, curator), approver=approver)
    second = services.version_approve(version=_upload(document, curator, text="# FAQ\n\nAnswer two.\n"),
                                      approver=approver)

    first.refresh_from_db()
    assert second.index_state == "queued"
    assert (first.status, second.status) == (VersionStatus.APPROVED, VersionStatus.APPROVED)
    assert "version.supersede" not in _verbs(first)  # it supersedes once indexed: tests/kb/test_version_handover.py
    assert services.versions_activate_due() == 0


def test_expiry_task_marks_past_versions_expired(curator, approver, document):
    version = services.version_approve(
        version=_upload(document, curator, expires_at=timezone.now() + timedelta(days=1)), approver=approver
    )
    DocumentVersion.objects.filter(pk=version.pk).update(expires_at=timezone.now() - timedelta(minutes=1))

    assert services.versions_expire_due() == 1
    version.refresh_from_db()
    assert version.status == VersionStatus.EXPIRED
    assert _verbs(version)[-1] == "version.expire"


def test_approved_version_is_retired_and_document_retirement_retires_the_rest(curator, approver, document):
    version = services.version_approve(version=_upload(document, curator), approver=approver)
    pending = _upload(document, curator, text="# FAQ\n\nNext.\n")

    services.document_retire(document=document, user=curator, reason="product discontinued")

    version.refresh_from_db()
    pending.refresh_from_db()
    document.refresh_from_db()
    assert document.is_retired
    assert (version.status, pending.status) == (VersionStatus.RETIRED, VersionStatus.RETIRED)
    with pytest.raises(services.UploadError, match="retired"):
        _upload(document, curator, text="# FAQ\n\nAfter.\n")


def test_rejected_version_cannot_be_approved(curator, approver, document):
    version = services.version_reject(version=_upload(document, curator), approver=approver, reason="no")

    with pytest.raises(services.TransitionError, match="rejected"):
        services.version_approve(version=version, approver=approver)


def test_uploader_cannot_approve_their_own_version(make_user, document):
    curator_approver = make_user("both", "curator", "approver")
    version = _upload(document, curator_approver)

    with pytest.raises(PermissionDenied, match="Four-eyes"):
        services.version_approve(version=version, approver=curator_approver)


def test_four_eyes_over_http_is_a_403(client, make_user, document):
    curator_approver = make_user("both", "curator", "approver")
    version = _upload(document, curator_approver)
    client.force_login(curator_approver)

    response = client.post(f"/kb/{document.key}/v{version.number}/approve/")

    assert response.status_code == 403
    version.refresh_from_db()
    assert version.status == VersionStatus.PENDING_APPROVAL


def test_approver_approves_over_http(client, curator, approver, document):
    version = _upload(document, curator)
    client.force_login(approver)

    response = client.post(f"/kb/{document.key}/v{version.number}/approve/", {"reason": "looks right"})

    assert response.status_code == 302
    version.refresh_from_db()
    assert version.status == VersionStatus.APPROVED


def test_reviewer_cannot_approve(client, curator, reviewer, document):
    version = _upload(document, curator)
    client.force_login(reviewer)

    assert client.post(f"/kb/{document.key}/v{version.number}/approve/").status_code == 403


def test_approver_cannot_approve_a_document_above_their_clearance(make_user):
    owner = make_user("sena", "curator", clearance="restricted")
    document = services.document_create(key="merger", title="Merger", owner=owner, security_level="restricted",
                                        created_by=owner)
    version = _upload(document, owner)
    confidential_approver = make_user("cleo", "approver", clearance="confidential")

    with pytest.raises(PermissionDenied, match="above your clearance"):
        services.version_approve(version=version, approver=confidential_approver)

    version.refresh_from_db()
    assert version.status == VersionStatus.PENDING_APPROVAL
