"""The offline extractive composer: the answer is the qualified evidence's sentences that best cover the question.

Passages are cut into units the way a reader quotes them: sentences of prose paragraphs and list items (the
shared splitter, kb/sentences.py), and single table rows (matched together with the table's header row). Each
unit is scored by the question's key terms it contains (rarer terms weighing more), times how close its meaning
is to the question's (embeddings through the checker's embedder; without them, by terms alone). The best unit
opens the answer; further units join while they add key terms not yet covered, worth at least half the first's
score (at most ASK_MAX_SENTENCES); a chosen unit's heading path counts as covered ("business" in the title of a
business-travel policy needs no sentence of its own).
A sentence that only announces a table or list ("... depends on the plan:") states nothing and is never quoted.
Every claim is a verbatim quote, so its offsets are offsets into the version's text, like Evidence's.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass

from django.conf import settings

from ask.gate import KeyTerm
from kb.embeddings import EmbeddingError, Role
from kb.models import Chunk
from kb.search import SearchHit
from kb.sentences import sentence_spans, strip_span
from checking.languages import detect_language
from checking.text import tokenize
from checking.windows import stem_found

_LIST_MARKER = re.compile(r"(?:[-*+]|\d+[.)])\s+")
_TABLE_RULE = re.compile(r"\|?\s*:?-{3,}")
_HEADING_WEIGHT = 0.5  # a term found only in the passage's heading path counts for half
_JOIN_AT = 0.3  # a further unit joins only if it adds at least this share of the first unit's score

logger = logging.getLogger(__name__)


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
    stems: frozenset[str]  # a table row's include its header's: the column names say what its cells are
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
                    units.append(_Unit(chunk, a, b, rank, _stems(text, a, b, table=True) | header, heading))
            continue
        items = [a for a, _ in lines if _LIST_MARKER.match(text, a)] or [lines[0][0]]
        items = sorted({lines[0][0], *items})
        for item_start, item_end in zip(items, [*items[1:], lines[-1][1]], strict=True):
            marker = _LIST_MARKER.match(text, item_start)
            body_start = marker.end() if marker else item_start
            for a, b in sentence_spans(text, body_start, item_end):
                if text[b - 1] == ":":
                    continue  # announces what follows; states nothing itself
                units.append(_Unit(chunk, a, b, rank, _stems(text, a, b, table=False), heading))
    return units


def _weights(terms: list[KeyTerm], units: list[_Unit]) -> dict[str, float]:
    """Rarer terms among the candidate units weigh more (inverse document frequency)."""
    count = len(units) or 1
    return {t.stem: math.log(1 + count / (1 + sum(stem_found(t.stem, u.stems) > 0 for u in units))) for t in terms}


def _closeness(question: str, units: list[_Unit]) -> list[float]:
    """1 + cosine similarity of each unit to the question (1 for all when no embeddings can be had)."""
    from review.pipeline import _CachedEmbedder

    texts = [" ".join(u.chunk.version.text[u.start:u.end].split()) for u in units]
    try:
        embed = _CachedEmbedder(language=detect_language(question))
        question_vector = embed.vectors_for([question], role=Role.QUERY)[0]
        vectors = embed.vectors_for(texts, role=Role.PASSAGE)
    except EmbeddingError as exc:
        logger.warning("composer: ranking by key terms only: %s", exc)
        return [1.0] * len(units)
    return [1.0 + max(0.0, float(value)) for value in vectors @ question_vector]


def _gain(unit: _Unit, weights: dict[str, float], covered: set[str]) -> float:
    gain = 0.0
    for stem, weight in weights.items():
        if stem in covered:
            continue
        found = stem_found(stem, set(unit.stems))
        gain += weight * (found or _HEADING_WEIGHT * stem_found(stem, set(unit.heading_stems)))
    return gain


def answer_compose(*, question: str, terms: list[KeyTerm], hits: list[SearchHit],
                   max_sentences: int | None = None) -> Composition:
    """The best-covering sentences of the qualified passages, best first, each a verbatim quote."""
    max_sentences = max_sentences or settings.ASK_MAX_SENTENCES
    units = [unit for rank, hit in enumerate(hits, start=1) for unit in passage_units(hit.chunk, rank=rank)]
    weights = _weights(terms, units)
    closeness = dict(zip(units, _closeness(question, units), strict=True)) if units else {}
    chosen: list[_Unit] = []
    covered: set[str] = set()
    first = 0.0
    while len(chosen) < max_sentences:
        scored = [(_gain(u, weights, covered) * closeness[u], -u.rank, -u.start, u) for u in units if u not in chosen]
        best = max(scored, default=None, key=lambda row: row[:3])
        if best is None or best[0] <= 0 or (chosen and best[0] < _JOIN_AT * first):
            break
        first = first if chosen else best[0]
        unit = best[3]
        chosen.append(unit)
        covered |= {stem for stem in weights if stem_found(stem, set(unit.stems | unit.heading_stems))}
    claims = [ComposedClaim(chunk=u.chunk, quote_start=u.start, quote_end=u.end, rank=u.rank) for u in chosen]
    # The answer reads as prose: the quotes' hard line breaks are not part of it (the claims keep them).
    return Composition(answer=" ".join(" ".join(claim.text.split()) for claim in claims), claims=claims)
