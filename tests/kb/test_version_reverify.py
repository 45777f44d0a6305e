"""Re-verification: the owner says a version is still correct until a later date; another approver approves it."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from console.models import AuditEvent
from kb import reverification
from kb.models import DocumentVersion, ExpiryExtension

pytestmark = pytest.mark.django_db

TEXT = "# Parking\n\nVisitors park in lot P7 for up to 4 hours.\n"


@pytest.fixture
def expiring(publish):
    return publish(TEXT, key="parking", expires_at=timezone.now() + timedelta(days=5))


def _verbs(version):
    return list(AuditEvent.objects.filter(object_type="kb.documentversion", object_id=str(version.pk))
                .order_by("id").values_list("verb", flat=True))


def test_owner_reverifies_and_another_approver_extends_without_a_new_version(expiring, curator, approver):
    chunks_before = list(expiring.chunks.values_list("pk", flat=True))
    until = timezone.now() + timedelta(days=365)

    extension = reverification.version_extension_request(version=expiring, user=curator, expires_at=until,
                                                         note="checked with facilities")
    expiring.refresh_from_db()
    assert expiring.expires_at < until  # nothing moves before the second pair of eyes

    reverification.version_extension_approve(extension=extension, approver=approver)

    expiring.refresh_from_db()
    extension.refresh_from_db()
    assert expiring.expires_at == until
    assert (extension.state, extension.decided_by) == (ExpiryExtension.State.APPROVED, approver)
    assert list(expiring.chunks.values_list("pk", flat=True)) == chunks_before  # not re-indexed
    assert expiring.document.versions.count() == 1  # no new upload
    assert _verbs(expiring)[-2:] == ["version.extension_request", "version.extend"]


def test_the_version_stays_evidence_past_its_old_expiry(expiring, curator, approver):
    old_expiry = expiring.expires_at
    extension = reverification.version_extension_request(
        version=expiring, user=curator, expires_at=timezone.now() + timedelta(days=90))
    reverification.version_extension_approve(extension=extension, approver=approver)

    after_old_expiry = old_expiry + timedelta(days=1)
    usable = DocumentVersion.objects.usable_as_evidence(clearance="internal", at=after_old_expiry)
    assert expiring in usable


def test_an_unapproved_reverification_ends_evidence_at_the_old_expiry(expiring, curator):
    reverification.version_extension_request(version=expiring, user=curator,
                                             expires_at=timezone.now() + timedelta(days=90))
    usable = DocumentVersion.objects.usable_as_evidence(clearance="internal",
                                                        at=expiring.expires_at + timedelta(days=1))
    assert expiring not in usable


def test_only_the_owner_reverifies(expiring, approver, make_user):
    other_curator = make_user("cleo", "curator")
    for person in (other_curator, approver):
        with pytest.raises(PermissionDenied, match="owner"):
            reverification.version_extension_request(version=expiring, user=person,
                                                     expires_at=timezone.now() + timedelta(days=90))


def test_four_eyes_the_owner_cannot_approve_their_own_reverification(expiring, curator, approver):
    curator.groups.add(*approver.groups.all())  # the owner holds the approver role too
    extension = reverification.version_extension_request(version=expiring, user=curator,
                                                         expires_at=timezone.now() + timedelta(days=90))
    with pytest.raises(PermissionDenied, match="Four-eyes"):
        reverification.version_extension_approve(extension=extension, approver=curator)


def test_a_date_before_the_current_expiry_is_refused(expiring, curator):
    with pytest.raises(reverification.ExtensionError, match="after the current expiry"):
        reverification.version_extension_request(version=expiring, user=curator,
                                                 expires_at=expiring.expires_at - timedelta(days=1))


def test_one_request_waits_at_a_time(expiring, curator):
    until = timezone.now() + timedelta(days=90)
    reverification.version_extension_request(version=expiring, user=curator, expires_at=until)
    with pytest.raises(reverification.ExtensionError, match="already waiting"):
        reverification.version_extension_request(version=expiring, user=curator, expires_at=until)


def test_a_rejection_needs_a_reason_and_keeps_the_expiry(expiring, curator, approver):
    old_expiry = expiring.expires_at
    extension = reverification.version_extension_request(version=expiring, user=curator,
                                                         expires_at=timezone.now() + timedelta(days=90))
    with pytest.raises(reverification.ExtensionError, match="Say why"):
        reverification.version_extension_reject(extension=extension, user=approver, reason=" ")
    reverification.version_extension_reject(extension=extension, user=approver, reason="the rates changed")

    expiring.refresh_from_db()
    extension.refresh_from_db()
    assert expiring.expires_at == old_expiry
    assert extension.state == ExpiryExtension.State.REJECTED
    with pytest.raises(reverification.ExtensionError, match="rejected already"):
        reverification.version_extension_approve(extension=extension, approver=approver)


def test_the_owner_may_withdraw_without_a_reason(expiring, curator):
    extension = reverification.version_extension_request(version=expiring, user=curator,
                                                         expires_at=timezone.now() + timedelta(days=90))
    withdrawn = reverification.version_extension_reject(extension=extension, user=curator)
    assert withdrawn.state == ExpiryExtension.State.WITHDRAWN


def test_an_expired_version_needs_a_new_upload(publish, curator):
    version = publish(TEXT, key="old-parking", expires_at=timezone.now() + timedelta(days=5))
    DocumentVersion.objects.filter(pk=version.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    version.refresh_from_db()
    with pytest.raises(reverification.ExtensionError, match="upload"):
        reverification.version_extension_request(version=version, user=curator,
                                                 expires_at=timezone.now() + timedelta(days=90))
