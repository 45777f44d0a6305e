"""Live pages: a short fingerprint of what an open answer page or queue shows, so the page can ask every few seconds
"did a teammate change this?" for the price of a few indexed reads, and fetch itself again only when they did.

Higher apps add what they show on the answer page (triage: comments and assignment) with `live_part_register`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.db.models import Count, Max
from django.utils import timezone

from review.models import Answer, Claim, Decision

# Each: (answer ids) -> {answer id: a string that changes when what the app shows of that answer changes}.
LivePart = Callable[[list[int]], dict[int, str]]
_parts: list[LivePart] = []


def live_part_register(part: LivePart) -> None:
    if part not in _parts:
        _parts.append(part)


def _digest(rows: object) -> str:
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def _live_lease_holder(answer: Answer) -> int | None:
    """Who holds the lease now (an expired lease is nobody's; its renewals are no change)."""
    running = answer.lease_expires_at is not None and answer.lease_expires_at > timezone.now()
    return answer.lease_holder_id if running else None


def answer_fingerprint(*, answer_id: int) -> str:
    """Changes when the answer page would show something else: a decision or undo, an escalation, a lease taken
    or released, a claim marked, a conflict settled, or what a higher app shows (a comment, an assignment)."""
    answer = Answer.objects.only("status", "escalated", "decided_by", "lease_holder", "lease_expires_at",
                                 "risk").get(pk=answer_id)
    claims = Claim.objects.filter(answer_id=answer_id).aggregate(
        marked=Max("reviewed_at"), count=Count("pk"), settled=Max("source_corrections__pk"))
    decisions = Decision.objects.filter(answer_id=answer_id).aggregate(count=Count("pk"), last=Max("pk"))
    return _digest((
        answer.status, answer.escalated, answer.decided_by_id, _live_lease_holder(answer), answer.risk,
        sorted(claims.items()), sorted(decisions.items()), [part([answer_id]).get(answer_id) for part in _parts],
    ))


def _assignee_id(answer: Answer) -> int | None:
    """The queue's rows come with their assignment (review_queue's select_related: the queue's one dependency on
    triage, docs/architecture.md), so the assignee costs no query here."""
    assignment = getattr(answer, "assignment", None)
    return assignment.assignee_id if assignment is not None else None


def queue_fingerprint(*, rows: list[Answer], count: int, extra: object = None) -> str:
    """Changes when the queue page as listed would show something else: its count, which answers are on the page
    and in what order, their status, lease, decider and assignee, and `extra` (who is looking at them)."""
    listed = [(a.pk, a.status, a.escalated, _live_lease_holder(a), a.decided_by_id, _assignee_id(a)) for a in rows]
    return _digest((count, listed, extra))
