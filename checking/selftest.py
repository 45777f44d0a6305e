"""Labelled claims synthesised from a knowledge-base document, so a curator learns how well the checker knows it.

Pure functions over Markdown text: `claims_synthesize` takes one version's text and the other documents' texts
and returns supported variants (the sentence as written, a clause dropped, clauses reordered, two facts of one
section joined) and unsupported ones (a number, unit, date, name, direction, negation, antonym or role changed;
a sentence moved from another document; a clause appended from another document). A variant is only emitted
when its transformation changed the text. The same inputs and seed always give the same claims.

This module is what every language shares: the kinds, the claim and section types, the Markdown reading and the
one synthesiser. How a language reads its sentences and varies them is its `Variants`, in checking.languages
(`en_selftest`, `zh_selftest`), found by the version's language in VARIANTS. The runs' record is review's
(review.models.SelfTestRun, review.evaluation.selftest_run).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from django.utils.module_loading import import_string
from markdown_it import MarkdownIt
from markdown_it.token import Token

from checking.languages.detect import DEFAULT_LANGUAGE, detect_language

SUPPORTED_KINDS = ("verbatim", "clause_dropped", "reordered", "joined")
UNSUPPORTED_KINDS = (
    "number_swap", "unit_swap", "date_swap", "name_swap", "direction_flip", "negation", "antonym", "role_swap",
    "moved_sentence", "appended_clause",
)
PER_KIND = 6  # per version: a run over the demo knowledge base stays under two minutes

_PARSER = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class SynthesisedClaim:
    claim: str
    label: str  # "supported" or "unsupported"
    kind: str
    source: str  # the sentence (or sentences) it was made from


@dataclass(frozen=True)
class Section:
    heading: str
    sentences: tuple[str, ...]


# ---- reading the Markdown -----------------------------------------------------------------------------------------

def inline_text(token: Token) -> str:
    """The text of an inline token (a paragraph, list item or heading) without its markup, on one line."""
    parts = []
    for child in token.children or []:
        if child.type in {"text", "code_inline"}:
            parts.append(child.content)
        elif child.type in {"softbreak", "hardbreak"}:
            parts.append(" ")
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def sections_of(markdown: str, *, statements: Callable[[object], list[str]]) -> list[Section]:
    """Prose sentences (paragraphs and list items; not headings, tables or code) grouped by their heading;
    `statements` reads a paragraph's as its language writes them."""
    sections: list[Section] = []
    heading, sentences = "", []
    tokens = _PARSER.parse(markdown)
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            if sentences:
                sections.append(Section(heading, tuple(sentences)))
            heading, sentences = inline_text(tokens[index + 1]), []
        elif token.type == "paragraph_open":
            sentences += statements(tokens[index + 1])
    if sentences:
        sections.append(Section(heading, tuple(sentences)))
    return sections


# ---- the synthesiser ----------------------------------------------------------------------------------------------

Pool = object  # a language's names, as its name_pool reads them
Swap = Callable[[str, random.Random, Pool], str]


@dataclass(frozen=True)
class Variants:
    """One language's reading of a document and its ways to vary a sentence into each kind of claim: the one
    synthesiser (`synthesize`) makes every language's claims with the same kinds, seeds and limits."""

    sections_of: Callable[[str], list[Section]]
    name_pool: Callable[[Sequence[str]], Pool]
    word_count: Callable[[str], int]
    max_words: int  # two sentences joined stay under this many words
    written_together: Callable[[str, str], str]  # two sentences as the document writes them one after the other
    join: Callable[[str, str, Pool], str]
    clause_drop: Callable[[str], str]
    reorder: Callable[[str], str]
    swaps: dict[str, Swap]  # each unsupported kind made from one sentence, in the order they are made
    section_subject: Callable[[str], str | None]
    moved_sentence: Callable[[str, str], str]  # (a foreign sentence, a subject of this document)
    appended_clause: Callable[[str, str], str]  # (this document's sentence, a foreign sentence)
    lenders: Callable[[Sequence[str]], list[str]]  # the other documents that lend names and foreign sentences
    terms_learn: Callable[[Sequence[str]], None]  # the reading takes the documents' own terms before it reads them


# Each language's Variants by code, as a dotted path: each builds on this module, so it is imported when a version of
# its language is first synthesised, not as this module loads.
VARIANTS = {
    "en": "checking.languages.en_selftest.ENGLISH_VARIANTS",
    "zh": "checking.languages.zh_selftest.CHINESE_VARIANTS",
}


@cache
def _variants(path: str) -> Variants:
    return import_string(path)


def claims_synthesize(*, text: str, others: Sequence[str], seed: int = 0, per_kind: int = PER_KIND,
                      language: str | None = None) -> list[SynthesisedClaim]:
    """Labelled claims about `text`; `others` (the rest of the knowledge base) lends names and foreign sentences.

    `language` is the version's ("en", "zh"; detected from the text when not given): each language's claims are
    made by its Variants (VARIANTS; a language without its own reads as English), with the same kinds, seeds and
    limits."""
    variants = _variants(VARIANTS.get(language or detect_language(text), VARIANTS[DEFAULT_LANGUAGE]))
    return synthesize(text=text, others=others, seed=seed, per_kind=per_kind, variants=variants)


def synthesize(*, text: str, others: Sequence[str], seed: int, per_kind: int,
               variants: Variants) -> list[SynthesisedClaim]:
    """Every kind of claim from `text` as `variants` reads and varies it; a variant is kept only when it changed
    the sentence, at most `per_kind` of a kind, each kind shuffled by its own seed."""
    others = variants.lenders(others)
    variants.terms_learn([text, *others])
    sections = variants.sections_of(text)
    pool = variants.name_pool([text, *others])
    foreign = [s for other in others for section in variants.sections_of(other) for s in section.sentences]
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

    verbatim = [(s, s) for _, s in shuffled("verbatim", own)][:per_kind]
    claims += [SynthesisedClaim(claim=s, label="supported", kind="verbatim", source=s) for s, _ in verbatim]
    emit("clause_dropped", "supported", [(s, variants.clause_drop(s)) for _, s in shuffled("clause_dropped", own)])
    emit("reordered", "supported", [(s, variants.reorder(s)) for _, s in shuffled("reordered", own)])
    pairs = [(a, b) for section in sections for a, b in zip(section.sentences, section.sentences[1:])
             if variants.word_count(a) + variants.word_count(b) <= variants.max_words]
    emit("joined", "supported", [(variants.written_together(a, b), variants.join(a, b, pool))
                                 for a, b in shuffled("joined", pairs)])

    for kind, swap in variants.swaps.items():
        rng = random.Random(f"{seed}:{kind}:transform")
        emit(kind, "unsupported", [(sentence, swap(sentence, rng, pool)) for _, sentence in shuffled(kind, own)])

    subjects = [subject for section in sections if (subject := variants.section_subject(section.heading))]
    if subjects and foreign:
        rng = random.Random(f"{seed}:moved_sentence:subject")
        emit("moved_sentence", "unsupported", [(s, variants.moved_sentence(s, rng.choice(subjects)))
                                               for s in shuffled("moved_sentence", foreign)])
    if foreign:
        rng = random.Random(f"{seed}:appended_clause:other")
        emit("appended_clause", "unsupported", [(s, variants.appended_clause(s, rng.choice(foreign)))
                                                for _, s in shuffled("appended_clause", own)])
    return claims
