"""Chinese claims for the self-test: the kinds of `review.selftest`, made the way Chinese is written.

`review.selftest.claims_synthesize` hands a Chinese version here. Sentences end at 。！？； (the language layer's
splitter), a word is a segmenter word (``language_for("zh").words``), numbers, units and dates are read by the
language layer (``quantities``, ``number_value``, ``zh.DATE``) and the swaps take their words from its tables
(``UNITS``, ``RATE_WORDS``, ``DIRECTION_PAIRS``, ``ANTONYMS``, ``NEGATION_CUES``, ``ROLE_ENDINGS``), so the checker is
tested on the words it is meant to know. What the layer has no table for is here: how a clause is dropped or moved,
how two sentences are joined, how a negation is removed or inserted, which words are the knowledge base's names.

The same rules as English: a variant is kept only when its transformation changed the text, at most `per_kind` per
kind, and the same inputs and seed always give the same claims (nothing depends on a set's order).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from checking.languages import detect_language
from review.selftest import PER_KIND, SynthesisedClaim
from review.selftest_zh.reading import CHINESE, HAN, MAX_WORDS, name_pool, names_in, sections_of, words_of
from review.selftest_zh.variants import (
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

__all__ = ["antonym", "appended_clause", "claims_synthesize", "clause_drop", "date_swap", "direction_flip", "join",
           "moved_sentence", "name_pool", "name_swap", "names_in", "negate", "number_swap", "reorder", "role_swap",
           "sections_of", "unit_swap"]


def _section_subject(heading: str) -> str | None:
    """A short heading ("婚假", "伙食补助", "终端设备") names what its section is about; "出差申请与审批" names two things."""
    heading = heading.rstrip("：:")
    if re.fullmatch(rf"[{HAN}]{{2,6}}", heading) and not re.search(r"[与和及、]", heading):
        return heading
    return None


def claims_synthesize(*, text: str, others: Sequence[str], seed: int = 0,
                      per_kind: int = PER_KIND) -> list[SynthesisedClaim]:
    """Labelled Chinese claims about `text`; the Chinese documents among `others` lend names and foreign sentences
    (an English sentence said of a Chinese heading tests nothing)."""
    chinese_others = [other for other in others if detect_language(other) == "zh"]
    # The knowledge base's own terms are words to the segmenter (as when the versions were indexed), whichever
    # process runs this: the same words, so the same claims.
    CHINESE.terms_add(term for t in [text, *chinese_others] for term in CHINESE.document_terms(t))
    sections = sections_of(text)
    pool = name_pool([text, *chinese_others])
    foreign = [s for other in chinese_others for section in sections_of(other) for s in section.sentences]
    own = [(section, sentence) for section in sections for sentence in section.sentences]
    claims: list[SynthesisedClaim] = []

    def emit(kind: str, label: str, pairs: list[tuple[str, str]]) -> None:
        seen = set()
        for source, claim in pairs:
            if claim != source and claim not in seen and len(seen) < per_kind:
                seen.add(claim)
                claims.append(SynthesisedClaim(claim=claim, label=label, kind=kind, source=source))

    def shuffled(kind: str, items: list) -> list:
        items = list(items)
        random.Random(f"{seed}:{kind}").shuffle(items)
        return items

    def each(kind: str, transform: Callable[[str, random.Random], str]) -> list[tuple[str, str]]:
        rng = random.Random(f"{seed}:{kind}:transform")
        return [(sentence, transform(sentence, rng)) for _, sentence in shuffled(kind, own)]

    verbatim = [(s, s) for _, s in shuffled("verbatim", own)][:per_kind]
    claims += [SynthesisedClaim(claim=s, label="supported", kind="verbatim", source=s) for s, _ in verbatim]
    emit("clause_dropped", "supported", [(s, clause_drop(s)) for _, s in shuffled("clause_dropped", own)])
    emit("reordered", "supported", [(s, reorder(s)) for _, s in shuffled("reordered", own)])
    pairs = [(a, b) for section in sections for a, b in zip(section.sentences, section.sentences[1:])
             if len(words_of(a)) + len(words_of(b)) <= MAX_WORDS]
    emit("joined", "supported", [(a + b, join(a, b)) for a, b in shuffled("joined", pairs)])

    emit("number_swap", "unsupported", each("number_swap", number_swap))
    emit("unit_swap", "unsupported", each("unit_swap", unit_swap))
    emit("date_swap", "unsupported", each("date_swap", date_swap))
    emit("name_swap", "unsupported", each("name_swap", lambda s, rng: name_swap(s, rng, pool=pool)))
    emit("direction_flip", "unsupported", each("direction_flip", direction_flip))
    emit("negation", "unsupported", each("negation", negate))
    emit("antonym", "unsupported", each("antonym", antonym))
    emit("role_swap", "unsupported", each("role_swap", role_swap))

    subjects = [subject for section in sections if (subject := _section_subject(section.heading))]
    if subjects and foreign:
        rng = random.Random(f"{seed}:moved_sentence:subject")
        emit("moved_sentence", "unsupported",
             [(s, moved_sentence(s, subject=rng.choice(subjects))) for s in shuffled("moved_sentence", foreign)])
    if foreign:
        rng = random.Random(f"{seed}:appended_clause:other")
        emit("appended_clause", "unsupported",
             [(s, appended_clause(s, other=rng.choice(foreign))) for _, s in shuffled("appended_clause", own)])
    return claims
