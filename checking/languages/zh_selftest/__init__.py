"""Chinese claims for the self-test: the kinds of `checking.selftest`, made the way Chinese is written.

`checking.selftest.claims_synthesize` makes a Chinese version's claims with `CHINESE_VARIANTS`. Sentences end at
。！？； (the language layer's splitter), a word is a segmenter word (``language_for("zh").words``), numbers, units and
dates are read by the language layer (``quantities``, ``number_value``, ``zh_numbers.DATE``) and the swaps take their words
from its tables (``UNITS``, ``RATE_WORDS``, ``DIRECTION_PAIRS``, ``ANTONYMS``, ``NEGATION_CUES``, ``ROLE_ENDINGS``), so
the checker is tested on the words it is meant to know. What the layer has no table for is here: how a clause is
dropped or moved, how two sentences are joined, how a negation is removed or inserted, which words are the knowledge
base's names.

The same rules as English: a variant is kept only when its transformation changed the text, at most `per_kind` per
kind, and the same inputs and seed always give the same claims (nothing depends on a set's order).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from checking.languages import detect_language
from checking.languages.zh_selftest.reading import CHINESE, HAN, MAX_WORDS, name_pool, names_in, sections_of, words_of
from checking.languages.zh_selftest.variants import (
    antonym,
    appended_clause,
    clause_drop,
    date_swap,
    direction_flip,
    join,
    moved_sentence,
    name_swap,
    negate,
    number_swap,
    reorder,
    role_swap,
    unit_swap,
)
from checking.selftest import Variants

__all__ = ["CHINESE_VARIANTS", "antonym", "appended_clause", "clause_drop", "date_swap", "direction_flip", "join",
           "moved_sentence", "name_pool", "name_swap", "names_in", "negate", "number_swap", "reorder", "role_swap",
           "sections_of", "unit_swap"]


def _section_subject(heading: str) -> str | None:
    """A short heading ("婚假", "伙食补助", "终端设备") names what its section is about; "出差申请与审批" names two things."""
    heading = heading.rstrip("：:")
    if re.fullmatch(rf"[{HAN}]{{2,6}}", heading) and not re.search(r"[与和及、]", heading):
        return heading
    return None


def _lenders(others: Sequence[str]) -> list[str]:
    """The Chinese documents among `others` lend names and foreign sentences: an English sentence said of a Chinese
    heading tests nothing."""
    return [other for other in others if detect_language(other) == "zh"]


def _terms_learn(texts: Sequence[str]) -> None:
    # The knowledge base's own terms are words to the segmenter (as when the versions were indexed), whichever
    # process runs this: the same words, so the same claims.
    CHINESE.terms_add(term for text in texts for term in CHINESE.document_terms(text))


CHINESE_VARIANTS = Variants(
    sections_of=sections_of, name_pool=name_pool, word_count=lambda s: len(words_of(s)), max_words=MAX_WORDS,
    written_together=lambda a, b: a + b, join=lambda a, b, pool: join(a, b),
    clause_drop=clause_drop, reorder=reorder,
    swaps={
        "number_swap": lambda s, rng, pool: number_swap(s, rng),
        "unit_swap": lambda s, rng, pool: unit_swap(s, rng),
        "date_swap": lambda s, rng, pool: date_swap(s, rng),
        "name_swap": lambda s, rng, pool: name_swap(s, rng, pool=pool),
        "direction_flip": lambda s, rng, pool: direction_flip(s, rng),
        "negation": lambda s, rng, pool: negate(s, rng),
        "antonym": lambda s, rng, pool: antonym(s, rng),
        "role_swap": lambda s, rng, pool: role_swap(s, rng),
    },
    section_subject=_section_subject,
    moved_sentence=lambda s, subject: moved_sentence(s, subject=subject),
    appended_clause=lambda s, other: appended_clause(s, other=other),
    lenders=_lenders, terms_learn=_terms_learn,
)
