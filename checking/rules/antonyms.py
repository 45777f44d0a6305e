"""Antonyms: a claim word whose opposite the evidence puts in the same slot ("the rejected password manager"
against "the approved password manager", "7 days on the Paid plan" against "7 days on the Free plan", "unpaid
leave" against "paid leave").

Both words often occur somewhere in the evidence ("Free accounts ... On every paid plan"), so the presence of a
word says little; its neighbours say where it stands. The opposite must share more neighbours with the claim word
than any occurrence of the claim word itself does. Opposites are a small table of general English pairs, and
words with a negating prefix: a word inside a longer one ("employment" in "unemployment") is its opposite only
in the same slot, since the longer word is often a word of its own ("unemployment was 3.5 percent" against
"payroll employment rose")."""

from __future__ import annotations

from checking.analysis import Slot, Unit, slot_sequence
from checking.findings import Finding, FindingKind
from checking.rules.context import RuleContext, claim_span, frame_shared, says
from checking.text import ANTONYMS, family_member_in, negating_forms, synonym_in, word_pieces
from checking.windows import claim_coverage

# The share of the claim's words a sentence must hold to be the one the claim restates.
_RESTATED_COVERAGE = 0.75


def check_antonyms(ctx: RuleContext) -> list[Finding]:
    """At most one finding: the first claim word the evidence replaces by its opposite."""
    claim = ctx.claim
    slots = claim.slots
    units = [(u, slot_sequence(u)) for u in ctx.window.units if u.kind != "table_row"]  # cells are no phrase
    stems_of: dict[str, set[str]] = {}  # the window's words, lower-case, with their stems
    for unit, _ in units:
        for t in unit.tokens:
            if t.kind == "word":
                stems_of.setdefault(t.lower, set()).add(t.stem)
    for i in range(1, len(slots) - 1):
        tok = slots[i].tok
        prefixed = {stem for form in negating_forms(tok.lower) for stem in stems_of.get(form, ())}
        opposites = (ANTONYMS.get(tok.stem, frozenset()) | prefixed) \
            - claim.weights.keys()  # "from minimum to maximum", "paid and unpaid leave"
        if not opposites:
            continue
        negated = tok.stem in claim.unit.negated  # "not approved" may well say "rejected"
        frame = (slots[i - 1].tok, slots[i + 1].tok)
        mine = max((frame_shared(frame, seq, k, k) for _, seq in units for k in _occurrences(seq, {tok.stem})), default=0)
        theirs = [(frame_shared(frame, seq, k, k), unit, seq[k].tok) for unit, seq in units
                  for k in _occurrences(seq, opposites) if (seq[k].tok.stem in unit.negated) == negated]
        shared, unit, other = max(theirs, key=lambda t: t[0], default=(0, None, None))
        if shared and shared > mine:
            return [Finding(FindingKind.NEGATION, says(tok.text, other.text),
                            claim_span=claim_span(tok), evidence_span=ctx.token_span(unit, other))]
    return _opposite_instead(ctx)


def _opposite_instead(ctx: RuleContext) -> list[Finding]:
    """A claim word the evidence never uses, where it uses the word's opposite: "国际出差的市内交通补助为每人每天八十元"
    against "国内出差每人每天八十元", "多因素认证是可选的" against "必须启用多因素认证". Slots cannot bind these (a
    compound holds the word, Chinese puts a modal where English puts an adjective); the evidence saying only the
    opposite is as clear. Words of a compound count as words (国际 of 国际出差). "Never" is asked of the window, then
    of the sentence the claim restates: "审批人应当在出差申请中写明出差事由……" against "申请人应当在申请中写明出差事由……"
    is contradicted though 审批人 is named in the next paragraph."""
    finding, opposed = _opposite_instead_in(ctx, ctx.window.units)
    if finding or not opposed:  # the restated sentence is in the window: no opposite there, none in it
        return finding
    restated = max(ctx.window.units, key=lambda unit: claim_coverage(ctx.claim, unit.stems))
    if claim_coverage(ctx.claim, restated.stems) < _RESTATED_COVERAGE:
        return []
    return _opposite_instead_in(ctx, [restated])[0]


def _opposite_instead_in(ctx: RuleContext, units: list[Unit]) -> tuple[list[Finding], bool]:
    """The finding in these units, if any, and whether they hold an opposite of some claim word at all."""
    claim = ctx.claim
    pieces_of = {piece: (unit, t) for unit in units for t in unit.tokens if t.kind == "word"
                 for piece in word_pieces(t.stem)}
    claim_tokens = [t for t in claim.unit.tokens if t.kind == "word"]
    claim_pieces = {piece for t in claim_tokens for piece in word_pieces(t.stem)}
    opposed = False
    for tok in claim_tokens:
        if tok.stem in claim.unit.negated:
            continue  # "not approved" may well say "rejected"
        for piece in word_pieces(tok.stem):
            opposites = [o for o in ANTONYMS.get(piece, ()) if o in pieces_of and o not in claim_pieces]
            if not opposites:
                continue
            opposed = True
            words = pieces_of.keys()
            if not (piece in words or family_member_in(piece, words) or synonym_in(piece, words)):
                unit, other = pieces_of[opposites[0]]
                return [Finding(FindingKind.NEGATION, says(tok.text, other.text),
                                claim_span=claim_span(tok), evidence_span=ctx.token_span(unit, other))], True
    return [], opposed


def _occurrences(seq: list[Slot], stems: set[str] | frozenset[str]) -> list[int]:
    return [k for k in range(1, len(seq) - 1) if seq[k].tok.stem in stems]
