"""Agreement between reviewers: Cohen's kappa over claims two reviewers marked (the first and the second approver
of an answer that needs two people, each marking blind — review/second_review.py).

kappa = (p_o - p_e) / (1 - p_e): p_o the share of claims both marked alike, p_e the share they would mark alike by
chance, from how often each marked a claim correct or wrong. 1 is full agreement, 0 no more than chance."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from review.models import Answer, ClaimReview, ReviewerMark


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Kappa of (first rater's category, second rater's) pairs; None with no pairs, or when chance alone agrees
    on every pair (both raters used one and the same category throughout: kappa is undefined)."""
    total = len(pairs)
    if not total:
        return None
    observed = sum(first == second for first, second in pairs) / total
    firsts = Counter(first for first, _second in pairs)
    seconds = Counter(second for _first, second in pairs)
    expected = sum(firsts[category] * seconds[category] for category in firsts) / (total * total)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


@dataclass(frozen=True)
class ReviewerAgreement:
    claims: int  # claims marked by two reviewers
    agreed: int
    kappa: float | None

    @property
    def percent(self) -> int | None:
        return round(100 * self.agreed / self.claims) if self.claims else None


def double_marked_pairs(*, answers: QuerySet[Answer], since: datetime | None = None) -> list[tuple[str, str]]:
    """(first reviewer's mark, second reviewer's mark) for each claim among `answers` two people marked. One query."""
    marks = ReviewerMark.objects.filter(claim__answer__in=answers,
                                        state__in=[ClaimReview.CONFIRMED, ClaimReview.REJECTED])
    if since is not None:
        marks = marks.filter(created_at__gte=since)
    first: dict[int, tuple[int, str]] = {}
    pairs: dict[int, tuple[str, str]] = {}
    for claim_id, reviewer_id, state in marks.order_by("claim_id", "created_at", "pk").values_list(
            "claim_id", "reviewer_id", "state"):
        if claim_id not in first:
            first[claim_id] = (reviewer_id, state)
        elif claim_id not in pairs and first[claim_id][0] != reviewer_id:
            pairs[claim_id] = (first[claim_id][1], state)
    return list(pairs.values())


def reviewer_agreement(*, answers: QuerySet[Answer], since: datetime | None = None) -> ReviewerAgreement:
    pairs = double_marked_pairs(answers=answers, since=since)
    return ReviewerAgreement(claims=len(pairs), agreed=sum(a == b for a, b in pairs), kappa=cohen_kappa(pairs))
