"""What every language's text module gives the checker: typed words, sentences and quantities, with offsets into
the text as written, and the cue words the rules read."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Word:
    text: str  # as written
    start: int
    end: int
    key: str  # what matching compares: a stem, or the Simplified form


@dataclass(frozen=True)
class Quantity:
    """A number with its unit, in the English quantities' kinds (``checking.quantity_words.UNITS``): money:CNY,
    duration:s (seconds), duration:mo (months), percent, count, date ((year, month, day)), … so that values compare
    across languages."""

    kind: str
    value: float | tuple[int | None, int | None, int | None]  # scaled to the kind's base: 1.5万元 is 15000
    surface: str
    start: int
    end: int

    def same_as(self, other: Quantity) -> bool:
        if self.kind != other.kind:
            return False
        if isinstance(self.value, tuple) or isinstance(other.value, tuple):
            return self.value == other.value
        return abs(self.value - other.value) <= 1e-9 * max(1.0, abs(self.value))


class TextLanguage(Protocol):
    code: str
    locale: str  # the Django language code its reasons are written in ("zh-hans")
    negation_cues: frozenset[str]
    question_words: frozenset[str]
    direction_pairs: dict[str, str]  # each word with its opposite direction
    antonyms: dict[str, frozenset[str]]

    def sentences(self, text: str) -> list[tuple[int, int]]: ...

    def words(self, text: str) -> list[Word]: ...

    def search_words(self, text: str) -> list[str]: ...

    def key_terms(self, text: str) -> list[Word]: ...

    def quantities(self, text: str) -> list[Quantity]: ...

    def fold(self, text: str) -> str: ...

    def terms_add(self, terms: Iterable[str]) -> None: ...

    def document_terms(self, markdown: str) -> list[str]: ...

    # Clauses: where a claim sentence may be cut in two (checking.claims), and how names pair across clauses.
    names_paired_by_clause: bool  # two names in parallel clauses of one sentence are paired, lacking a linking word

    def stands_alone(self, text: str) -> bool:
        """Whether ``text`` (one side of a clause cut) is a statement of its own."""
        ...

    def leans_back(self, text: str) -> bool:
        """Whether a clause opens by leaning on the one before ("; it …", "；但……")."""
        ...

    def provisions_paired(self, left: str, right: str) -> bool:
        """Whether two clauses are provisions to be checked together (which gets which is what they say)."""
        ...
