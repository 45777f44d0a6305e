"""Quantities: each number, date, time or amount of the claim bound to the like one the evidence states in
the most similar wording; another value there contradicts, none at all is a missing fact."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from checking.analysis import (
    CLAUSE_VERBS,
    EVIDENCE_DECAY,
    Candidate,
    Claim,
    Unit,
    clause_spans,
    context_skip_tokens,
    cosine,
    word_context,
)
from checking.findings import Finding, FindingKind
from checking.quantities import Quantity
from checking.quantity_compare import comparable, describe, same_value
from checking.quantity_words import TIME_UNITS
from checking.rules.context import RuleContext
from checking.text import (
    CONJUNCTIONS,
    DIRECTION_FAMILIES,
    LIGHT_STEMS,
    LIST_JOINERS,
    Token,
    is_content,
    related_stems,
    words_as_written,
)
from checking.windows import Window, stem_found, unit_credit

_BINDING_TOLERANCE = 0.05  # an equal value in another unit must be nearly as well placed as the best
_SAME_UNIT_TOLERANCE = 0.05  # word distances inside one sentence are a weak guide: doubt favours the claim
_SHARE_TOLERANCE = 0.05  # how much less of the claim's wording another sentence's equal value may have
_NEARBY_WEIGHT = 0.5
_RATE_WEIGHT = 0.1
_SHARED_WEIGHT = 0.3
_SUPERSEDED_WEIGHT = 0.5  # what a placement loses when the evidence value is one a change left behind
_LABEL_WEIGHT = 1.0  # a list member's own label ("adult women (3.1 percent)") outweighs every softer cue
_SWAP_AGREEMENT = 0.2  # how clearly the claim's members must differ the other way round from the evidence's
_MIN_LABEL_CONTEXT = 0.2  # a label word counts when it sits in the claim number's own part of the claim
_MIN_PLACEMENT = 0.35  # below this the evidence number is about something else: "not in evidence", not a conflict
_MIN_MATCH_SHARE = 0.3  # an equal value counts only in a sentence that shares some of the claim's words
_SAME_TOPIC = 0.6  # ... and so it is unless its sentence has most of the claim's words around the number
_COUNTED_WORDS = 3  # words after a count naming what it counts: "4 million active users"
_CHANGE_NAMES = {1: gettext_lazy("an increase to/by"), -1: gettext_lazy("a decrease to/by"),
                 0: gettext_lazy("no change at")}
_BOUND_NAMES = {1: gettext_lazy("at least"), 2: gettext_lazy("more than"), -1: gettext_lazy("at most"),
                -2: gettext_lazy("less than")}


def values_differ(claim: str, evidence: str) -> str:
    return _("claim says %(claim)s; evidence says %(evidence)s") % {"claim": claim, "evidence": evidence}


def check_quantities(ctx: RuleContext) -> list[Finding]:
    """Pair each claim quantity with the best-placed like quantity anywhere in the candidate.

    Looking past the window matters: a window can pair the claim's subject from one sentence with a
    number from a neighbouring one ("Team plan" + Pro's "250 GB").
    """
    claim, window, candidate = ctx.claim, ctx.window, ctx.candidate
    findings: list[Finding] = []
    claim_skip = context_skip_tokens(claim.unit)
    pool = [(k, unit) for unit in candidate.units for k in range(len(unit.quantities))]
    listed = _listed_together(claim, candidate)
    swapped = _swapped_roles(claim, listed)
    for q in claim.unit.quantities:
        if q in swapped:
            (e, unit), rival = listed[q], swapped[q]
            findings.append(Finding(FindingKind.ROLE_SWAP,
                                    _("claim puts %(claim)s where evidence puts %(evidence)s")
                                    % {"claim": describe(q), "evidence": describe(rival)}, claim_span=(q.start, q.end),
                                    evidence_span=ctx.evidence_span(unit, e.start, e.end)))
            continue
        if q in listed:
            findings.append(_compare_attributes(ctx, q, *listed[q]))
            continue
        compatible = [(unit.quantities[k], unit, unit.quantity_contexts[k], unit.quantity_labels[k]) for k, unit in pool
                      if comparable(q, unit.quantities[k])]
        missing = Finding(FindingKind.MISSING_QUANTITY if q.strong else FindingKind.WEAK_MISSING_QUANTITY,
                          _("%(value)s not in evidence") % {"value": describe(q)}, claim_span=(q.start, q.end))
        if not compatible:
            findings.append(missing)
            continue
        claim_ctx = word_context(claim.unit, q.pos, -1, claim_skip, claim=True, segment=_claim_segment(claim, q))
        clause_values = _clause_values(claim, q)  # once per value: every evidence value is weighed against them
        others = [o for o in claim.unit.quantities if not comparable(q, o) and _specific(o)]
        placement = _with_labels([_placement(q, others, claim_ctx, e, unit, e_ctx) for e, unit, e_ctx, _ in compatible],
                                 [(unit, _label_share(claim_ctx, labels)) for _, unit, _, labels in compatible])
        best = max(range(len(compatible)), key=placement.__getitem__)
        # the sentence stating the other values of the claim's clause is where its value is said, before any other
        own_clause = [k for k, (_, unit, *_) in enumerate(compatible) if _states_clause_values(clause_values, unit)]
        if own_clause and best not in own_clause:
            best = max(own_clause, key=placement.__getitem__)
        equal = [k for k, (e, *_) in enumerate(compatible) if same_value(q, e)]
        named = _row_named(q, [compatible[k] for k in equal])
        if named is not None and _local_share(claim_ctx, named[1], window, paraphrased=True) >= _MIN_MATCH_SHARE:
            findings.append(_compare_attributes(ctx, q, *named))
            continue
        together = _with_clause_values(clause_values, [compatible[k] for k in equal])
        # two values stated together are a surer sign than shared words: a clause "比2023年的四千万元" has few
        if together is not None and not _states_clause_values(clause_values, compatible[best][1]) \
                and _local_share(claim_ctx, together[1], window, paraphrased=True) > 0:
            findings.append(_compare_attributes(ctx, q, *together))
            continue
        if equal:
            k = max(equal, key=placement.__getitem__)
            stated_with_its_bound = _stated_with_its_bound(q, compatible[best][0], [
                compatible[j][0] for j in equal if compatible[j][1] is compatible[best][1]])
            if stated_with_its_bound is not None:
                findings.append(_compare_attributes(ctx, q, stated_with_its_bound, compatible[best][1]))
                continue
            same_unit = compatible[k][1] is compatible[best][1]
            # Another sentence's equal value must be about as much of the claim as the best placed one: a row of
            # 杭州 at 450 is not outweighed by a sentence stating 350 of other cities.
            fewer_words = not same_unit and (_local_share(claim_ctx, compatible[k][1])
                                             < _local_share(claim_ctx, compatible[best][1]) - _SHARE_TOLERANCE)
            tolerance = _SAME_UNIT_TOLERANCE if same_unit else _BINDING_TOLERANCE
            if placement[k] >= placement[best] - tolerance and not fewer_words:
                if _local_share(claim_ctx, compatible[k][1], window, paraphrased=True) >= _MIN_MATCH_SHARE:
                    findings.append(_compare_attributes(ctx, q, compatible[k][0], compatible[k][1]))
                else:  # the same value, said about something else
                    findings.append(missing)
                continue
        e, unit = compatible[best][0], compatible[best][1]
        if placement[best] >= _MIN_PLACEMENT and _stated_about(claim, q, claim_ctx, unit, window,
                                                               candidate.heading_stems, clause_values):
            findings.append(Finding(FindingKind.QUANTITY_MISMATCH,
                                    values_differ(_stated(q), _stated(e)),
                                    claim_span=(q.start, q.end), evidence_span=ctx.evidence_span(unit, e.start, e.end)))
        else:
            findings.append(missing)
    return findings


def _clause_values(claim: Claim, q: Quantity) -> list[Quantity]:
    """The other specific values of the claim clause stating ``q``: "About 1.1 million people had been jobless for
    27 weeks or more" states 1.1 million together with 27 weeks."""
    tokens = claim.unit.tokens
    span = next(((a, b) for a, b in clause_spans(tokens) if a <= q.token_span[0] < b), None)
    if span is None:
        return []
    return [o for o in claim.unit.quantities if o is not q and o.strong and (_specific(o) or _a_year(o))
            and span[0] <= o.token_span[0] < span[1] and not (comparable(q, o) and same_value(q, o))]


def _a_year(quantity: Quantity) -> bool:
    """A year says which statement a value belongs to as a full date does ("2023年的四千万元")."""
    return quantity.kind == "date" and quantity.value[0] is not None


def _states_clause_values(values: list[Quantity], unit: Unit) -> bool:
    """Whether ``unit`` states every other value of a claim value's own clause (``_clause_values``; and there is
    one)."""
    return bool(values) and all(any(states_as_claimed(o, e) for e in unit.quantities) for o in values)


def _with_clause_values(values: list[Quantity], equal: list[tuple]) -> tuple[Quantity, Unit] | None:
    """The one evidence value equal to ``q`` in a sentence that also states the other values of ``q``'s own clause:
    a quantity binds to where its own clause is stated before any other sentence's value, however alike that
    sentence's words ("1.1 million people … jobless for 27 weeks" is the sentence with 1.1 million and 27 weeks,
    not another's "5.8 million unemployed persons")."""
    found = [(e, unit) for e, unit, *_ in equal if _states_clause_values(values, unit)]
    return found[0] if len({id(unit) for _, unit in found}) == 1 else None


def _stated_about(claim: Claim, q: Quantity, claim_ctx: dict[str, float], unit: Unit, window: Window,
                  heading: frozenset[str], clause_values: list[Quantity]) -> bool:
    """Whether the evidence sentence giving another value speaks of what the claim's value is about: most of the
    claim's words around the number in that sentence itself (with the headings it stands under, and a list item
    with the sentence introducing it; a table row is read with its table), and the thing a count counts ("4 million
    *users*" is no count of "two regions"). Words of a neighbouring sentence do not make its value one about the
    claim's subject: "酒店健身房费用每天五十元" is not contradicted by the meal allowance's 七十元 beside a sentence
    naming 酒店 and 健身."""
    if _states_clause_values(clause_values, unit):
        return True  # the sentence states the rest of the claim's clause: it is about what the clause is about
    if unit.kind == "table_row":  # a row is read with its table (header, caption, heading): its window is its own
        return _local_share(claim_ctx, unit, window) >= _SAME_TOPIC
    lead_in = _lead_in(unit, window)
    if _local_share(claim_ctx, unit, lead_in=lead_in, heading=heading) < _SAME_TOPIC:
        return False
    counted = counted_stems(claim.unit, q)
    return not counted or any(unit_credit(s, unit) or (lead_in is not None and unit_credit(s, lead_in))
                              for s in counted)


def counted_stems(unit: Unit, q: Quantity) -> list[str]:
    """What a count counts, as the words right after it: "users" of "4 million users" (none for a count followed by a
    verb or a mark, nor for one with a rate or unit)."""
    if q.kind != "count" or q.per:
        return []
    stems: list[str] = []
    for tok in unit.tokens[q.token_span[1]:q.token_span[1] + _COUNTED_WORDS]:
        if tok.kind != "word" or not tok.text.islower() or not is_content(tok) or tok.lower in CLAUSE_VERBS:
            break
        stems.append(tok.stem)
    return stems


def _lead_in(unit: Unit, window: Window | None) -> Unit | None:
    """The sentence introducing a list item in the window ("The approver depends on the cost:")."""
    if window is None or window.joined or unit.kind != "item":
        return None
    before = None
    for member in window.units:
        if member is unit:
            return before
        if member.kind not in ("item", "table_row"):
            before = member
    return None


def _stated_with_its_bound(q: Quantity, best: Quantity, equal_in_its_unit: list[Quantity]) -> Quantity | None:
    """The value the best-placed one's sentence states with the claim's own bound and direction, where that
    sentence states the claim's number twice ("员工累计工作满一年后，享受……；累计工作不满一年的员工没有……",
    "不超过十五天；超过十五天的，须经……批准"): the bound tells the two apart, which word distances cannot."""
    if not same_value(replace(q, bound=0, change=None), replace(best, bound=0, change=None)):
        return None
    return next((e for e in equal_in_its_unit if states_as_claimed(q, e, same_bound=True)), None)


def states_as_claimed(q: Quantity, e: Quantity, *, same_bound: bool = False) -> bool:
    """Whether ``e`` states the claim's ``q``: a like value, the same within its bound ("more than 200,000" is
    236,000), with the same rate and direction; with ``same_bound``, the very same bound too ("超过" both, not
    "超过" and "不少于")."""
    return (comparable(q, e) and same_value(q, e) and attribute_difference(q, e) is None
            and (not same_bound or q.bound == e.bound))


def _row_named(q: Quantity, equal: list[tuple]) -> tuple[Quantity, Unit] | None:
    """A bounded value the claim states as a table row's label does ("超过一天" of the row "超过一天，不超过五天"):
    a row label with a bound is the condition the row is about, so the claim names that row, wherever word
    distances would put it."""
    if not q.bound:
        return None
    rows = [(e, unit) for e, unit, *_ in equal if states_row_label(q, e, unit)]
    return rows[0] if len(rows) == 1 else None


def states_row_label(q: Quantity, e: Quantity, unit: Unit) -> bool:
    """Whether ``e`` is in the label (first cell) of a table row and states the claim's ``q`` as the claim does:
    the same value, bound and rate."""
    return unit.kind == "table_row" and e.cell == 0 and states_as_claimed(q, e)


def _with_labels(placement: list[float], shares: list[tuple[Unit, float]]) -> list[float]:
    """Reorder the members of each list by their labels, leaving each unit's best placement as it was:
    labels tell list members apart, they must not draw a claim to another sentence's list."""
    adjusted = [p + _LABEL_WEIGHT * share for p, (_, share) in zip(placement, shares)]
    by_unit: dict[int, list[int]] = {}
    for k, (unit, _) in enumerate(shares):
        by_unit.setdefault(id(unit), []).append(k)
    for members in by_unit.values():
        excess = max(adjusted[k] for k in members) - max(placement[k] for k in members)
        for k in members:
            adjusted[k] -= excess
    return adjusted


def _label_share(claim_ctx: dict[str, float], labels: frozenset[str]) -> float:
    """How much of a list member's own label the claim puts beside its number."""
    if not labels:
        return 0.0
    return sum(1 for s in labels if claim_ctx.get(s, 0.0) >= _MIN_LABEL_CONTEXT) / len(labels)


def _local_share(claim_ctx: dict[str, float], unit: Unit, window: Window | None = None, *,
                 paraphrased: bool = False, lead_in: Unit | None = None,
                 heading: frozenset[str] = frozenset()) -> float:
    """The weighted share of the claim's words around a number that the unit has (with the rest of the
    window, when the unit is in it: a list item leans on the sentence that introduces the list); a
    light word it lacks ("stood at") is no evidence against it. ``paraphrased``: words the window paraphrases
    count too ("jobs" for "employment"), enough to let an equal value match but never to make a different one
    a contradiction (word vectors put rivals near each other too)."""
    in_window = window is not None and not window.joined and any(unit is member for member in window.units)
    if in_window:
        stems = unit.stems | window.stems
        credit = {s: stem_found(s, stems) or (window.word_credit.get(s, 0.0) if paraphrased else 0.0)
                  for s in claim_ctx}
    else:
        credit = {s: unit_credit(s, unit) or (lead_in is not None and unit_credit(s, lead_in)) or stem_found(s, heading)
                  for s in claim_ctx}
    found = sum(w for s, w in claim_ctx.items() if credit[s])
    total = found + sum(w for s, w in claim_ctx.items() if not credit[s] and s not in LIGHT_STEMS)
    return found / total if total else 0.0


def _stated(quantity: Quantity) -> str:
    """The value with its bound, as a person reads it: "less than 30 days", "35 days"."""
    if not quantity.bound:
        return describe(quantity)
    return _("%(bound)s %(value)s") % {"bound": _BOUND_NAMES[quantity.bound], "value": describe(quantity)}


def _specific(quantity: Quantity) -> bool:
    """Not a bare month or weekday: "in March" sits beside half the numbers of a monthly report."""
    if quantity.kind == "date":
        return sum(part is not None for part in quantity.value) >= 2
    return quantity.kind != "weekday"


def _claim_segment(claim: Claim, q: Quantity) -> tuple[float, float] | None:
    """With two like quantities in a claim, each owns the words up to the conjunction between them."""
    tokens = claim.unit.tokens
    same = [o for o in claim.unit.quantities if o.kind == q.kind]
    if len(same) < 2:
        return None
    left = max((o.pos for o in same if o.pos < q.pos), default=-math.inf)
    right = min((o.pos for o in same if o.pos > q.pos), default=math.inf)
    cuts = [t.pos for t in tokens if t.lower in LIST_JOINERS or t.lower in CONJUNCTIONS]
    start = max((c for c in cuts if left < c < q.pos), default=left)
    end = min((c for c in cuts if q.pos < c < right), default=right)
    return start, end


def _placement(q: Quantity, others: list[Quantity], claim_ctx: dict[str, float], e: Quantity, unit: Unit,
               evidence_ctx: dict[str, float]) -> float:
    """How well an evidence quantity sits where the claim's does: how much of the claim's wording around
    the number its unit shares, how alike the nearby words are, whether the rate ("per month") agrees, and whether
    the claim's ``others`` (its specific values of other kinds, ``_placement``'s caller finds them once) sit beside
    it."""
    local = _local_share(claim_ctx, unit)
    nearby = cosine(claim_ctx, evidence_ctx)
    # a specific date beside a version number, the numbers beside a month: where those sit, this one does
    # (a table row is one record: how far apart its cells are says nothing of which values go together)
    distance = 0.0 if unit.kind == "table_row" else EVIDENCE_DECAY
    shared = sum(max((1.0 / (1.0 + distance * abs(x.pos - e.pos)) for x in unit.quantities
                      if comparable(o, x) and same_value(o, x)), default=0.0) for o in others)
    same_rate = bool(q.per & e.per) or (not q.per and not e.per)
    # A value a change left behind is not what holds now: "the standard is 350" is about the "to" of "from 400 to
    # 350", unless the claim tells of the change itself.
    superseded = e.superseded and not q.superseded
    return (local + _NEARBY_WEIGHT * nearby + _RATE_WEIGHT * same_rate + _SHARED_WEIGHT * shared / max(1, len(others))
            - _SUPERSEDED_WEIGHT * superseded)


def _listed_together(claim: Claim, candidate: Candidate) -> dict[Quantity, tuple[Quantity, Unit]]:
    """Like quantities the claim lists ("63.3 percent and 61.1 percent") bind as a group to the first
    unit that has all their values: word distances cannot tell the members of a list apart. Each member takes an
    evidence quantity of its own, one that agrees with it in rate, direction and bound where there is one: "once a
    day, and once a quarter" binds its second "once" to the evidence's quarterly one, not again to the daily."""
    bound: dict[Quantity, tuple[Quantity, Unit]] = {}
    for kind in {q.kind for q in claim.unit.quantities}:
        members = [q for q in claim.unit.quantities if q.kind == kind]
        if len(members) < 2:
            continue
        for unit in candidate.units:
            pairs = _bind_members(members, unit)
            if pairs is not None:
                bound.update(pairs)
                break
    return bound


def _bind_members(members: list[Quantity], unit: Unit) -> dict[Quantity, tuple[Quantity, Unit]] | None:
    """Each member bound to a distinct quantity of the unit with its value (an agreeing one first), or None."""
    taken: set[int] = set()
    pairs: dict[Quantity, tuple[Quantity, Unit]] = {}
    for q in members:
        same = [k for k, e in enumerate(unit.quantities) if k not in taken and comparable(q, e) and same_value(q, e)]
        if not same:
            return None
        k = next((k for k in same if attribute_difference(q, unit.quantities[k]) is None), same[0])
        taken.add(k)
        pairs[q] = (unit.quantities[k], unit)
    return pairs


def _swapped_roles(claim: Claim, listed: dict[Quantity, tuple[Quantity, Unit]]) -> dict[Quantity, Quantity]:
    """Listed values each found, but in each other's places: "$25 for lunch and $15 for dinner" against
    "$15 for lunch and $25 for dinner". What tells two members apart is where their wordings differ, so the
    claim's difference between them (more "lunch" by the first) must not run against the evidence's (more
    "lunch" by the other value); the words they share say nothing of which is which."""
    skip = context_skip_tokens(claim.unit)
    swapped: dict[Quantity, Quantity] = {}
    for a, b in itertools.combinations(listed, 2):
        (ea, unit), (eb, other) = listed[a], listed[b]
        if unit is not other or ea is eb or not comparable(a, b) or same_value(ea, eb):
            continue  # two equal evidence values cannot be told apart by exchanging them
        mine = _difference(*(word_context(claim.unit, q.pos, -1, skip, claim=True, segment=_claim_segment(claim, q))
                             for q in (a, b)))
        theirs = _difference(*(_with_label(unit, unit.quantities.index(e)) for e in (ea, eb)))
        if _signed_cosine(mine, theirs) < -_SWAP_AGREEMENT:
            swapped[a], swapped[b] = eb, ea
    return swapped


def _with_label(unit: Unit, k: int) -> dict[str, float]:
    context = dict(unit.quantity_contexts[k])
    for stem in unit.quantity_labels[k]:
        context[stem] = context.get(stem, 0.0) + _LABEL_WEIGHT
    return context


def _difference(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {s: a.get(s, 0.0) - b.get(s, 0.0) for s in a.keys() | b.keys()}


def _signed_cosine(a: dict[str, float], b: dict[str, float]) -> float:
    norm = math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))
    return sum(v * b.get(s, 0.0) for s, v in a.items()) / norm if norm else 0.0


def _compare_attributes(ctx: RuleContext, q: Quantity, e: Quantity, unit: Unit) -> Finding:
    """The same value: its rate period, direction of change and bound must agree too."""
    spans = {"claim_span": (q.start, q.end), "evidence_span": ctx.evidence_span(unit, e.start, e.end)}
    difference = attribute_difference(q, e) or _window_difference(q, ctx.claim.unit.tokens, e, unit.tokens)
    if difference is not None:
        return Finding(*difference, **spans)
    # subject: scoring.beside_verdict says where the value was seen when nothing supports the claim
    return Finding(FindingKind.QUANTITY_MATCH, _("%(value)s matches evidence") % {"value": describe(q)},
                   subject=describe(q), **spans)


_ORDER = dict(DIRECTION_FAMILIES)["order"]


def _order_after(quantity: Quantity, tokens: list[Token]) -> str | None:
    """The order word right after a quantity ("4 hours *before* the last working hour", 4小时*后*), if any."""
    k = quantity.token_span[1]
    return tokens[k].lower if k < len(tokens) and tokens[k].lower in _ORDER else None


def _window_difference(q: Quantity, claim_tokens: list[Token], e: Quantity,
                       evidence_tokens: list[Token]) -> tuple[FindingKind, str] | None:
    """A time said to be before or after an event where the evidence gives a window up to it: "revoked 4 hours
    before the last working hour" is not "within 4 hours of it" (nor, with "after", the same as at most 4 hours)."""
    word = _order_after(q, claim_tokens) if q.bound == 0 else None
    if word is None or e.bound != -1:
        return None
    theirs = _order_after(e, evidence_tokens)
    if theirs is not None and _ORDER[theirs] == _ORDER[word]:
        return None
    return FindingKind.DIRECTION, values_differ(words_as_written([describe(q), word]), _stated(e))


def attribute_difference(q: Quantity, e: Quantity) -> tuple[FindingKind, str] | None:
    """How two quantities of the same value still differ (rate period, direction of change, bound), if they do."""
    time_per_q = {p for p in q.per if p in TIME_UNITS}
    time_per_e = {p for p in e.per if p in TIME_UNITS}
    if time_per_q and time_per_e and time_per_q != time_per_e:
        return FindingKind.QUANTITY_MISMATCH, values_differ(describe(q), describe(e))
    # what else it is per: "$18 per team per month" is not "$18 per user per month" (a word of the same family,
    # or one the stemmer folds as a synonym, is the same: "per person" / "per persons")
    other_per_q, other_per_e = q.per - time_per_q, e.per - time_per_e
    if other_per_q and other_per_e and not any(a == b or related_stems(a, b) for a in other_per_q for b in other_per_e):
        return FindingKind.QUANTITY_MISMATCH, values_differ(describe(q), describe(e))
    if q.change is not None and e.change is not None and q.change != e.change:
        return FindingKind.DIRECTION, values_differ(_("%(bound)s %(value)s") % {"bound": _CHANGE_NAMES[q.change],
                                                                                  "value": describe(q)},
                                                    _("%(bound)s %(value)s") % {"bound": _CHANGE_NAMES[e.change],
                                                                                  "value": describe(e)})
    if q.bound and e.bound and (q.bound > 0) != (e.bound > 0):
        return FindingKind.DIRECTION, values_differ(_stated(q), _stated(e))
    return None


def value_also_stated(*, claim: Claim, finding: Finding, candidate: Candidate) -> bool:
    """Whether the sentence that gives a mismatching finding its other value states the claim's own value too
    (with its bound, rate and direction): "Monthly subscriptions can be refunded within 7 days, and annual
    subscriptions within 30 days" does not disagree with "annual subscriptions ... within 30 days", whichever of
    its numbers the claim's was bound to. Only that sentence: a "30 days" elsewhere may be said of anything."""
    q = next((q for q in claim.unit.quantities if (q.start, q.end) == finding.claim_span), None)
    span = finding.evidence_span
    if q is None or span is None:
        return False
    return any(states_as_claimed(q, e) for unit in candidate.units if unit.start <= span[0] and span[1] <= unit.end for e in unit.quantities)
