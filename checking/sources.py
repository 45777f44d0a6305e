"""A statement that a named source lacks something ("Passage 3 discusses pickled cucumbers, but does not mention
pickled eggs.", 段落二没有提到退款期限) is checked against that source only, when the context labels its sources
("passage 1: …", 段落一：…): what passage 1 states does not make passage 3 mention it.

Only such claims about the sources are scoped: an answer names a passage loosely when it states a fact ("Passage 1
describes …" of what passages 1 and 2 say together; measured in docs/evaluation.md, "a fourth pass").
The other sources are blanked, not dropped: every offset (the quote, the candidate's index) stays the context's own.
A statement naming a source the context does not label ("passage 4" of three) is checked against them all, as
before: which source it meant is unknown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from checking.base import EvidenceCandidate
from checking.languages.zh import SOURCE_NUMERAL
from checking.languages.zh_numbers import number_value
from checking.numbering import REFERENCE_JOINERS
from checking.quantity_words import ORDINAL_WORDS, REFERENCE_WORDS
from checking.text import tokenize

_NUMBER = rf"[0-9]{{1,2}}|{SOURCE_NUMERAL}"  # a source's number, in digits or Chinese numerals (段落十二)
# A source's label opening its line: "passage 1:", "Source 2 -", 段落二：
_LABEL = re.compile(
    rf"^[ \t]*(?P<label>(?:{'|'.join(sorted(map(re.escape, REFERENCE_WORDS), key=len, reverse=True))})[ \t]*"
    rf"(?P<number>{_NUMBER}))[ \t]*[:：.\-]", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class NamedSources:
    """The sources a claim names, as the context labels them ("passage 3", 段落三), and the candidates with every
    other labelled source blanked."""

    labels: tuple[str, ...]
    candidates: Sequence[EvidenceCandidate]


def _number(word: str) -> int | None:
    if not re.fullmatch(_NUMBER, word):
        return None
    try:
        return int(number_value(word))
    except ValueError:
        return None  # not a numeral cn2an reads ("十一十")


def named_sources(text: str) -> frozenset[int]:
    """The numbers of the sources ``text`` names: "passage 3", "passages 1 and 2", "the first passage", 段落二."""
    tokens = tokenize(text, 0, len(text), table=False)
    named: set[int] = set()
    for i, token in enumerate(tokens):
        if token.lower not in REFERENCE_WORDS:
            continue
        if i > 0 and (ordinal := ORDINAL_WORDS.get(tokens[i - 1].lower)):
            named.add(ordinal)  # "the third passage"
        k = i + 1
        while k < len(tokens) and (number := _number(tokens[k].text)) is not None:
            named.add(number)
            k += 2 if k + 1 < len(tokens) and tokens[k + 1].lower in REFERENCE_JOINERS else 1
    return frozenset(named)


def source_sections(text: str) -> dict[int, tuple[str, int, int]]:
    """Each labelled source of a context by its number: its label as written, and where it is (from its label to the
    next label, or the end)."""
    labels = [(_number(m.group("number")), m.group("label"), m.start()) for m in _LABEL.finditer(text)]
    if not labels:
        return {}
    ends = [start for _, _, start in labels[1:]] + [len(text)]
    return {number: (label, start, end) for (number, label, start), end in zip(labels, ends, strict=True)
            if number is not None}


def sources_named(*, claim: str, candidates: Sequence[EvidenceCandidate]) -> NamedSources | None:
    """The sources ``claim`` names with the candidates narrowed to them; None when it names none, or names one no
    candidate labels."""
    named = named_sources(claim)
    if not named:
        return None
    sections = [source_sections(candidate.text) for candidate in candidates]
    labels = {number: label for found in sections for number, (label, _, _) in found.items()}
    if not named <= labels.keys():
        return None
    narrowed = [candidate if not found else replace(candidate, text=_blanked(candidate.text, [
        (start, end) for number, (_, start, end) in found.items() if number in named])) for candidate, found in zip(
        candidates, sections, strict=True)]
    return NamedSources(labels=tuple(labels[number] for number in sorted(named)), candidates=narrowed)


def _blanked(text: str, kept: list[tuple[int, int]]) -> str:
    """``text`` with everything outside ``kept`` turned to spaces (line breaks stay, so sentences end where they
    did)."""
    chars = [char if char == "\n" else " " for char in text]
    for start, end in kept:
        chars[start:end] = text[start:end]
    return "".join(chars)
