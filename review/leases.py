"""Review leases: one reviewer at a time works on an answer, for REVIEW_LEASE_MINUTES after their last action."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Case, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from console import roles
from console.audit import audit_record
from review.gold import gold_copy_offer
from review.models import Answer, AnswerStatus


class LeaseHeld(Exception):
    """Another reviewer holds the lease on this answer."""


class DecisionConflict(Exception):
    """The answer was decided already (or is leased by someone else): this decision lost."""


class SecondReviewerNeeded(LeaseHeld, DecisionConflict):
    """The reviewer gave this answer its first approval: only someone else may give the second (or decide it)."""

    def __init__(self) -> None:
        super().__init__(_("You gave this answer its first approval: it needs a second reviewer, someone other "
                           "than you."))


def _lease_until():
    return timezone.now() + timedelta(minutes=settings.REVIEW_LEASE_MINUTES)


def _lease_free_for(reviewer) -> Q:
    return Q(lease_holder__isnull=True) | Q(lease_expires_at__lte=timezone.now()) | Q(lease_holder=reviewer)


QUEUE_ORDER = ("risk_order", "-wrong_probability", "created_at")


@transaction.atomic
def answer_lease_next(*, reviewer, queryset, skipped: frozenset[int] = frozenset(), order=QUEUE_ORDER) -> Answer | None:
    """Lease the first pending answer nobody else holds: those assigned to the reviewer first, then unassigned
    ones, in `order` (the queue's: tier, likeliest wrong, oldest). An answer assigned to someone else is theirs:
    "next" does not hand it out (it can still be opened and started from the queue). `queryset`: answers the
    reviewer may see; `skipped`: answers the reviewer skipped, passed over."""
    if (copy := gold_copy_offer(reviewer=reviewer, queryset=queryset)) is not None:
        return answer_lease_hold(copy, reviewer)  # unannounced: it reads like any other answer
    answer = (
        queryset.filter(_lease_free_for(reviewer), status=AnswerStatus.PENDING_REVIEW, escalated=False)
        .filter(Q(assignment__isnull=True) | Q(assignment__assignee=reviewer))
        .exclude(pk__in=skipped)
        .exclude(first_approved_by=reviewer)  # the second approval is someone else's
        .annotate(not_mine=Case(When(assignment__assignee=reviewer, then=Value(0)), default=Value(1)))
        .order_by("not_mine", *order)
        .select_for_update(skip_locked=True, of=("self",))
        .first()
    )
    if answer is None:
        return None
    return answer_lease_hold(answer, reviewer)


def answer_lease_hold(answer: Answer, reviewer) -> Answer:
    """Hold (or renew) the lease on an answer the caller has locked; activity on an answer keeps it alive."""
    renewing = answer.lease_holder_id == reviewer.pk
    answer.lease_holder = reviewer
    answer.lease_expires_at = _lease_until()
    answer.save(update_fields=["lease_holder", "lease_expires_at"])
    if not renewing:
        audit_record(verb="answer.lease", obj=answer, actor=reviewer, after={"until": answer.lease_expires_at.isoformat()})
    return answer


@transaction.atomic
def answer_lease_take(*, answer: Answer, reviewer) -> Answer:
    """Take (or renew) the lease; LeaseHeld when another reviewer's lease is still running."""
    locked = Answer.objects.select_for_update().get(pk=answer.pk)
    if locked.status != AnswerStatus.PENDING_REVIEW or not answer_may_decide(answer=locked, reviewer=reviewer):
        return locked  # nothing to lease: a reviewer who may not decide must not block the admin either
    if locked.first_approved_by_id == reviewer.pk:
        raise SecondReviewerNeeded()
    if locked.lease_is_held_by_other(reviewer):
        raise LeaseHeld(_("%(who)s is reviewing this answer until %(until)s.") % {
            "who": locked.lease_holder, "until": f"{timezone.localtime(locked.lease_expires_at):%H:%M}"})
    return answer_lease_hold(locked, reviewer)


@transaction.atomic
def answer_lease_release(*, answer: Answer, reviewer) -> None:
    Answer.objects.filter(pk=answer.pk, lease_holder=reviewer).update(lease_holder=None, lease_expires_at=None)


def answer_may_decide(*, answer: Answer, reviewer) -> bool:
    """An escalated answer waits for an admin: only admins decide it or review its claims."""
    return not answer.escalated or reviewer.has_role(roles.ADMIN)


def answer_require_lease(answer: Answer, reviewer) -> None:
    """Refuse to act on an answer that is decided, escalated past the reviewer, or leased by someone else."""
    if answer.status != AnswerStatus.PENDING_REVIEW:
        status = answer.get_status_display().lower()
        raise DecisionConflict(
            _("This answer was already %(status)s by %(who)s.") % {"status": status, "who": answer.decided_by}
            if answer.decided_by_id else _("This answer was already %(status)s.") % {"status": status})
    if not answer_may_decide(answer=answer, reviewer=reviewer):
        raise PermissionDenied(_("This answer was escalated to an admin: only an admin can decide it."))
    if answer.first_approved_by_id == reviewer.pk:
        raise SecondReviewerNeeded()
    if answer.lease_is_held_by_other(reviewer):
        raise DecisionConflict(_("%(who)s holds the lease on this answer.") % {"who": answer.lease_holder})
