"""English: the checker's own tokenizer, stemmer, sentence splitter and quantity parser, behind the interface."""

from __future__ import annotations

from collections.abc import Iterable

from checking.analysis import NEGATION_CUES
from checking.languages.base import Quantity, Word
from checking.quantities import find_quantities
from checking.text import ANTONYMS, QUESTION_WORDS, Token, is_content, tokenize
from kb.sentences import sentence_spans

_DIRECTION_PAIRS = (("more", "less"), ("above", "below"), ("before", "after"), ("rose", "fell"),
                    ("increase", "decrease"), ("minimum", "maximum"), ("at least", "at most"))


class English:
    code = "en"
    locale = "en"  # the console's language (LANGUAGES) its reasons are written in
    negation_cues = NEGATION_CUES
    question_words = QUESTION_WORDS
    direction_pairs = {**dict(_DIRECTION_PAIRS), **{b: a for a, b in _DIRECTION_PAIRS}}
    antonyms = ANTONYMS  # by stem

    def sentences(self, text: str) -> list[tuple[int, int]]:
        return sentence_spans(text, 0, len(text))

    def _tokens(self, text: str) -> list[Token]:
        return tokenize(text, 0, len(text), table=False)

    def words(self, text: str) -> list[Word]:
        return [Word(text=t.text, start=t.start, end=t.end, key=t.stem) for t in self._tokens(text)
                if t.kind in ("word", "num")]

    def search_words(self, text: str) -> list[str]:
        return [w.text for w in self.words(text)]

    def key_terms(self, text: str) -> list[Word]:
        return [Word(text=t.text, start=t.start, end=t.end, key=t.stem) for t in self._tokens(text)
                if is_content(t) and t.lower not in QUESTION_WORDS]

    def quantities(self, text: str) -> list[Quantity]:
        return [Quantity(kind=q.kind, value=q.value, surface=q.surface, start=q.start, end=q.end)
                for q in find_quantities(text, self._tokens(text))]

    def fold(self, text: str) -> str:
        return text.lower()

    def terms_add(self, terms: Iterable[str]) -> None:
        """English needs no dictionary: words are split at spaces and punctuation."""

    def document_terms(self, markdown: str) -> list[str]:
        return []


ENGLISH = English()
