"""Negation: a claim clause and the evidence clause it lines up with must both be negated or neither;
likewise opposite words of one class (allow/prohibit). Negating prefixes ("unpaid" / "paid") are opposites
in one slot: the antonym rule judges them."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from checking.analysis import Claim, Clause, Unit, pretty, stem_span
from checking.findings import Finding, FindingKind
from checking.rules.context import RuleContext
from checking.windows import claim_coverage


def _overlap(stems: Iterable[str], clause: Clause) -> float:
    return sum(clause.stems.get(s, 0.0) for s in stems)


def check_negation(ctx: RuleContext) -> list[Finding]:
    """At most one finding: the first clause, name or word whose negation the evidence does not share."""
    claim, window = ctx.claim, ctx.window
    prose = [u for u in window.units if u.kind != "table_row"]
    evidence = [(c, u) for u in prose for c in u.clauses if c.stems]
    if not evidence:
        return []
    for clause in claim.unit.clauses:
        conflict = _clause_conflict(claim, clause, evidence)
        if conflict:
            message, stems, unit = conflict
            return [_finding(ctx, message, stems, unit)]
    asserted = set().union(*(u.asserted for u in window.units))
    negated = set().union(*(u.negated for u in prose))
    names = {t.stem for run in claim.entities for t in run}
    for stem in sorted(names & claim.unit.asserted & negated - asserted):
        unit = next(u for u in prose if stem in u.negated)
        return [_finding(ctx, _evidence_negates(pretty(claim, {stem})), {stem}, unit)]
    relevant = [u for u in prose if claim_coverage(claim, u.stems) >= 0.5]
    for unit in relevant:
        for name, value in claim.unit.polarity_words.items():
            if unit.polarity_words.get(name, value) != value:
                return [_finding(ctx, _("claim and evidence disagree on %(name)s") % {"name": name}, set(), unit)]
    return []


def _evidence_negates(words: str) -> str:
    return _("evidence negates '%(words)s'; claim does not") % {"words": words}


def _claim_negates(words: str) -> str:
    return _("claim negates '%(words)s'; evidence does not") % {"words": words}


def _finding(ctx: RuleContext, message: str, stems: set[str], unit: Unit) -> Finding:
    """The evidence span is the sentence (or item) that says otherwise; clauses keep no offsets of their own."""
    return Finding(FindingKind.NEGATION, message, claim_span=stem_span(ctx.claim, stems),
                   evidence_span=ctx.evidence_span(unit, unit.start, unit.end))


def _clause_conflict(claim: Claim, clause: Clause,
                     evidence: list[tuple[Clause, Unit]]) -> tuple[str, set[str], Unit] | None:
    """A claim clause against the evidence clause it lines up with: both negated, or neither."""
    if clause.negated:
        scope = clause.negated
        rest = [s for s in clause.stems if s not in scope]
        # the clause with the negated words themselves: "and vision" of "includes medical, dental, and vision"
        best, unit = max(evidence, key=lambda p: (_overlap(scope, p[0]) > 0, 2 * _overlap(scope, p[0])
                                                  + _overlap(rest, p[0]), bool(scope & p[0].negated)))
        about_the_same = not rest or any(s in unit.stems for s in rest)  # "they are tidally locked"
        # the evidence clause must say what the claim denies, by the same share the other way round asks below:
        # one shared word ("does not cover cutting the molding" beside "miter cut your baseboards") is not the
        # same statement left un-negated
        says_it = _overlap(scope, best) >= min(2.0, 0.5 * len(scope))
        if says_it and about_the_same and not scope & best.negated:
            return _claim_negates(pretty(claim, set(scope))), set(scope), unit
        # The claim negates more than the evidence: "may not be exceeded ... without extra approval" against "may
        # be exceeded ... without extra approval" shares the second negation only, and the word the first one
        # denies is asserted there. (One negation each, placed differently, is a rewording: "No refunds are
        # given" / "Refunds are not given".)
        denied = {s for s in clause.leads if s in best.stems and s not in best.negated}
        if denied and about_the_same and len(clause.leads) > len(best.leads):
            return _claim_negates(pretty(claim, denied)), denied, unit
        return None
    if clause.has_negation:
        return None
    best, unit = max(evidence, key=lambda p: (_overlap(clause.stems, p[0]), p[0].has_negation))
    hit = set(clause.stems) & best.negated
    if not (best.has_negation and hit and _overlap(clause.stems, best) >= min(2.0, 0.5 * len(clause.stems))):
        return None
    # Another sentence asserting every word the negated clause shares with the claim, and holding more of the whole
    # claim than the negated clause's sentence, says them as the claim does: the negated one is about something
    # else ("休息日加班的，优先安排调休，调休须在加班之日起三个月内使用" beside "未经批准的加班不计入调休"). In one
    # sentence ("不超过两天的，无需提供证明；超过两天的，须提供"), the clause's own words decide, as before.
    shared = clause.stems.keys() & best.stems.keys()
    if any(shared <= other.stems.keys() - other.negated
           and claim_coverage(claim, other_unit.stems) > claim_coverage(claim, unit.stems)
           for other, other_unit in evidence if other_unit is not unit):
        return None
    return _evidence_negates(pretty(claim, hit)), hit, unit
