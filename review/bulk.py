"""Work on many answers at once from the queue: reject the ticked rows with one reason (triage assigns them with the
same machinery), then an undo window for the lot.

Each answer is decided on its own, exactly as on its page — its own decision row, audit record, release and
webhook (held back for the undo window, review.undo) — and the lease rules hold: a row someone else is reviewing,
one decided meanwhile, or one escalated past the reviewer is skipped and named, never overridden."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

from review import leases, undo
from review.models import Answer, AnswerStatus, Decision
from review.services import DecisionInvalid, answer_decide

BULK_MAX = 100  # ticked rows one action may take (a page of the queue is 25)
BULK_UNDO_SESSION_KEY = "review_bulk_undo"  # {"kind", "answers", "previous", "undo_url", "message", "until"}


@dataclass
class BulkOutcome:
    done: list[Answer] = field(default_factory=list)
    skipped: list[tuple[Answer, str]] = field(default_factory=list)  # each with why, in the reviewer's words


def bulk_skip_reason(*, answer: Answer, actor) -> str:
    """Why a bulk action leaves this answer as it is; empty when it may act on it."""
    if answer.status != AnswerStatus.PENDING_REVIEW:
        return _("already %(status)s") % {"status": answer.get_status_display().lower()}
    if answer.lease_is_held_by_other(actor):
        return _("%(who)s is reviewing it") % {"who": answer.lease_holder.username}
    if not leases.answer_may_decide(answer=answer, reviewer=actor):
        return _("escalated to an admin")
    return ""


def bulk_answers(*, queryset: QuerySet[Answer], answer_ids: list[int]) -> list[Answer]:
    """The ticked answers the reviewer may see, in id order (ids they may not see are simply not there)."""
    return list(queryset.filter(pk__in=answer_ids[:BULK_MAX]).select_related("lease_holder").order_by("pk"))


def answers_reject_bulk(*, answers: list[Answer], reviewer, reason: str) -> BulkOutcome:
    """Reject each answer with the same reason, each as its own decision."""
    if not reason.strip():
        raise DecisionInvalid(_("Say why these answers are rejected: the reason goes with each decision."))
    outcome = BulkOutcome()
    for answer in answers:
        if why := bulk_skip_reason(answer=answer, actor=reviewer):
            outcome.skipped.append((answer, why))
            continue
        try:
            outcome.done.append(answer_decide(answer=answer, reviewer=reviewer, action=Decision.Action.REJECT,
                                              reason=reason))
        except (leases.DecisionConflict, DecisionInvalid, PermissionDenied) as exc:
            outcome.skipped.append((answer, str(exc)))
    return outcome


def answers_reject_undo_bulk(*, answers: list[Answer], reviewer) -> BulkOutcome:
    """Undo each reject (review.undo: only the reviewer's own, inside the window, not yet sent); the answers go back
    to the queue, not to the reviewer's hands."""
    outcome = BulkOutcome()
    for answer in answers:
        try:
            restored = undo.answer_reject_undo(answer=answer, reviewer=reviewer)
        except undo.UndoTooLate as exc:
            outcome.skipped.append((answer, str(exc)))
            continue
        leases.answer_lease_release(answer=restored, reviewer=reviewer)
        outcome.done.append(restored)
    return outcome


def bulk_undo_offer(request: HttpRequest, *, kind: str, answer_ids: list[int], undo_url: str, message: str,
                    previous: dict | None = None) -> None:
    """Offer the queue's toast for the lot for the undo window; the newest action's toast replaces the last."""
    request.session.pop(undo.UNDO_SESSION_KEY, None)  # one toast at a time: this one is the latest
    request.session[BULK_UNDO_SESSION_KEY] = {
        "kind": kind, "answers": answer_ids, "previous": previous or {}, "undo_url": undo_url, "message": message,
        "until": time.time() + settings.REVIEW_UNDO_SECONDS}


def bulk_undo_taken(request: HttpRequest, *, kind: str) -> dict | None:
    """The offer to undo, taken out of the session (once), or None when there is none of this kind or it ran out."""
    offer = request.session.get(BULK_UNDO_SESSION_KEY)
    if not offer or offer["kind"] != kind:
        return None
    request.session.pop(BULK_UNDO_SESSION_KEY)
    return offer if offer["until"] > time.time() else None


def bulk_undo_toast(request: HttpRequest) -> dict | None:
    """The queue's toast while the last bulk action may be undone (the server checks again on Undo)."""
    offer = request.session.get(BULK_UNDO_SESSION_KEY)
    if not offer or offer["until"] <= time.time() or undo.UNDO_SESSION_KEY in request.session:
        return None
    return {**offer, "until_ms": int(offer["until"] * 1000), "seconds": max(1, round(offer["until"] - time.time()))}
