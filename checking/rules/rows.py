"""Table rows: a claim clause naming two rows of one table joins what the table keeps apart — "成都属于一类城市"
where 成都 stands in the 二类城市 row, "请假超过一天的由直属主管审批" where 直属主管 is the approver of the row "一天以内".

A row is named by a word no other row of its table has (a city, a role), or by a value the claim states as the
row's label states it (超过一天, with its bound). Word distances and similarity cannot see this: every word of such a
claim is in the table, and its number may well be right for one of the two rows.
"""

from __future__ import annotations

from checking.analysis import Unit, clause_spans
from checking.findings import Finding, FindingKind
from checking.rules.context import RuleContext, claim_span, said_of
from checking.rules.quantities import states_row_label
from checking.text import COORDINATORS, LIST_JOINERS, Token, is_content

_NAME_WORDS = 3  # a cell of this many content words or fewer names something ("直属主管", "部门经理及以上")
_LIST_JOINTS = 2  # ... as does a list ("杭州、南京、成都、武汉等省会城市")


def check_table_rows(ctx: RuleContext) -> list[Finding]:
    claim = ctx.claim
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
