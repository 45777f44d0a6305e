"""Directions: rose/fell, more/less, before/after, largest/smallest — a claim's direction word must agree
with the like word the evidence puts in the most similar wording."""

from __future__ import annotations

from checking.analysis import affinity, context_skip_tokens, word_context
from checking.findings import Finding, FindingKind
from checking.rules.context import RuleContext, says

# Binding a claim's direction word to the evidence's: by shared nearby words.
_BINDING_MARGIN = 0.85  # a direction word agreeing with the claim must be nearly as well placed as the best
_MIN_CONTEXT = 0.2


def check_directions(ctx: RuleContext) -> list[Finding]:
    claim = ctx.claim
    evidence = [(p, u) for u in ctx.window.units for p in u.polars]
    claim_skip = context_skip_tokens(claim.unit)
    findings: list[Finding] = []
    for polar in claim.unit.polars:
        same_family = [(p, u) for p, u in evidence if p.family == polar.family]
        if not same_family:
            continue
        claim_ctx = word_context(claim.unit, polar.pos, -1, claim_skip | {polar.index})
        ranked = sorted(((affinity(claim_ctx, word_context(u, p.pos, -1, {p.index})), p, u) for p, u in same_family),
                        key=lambda entry: -entry[0])
        best_score, best, unit = ranked[0]
        agreeing = [score for score, p, _ in ranked if p.polarity == polar.polarity]
        if best.polarity != polar.polarity and best_score > _MIN_CONTEXT and (
                not agreeing or agreeing[0] < _BINDING_MARGIN * best_score):
            mine = claim.unit.tokens[polar.index]
            findings.append(Finding(FindingKind.DIRECTION, says(polar.word, best.word),
                                    claim_span=(mine.start, mine.end),
                                    evidence_span=ctx.token_span(unit, unit.tokens[best.index])))
    return findings
