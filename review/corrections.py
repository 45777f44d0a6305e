"""Writes for conflicting sources: the reviewer says which approved source is right; the owner of the other one
fixes it (or dismisses the entry)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from console import roles
from console.audit import audit_label, audit_record
from review.conflicts import CONFLICTING_RIGHT, NEITHER, RIGHT_CHOICES, SUPPORTING_RIGHT, version_label
from review.models import Answer, Claim, Evidence, SourceCorrection
# The same lease rules as marking a claim: only the reviewer holding the answer writes about it.
from review.leases import answer_lease_hold, answer_require_lease
from review.services import DecisionInvalid


class CorrectionClosed(Exception):
    """The entry was fixed, dismissed or withdrawn already."""


def _audit_after(correction: SourceCorrection) -> dict[str, str]:
    return {
        "wrong": version_label(correction.wrong_version),
        "right": version_label(correction.right_version) if correction.right_version else "neither / can't tell",
        "claim": correction.claim.text[:160],
        "status": audit_label(correction, "status"),
    }


@transaction.atomic
def source_conflict_settle(
    *, claim: Claim, reviewer, conflicting: Evidence, right: str, note: str = "",
) -> list[SourceCorrection]:
    """Record which of two conflicting approved sources is right (`right`: "supporting", "conflicting" or
    "neither"). The wrong one (both, for "neither") becomes an entry in its owner's "sources to fix"; a choice
    made earlier for the same pair that nobody has acted on yet is withdrawn."""
    answer = Answer.objects.select_for_update().get(pk=claim.answer_id)
    answer_require_lease(answer, reviewer)
    if right not in RIGHT_CHOICES:
        raise DecisionInvalid(_("Say which source is right: the supporting one, the conflicting one, or neither."))
    supporting = claim.evidence.select_related("chunk__version__document").order_by("rank").first()
    if (conflicting.claim_id != claim.pk or not conflicting.is_conflicting or conflicting.chunk is None
            or supporting is None or supporting.chunk is None or supporting.pk == conflicting.pk):
        raise DecisionInvalid(_("That source does not conflict with this claim's source."))
    first, second = supporting.chunk.version, conflicting.chunk.version
    earlier = list(SourceCorrection.objects.select_for_update().filter(
        claim=claim, status=SourceCorrection.Status.OPEN, wrong_version__in=[first, second],
        other_version__in=[first, second]))
    wanted = {
        SUPPORTING_RIGHT: [(second, first, first)],
        CONFLICTING_RIGHT: [(first, second, second)],
        NEITHER: [(first, second, None), (second, first, None)],
    }[right]  # (wrong, other, right) per entry
    if sorted((c.wrong_version_id, c.other_version_id, c.right_version_id) for c in earlier) == sorted(
            (w.pk, o.pk, r.pk if r else None) for w, o, r in wanted) and all(c.note == note for c in earlier):
        return earlier  # said already, in the same words
    for correction in earlier:
        correction.status = SourceCorrection.Status.WITHDRAWN
        correction.resolved_by, correction.resolved_at = reviewer, timezone.now()
        correction.save(update_fields=["status", "resolved_by", "resolved_at"])
        audit_record(verb="source_correction.withdraw", obj=correction, actor=reviewer,
                     before={"status": "To fix"}, after={"status": audit_label(correction, "status")})
    quotes = {supporting.chunk.version_id: supporting.quote, conflicting.chunk.version_id: conflicting.quote}
    created = []
    for wrong, other, right_version in wanted:
        correction = SourceCorrection.objects.create(
            answer=answer, claim=claim, wrong_version=wrong, other_version=other, right_version=right_version,
            wrong_quote=quotes[wrong.pk], other_quote=quotes[other.pk], reviewer=reviewer, note=note,
        )
        audit_record(verb="source_correction.record", obj=correction, actor=reviewer, note=note,
                     after=_audit_after(correction))
        created.append(correction)
    answer_lease_hold(answer, reviewer)  # activity keeps the lease alive
    return created


def source_correction_may_resolve(*, correction: SourceCorrection, user) -> bool:
    """The owner of the document to fix, and curators (who keep the knowledge base; admins hold every role)."""
    return correction.wrong_version.document.owner_id == user.pk or user.has_role(roles.CURATOR)


@transaction.atomic
def source_correction_resolve(*, correction: SourceCorrection, user, status: str, note: str = "") -> SourceCorrection:
    """Close an entry: fixed (a new version says it right) or dismissed (the source was right; the note says why)."""
    if not source_correction_may_resolve(correction=correction, user=user):
        raise PermissionDenied(_("Only the document's owner or a curator can close this entry."))
    if status not in (SourceCorrection.Status.FIXED, SourceCorrection.Status.DISMISSED):
        raise DecisionInvalid(_("Mark the entry fixed or dismissed."))
    if status == SourceCorrection.Status.DISMISSED and not note:
        raise DecisionInvalid(_("Say why you dismiss it: the reviewer will read it in the audit log."))
    locked = SourceCorrection.objects.select_for_update(of=("self",)).select_related(
        "wrong_version__document", "answer__client").get(pk=correction.pk)
    if locked.status != SourceCorrection.Status.OPEN:
        raise CorrectionClosed(_("This entry is %(status)s already.") % {"status": locked.get_status_display().lower()})
    locked.status = status
    locked.resolved_by, locked.resolved_at, locked.resolution_note = user, timezone.now(), note
    locked.save(update_fields=["status", "resolved_by", "resolved_at", "resolution_note"])
    audit_record(verb=f"source_correction.{status}", obj=locked, actor=user, note=note,
                 before={"status": "To fix"}, after={"status": audit_label(locked, "status")})
    return locked
