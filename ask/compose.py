"""The offline extractive composer: the answer is the qualified evidence's sentences that best cover the question.

Passages are cut into units the way a reader quotes them: sentences of prose paragraphs and list items (the
shared splitter, kb/sentences.py), and single table rows (matched together with the table's header row). Each
unit is scored by the question's key terms it contains, rarer terms weighing more; the best unit opens the
answer, and further units join only while they cover key terms not yet covered (at most ASK_MAX_SENTENCES).
Every claim is a verbatim quote, so its offsets are offsets into the version's text, like Evidence's.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from django.conf import settings

from ask.gate import KeyTerm
from kb.models import Chunk
from kb.search import SearchHit
from kb.sentences import sentence_spans, strip_span
from review.checking.text import tokenize
from review.checking.windows import stem_found

_LIST_MARKER = re.compile(r"(?:[-*+]|\d+[.)])\s+")
_TABLE_RULE = re.compile(r"\|?\s*:?-{3,}")
_HEADING_WEIGHT = 0.5  # a term found only in the passage's heading path counts for half


@dataclass(frozen=True)
class ComposedClaim:
    chunk: Chunk
    quote_start: int  # offsets into the version's text
    quote_end: int
    rank: int  # the passage's rank in retrieval (1 = best)

    @property
    def text(self) -> str:
        return self.chunk.version.text[self.quote_start:self.quote_end]

    def as_dict(self) -> dict:
        version = self.chunk.version
        return {
            "source_id": {"document_key": version.document.key, "version": version.number, "chunk_id": self.chunk.pk},
            "source_title": version.document.title,
            "quote_start": self.quote_start, "quote_end": self.quote_end, "text": self.text,
        }


@dataclass
class Composition:
    answer: str
    claims: list[ComposedClaim]


@dataclass(frozen=True)
class _Unit:
    chunk: Chunk
    start: int
    end: int
    rank: int
    stems: frozenset[str]
    heading_stems: frozenset[str]


def _stems(text: str, start: int, end: int, *, table: bool) -> frozenset[str]:
    return frozenset(t.stem for t in tokenize(text, start, end, table=table) if t.kind in {"word", "num"})


def _blocks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Paragraph-like blocks (separated by blank lines) within text[start:end]."""
    blocks, block_start, position = [], None, start
    for line in text[start:end].splitlines(keepends=True):
        line_end = position + len(line)
        if line.strip():
            block_start = position if block_start is None else block_start
        elif block_start is not None:
            blocks.append((block_start, position))
            block_start = None
        position = line_end
    if block_start is not None:
        blocks.append((block_start, end))
    return blocks


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans, position = [], start
    for line in text[start:end].splitlines(keepends=True):
        spans.append(strip_span(text, position, position + len(line)))
        position += len(line)
    return [(a, b) for a, b in spans if a < b]


def passage_units(chunk: Chunk, *, rank: int) -> list[_Unit]:
    """The quotable units of one passage: sentences, list items' sentences and table rows."""
    text = chunk.version.text
    heading = _stems(chunk.heading_path, 0, len(chunk.heading_path), table=False)
    units: list[_Unit] = []
    for block_start, block_end in _blocks(text, chunk.char_start, chunk.char_end):
        lines = _lines(text, block_start, block_end)
        if text[lines[0][0]] == "#":
            lines = lines[1:]  # a heading line: already in the heading path
            if not lines:
                continue
        if all(text[a] == "|" for a, _ in lines):
            header = _stems(text, *lines[0], table=True)
            for a, b in lines[1:]:
                if not _TABLE_RULE.match(text, a):
                    units.append(_Unit(chunk, a, b, rank, _stems(text, a, b, table=True), heading | header))
            continue
        items = [a for a, _ in lines if _LIST_MARKER.match(text, a)] or [lines[0][0]]
        items = sorted({lines[0][0], *items})
        for item_start, item_end in zip(items, [*items[1:], lines[-1][1]], strict=True):
            marker = _LIST_MARKER.match(text, item_start)
            body_start = marker.end() if marker else item_start
            for a, b in sentence_spans(text, body_start, item_end):
                units.append(_Unit(chunk, a, b, rank, _stems(text, a, b, table=False), heading))
    return units


def _weights(terms: list[KeyTerm], units: list[_Unit]) -> dict[str, float]:
    """Rarer terms among the candidate units weigh more (inverse document frequency)."""
    count = len(units) or 1
    return {t.stem: math.log(1 + count / (1 + sum(stem_found(t.stem, u.stems) > 0 for u in units))) for t in terms}


def _gain(unit: _Unit, weights: dict[str, float], covered: set[str]) -> float:
    gain = 0.0
    for stem, weight in weights.items():
        if stem in covered:
            continue
        found = stem_found(stem, set(unit.stems))
        gain += weight * (found or _HEADING_WEIGHT * stem_found(stem, set(unit.heading_stems)))
    return gain


def answer_compose(*, terms: list[KeyTerm], hits: list[SearchHit], max_sentences: int | None = None) -> Composition:
    """The best-covering sentences of the qualified passages, best first, each a verbatim quote."""
    max_sentences = max_sentences or settings.ASK_MAX_SENTENCES
    units = [unit for rank, hit in enumerate(hits, start=1) for unit in passage_units(hit.chunk, rank=rank)]
    weights = _weights(terms, units)
    chosen: list[_Unit] = []
    covered: set[str] = set()
    while len(chosen) < max_sentences:
        scored = [(_gain(u, weights, covered), -u.rank, -u.start, u) for u in units if u not in chosen]
        best = max(scored, default=None, key=lambda row: row[:3])
        if best is None or best[0] <= 0:
            break
        unit = best[3]
        chosen.append(unit)
        covered |= {stem for stem in weights if stem_found(stem, set(unit.stems))}
    claims = [ComposedClaim(chunk=u.chunk, quote_start=u.start, quote_end=u.end, rank=u.rank) for u in chosen]
    return Composition(answer=" ".join(claim.text for claim in claims), claims=claims)
