"""Table rows: a claim clause naming two rows of one table joins what the table keeps apart — "成都属于一类城市"
where 成都 stands in the 二类城市 row, "请假超过一天的由直属主管审批" where 直属主管 is the approver of the row "一天以内".

A row is named by a word no other row of its table has (a city, a role), or by a value the claim states as the
row's label states it (超过一天, with its bound). Word distances and similarity cannot see this: every word of such a
claim is in the table, and its number may well be right for one of the two rows.

A claim's values bind it to one row (or item of a list, a table written as sentences): the row stating the most
of them, when one does. A word the claim then says that only another row has, in the place where the bound row
has words of its own, is a role of that other row: "Trips from $2,000 to $10,000 are approved by the employee's
direct manager" where the $2,000-$10,000 row says *department director*. The quote is the bound row alone.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from checking.analysis import Claim, Unit, clause_spans, context_skip_tokens
from checking.quantity_compare import comparable, same_value
from checking.findings import Finding, FindingKind
from checking.rules.context import RuleContext, claim_span, said_of
from checking.windows import Window
from checking.rules.quantities import states_as_claimed, states_row_label
from checking.text import COORDINATORS, LIST_JOINERS, Token, is_content

_NAME_WORDS = 3  # a cell of this many content words or fewer names something ("直属主管", "部门经理及以上")
_SAME_BOUND = 0.5  # what a value stated with the claim's bound adds to its row's binding
_LIST_JOINTS = 2  # ... as does a list ("杭州、南京、成都、武汉等省会城市")


def check_table_rows(ctx: RuleContext) -> list[Finding]:
    claim = ctx.claim
    role = _role_of_another_row(ctx)
    if role is not None:
        return [role]
    in_window = {id(unit) for unit in ctx.window.units}
    if ctx.candidate.row_names is None:
        ctx.candidate.row_names = [(rows, _own_words(rows)) for rows in _tables(ctx.candidate.units) if len(rows) > 1]
    for rows, own in ctx.candidate.row_names:
        if not any(id(row) in in_window for row in rows):
            continue
        for a, b in clause_spans(claim.unit.tokens):
            clause = claim.unit.tokens[a:b]
            if any(t.lower in COORDINATORS for t in clause):
                continue  # "北京和杭州": a clause may name several rows on purpose
            named = _rows_named(claim.unit, a, b, rows, own)
            if len(named) < 2:
                continue
            # report a name the claim moved (not a row's own label): its row is where the evidence says it
            r, tok = next(((r, t) for r, t in named.items() if t.stem in own[r] and not _labels_word(rows[r], t)),
                          next(iter(named.items())))
            row = rows[r]
            label = _written([t for t in row.tokens if t.cell == 0])
            return [Finding(FindingKind.MISSING_SUBJECT, said_of(tok.text, label), claim_span=claim_span(tok),
                            evidence_span=ctx.evidence_span(row, row.start, row.end))]
    return []


def _rows_named(claim: Unit, a: int, b: int, rows: list[Unit], own: list[set[str]]) -> dict[int, Token]:
    """The rows the claim's tokens ``a``..``b`` name, each with the token naming it: a word of the row's own, or a
    value its label states as the claim does."""
    named: dict[int, Token] = {}
    for tok in claim.tokens[a:b]:
        for r in (r for r, words in enumerate(own) if is_content(tok) and tok.stem in words):
            named.setdefault(r, tok)
    for q in claim.quantities:
        if a <= q.token_span[0] < b:
            labelled = [r for r, row in enumerate(rows) if any(states_row_label(q, e, row) for e in row.quantities)]
            if len(labelled) == 1:
                named.setdefault(labelled[0], claim.tokens[q.token_span[0]])
    return named


def _tables(units: list[Unit]) -> list[list[Unit]]:
    """The candidate's tables: runs of rows under one header."""
    tables: list[list[Unit]] = []
    for unit in units:
        if unit.kind != "table_row":
            continue
        if tables and tables[-1][-1].header is unit.header:
            tables[-1].append(unit)
        else:
            tables.append([unit])
    return tables


def _own_words(rows: list[Unit]) -> list[set[str]]:
    """Per row, the words naming it: those of its naming cells that no other row of the table has (not its
    header's or caption's)."""
    naming = [{t.stem for cell in _naming_cells(row) for t in cell} for row in rows]
    every = [{t.stem for t in row.tokens if t.kind == "word"} for row in rows]
    return [mine - set().union(*(other for k, other in enumerate(every) if k != r)) for r, mine in enumerate(naming)]


def _naming_cells(row: Unit) -> list[list[Token]]:
    """The cells that name things (a label, a role, a list of cities), not those saying what happens (a phrase
    such as "部门经理审核后，报人力资源总监审批", whose verbs other rows may lack too)."""
    cells: dict[int, list[Token]] = {}
    for tok in row.tokens:
        cells.setdefault(tok.cell, []).append(tok)
    named = []
    for cell, tokens in sorted(cells.items()):
        words = [t for t in tokens if t.kind == "word" and is_content(t)]
        joints = sum(t.lower in LIST_JOINERS for t in tokens)
        if cell == 0:
            named.append(words)  # the row's label, whatever its words
        elif len(words) <= _NAME_WORDS or joints >= _LIST_JOINTS:
            named.append([t for t in words if t.capital])  # names only: "数据" names no row
    return named


def _labels_word(row: Unit, tok: Token) -> bool:
    """Whether the word is one of the row's label (its first cell)."""
    return any(t.cell == 0 and t.stem == tok.stem for t in row.tokens)


def _written(tokens: list[Token]) -> str:
    """Tokens as the text spaces them: "一天以内（含一天）", "Team plan"."""
    text = ""
    for before, tok in zip([None, *tokens], tokens):
        text += (" " if before is not None and tok.start > before.end else "") + tok.text
    return text


def _role_of_another_row(ctx: RuleContext) -> Finding | None:
    """The claim's values bind it to one row, and it says a word only another row has where that row has its own."""
    claim = ctx.claim
    claim_words = _claim_words(claim)
    for rows in _parallel(ctx.candidate.units):
        bound = _bound_member(claim, rows)
        # the values bind the claim to their row wherever the window is: a window of the rows around it must not
        # lend the claim one row's $2,000 and another's $10,000
        if bound is None or not any(row is unit for row in rows for unit in ctx.window.units):
            continue
        own = _distinct_words(rows)
        b = next(k for k, row in enumerate(rows) if row is bound)
        for place in sorted({place for places in own for place in places}):
            if claim_words & own[b].get(place, set()):
                continue  # the claim names the bound row's own words there: it names that row
            foreign = [(r, claim_words & own[r].get(place, set())) for r in range(len(rows)) if r != b
                       if len(own[r].get(place, ())) <= _NAME_WORDS]
            words = max(foreign, key=lambda entry: len(entry[1]), default=(b, set()))[1]
            theirs = _written([t for t in bound.tokens if _place(t) == place and t.stem in own[b].get(place, set())])
            if not words or not theirs or len(own[b].get(place, ())) > _NAME_WORDS:
                continue  # a phrase ("Android app and shared notebooks") is no role: a name moved to it is said_of's
            tokens = [t for t in claim.unit.tokens if t.stem in words]
            said = _written(_span_tokens(claim, tokens))
            if bound.kind == "table_row" and place == 0:  # the claim names another row: its value is this row's
                message = said_of(said, theirs)
            else:
                message = _("claim says '%(claim)s' for '%(row)s'; the evidence says '%(evidence)s'") % {
                    "claim": said, "row": _row_label(claim, bound), "evidence": theirs}
            return Finding(FindingKind.ENTITY_SWAP, message,
                           claim_span=claim_span(*tokens),
                           evidence_span=ctx.evidence_span(bound, bound.start, bound.end),
                           subject=_written(tokens))
    return None


def bound_row(claim: Claim, window: Window, units: list[Unit]) -> Unit | None:
    """The row (or list item) of the window the claim's values bind to, when the window holds its neighbours too:
    what the quote is limited to."""
    for rows in _parallel(units):
        bound = _bound_member(claim, rows)
        in_window = [row for row in rows if any(row is unit for unit in window.units)]
        if bound is not None and len(in_window) > 1 and any(bound is row for row in in_window):
            return bound
    return None


def _parallel(units: list[Unit]) -> list[list[Unit]]:
    """The candidate's tables and lists: runs of rows under one header, runs of list items."""
    groups = [rows for rows in _tables(units) if len(rows) > 1]
    run: list[Unit] = []
    for unit in [*units, None]:
        if unit is not None and unit.kind == "item":
            run.append(unit)
            continue
        if len(run) > 1:
            groups.append(run)
        run = []
    return groups


def _bound_member(claim: Claim, rows: list[Unit]) -> Unit | None:
    """The one row stating more of the claim's values than any other (at least one)."""
    values = [q for q in claim.unit.quantities if q.strong]
    # a value stated with the claim's own bound ("一万元以上" for 一万元以上) binds before one its bound holds
    counts = [sum(any(comparable(q, e) and same_value(q, e) for e in row.quantities)
                  + _SAME_BOUND * any(states_as_claimed(q, e, same_bound=True) for e in row.quantities)
                  for q in values) for row in rows]
    most = max(counts, default=0)
    return rows[counts.index(most)] if most and counts.count(most) == 1 else None


def _claim_words(claim: Claim) -> set[str]:
    skip = context_skip_tokens(claim.unit)
    return {t.stem for k, t in enumerate(claim.unit.tokens) if k not in skip and is_content(t)}


def _place(tok: Token) -> int:
    """Where a word stands in its row: its cell (a list item is one place)."""
    return max(tok.cell, 0)


def _distinct_words(rows: list[Unit]) -> list[dict[int, set[str]]]:
    """Per row and place, the content words no other row has anywhere (a row's label counts: "国内出差")."""
    words = []
    for row in rows:
        skip = context_skip_tokens(row)
        places: dict[int, set[str]] = {}
        for k, tok in enumerate(row.tokens):
            if k not in skip and is_content(tok):
                places.setdefault(_place(tok), set()).add(tok.stem)
        words.append(places)
    every = [set().union(*places.values()) for places in words]
    return [{place: stems - set().union(*(other for j, other in enumerate(every) if j != r))
             for place, stems in places.items()} for r, places in enumerate(words)]


def _span_tokens(claim: Claim, tokens: list[Token]) -> list[Token]:
    """The claim's tokens from the first to the last of ``tokens`` ("employee's direct manager")."""
    first, last = claim.unit.tokens.index(tokens[0]), claim.unit.tokens.index(tokens[-1])
    return claim.unit.tokens[first : last + 1]


def _row_label(claim: Claim, row: Unit) -> str:
    """How the row is named: a table row by its first cell, a list item by the claim's values it states."""
    if row.kind == "table_row":
        return _written([t for t in row.tokens if t.cell == 0])
    stated = [q for q in claim.unit.quantities if any(comparable(q, e) and same_value(q, e) for e in row.quantities)]
    return claim.text[stated[0].start : stated[-1].end]
