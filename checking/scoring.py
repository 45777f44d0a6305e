"""From findings and soft measures to a score, and to the reasons people read.

The soft score mixes the claim-window embedding similarity with the share of the claim's words the window
has, less a penalty per content word found nowhere. Findings then apply by kind through one table: a
penalty per finding, or a cap the score cannot exceed (a contradiction or a missing fact can never pass).
A fitted model may replace the table; ``CheckOutcome.signals`` keeps the soft measures it would read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from checking.base import CheckOutcome
from checking.findings import KIND_EFFECTS, Effect, Finding, FindingKind
from checking.model import ScoringModel
from checking.rules.additions import unsupported_terms
from checking.verdicts import NOT_FOUND

# Soft evidence: similarity is scaled from [floor, ceiling] to [0, 1] and mixed with word coverage.
_SIMILARITY_FLOOR = 0.3
_SIMILARITY_CEILING = 0.8
_SIMILARITY_WEIGHT = 0.5
_UNSUPPORTED_TERM_PENALTY = 0.2
_LIGHT_TERM_PENALTY = 0.03  # light verbs and fillers: a paraphrase adds these freely


@dataclass(frozen=True)
class KindWeight:
    penalty: float = 0.0  # taken off per finding of the kind
    cap: float | None = None  # the most a claim with such a finding can score
    bonus: float = 0.0  # added once when the kind is found, unless a finding of _BONUS_BLOCKERS is too


_CONFLICT = KindWeight(cap=0.2)
# Applied in this order (penalties are subtracted in turn, so the order fixes the arithmetic).
SCORE_TABLE: dict[FindingKind, KindWeight] = {
    FindingKind.SUBSTITUTION: KindWeight(penalty=0.15),
    FindingKind.WEAK_MISSING_QUANTITY: KindWeight(penalty=0.06),
    FindingKind.QUANTITY_MATCH: KindWeight(bonus=0.05),
    FindingKind.QUANTITY_MISMATCH: _CONFLICT,
    FindingKind.DIRECTION: _CONFLICT,
    FindingKind.NEGATION: _CONFLICT,
    FindingKind.ENTITY_SWAP: _CONFLICT,
    FindingKind.ROLE_SWAP: _CONFLICT,
    FindingKind.MISSING_QUANTITY: KindWeight(cap=0.3),
    FindingKind.UNSUPPORTED_ADDITION: KindWeight(cap=0.45),  # a whole extra fact: at best uncertain
    FindingKind.SLOT_SWAP: KindWeight(cap=0.3),  # another word between the same neighbours: as sure as a missing name
    FindingKind.MISSING_ENTITY: KindWeight(cap=0.3),
    FindingKind.MISSING_SUBJECT: KindWeight(cap=0.5),  # facts about something else: a person must look
    FindingKind.ENTITY_ELSEWHERE: KindWeight(cap=0.5),  # the name is only in another candidate, not beside this fact
}
# The most findings can add to a window's relevance (each bonus counts once): the rest only lower it.
MAX_GAIN = sum(weight.bonus for weight in SCORE_TABLE.values())
# A matching number earns nothing beside a contradiction or a number the evidence lacks.
_BONUS_BLOCKERS = frozenset({FindingKind.QUANTITY_MISMATCH, FindingKind.DIRECTION, FindingKind.NEGATION,
                             FindingKind.ENTITY_SWAP, FindingKind.ROLE_SWAP, FindingKind.MISSING_QUANTITY})


# What the fitted model may never overrule: a contradiction about the same subject, or a fact of the claim the
# evidence lacks (a number, a name, an appended phrase). These keep their caps; the model weighs the soft rest.
HARD_CAPS: dict[FindingKind, float] = {
    kind: weight.cap for kind, weight in SCORE_TABLE.items()
    if weight.cap is not None and KIND_EFFECTS[kind] in (Effect.CONTRADICTS, Effect.MISSING)
}
# ...and what an outside checker cannot overrule either: a missing name or phrase may be a paraphrase that a
# model-based checker reads right ("the U.S." for "the United States"), a different or missing number is not.
HOLDS_AGAINST_EXTERNAL = frozenset(
    {kind for kind, effect in KIND_EFFECTS.items() if effect is Effect.CONTRADICTS} | {FindingKind.MISSING_QUANTITY}
)


def fitted_score(*, model: ScoringModel | None, features: Mapping[str, float], findings: list[Finding]) -> float:
    """The model's probability that the claim is supported (the rules' score before a model is trained),
    capped by hard findings."""
    value = model.probability(features) if model is not None else features["rule_score"]
    return capped(value, kinds={f.kind for f in findings})


def capped(value: float, *, kinds: set[FindingKind]) -> float:
    for kind in kinds:
        value = min(value, HARD_CAPS.get(kind, value))
    return round(min(1.0, max(0.0, value)), 4)


def relevance(*, similarity: float | None, coverage: float) -> float:
    """How well a window covers the claim: word coverage, mixed with scaled similarity when embedded."""
    if similarity is None:
        return coverage
    scaled = min(1.0, max(0.0, (similarity - _SIMILARITY_FLOOR) / (_SIMILARITY_CEILING - _SIMILARITY_FLOOR)))
    return _SIMILARITY_WEIGHT * scaled + (1 - _SIMILARITY_WEIGHT) * coverage


def score(*, findings: list[Finding], signals: Mapping[str, float]) -> float:
    counts: dict[FindingKind, int] = {}
    for finding in findings:
        counts[finding.kind] = counts.get(finding.kind, 0) + 1
    value = signals["relevance"] - _UNSUPPORTED_TERM_PENALTY * signals["unsupported_terms"] \
        - _LIGHT_TERM_PENALTY * signals["light_terms"]
    blocked = not _BONUS_BLOCKERS.isdisjoint(counts)
    for kind, weight in SCORE_TABLE.items():
        if kind not in counts:
            continue
        if weight.penalty:
            value -= weight.penalty * counts[kind]
        if weight.bonus and not blocked:
            value += weight.bonus
    for kind, weight in SCORE_TABLE.items():
        if kind in counts and weight.cap is not None:
            value = min(value, weight.cap)
    return round(min(1.0, max(0.0, value)), 4)


# Reasons list findings in this order; kinds within one group keep the order they were found in.
_REASON_GROUPS: tuple[tuple[FindingKind, ...], ...] = (
    (FindingKind.QUANTITY_MISMATCH, FindingKind.DIRECTION, FindingKind.NEGATION, FindingKind.ENTITY_SWAP,
     FindingKind.ROLE_SWAP, FindingKind.STATED_IN_SOURCES),
    (FindingKind.MISSING_QUANTITY,),
    (FindingKind.WEAK_MISSING_QUANTITY,),
    (FindingKind.MISSING_ENTITY,),
    (FindingKind.MISSING_SUBJECT,),
    (FindingKind.ENTITY_ELSEWHERE,),
    (FindingKind.SLOT_SWAP,),
    (FindingKind.SUBSTITUTION,),
    (FindingKind.UNSUPPORTED_ADDITION,),
    (FindingKind.UNSUPPORTED_TERM,),
    (FindingKind.QUANTITY_MATCH, FindingKind.ABSENT_FROM_SOURCES),
    (FindingKind.EXTERNAL_SUPPORT, FindingKind.EXTERNAL_DOUBT),
)
_REASON_ORDER = {kind: group for group, kinds in enumerate(_REASON_GROUPS) for kind in kinds}


def reasons_for(outcome: CheckOutcome) -> list[str]:
    """The reasons people read: one per finding (words found nowhere share one line), then the soft measures."""
    reasons: list[str] = []
    missing_terms: list[str] = []
    terms_at = 0
    for finding in sorted(outcome.findings, key=lambda f: _REASON_ORDER[f.kind]):
        if finding.kind is FindingKind.UNSUPPORTED_TERM:
            terms_at = terms_at if missing_terms else len(reasons)
            missing_terms.append(finding.subject)
        else:
            reasons.append(finding.message)
    if missing_terms:
        reasons.insert(terms_at, unsupported_terms(missing_terms))
    signals = outcome.signals
    if "coverage" in signals:
        summary = _("%(percent)s%% of claim terms found in evidence") % {"percent": round(100 * signals["coverage"])}
        if "similarity" in signals:
            summary = _("semantic similarity %(similarity).2f; %(summary)s") % {
                "similarity": signals["similarity"], "summary": summary}
        reasons.append(summary)
    if not reasons:
        reasons.append(_("no evidence found") if outcome.candidate_index is None else _("the evidence has no text"))
    return reasons


def shown_beside_verdict(*, verdict: str, findings: list[Finding],
                         reasons: list[str]) -> tuple[list[Finding], list[str]]:
    """What a claim card shows beside ``verdict``: ``beside_verdict``'s findings and reasons, less, on a claim
    nothing supports, the words the nearest passage puts in the claim words' places ("claim says 'gym fees';
    evidence says 'selection fees'" beside "no source states it" argues with itself). They stay stored: the
    vocabulary learns from them when a reviewer says the claim is right after all."""
    findings, reasons = beside_verdict(verdict=verdict, findings=findings, reasons=reasons)
    if verdict != NOT_FOUND:
        return findings, reasons
    substituted = {f.message for f in findings if f.kind is FindingKind.SUBSTITUTION}
    return [f for f in findings if f.kind is not FindingKind.SUBSTITUTION], [r for r in reasons if r not in substituted]


def beside_verdict(*, verdict: str, findings: list[Finding], reasons: list[str]) -> tuple[list[Finding], list[str]]:
    """Findings and reasons as they may stand beside ``verdict``: none may say the opposite of it.

    A not-found claim's quote is only the nearest passage, and the review page says nothing supports the claim; a
    value shared with that passage supports nothing, so it is no supporting finding there, and its reason says
    where the value was seen ("$750 is in the nearest passage, which does not support the claim") instead of that
    it "matches evidence". Every other verdict keeps what the checker found."""
    if verdict != NOT_FOUND:
        return findings, reasons
    agreeing = [f for f in findings if f.kind is FindingKind.QUANTITY_MATCH]
    reworded = {f.message: _("%(value)s is in the nearest passage, which does not support the claim")
                % {"value": f.subject} for f in agreeing}
    return [f for f in findings if f.kind is not FindingKind.QUANTITY_MATCH], [reworded.get(r, r) for r in reasons]
