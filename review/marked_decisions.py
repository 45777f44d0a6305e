"""A decision together with the claim marks it rests on (the review API's decision, review/review_api.py): the
marks are applied first, then the decision, in one transaction, so a refused decision leaves no mark behind.

The rules are the pages' own (review.services.claim_review, answer_decide, decision_blockers); what a tool must do
besides is hold the lease, as the page's decision buttons show only to the lease's holder."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from review import services
from review.leases import DecisionConflict, answer_require_lease
from review.models import Answer, Claim, Decision, Risk


@dataclass(frozen=True)
class ClaimMark:
    claim: Claim
    state: str  # confirmed, rejected
    note: str = ""
    kind: str = ""  # why a rejected claim is wrong (review.models.ErrorKind)


def answer_require_own_lease(answer: Answer, reviewer) -> None:
    """Refuse as the pages do (decided, escalated past the reviewer, someone else's lease), and without the
    reviewer's own live lease."""
    answer_require_lease(answer, reviewer)
    expires = answer.lease_expires_at
    if answer.lease_holder_id != reviewer.pk or expires is None or expires <= timezone.now():
        raise DecisionConflict(f"take the lease first (POST /api/v1/review/answers/{answer.pk}/lease): only the "
                               "lease's holder decides an answer")


def edit_blocker_preview(*, answer: Answer, marks: list[ClaimMark]) -> str:
    """What would stop an edit once `marks` are applied (review.services.decision_blockers), asked before a worker
    re-checks the edited text, as the page asks before re-checking. Nothing is written."""
    marked = {mark.claim.pk: mark.state for mark in marks}
    claims = []
    for claim in answer.claims.all():
        if claim.from_edit:
            continue
        claim = copy.copy(claim)
        claim.review_state = marked.get(claim.pk, claim.review_state)
        claims.append(claim)
    return services.decision_blockers(answer=answer, claims=claims, action=Decision.Action.EDIT)


def answer_edit_recheck(*, answer: Answer, reviewer, marks: list[ClaimMark], text: str, reason: str) -> dict:
    """The edited text re-checked exactly as the page re-checks it (on a worker, with the answer's question and its
    client's clearance), after the refusals that need no re-check. Raises DecisionInvalid, DecisionConflict, or
    services.CheckUnavailable when no worker answered."""
    if not text.strip():
        raise services.DecisionInvalid("text: the edited answer is empty")
    answer_require_own_lease(answer, reviewer)
    if blocker := edit_blocker_preview(answer=answer, marks=marks):
        raise services.DecisionInvalid(blocker)
    check = services.answer_check_on_worker(answer_text=text, question=answer.question,
                                            clearance=answer.client.clearance)
    if check["risk"] == Risk.HIGH and not reason.strip():
        raise services.DecisionInvalid(f"the edited answer is still high risk: {'; '.join(check['reasons'])}. Fix "
                                       "it, or give a reason to send it anyway")
    return check


@transaction.atomic
def answer_decide_with_marks(*, answer: Answer, reviewer, marks: list[ClaimMark], action: str, reason: str = "",
                             edited_text: str = "", edited_check: dict | None = None) -> Answer:
    """Mark the claims, then decide; all or nothing. Raises what claim_review and answer_decide raise, and
    DecisionConflict without the reviewer's own lease."""
    locked = Answer.objects.select_for_update().get(pk=answer.pk)
    answer_require_own_lease(locked, reviewer)
    for mark in marks:
        services.claim_review(claim=mark.claim, reviewer=reviewer, state=mark.state, note=mark.note, kind=mark.kind)
    return services.answer_decide(answer=locked, reviewer=reviewer, action=action, reason=reason,
                                  edited_text=edited_text, edited_check=edited_check)
