"""Directions: rose/fell, more/less, before/after, largest/smallest — a claim's direction word must agree
with the like word the evidence puts in the most similar wording."""

from __future__ import annotations

from checking.analysis import Polar, Unit, affinity, bound_leads, clause_spans, context_skip_tokens, word_context
from checking.findings import Finding, FindingKind
from checking.rules.context import RuleContext, says
from checking.rules.quantities import states_as_claimed

# Binding a claim's direction word to the evidence's: by shared nearby words.
_BINDING_MARGIN = 0.85  # a direction word agreeing with the claim must be nearly as well placed as the best
_MIN_CONTEXT = 0.2
# Two clauses of one sentence with opposite directions: the claim's words must lead one by this much, and the other
# by less than this share of it, to bind the claim to the first (``_told_apart``).
_MIN_LEAD = 0.05
_LEAD_MARGIN = 0.5


def check_directions(ctx: RuleContext) -> list[Finding]:
    claim = ctx.claim
    evidence = [(p, u) for u in ctx.window.units for p in u.polars]
    claim_skip = context_skip_tokens(claim.unit)
    findings: list[Finding] = []
    for polar in claim.unit.polars:
        same_family = [(p, u) for p, u in evidence if p.family == polar.family]
        if not same_family or _bound_stated_alike(ctx, polar):
            continue
        claim_ctx = _context(claim.unit, polar, claim_skip)
        contexts = [(_context(u, p), p, u) for p, u in same_family]
        ranked = sorted(((affinity(claim_ctx, c), c, p, u) for c, p, u in contexts), key=lambda entry: -entry[0])
        opposing = [entry for entry in ranked if entry[2].polarity != polar.polarity]
        agreeing = [entry for entry in ranked if entry[2].polarity == polar.polarity]
        if not opposing:
            continue
        best_score, best_ctx, best, unit = opposing[0]
        if best_score > _MIN_CONTEXT and (
                not agreeing or agreeing[0][0] < _BINDING_MARGIN * best_score
                or agreeing[0][3] is unit and _told_apart(claim_ctx, best_ctx, agreeing[0][1])):
            mine = claim.unit.tokens[polar.index]
            findings.append(Finding(FindingKind.DIRECTION, says(polar.word, best.word),
                                    claim_span=(mine.start, mine.end),
                                    evidence_span=ctx.token_span(unit, unit.tokens[best.index])))
    return findings


def _bound_stated_alike(ctx: RuleContext, polar: Polar) -> bool:
    """The direction word bounds a claim number ("超过15天的") that the evidence states with the same bound
    ("超过十五天的"): the quantity rule judges which of the evidence's values the claim's is; another clause's
    opposite bound of the same number ("不超过十五天；") is no contradiction."""
    for q in ctx.claim.unit.quantities:
        if q.bound and polar.index in bound_leads(q):
            return any(states_as_claimed(q, e, same_bound=True) for unit in ctx.window.units for e in unit.quantities)
    return False


def _context(unit: Unit, polar: Polar, skip: frozenset[int] | set[int] = frozenset()) -> dict[str, float]:
    """The words around a direction word. With the opposite direction of its family elsewhere in the sentence
    ("一类城市…由五百元上调至六百元，三类城市…由四百元下调至三百五十元", "prices rose in March, wages fell"), only its
    own clause's: the other clause's subject is not its."""
    if not any(p.family == polar.family and p.polarity != polar.polarity for p in unit.polars):
        return word_context(unit, polar.pos, -1, {*skip, polar.index})
    start, end = next(((a, b) for a, b in clause_spans(unit.tokens) if a <= polar.index < b), (0, len(unit.tokens)))
    outside = {k for k in range(len(unit.tokens)) if not start <= k < end}
    return word_context(unit, polar.pos, -1, {*skip, *outside, polar.index})


def _told_apart(claim_ctx: dict[str, float], best: dict[str, float], agreeing: dict[str, float]) -> bool:
    """Two clauses of one sentence say opposite things of different subjects: what the claim shares with both
    alike (住宿标准) cannot tell them apart; what it shares more with one (一类城市, not 三类城市) does."""
    def lead(mine: dict[str, float], other: dict[str, float]) -> float:
        return sum(w * max(0.0, mine.get(s, 0.0) - other.get(s, 0.0)) for s, w in claim_ctx.items())

    ahead = lead(best, agreeing)
    return ahead > _MIN_LEAD and lead(agreeing, best) < _LEAD_MARGIN * ahead
