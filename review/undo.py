"""Undo a reject, as Gmail's "Undo send": for REVIEW_UNDO_SECONDS after a reviewer rejects an answer, they can
take it back.

The reject is stored at once, whole (decision, labels, release, audit), so a closed tab or a restarted server
loses nothing: once the window has passed it simply stands. What leaves the console — the webhook — is held back
for the window (`answer_release(webhook_delay=...)`: no attempt may be claimed before it ends). An undo is taken
only inside the window and only while no webhook attempt was claimed, under the answer's row lock (the webhook
claims under the same lock), so a reject is either undone or sent, never both and never twice."""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from console.audit import audit_record
from review.leases import DecisionConflict, answer_lease_hold
from review.models import Answer, AnswerStatus, Decision, WebhookState
from review.learning.models import ReviewLabel
from review.reviewed_facts import reviewed_facts_end_for_decision
from review.vocabulary_learning import vocabulary_unlearn

UNDO_SESSION_KEY = "review_undo"  # {"answer": id, "until": epoch seconds}: the toast of the last reject


class UndoTooLate(DecisionConflict):
    """The reject can no longer be undone: the window passed, it was sent, or it is not this reviewer's."""


def undo_window_ends(answer: Answer):
    return answer.decided_at + timedelta(seconds=settings.REVIEW_UNDO_SECONDS)


@transaction.atomic
def answer_reject_undo(*, answer: Answer, reviewer) -> Answer:
    """Put a rejected answer back in review, leased to the reviewer who rejected it, as if the reject had not
    happened: its decision and labels are removed, the facts it settled end and the word pairs it showed no longer
    count (the audit log keeps both the reject and the undo)."""
    locked = Answer.objects.select_for_update().get(pk=answer.pk)
    if locked.status != AnswerStatus.REJECTED or locked.decided_by_id != reviewer.pk:
        raise UndoTooLate(_("Only the reviewer who rejected an answer can undo it, right after rejecting it."))
    if timezone.now() >= undo_window_ends(locked) or locked.webhook_attempts:
        raise UndoTooLate(_("Too late to undo: the rejection of answer %(number)s is final.") % {
            "number": locked.pk})
    rejects = Decision.objects.filter(answer=locked, action=Decision.Action.REJECT, reviewer=reviewer)
    for decision in rejects:
        reviewed_facts_end_for_decision(decision=decision)  # what it settled is open again, everywhere
    rejects.delete()
    vocabulary_unlearn(answer=locked)
    ReviewLabel.objects.filter(answer=locked).delete()  # an answer is labelled once, by its decision
    locked.status = AnswerStatus.PENDING_REVIEW
    locked.released_text = ""
    locked.released_at = None
    locked.decided_by = None
    locked.decided_at = None
    locked.webhook_state = WebhookState.NONE
    locked.webhook_next_attempt_at = None
    # An escalated answer the admin rejected goes back to the admin's list.
    locked.escalated = locked.decisions.filter(action=Decision.Action.ESCALATE).exists()
    locked.save(update_fields=["status", "released_text", "released_at", "decided_by", "decided_at",
                               "webhook_state", "webhook_next_attempt_at", "escalated"])
    audit_record(verb="answer.reject_undone", obj=locked, actor=reviewer,
                 before={"status": AnswerStatus.REJECTED}, after={"status": AnswerStatus.PENDING_REVIEW})
    return answer_lease_hold(locked, reviewer)


def undo_offer(request: HttpRequest, answer: Answer) -> None:
    """Offer the toast for this reject on the pages that follow, until the window ends."""
    request.session[UNDO_SESSION_KEY] = {"answer": answer.pk, "until": undo_window_ends(answer).timestamp()}


def undo_toast_context(request: HttpRequest) -> dict[str, object]:
    """The undo toast, while the last reject's window is open (the server checks again when Undo is pressed). It
    belongs to its answer: shown on the page the reject led to (a reload too) and on the rejected answer's own
    page, never on the answers after — where `z` would undo an answer no longer on screen."""
    session = getattr(request, "session", None)
    offer = session.get(UNDO_SESSION_KEY) if session is not None else None
    if not offer or offer["until"] <= time.time():
        return {}
    shown_on = offer.get("shown_on")
    if shown_on is None:
        session[UNDO_SESSION_KEY] = {**offer, "shown_on": request.path}
    elif request.path not in (shown_on, Answer(pk=offer["answer"]).get_absolute_url()):
        return {}
    return {"undo_toast": {"answer_id": offer["answer"], "until_ms": int(offer["until"] * 1000),
                           "seconds": max(1, round(offer["until"] - time.time()))}}


RECENT_DECISIONS_SHOWN = 5
RECENT_DECISIONS_HOURS = 8  # a working day's recent decisions; Undo is offered only within its window


def recently_decided(*, reviewer) -> list[dict]:
    """The reviewer's last decisions, newest first, each with whether its reject may still be undone: the toast
    leaves with its answer, and this list keeps the Undo reachable for the rest of the window."""
    since = timezone.now() - timedelta(hours=RECENT_DECISIONS_HOURS)
    decisions = (Decision.objects.filter(reviewer=reviewer, created_at__gte=since)
                 .select_related("answer").order_by("-created_at", "-pk")[:RECENT_DECISIONS_SHOWN])
    now = timezone.now()
    recent = []
    for decision in decisions:
        answer = decision.answer
        undoable = (decision.action == Decision.Action.REJECT and answer.status == AnswerStatus.REJECTED
                    and answer.decided_by_id == reviewer.pk and not answer.webhook_attempts
                    and answer.decided_at is not None and now < undo_window_ends(answer))
        recent.append({"decision": decision, "answer": answer, "undoable": undoable,
                       "until_ms": int(undo_window_ends(answer).timestamp() * 1000) if undoable else None})
    return recent
