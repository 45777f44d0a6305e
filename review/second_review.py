"""Two people for what matters: an answer in a tier listed in REVIEW_SECOND_REVIEW_TIERS, or touching a topic listed
in REVIEW_SECOND_REVIEW_TOPICS, is released only on a second reviewer's approval.

The first approval is a decision of its own (Decision.Action.FIRST_APPROVAL): the answer stays pending, nothing is
released, and its claim marks are kept as that reviewer's (review.models.ReviewerMark) and opened again, so the
second reviewer marks each claim without seeing the first one's marks — the two reviews are independent, and their
agreement (Cohen's kappa, review/agreement.py) means something. The first approver may not give the second approval
(review.leases refuses them the lease)."""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from console.audit import audit_record
from review.models import Answer, Claim, ClaimReview, Decision, ReviewerMark
from review.policy import topic_hits


def second_review_needed(answer: Answer) -> bool:
    """Does this answer need two approvals? A gold item's calibration copy never does: it measures one reviewer."""
    if answer.gold_copy_of_id:
        return False
    if answer.risk and answer.risk in settings.REVIEW_SECOND_REVIEW_TIERS:
        return True
    topics = settings.REVIEW_SECOND_REVIEW_TOPICS
    return bool(topics and topic_hits(f"{answer.question}\n{answer.text}", topics))


def reviewer_marks_record(*, decision: Decision, claims: list[Claim]) -> list[ReviewerMark]:
    """Keep each marked claim's mark as its reviewer's, with the decision it went into."""
    return ReviewerMark.objects.bulk_create(
        ReviewerMark(claim=claim, decision=decision, reviewer_id=claim.reviewed_by_id or decision.reviewer_id,
                     state=claim.review_state, error_kind=claim.error_kind, note=claim.review_note)
        for claim in claims if claim.review_state != ClaimReview.OPEN
    )


def answer_first_approve(*, answer: Answer, reviewer, claims: list[Claim], reason: str,
                         overrides: bool) -> Answer:
    """The first of two approvals, on the locked answer the caller checked as approve-able: kept, marks stored as
    the reviewer's and opened for the second reviewer, the lease released; the answer stays pending."""
    decision = Decision.objects.create(answer=answer, reviewer=reviewer, action=Decision.Action.FIRST_APPROVAL,
                                       reason=reason, overrides_checker=overrides)
    reviewer_marks_record(decision=decision, claims=claims)
    Claim.objects.filter(pk__in=[c.pk for c in claims]).update(
        review_state=ClaimReview.OPEN, review_note="", error_kind="", overrides_checker=False, reviewed_by=None,
        reviewed_at=None)
    answer.first_approved_by = reviewer
    answer.first_approved_at = timezone.now()
    answer.lease_holder = None
    answer.lease_expires_at = None
    answer.save(update_fields=["first_approved_by", "first_approved_at", "lease_holder", "lease_expires_at"])
    audit_record(verb="answer.first_approval", obj=answer, actor=reviewer, note=reason,
                 after={"needs_second_reviewer": True})
    return answer
