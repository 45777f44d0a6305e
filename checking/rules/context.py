"""What a rule sees: the claim, the evidence window being checked, its candidate, and what the claim's
words earn there."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.utils.translation import gettext as _

from checking.analysis import Candidate, Claim, Slot, Unit, slot_sequence
from checking.findings import Span
from checking.text import Token, words_as_written
from checking.windows import Window, stem_found

_PHRASE_WORDS = 4  # content words (and numbers) a table cell needs to be read as a phrase


@dataclass(frozen=True)
class RuleContext:
    claim: Claim
    window: Window
    candidate: Candidate  # the window's own (for passages joined across candidates, both together)
    all_stems: set[str]  # every candidate's words: a name absent here is absent from all the evidence
    credits: dict[str, float]  # claim stem -> how far the evidence supports it (see windows.term_credit)
    quoted_units: frozenset[int]  # ids of the units of the quoted candidate, whose text evidence spans index

    @property
    def unsupported(self) -> list[str]:
        """Claim stems the evidence gives no credit, in claim order; names are for the entity rules."""
        names = {t.stem for run in self.claim.entities for t in run}
        return [s for s, c in self.credits.items() if not c and s not in names]

    def evidence_span(self, unit: Unit, start: int, end: int) -> Span | None:
        """``start``..``end`` of ``unit`` as an evidence span, if it lies in the quoted candidate's text."""
        return (start, end) if id(unit) in self.quoted_units else None

    def token_span(self, unit: Unit, *tokens: Token) -> Span | None:
        return self.evidence_span(unit, min(t.start for t in tokens), max(t.end for t in tokens))


def says(claim: str, evidence: str) -> str:
    """The reason for words the evidence states otherwise, in the language the check runs in."""
    return _("claim says '%(claim)s'; evidence says '%(evidence)s'") % {"claim": claim, "evidence": evidence}


def said_of(subject: str, rival: str) -> str:
    return _("claim says '%(subject)s'; the evidence says it of '%(rival)s'") % {"subject": subject, "rival": rival}


def claim_span(*tokens: Token) -> Span:
    """The claim text from the first to the last of ``tokens``."""
    return min(t.start for t in tokens), max(t.end for t in tokens)


def frame_shared(frame: tuple[Token | None, Token | None], seq: list[Slot], first: int, last: int) -> int:
    """How many of a claim word's two content neighbours (``frame``) the evidence words ``seq[first..last]``
    have on the same sides: where a word stands, whatever else the evidence says elsewhere."""
    return sum(mine is not None and theirs.tok is not None and stem_found(mine.stem, {theirs.tok.stem}) > 0
               for mine, theirs in zip(frame, (seq[first - 1], seq[last + 1])))


def word_sequence(unit: Unit) -> list[Slot]:
    """The unit's content words with its quantities in their places (keyed by kind and value), between the
    empty ends of ``slot_sequence``: what the alignment rules compare. Two clauses stated in the other order
    ("A: 60 days, B: 90 days") move their numbers with them. Computed once per unit (a cached candidate's units
    meet every claim, and two rules align each); read only."""
    if unit.aligned is None:
        slots = slot_sequence(unit)
        numbers = [Slot(Token(text=q.surface, lower=q.surface, stem=f"#{q.kind}:{q.value}", start=q.start,
                              end=q.end, kind="num", pos=q.pos, cell=q.cell, capital=False, initial=False),
                        (), (q.surface,)) for q in unit.quantities]
        unit.aligned = [slots[0], *sorted([*slots[1:-1], *numbers], key=lambda s: s.tok.start), slots[-1]]
    return unit.aligned


def sentence_sequences(ctx: RuleContext) -> Iterator[tuple[Unit, list[Slot]]]:
    """The window's sentences and list items with their word sequences; a table row's cells are not one phrase,
    but a cell that is a phrase of its own ("部门经理审核后，报人力资源总监审批") is one, after the row's label."""
    for unit in ctx.window.units:
        sequence = word_sequence(unit)
        if unit.kind != "table_row":
            yield unit, sequence
            continue
        label = [s for s in sequence[1:-1] if s.tok.cell == 0]  # what the row is about, said before each cell
        for cell in sorted({s.tok.cell for s in sequence[1:-1]} - {0}):
            slots = [s for s in sequence[1:-1] if s.tok.cell == cell]
            if len(slots) >= _PHRASE_WORDS:
                yield unit, [sequence[0], *label, *slots, sequence[-1]]


def slots_text(slots: list[Slot]) -> str:
    return words_as_written(s.tok.text for s in slots)
