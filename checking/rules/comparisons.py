"""Comparisons between two values of a claim — "34,000 jobs, higher than its average monthly gain of 54,000",
"3.5 percent, up from 3.6 percent", "五千万元，低于去年的四千万元", "比去年的四千万元多" — checked as a direction
between the two values as the evidence states them: each bound to the evidence's equal value, the claim's
"higher" must be the way those values lie, whether or not the evidence words the comparison. Where it does
("lower than"), the direction rule compares the words."""

from __future__ import annotations

from django.utils.translation import gettext as _

from checking.analysis import Unit, bound_leads
from checking.findings import Finding, FindingKind
from checking.quantities import Quantity
from checking.rules.context import RuleContext
from checking.rules.quantities import states_as_claimed
from checking.text import COMPARED_BY, COMPARED_DEGREES, COMPARED_FROM, COMPARED_WITH, DIRECTION_FAMILIES

_COMPARE_WORDS = dict(DIRECTION_FAMILIES)["compare"]


def check_comparisons(ctx: RuleContext) -> list[Finding]:
    if any(_comparisons(unit) or _compare_words(unit) for unit in ctx.window.units):
        return []  # the evidence words a comparison of its own: the direction rule weighs the words
    findings: list[Finding] = []
    for left, right, degree, (start, end) in _comparisons(ctx.claim.unit):
        ours, theirs = _bound(ctx, left), _bound(ctx, right)
        if ours is None or theirs is None or ours[0].kind != theirs[0].kind or ours[0].kind == "date":
            continue
        a, b = float(ours[0].value), float(theirs[0].value)
        if a == b or (a > b) == (degree > 0):
            continue
        (e, unit), (other, other_unit) = ours, theirs
        span = (min(e.start, other.start), max(e.end, other.end)) if unit is other_unit else (e.start, e.end)
        findings.append(Finding(
            FindingKind.DIRECTION,
            _("claim compares %(left)s and %(right)s as “%(word)s”; the evidence's values are the other way round")
            % {"left": left.surface, "right": right.surface, "word": ctx.claim.text[start:end]},
            claim_span=(start, end), evidence_span=ctx.evidence_span(unit, *span)))
    return findings


def _comparisons(unit: Unit) -> list[tuple[Quantity, Quantity, int, tuple[int, int]]]:
    """The claim's comparisons between two like values: (the value compared, the value it is compared with, +1
    more / -1 less, the span of the comparing words). A bound ("more than 4 million") compares nothing."""
    tokens, quantities = unit.tokens, unit.quantities
    leads = {k for q in quantities for k in bound_leads(q)}
    found = []
    for k, tok in enumerate(tokens):
        nxt = tokens[k + 1].lower if k + 1 < len(tokens) else ""
        last = k  # the last comparing word: the value compared with comes after it
        if k in leads:
            continue
        if tok.lower in _COMPARE_WORDS and nxt in COMPARED_BY:
            degree, last = _COMPARE_WORDS[tok.lower], k + 1
        elif tok.lower in _COMPARE_WORDS and not tok.lower.isascii():  # a language's own: 低于, 多于
            degree = _COMPARE_WORDS[tok.lower]
        elif tok.lower in COMPARED_FROM and nxt == "from":
            degree, last = COMPARED_FROM[tok.lower], k + 1
        elif tok.lower in COMPARED_WITH:  # 比 …… 多: the value compared with sits between them
            last = next((j for j in range(k + 1, len(tokens)) if tokens[j].lower in COMPARED_DEGREES), -1)
            if last < 0:
                continue
            degree = COMPARED_DEGREES[tokens[last].lower]
        else:
            continue
        after = k if tok.lower in COMPARED_WITH else last
        # the nearest value before the comparison with a like value after it ("3.5 percent in March, up from 3.6
        # percent": not March)
        pair = next(((left, right) for left in reversed(quantities) if left.token_span[1] <= k and left.kind != "date"
                     for right in [next((q for q in quantities if q.token_span[0] > after and q.kind == left.kind),
                                        None)] if right is not None), None)
        if pair is None or (tok.lower in COMPARED_WITH and pair[1].token_span[1] > last):
            continue  # "比去年多三百元": the value after the degree is the difference, not the other value
        found.append((*pair, degree, (tok.start, tokens[last].end)))
    return found


def _compare_words(unit: Unit) -> bool:
    """Whether the evidence words a comparison other than a bound ("lower than its average", "低于")."""
    leads = {k for q in unit.quantities for k in bound_leads(q)}
    return any(p.family == "compare" and p.index not in leads for p in unit.polars)


def _bound(ctx: RuleContext, q: Quantity) -> tuple[Quantity, Unit] | None:
    """The evidence value the claim's ``q`` binds to: its equal, in the window first."""
    units = [*ctx.window.units, *(u for u in ctx.candidate.units if all(u is not w for w in ctx.window.units))]
    return next(((e, unit) for unit in units for e in unit.quantities if states_as_claimed(q, e)), None)
