"""The routing policy, in one place: which tier a check puts an answer in, which rule put it there, and how likely
the answer is wrong (the queue's order within a tier).

- **high**: a reason to believe the answer is wrong — a claim contradicted by its source, two approved sources
  stating different values about it, a high-risk topic, a claim resting on a flagged source (expired, superseded,
  unapproved, unpinned), a claim a reviewer marked wrong on an identical earlier answer, or a claim stating a fact
  a reviewer rejected before (review.reviewed_facts);
- **medium**: we could not confirm it — a claim not found, uncertain, or supported below the release threshold
  (the leak budget's, ``review.learning``), or no checkable claim at all;
- **low**: every claim supported at or above the release threshold, or supported by review (it states a fact a
  reviewer confirmed against the same source).

High-risk answers are *held by rule*: no score threshold releases them. Medium and low differ only by scores.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.translation import gettext as _

from checking.languages import listed, reasons_joined
from checking.verdicts import supported_at
from review.labels import EVIDENCE_FLAG_LABELS
from review.learning.leak import NOTHING_RELEASED
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


def figures_apart(below: float, above: float) -> tuple[str, str]:
    """``below`` and ``above`` with the fewest decimals (three at least) that still tell them apart: "0.9620, under
    0.9624", never "0.962, under 0.962"."""
    for decimals in range(3, 7):
        low, high = f"{below:.{decimals}f}", f"{above:.{decimals}f}"
        if low != high:
            return low, high
    return low, high


def topic_hits(text: str, topics: Sequence[str] | None = None) -> list[str]:
    """The topics (REVIEW_HIGH_RISK_TOPICS unless given) `text` touches."""
    lowered = text.lower()
    listed_topics = settings.REVIEW_HIGH_RISK_TOPICS if topics is None else topics
    return [t for t in listed_topics if re.search(rf"\b{re.escape(t.lower())}(s|es)?\b", lowered)]


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
    reviewed: list[str] = []
    for number, claim in enumerate(claims, start=1):
        if claim.verdict == Verdict.CONTRADICTED:
            said = reasons_joined(f.message for f in claim.findings if f.is_contradiction)
            high.append(_("contradiction: claim %(number)s is contradicted by its source (%(said)s)")
                        % {"number": number, "said": said})
        for conflict in claim.conflicts:
            high.append(_("conflict: claim %(number)s: %(message)s") % {"number": number, "message": conflict.message})
        if claim.evidence and claim.verdict != Verdict.NOT_FOUND:
            # the best source, and each other one a synthesized support took a part of the claim from
            relied_on = [claim.evidence[0], *(e for e in claim.evidence[1:] if e.claim_part)]
            for source in relied_on:
                for flag in source.flags:
                    if flag in _FLAGS_HOLDING:
                        high.append(_("flagged source: claim %(number)s relies on a %(flag)s source (%(version)s)")
                                    % {"number": number, "flag": EVIDENCE_FLAG_LABELS.get(flag, flag),
                                       "version": source.candidate.chunk.version})
        if claim.reviewed is not None and not claim.reviewed.confirmed:
            high.append(_("rejected before: claim %(number)s states a fact a reviewer marked wrong (answer #%(answer)s)")
                        % {"number": number, "answer": claim.reviewed.answer_id})
        by_review = claim.reviewed is not None and claim.reviewed.confirmed and claim.verdict == Verdict.SUPPORTED
        if (index := number - 1) in marked_wrong_before:
            high.append(_("marked wrong before: a reviewer marked claim %(number)s wrong on an identical earlier "
                          "answer (#%(answer)s)") % {"number": number, "answer": marked_wrong_before[index]})
        if by_review:
            reviewed.append(_("supported by review: claim %(number)s states a fact a reviewer confirmed against this "
                              "source (answer #%(answer)s)") % {"number": number, "answer": claim.reviewed.answer_id})
            continue  # what a reviewer confirmed against this very source needs no threshold
        if claim.verdict == Verdict.NOT_FOUND:
            medium.append(_("not found: claim %(number)s — no supporting source found") % {"number": number})
        elif claim.verdict == Verdict.UNCERTAIN:
            medium.append(_("uncertain: claim %(number)s scores %(score).2f")
                          % {"number": number, "score": claim.score})
        elif claim.verdict == Verdict.SUPPORTED and claim.score is not None and claim.score < release_at:
            if release_at >= NOTHING_RELEASED:  # no threshold is proven: a number above every score would mislead
                medium.append(_("no release threshold is proven yet: claim %(number)s is supported at %(score).3f, "
                                "and answers wait for a reviewer until reviews prove one")
                              % {"number": number, "score": claim.score})
            else:
                score, threshold = figures_apart(claim.score, release_at)
                medium.append(_("below the release threshold: claim %(number)s is supported at %(score)s, under "
                                "%(threshold)s") % {"number": number, "score": score, "threshold": threshold})
    topics = sorted(set(topic_hits(question) + topic_hits(answer_text)))
    if topics:
        high.append(_("high-risk topic: %(topics)s") % {"topics": listed(topics)})
    if not claims:
        medium.append(_("no checkable claims: nothing in the answer can be checked against a source"))
    probability = wrong_probability([max(c.score or 0.0, release_at) if c.reviewed and c.reviewed.confirmed
                                     else c.score for c in claims])
    if high:
        return RiskAssessment(Risk.HIGH, high + medium + reviewed, held_by_rule=True, wrong_probability=probability)
    if medium:
        return RiskAssessment(Risk.MEDIUM, medium + reviewed, held_by_rule=False, wrong_probability=probability)
    if reviewed:  # a claim supported by review may score below the threshold: the reason must not say otherwise
        low = _("low: every claim is supported at or above the release threshold (%(threshold).3f) or by review")
    else:
        low = _("low: every claim is supported at or above the release threshold (%(threshold).3f)")
    return RiskAssessment(Risk.LOW, [low % {"threshold": release_at}] + reviewed, held_by_rule=False,
                          wrong_probability=probability)
