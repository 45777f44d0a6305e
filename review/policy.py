"""The routing policy, in one place: which tier a check puts an answer in, which rule put it there, and how likely
the answer is wrong (the queue's order within a tier).

- **high**: a reason to believe the answer is wrong — a claim contradicted by its source, two approved sources
  stating different values about it, a high-risk topic, a claim resting on a flagged source (expired, superseded,
  unapproved, unpinned), or a claim a reviewer marked wrong on an identical earlier answer;
- **medium**: we could not confirm it — a claim not found, uncertain, or supported below the release threshold
  (the leak budget's, ``review.learning``), or no checkable claim at all;
- **low**: every claim supported at or above the release threshold.

High-risk answers are *held by rule*: no score threshold releases them. Medium and low differ only by scores.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings

from checking.verdicts import supported_at
from review.models import Risk, Verdict

if TYPE_CHECKING:
    from review.pipeline import ClaimResult

# Flags of a version a claim must not rest on without a person looking. The sensitivity flags (confidential,
# restricted) say who may read the answer, not that it is wrong; a client's own context is shown as such.
_FLAGS_HOLDING = frozenset({"superseded", "expired", "unapproved", "not yet effective"})


@dataclass(frozen=True)
class RiskAssessment:
    risk: str
    reasons: list[str]  # each starts with the rule that applies, strongest tier first
    held_by_rule: bool  # high for a reason no score changes
    wrong_probability: float


def topic_hits(text: str) -> list[str]:
    lowered = text.lower()
    return [t for t in settings.REVIEW_HIGH_RISK_TOPICS if re.search(rf"\b{re.escape(t.lower())}(s|es)?\b", lowered)]


def wrong_probability(scores: Sequence[float | None]) -> float:
    """How likely at least one claim is wrong, reading each claim's score as its chance of being right (a claim
    without evidence: none). No claims: nothing confirmed, so as likely wrong as can be."""
    if not scores:
        return 1.0
    right = math.prod(min(1.0, max(0.0, s or 0.0)) for s in scores)
    return round(1.0 - right, 4)


def risk_assess(
    *, question: str, answer_text: str, claims: Sequence[ClaimResult], release_threshold: float,
    marked_wrong_before: Mapping[int, int] | None = None,
) -> RiskAssessment:
    """`marked_wrong_before`: claim index -> the earlier answer (identical text) on which a reviewer marked that
    claim wrong."""
    marked_wrong_before = marked_wrong_before or {}
    release_at = max(release_threshold, supported_at())
    high: list[str] = []
    medium: list[str] = []
    for number, claim in enumerate(claims, start=1):
        if claim.verdict == Verdict.CONTRADICTED:
            said = "; ".join(f.message for f in claim.findings if f.is_contradiction)
            high.append(f"contradiction: claim {number} is contradicted by its source ({said})")
        for conflict in claim.conflicts:
            high.append(f"conflict: claim {number}: {conflict.message}")
        if claim.evidence and claim.verdict != Verdict.NOT_FOUND:
            best = claim.evidence[0]
            for flag in best.flags:
                if flag in _FLAGS_HOLDING:
                    high.append(f"flagged source: claim {number} relies on a {flag} source "
                                f"({best.candidate.chunk.version})")
        if (index := number - 1) in marked_wrong_before:
            high.append(f"marked wrong before: a reviewer marked claim {number} wrong on an identical earlier "
                        f"answer (#{marked_wrong_before[index]})")
        if claim.verdict == Verdict.NOT_FOUND:
            medium.append(f"not found: claim {number} — no supporting source found")
        elif claim.verdict == Verdict.UNCERTAIN:
            medium.append(f"uncertain: claim {number} scores {claim.score:.2f}")
        elif claim.verdict == Verdict.SUPPORTED and claim.score is not None and claim.score < release_at:
            medium.append(f"below the release threshold: claim {number} is supported at {claim.score:.3f}, "
                          f"under {release_at:.3f}")
    topics = sorted(set(topic_hits(question) + topic_hits(answer_text)))
    if topics:
        high.append("high-risk topic: " + ", ".join(topics))
    if not claims:
        medium.append("no checkable claims: nothing in the answer can be checked against a source")
    probability = wrong_probability([c.score for c in claims])
    if high:
        return RiskAssessment(Risk.HIGH, high + medium, held_by_rule=True, wrong_probability=probability)
    if medium:
        return RiskAssessment(Risk.MEDIUM, medium, held_by_rule=False, wrong_probability=probability)
    return RiskAssessment(Risk.LOW, [f"low: every claim is supported at or above the release threshold "
                                     f"({release_at:.3f})"], held_by_rule=False, wrong_probability=probability)
