"""The leak budget, proven from labels: how often a wrong answer would go out without a person, at each threshold.

The **leak rate** at a threshold is the share of wrong answers (a claim labelled unsupported) that would be
released automatically: not held by a rule, and every claim scoring at or above the threshold. Labels come from
two strata of the traffic: answers the policy held (every one is reviewed: a census) and answers it released (a
random sample of them is audited). Both are samples of the traffic to come, so the **bound** combines two
one-sided Clopper–Pearson limits (97.5 % each, 95 % together; 95 % when only one stratum has labels): on the share
of held wrong answers the threshold would release, and on the share of released answers that are wrong *and*
released at the threshold, scaled by how many answers were released. Released answers nobody audited count as
wholly wrong and released.

The release threshold is the lowest threshold whose bound stays within the budget. The bound only falls as the
threshold rises, so thresholds are tested in a fixed sequence from the strictest down, stopping at the first over
budget: the chosen one keeps its 95 % guarantee without a multiple-testing penalty. When even a threshold that
released nothing could not be proven within the budget (too few labels), the bound says so and the threshold stays
where it is; with enough labels and none within budget, nothing is released automatically.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

CONFIDENCE = 0.95
PROVEN, INSUFFICIENT, EXCEEDED = "proven", "insufficient", "exceeded"
# The release threshold that releases nothing: no score reaches it.
NOTHING_RELEASED = 1.01


@dataclass(frozen=True)
class LabelledAnswer:
    scores: tuple[float, ...]  # each claim's score under the model being judged (no evidence: 0)
    supported: bool  # every claim labelled supported
    audit_sample: bool = False  # released by the policy of its day and audited; else held and reviewed
    held_by_rule: bool = False

    def released_at(self, threshold: float) -> bool:
        return not self.held_by_rule and bool(self.scores) and min(self.scores) >= threshold


@dataclass(frozen=True)
class Point:
    threshold: float
    estimate: float | None  # share of wrong answers released; None without any wrong answer
    bound: float  # one-sided 95 % upper bound on it
    automation: float | None  # share of right answers released

    def as_dict(self) -> dict:
        return {"threshold": round(self.threshold, 4),
                "estimate": None if self.estimate is None else round(self.estimate, 5),
                "bound": round(self.bound, 5),
                "automation": None if self.automation is None else round(self.automation, 5)}


@dataclass(frozen=True)
class LeakPolicy:
    status: str
    threshold: float | None  # None: nothing is released automatically
    budget: float
    at: Point | None  # the figures at the threshold (at the one it stays at, when unproven)
    wrong_reviewed: int  # wrong answers among the held ones (the census)
    audited: int  # audit samples among the released ones
    released_unaudited: int  # answers released that nobody audited
    labelled_answers: int
    curve: list[Point] = field(default_factory=list)


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def _beta_continued_fraction(x: float, a: float, b: float) -> float:
    """Lentz's method for the continued fraction of the incomplete beta function (Numerical Recipes, betacf)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-12:
            break
    return h


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the beta distribution's CDF."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(a * math.log(x) + b * math.log1p(-x) - _log_beta(a, b))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(x, a, b) / a
    return 1.0 - front * _beta_continued_fraction(1.0 - x, b, a) / b


def upper_bound(leaked: float, total: float, *, confidence: float = CONFIDENCE) -> float:
    """One-sided Clopper–Pearson upper limit on a rate seen as `leaked` of `total` (both may be effective,
    non-integer counts): the p at which the Beta(leaked + 1, total - leaked) CDF reaches `confidence`."""
    if total <= 0:
        return 1.0
    leaked = min(max(leaked, 0.0), total)
    if leaked >= total:
        return 1.0
    a, b = leaked + 1.0, total - leaked
    low, high = 0.0, 1.0
    for _ in range(60):  # bisection: the CDF rises with p
        middle = (low + high) / 2
        if regularized_beta(middle, a, b) < confidence:
            low = middle
        else:
            high = middle
    return high


PART_CONFIDENCE = 1 - (1 - CONFIDENCE) / 2  # two limits, each at 97.5 %: both hold together at 95 % or more


@dataclass(frozen=True)
class Strata:
    """The labelled answers split as they were routed, with the count of released answers nobody audited."""

    held: tuple[LabelledAnswer, ...]
    audited: tuple[LabelledAnswer, ...]
    released_total: int  # audited ones included

    @classmethod
    def of(cls, answers: Sequence[LabelledAnswer], *, released_unaudited: int) -> Strata:
        audited = tuple(a for a in answers if a.audit_sample)
        return cls(held=tuple(a for a in answers if not a.audit_sample), audited=audited,
                   released_total=released_unaudited + len(audited))

    def _released_share(self, *, supported: bool, threshold: float) -> tuple[float, float]:
        """(estimated answers of this label released at the threshold, estimated answers of this label)."""
        held = [a for a in self.held if a.supported == supported]
        scale = self.released_total / len(self.audited) if self.audited else 0.0
        audited = [a for a in self.audited if a.supported == supported]
        released = sum(a.released_at(threshold) for a in held) + scale * sum(a.released_at(threshold) for a in audited)
        return released, len(held) + scale * len(audited)

    def point(self, threshold: float) -> Point:
        leaked, wrong = self._released_share(supported=False, threshold=threshold)
        kept, right = self._released_share(supported=True, threshold=threshold)
        return Point(threshold=threshold, estimate=leaked / wrong if wrong else None, bound=self.bound(threshold),
                     automation=kept / right if right else None)

    def bound(self, threshold: float) -> float:
        wrong_held = [a for a in self.held if not a.supported]
        # Two limits hold together at 95 % when each holds at 97.5 %; one alone needs only 95 %.
        confidence = PART_CONFIDENCE if wrong_held and self.audited else CONFIDENCE
        leaked_held = sum(a.released_at(threshold) for a in wrong_held)
        held_part = (upper_bound(leaked_held, len(wrong_held), confidence=confidence) * len(wrong_held)
                     if wrong_held else 0.0)
        leaked_audited = sum(not a.supported and a.released_at(threshold) for a in self.audited)
        released_part = self.released_total * (
            upper_bound(leaked_audited, len(self.audited), confidence=confidence) if self.audited else 1.0)
        total = len(wrong_held) + released_part
        return (held_part + released_part) / total if total else 1.0

    def provable(self, budget: float) -> bool:
        """Could any threshold be proven within budget: the bound if none of the labelled answers leaked."""
        nothing = Strata(held=tuple(LabelledAnswer(scores=(), supported=a.supported) for a in self.held),
                         audited=tuple(LabelledAnswer(scores=(), supported=a.supported, audit_sample=True)
                                       for a in self.audited), released_total=self.released_total)
        return nothing.bound(1.0) <= budget


def leak_policy(answers: Sequence[LabelledAnswer], *, budget: float, floor: float, current: float,
                released_unaudited: int = 0) -> LeakPolicy:
    """The release threshold the labels allow: the lowest at or above `floor` (the supported band) whose bound is
    within `budget`; `current` is where it stays while the labels cannot prove anything. `released_unaudited`:
    answers released without review in the period the labels cover that nobody audited."""
    strata = Strata.of(answers, released_unaudited=released_unaudited)
    candidates = sorted({floor, current, *(min(a.scores) for a in answers if a.scores and min(a.scores) >= floor)})
    curve_at = sorted({floor, current, *(round(floor + step * (1.0 - floor) / 25, 4) for step in range(26))})
    common = {"budget": budget, "wrong_reviewed": sum(not a.supported for a in strata.held),
              "audited": len(strata.audited), "released_unaudited": released_unaudited,
              "labelled_answers": len(answers), "curve": [strata.point(t) for t in curve_at]}
    if not strata.provable(budget):
        return LeakPolicy(status=INSUFFICIENT, threshold=current, at=strata.point(current), **common)
    # The fixed sequence, strictest first, stops at the first threshold over budget; the bound falls as the
    # threshold rises, so that is the lowest within budget, found by bisection over the candidates.
    low, high = 0, len(candidates)
    while low < high:
        middle = (low + high) // 2
        if strata.bound(candidates[middle]) <= budget:
            high = middle
        else:
            low = middle + 1
    if low == len(candidates):
        return LeakPolicy(status=EXCEEDED, threshold=None, at=None, **common)
    chosen = strata.point(candidates[low])
    return LeakPolicy(status=PROVEN, threshold=chosen.threshold, at=chosen, **common)


def shipped_policy(scores: Sequence[float], supported: Sequence[bool], *, budget: float, floor: float) -> LeakPolicy:
    """The release threshold a model ships with: the leak budget proven on its training rows, each scored by a
    model that never saw it (cross-validation). Every row was labelled, as held answers are: a census."""
    answers = [LabelledAnswer(scores=(score,), supported=label) for score, label in zip(scores, supported, strict=True)]
    return leak_policy(answers, budget=budget, floor=floor, current=floor)
