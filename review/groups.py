"""Groups in the queue: pending answers whose claims state the same facts (the same checking.facts keys, one for one)
are one decision. A reviewer marks each distinct claim once and decides; the decision is applied to every member —
each answer still gets its own lease, claim marks, decision row, audit events and webhook, under the same rules as
one answer decided alone. A member another reviewer holds, or one the decision's rules refuse, is left as it is and
said so.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from review import services
from review.leases import DecisionConflict, LeaseHeld, answer_lease_take
from review.models import Answer, AnswerStatus, Claim, ClaimReview, Decision

MIN_MEMBERS = 2


@dataclass(frozen=True)
class AnswerGroup:
    key: str  # over the members' fact keys, in order
    answer_ids: tuple[int, ...]  # oldest first

    @property
    def size(self) -> int:
        return len(self.answer_ids)


def _group_key(fact_keys: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(fact_keys)).encode()).hexdigest()[:24]


def answer_groups(*, pending: QuerySet[Answer]) -> list[AnswerGroup]:
    """The groups among `pending` (answers the reviewer may see, waiting for review): largest first. One query."""
    keys: dict[int, list[str]] = defaultdict(list)
    rows = (Claim.objects.filter(answer__in=pending.filter(status=AnswerStatus.PENDING_REVIEW), from_edit=False)
            .order_by("answer_id", "ordinal").values_list("answer_id", "fact_key"))
    for answer_id, fact_key in rows:
        keys[answer_id].append(fact_key)
    members: dict[str, list[int]] = defaultdict(list)
    for answer_id, fact_keys in keys.items():
        if all(fact_keys):  # answers scored before facts had keys stay single
            members[_group_key(fact_keys)].append(answer_id)
    groups = [AnswerGroup(key=key, answer_ids=tuple(sorted(ids))) for key, ids in members.items()
              if len(ids) >= MIN_MEMBERS]
    return sorted(groups, key=lambda g: (-g.size, g.answer_ids[0]))


def answer_group_get(*, pending: QuerySet[Answer], key: str) -> AnswerGroup | None:
    return next((group for group in answer_groups(pending=pending) if group.key == key), None)


@dataclass(frozen=True)
class ClaimMark:
    state: str  # ClaimReview.CONFIRMED or REJECTED
    note: str = ""
    kind: str = ""  # why a rejected claim is wrong (review.models.ErrorKind)


@dataclass
class GroupOutcome:
    decided: list[Answer] = field(default_factory=list)
    left: list[tuple[Answer, str]] = field(default_factory=list)  # (answer, why it was left as it was)


def _member_decide(*, answer: Answer, reviewer, marks: dict[str, ClaimMark], action: str, reason: str) -> Answer:
    """One member, as if decided alone (its own transaction: a refused member leaves the others decided)."""
    with transaction.atomic():
        answer = answer_lease_take(answer=answer, reviewer=reviewer)
        for claim in answer.claims.filter(from_edit=False):
            mark = marks.get(claim.fact_key)
            if mark is not None and claim.review_state == ClaimReview.OPEN:
                services.claim_review(claim=claim, reviewer=reviewer, state=mark.state, note=mark.note,
                                      kind=mark.kind)
        return services.answer_decide(answer=answer, reviewer=reviewer, action=action, reason=reason)


def answer_group_decide(*, group: AnswerGroup, reviewer, marks: dict[str, ClaimMark], action: str,
                        reason: str = "") -> GroupOutcome:
    """Apply one reviewer's marks (by fact key) and decision (approve or reject) to every member of `group`."""
    if action not in (Decision.Action.APPROVE, Decision.Action.REJECT):
        raise services.DecisionInvalid("a group is approved or rejected together; edit its answers one by one")
    outcome = GroupOutcome()
    for answer in Answer.objects.filter(pk__in=group.answer_ids).order_by("pk"):
        try:
            decided = _member_decide(answer=answer, reviewer=reviewer, marks=marks, action=action, reason=reason)
        except (LeaseHeld, DecisionConflict, services.DecisionInvalid, PermissionDenied) as exc:
            outcome.left.append((answer, str(exc)))
            continue
        if decided.needs_second_reviewer:  # a first approval: still waiting, for someone else
            outcome.left.append((decided, _("first approval given; it needs a second reviewer")))
        else:
            outcome.decided.append(decided)
    return outcome
