"""Re-verification: the owner says an approved version is still correct until a later date; an approver other than
the owner approves the extension (four-eyes). Nothing is uploaded or re-indexed: only the expiry moves."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from console import roles
from console.audit import audit_record
from console.models import SecurityLevel, User
from kb.models import Document, DocumentVersion, ExpiryExtension, VersionStatus


class ExtensionError(ValueError):
    """A re-verification the console refuses, with a message for the person who asked."""


def _live_for_extension(version: DocumentVersion) -> None:
    if version.status != VersionStatus.APPROVED or version.is_expired:
        raise ExtensionError(_("Only an approved version that has not expired can be re-verified; upload this text "
                               "again as a new version instead."))
    if version.expires_at is None:
        raise ExtensionError(_("This version never expires: there is nothing to extend."))


@transaction.atomic
def document_reminder_days_set(*, document: Document, user: User, days: int | None) -> Document:
    """How many days before a version expires its owner and the approvers are reminded (None: the default)."""
    if document.owner_id != user.pk and not user.has_role(roles.CURATOR, roles.APPROVER):
        raise PermissionDenied(_("Only the owner, curators and approvers set the reminder."))
    before = {"reminder_days": document.reminder_days}
    document.reminder_days = days
    document.save(update_fields=["reminder_days"])
    audit_record(verb="document.reminder_days", obj=document, actor=user, before=before,
                 after={"reminder_days": days})
    return document


@transaction.atomic
def version_extension_request(
    *, version: DocumentVersion, user: User, expires_at: datetime, note: str = ""
) -> ExpiryExtension:
    """The owner re-verifies the version: still correct until ``expires_at``."""
    version = DocumentVersion.objects.select_for_update().select_related("document").get(pk=version.pk)
    if version.document.owner_id != user.pk:
        raise PermissionDenied(_("Only the document's owner (%(owner)s) can re-verify it.") % {
            "owner": version.document.owner.username})
    _live_for_extension(version)
    if expires_at <= max(version.expires_at, timezone.now()):
        raise ExtensionError(_("Choose a date after the current expiry (%(date)s).") % {
            "date": timezone.localtime(version.expires_at).strftime("%Y-%m-%d %H:%M")})
    if version.extensions.filter(state=ExpiryExtension.State.PENDING).exists():
        raise ExtensionError(_("An extension of this version is already waiting for approval."))
    extension = ExpiryExtension.objects.create(version=version, expires_at=expires_at, note=note.strip(),
                                               previous_expires_at=version.expires_at, requested_by=user)
    audit_record(verb="version.extension_request", obj=version, actor=user, note=note,
                 after={"expires_at": expires_at.isoformat()})
    return extension


def _pending(extension: ExpiryExtension) -> ExpiryExtension:
    locked = ExpiryExtension.objects.select_for_update().select_related("version__document").get(pk=extension.pk)
    if locked.state != ExpiryExtension.State.PENDING:
        raise ExtensionError(_("This extension was %(state)s already.") % {
            "state": locked.get_state_display().lower()})
    return locked


@transaction.atomic
def version_extension_approve(*, extension: ExpiryExtension, approver: User) -> ExpiryExtension:
    """Four-eyes: an approver who is neither the owner nor the one who asked moves the expiry."""
    extension = _pending(extension)
    version = DocumentVersion.objects.select_for_update().get(pk=extension.version_id)
    if not approver.has_role(roles.APPROVER):
        raise PermissionDenied(_("Only approvers can approve an extension."))
    if approver.pk in {extension.requested_by_id, version.document.owner_id}:
        raise PermissionDenied(_("Four-eyes rule: another approver must approve the owner's re-verification."))
    if version.document.security_level not in SecurityLevel.up_to(approver.clearance):
        raise PermissionDenied(_("This is a %(level)s document, above your clearance.") % {
            "level": version.document.get_security_level_display().lower()})
    _live_for_extension(version)
    before = {"expires_at": version.expires_at.isoformat()}
    version.expires_at = extension.expires_at
    version.save(update_fields=["expires_at"])
    extension.state = ExpiryExtension.State.APPROVED
    extension.decided_by, extension.decided_at = approver, timezone.now()
    extension.save(update_fields=["state", "decided_by", "decided_at"])
    audit_record(verb="version.extend", obj=version, actor=approver, before=before,
                 after={"expires_at": version.expires_at.isoformat()},
                 note=_("re-verified by %(owner)s") % {"owner": extension.requested_by.username})
    return extension


@transaction.atomic
def version_extension_reject(*, extension: ExpiryExtension, user: User, reason: str = "") -> ExpiryExtension:
    """An approver refuses the extension, or its owner withdraws it; the expiry stays as it was."""
    extension = _pending(extension)
    withdrawing = user.pk == extension.requested_by_id
    if not withdrawing and not user.has_role(roles.APPROVER):
        raise PermissionDenied(_("Only approvers can reject an extension."))
    if not withdrawing and not reason.strip():
        raise ExtensionError(_("Say why the extension is rejected; the owner will read it."))
    extension.state = ExpiryExtension.State.WITHDRAWN if withdrawing else ExpiryExtension.State.REJECTED
    extension.decided_by, extension.decided_at = user, timezone.now()
    extension.decision_reason = reason.strip()[:500]
    extension.save(update_fields=["state", "decided_by", "decided_at", "decision_reason"])
    audit_record(verb=f"version.extension_{extension.state}", obj=extension.version, actor=user, note=reason)
    return extension
