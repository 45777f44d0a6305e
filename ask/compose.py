"""The offline extractive composer: the answer is the qualified evidence's sentences that best cover the question.

Passages are cut into units the way a reader quotes them: sentences of prose paragraphs (the shared splitter,
checking/sentences.py; Chinese ends them at 。！？；), whole list items and single table rows (matched together with
the table's header row). A unit about the opposite case of a key term (the 国内 row for 国际) is never quoted. Each
unit is scored by the question's key terms it contains (rarer terms weighing more), times how close its meaning
is to the question's (embeddings through the checker's embedder; without them, by terms alone). The best unit
opens the answer; further units join while they add key terms not yet covered, worth at least half the first's
score (at most ASK_MAX_SENTENCES); a chosen unit's heading path counts as covered ("business" in the title of a
business-travel policy needs no sentence of its own). A question asking several things first gets the best unit
for each part; the other items of the first unit's list with all its key terms follow it (the cases of a rule).
A sentence that only announces a table or list ("... depends on the plan:") states nothing and is never quoted.
Every claim is a verbatim quote, so its offsets are offsets into the version's text, like Evidence's.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass

from django.conf import settings

from ask.gate import KeyTerm, compound_parts, key_terms, term_found
from checking.languages import detect_language, language_for, language_of_word
from checking.quantities import find_quantities
from checking.quantity_cues import unit_at
from checking.sentences import sentence_spans, strip_span
from checking.text import ANTONYMS, asks, tokenize
from kb.embeddings import EmbeddingError, Role
from kb.models import Chunk
from kb.search import SearchHit

_LIST_MARKER = re.compile(r"(?:[-*+]|\d+[.)])\s+")
_TABLE_RULE = re.compile(r"\|?\s*:?-{3,}")
_PART_BREAK = re.compile(r"[,;，；]")
_HEADING_WEIGHT = 0.5  # a term found only in the passage's heading path counts for half
_JOIN_AT = 0.3  # a further unit joins only if it adds at least this share of the first unit's score
# A unit stating a value in the measure the question asks in ("几天", "how many days") answers it: its score is
# raised by this factor over a unit on the same terms stating none ("婚假十天" over "婚假……一年内一次性休完").
_ASKED_MEASURE_GAIN = 1.5

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
    list_at: int = -1  # a list item's: where its list starts
    header: tuple[int, int] | None = None  # a table row's: its table's header line


def _cells(text: str, start: int, end: int) -> list[str]:
    return [cell.strip() for cell in text[start:end].strip().strip("|").split("|")]


def _said(unit: _Unit) -> str:
    """How the answer says a unit: a sentence verbatim (its hard line breaks are not part of it), a table row as a
    sentence naming its row and columns in the passage's language ("The nightly cap for San Francisco is $300."),
    not "| San Francisco | $300 |" — which reads as nothing, and which the checker holds as no claim."""
    text = unit.chunk.version.text
    if unit.header is None:
        return " ".join(text[unit.start:unit.end].split())
    header, row = _cells(text, *unit.header), _cells(text, unit.start, unit.end)
    cells = [(column, value) for column, value in zip(header[1:], row[1:], strict=False) if column and value]
    if len(header) != len(row) or not row[0] or not cells:
        return " ".join(text[unit.start:unit.end].split())
    return language_for(unit.chunk.version.language).row_sentence(label=row[0], cells=cells)


def _stems(text: str, start: int, end: int, *, table: bool) -> frozenset[str]:
    """The unit's words (stems) and numbers, a Chinese word with its parts (国际出差: 国际, 出差)."""
    stems = [t.stem for t in tokenize(text, start, end, table=table) if t.kind in {"word", "num"}]
    return frozenset(stems).union(*(compound_parts(stem) for stem in stems))


def _sentences(chunk: Chunk, start: int, end: int) -> list[tuple[int, int]]:
    """Sentences of text[start:end] as the version's language ends them: Chinese also at "；", which joins
    independent clauses there ("员工离职的，……收回；员工调岗的，……收回。")."""
    text = chunk.version.text
    if chunk.version.language == "en":
        return sentence_spans(text, start, end)
    return [(start + a, start + b) for a, b in language_for(chunk.version.language).sentences(text[start:end])]


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
    """The quotable units of one passage: sentences, list items and table rows."""
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
                    units.append(_Unit(chunk, a, b, rank, _stems(text, a, b, table=True) | header, heading,
                                       header=lines[0]))
            continue
        listed = [a for a, _ in lines if _LIST_MARKER.match(text, a)]
        items = listed or [lines[0][0]]
        items = sorted({lines[0][0], *items})
        for item_start, item_end in zip(items, [*items[1:], lines[-1][1]], strict=True):
            marker = _LIST_MARKER.match(text, item_start)
            body_start = marker.end() if marker else item_start
            # A list item is one point of the list, quoted whole: a rule and the exception that follows it
            # ("禁止多人共用同一个账号。……应急管理员账号除外。"); prose is quoted by the sentence.
            spans = [strip_span(text, body_start, item_end)] if marker else _sentences(chunk, body_start, item_end)
            for a, b in spans:
                if text[b - 1] in ":：":
                    continue  # announces what follows; states nothing itself
                units.append(_Unit(chunk, a, b, rank, _stems(text, a, b, table=False), heading,
                                   list_at=listed[0] if marker else -1))
    return units


def _same_list_cases(first: _Unit, units: list[_Unit], weights: dict[str, float]) -> list[_Unit]:
    """The other items of the first unit's list that have every key term it has: the cases of one rule side by
    side ("连续病假不超过两天的，无需提供医院证明" and "连续病假三天及以上的，必须提供……证明")."""
    if first.list_at < 0:
        return []
    has = {stem for stem in weights if term_found(stem, first.stems)}
    return [u for u in units if u is not first and u.chunk is first.chunk and u.list_at == first.list_at
            and all(term_found(stem, u.stems) for stem in has)]


def _weights(terms: list[KeyTerm], units: list[_Unit]) -> dict[str, float]:
    """Rarer terms among the candidate units weigh more (inverse document frequency)."""
    count = len(units) or 1
    return {t.stem: math.log(1 + count / (1 + sum(term_found(t.stem, u.stems) > 0 for u in units))) for t in terms}


def _opposite_case(unit: _Unit, terms: list[KeyTerm]) -> bool:
    """The unit states the opposite case of a key term (or of a part of one) and not the term itself: a question
    about 国际出差 is not answered by the 国内出差 row, one about international trips not by the domestic rate
    (unless it asks about both)."""
    asked = {stem for term in terms for stem in (term.stem, *compound_parts(term.stem))}
    for stem in asked:
        if stem not in unit.stems and (ANTONYMS.get(stem, frozenset()) & unit.stems) - asked:
            return True
    return False


def _closeness(question: str, units: list[_Unit]) -> list[float]:
    """1 + cosine similarity of each unit to the question (1 for all when no embeddings can be had)."""
    from kb.vectors import CachedEmbedder

    texts = [" ".join(u.chunk.version.text[u.start:u.end].split()) for u in units]
    try:
        embed = CachedEmbedder(language=detect_language(question))
        question_vector = embed.vectors_for([question], role=Role.QUERY)[0]
        vectors = embed.vectors_for(texts, role=Role.PASSAGE)
    except EmbeddingError as exc:
        logger.warning("composer: ranking by key terms only: %s", exc)
        return [1.0] * len(units)
    return [1.0 + max(0.0, float(value)) for value in vectors @ question_vector]


def asked_measures(question: str) -> set[tuple[str, float]]:
    """The (kind, size) of the units a question asks its amount in: "how many days" and "几天" ask in days."""
    tokens = tokenize(question, 0, len(question), table=False)
    measures: set[tuple[str, float]] = set()
    for k, tok in enumerate(tokens):
        if not asks(tok.lower):
            continue
        unit = unit_at(tokens, k + 1)
        inside = language_of_word(tok.lower).asked_measure(tok.lower)
        if unit is None and inside:
            unit = unit_at(tokenize(inside, 0, len(inside), table=False), 0)
        if unit is not None:
            measures.add((unit[0], float(unit[1])))
    return measures


def _states_measure(unit: _Unit, measures: set[tuple[str, float]]) -> bool:
    text = unit.chunk.version.text
    tokens = tokenize(text, unit.start, unit.end, table=False)
    return any((q.kind, float(q.scale)) in measures for q in find_quantities(text, tokens))


def _gain(unit: _Unit, weights: dict[str, float], covered: set[str]) -> float:
    gain = 0.0
    for stem, weight in weights.items():
        if stem in covered:
            continue
        found = term_found(stem, unit.stems)
        gain += weight * (found or _HEADING_WEIGHT * term_found(stem, unit.heading_stems))
    return gain


def _asked_parts(question: str, terms: list[KeyTerm]) -> list[set[str]]:
    """The key terms (stems) of each part of a question that asks several things, cut at commas and semicolons
    ("产假有多少天，难产的话增加多少天？": {产假}, {难产, 增加}); a part that asks nothing belongs to the next one.
    Fewer than two parts: []."""
    stems = {term.stem for term in terms}
    parts, start = [], 0
    for cut in [*_PART_BREAK.finditer(question), None]:
        end = cut.start() if cut else len(question)
        text = question[start:end]
        if any(asks(t.lower) for t in tokenize(text, 0, len(text), table=False)) or cut is None:
            parts.append({term.stem for term in key_terms(question[start:end])} & stems)
            start = cut.end() if cut else end
    parts = [part for part in parts if part]
    return parts if len(parts) > 1 else []


def _per_part(*, question: str, terms: list[KeyTerm], units: list[_Unit], closeness: dict) -> list[_Unit]:
    """For a question asking several things, the best unit for each part: among the units with all of the part's
    terms, those that say nothing of the other parts' ("产假有多少天" is answered by the maternity-leave sentence,
    not by the one about the extra days, which answers the second part); a unit answering both parts answers
    each."""
    parts = _asked_parts(question, terms)
    chosen: list[_Unit] = []
    weights = _weights(terms, units)
    for part in parts:
        others = set().union(*(other for other in parts if other is not part)) - part
        whole = [u for u in units if all(term_found(stem, u.stems | u.heading_stems) for stem in part)]
        candidates = [u for u in whole if not any(term_found(stem, u.stems) for stem in others)] or whole or units
        own = {stem: weight for stem, weight in weights.items() if stem in part}
        scored = [(_gain(u, own, set()) * closeness[u], -u.rank, -u.start, u) for u in candidates]
        best = max(scored, default=None, key=lambda row: row[:3])
        if best is not None and best[0] > 0 and best[3] not in chosen:
            chosen.append(best[3])
    return chosen


def answer_compose(*, question: str, terms: list[KeyTerm], hits: list[SearchHit],
                   max_sentences: int | None = None) -> Composition:
    """The best-covering sentences of the qualified passages, best first, each a verbatim quote."""
    max_sentences = max_sentences or settings.ASK_MAX_SENTENCES
    units = [unit for rank, hit in enumerate(hits, start=1) for unit in passage_units(hit.chunk, rank=rank)
             if not _opposite_case(unit, terms)]
    weights = _weights(terms, units)
    closeness = dict(zip(units, _closeness(question, units), strict=True)) if units else {}
    if measures := asked_measures(question):
        closeness = {u: value * _ASKED_MEASURE_GAIN if _states_measure(u, measures) else value
                     for u, value in closeness.items()}
    chosen = _per_part(question=question, terms=terms, units=units, closeness=closeness)[:max_sentences]
    covered = {stem for stem in weights if any(term_found(stem, u.stems | u.heading_stems) for u in chosen)}
    first = max((_gain(u, weights, set()) * closeness[u] for u in chosen), default=0.0)
    while len(chosen) < max_sentences:
        scored = [(_gain(u, weights, covered) * closeness[u], -u.rank, -u.start, u) for u in units if u not in chosen]
        best = max(scored, default=None, key=lambda row: row[:3])
        if best is None or best[0] <= 0 or (chosen and best[0] < _JOIN_AT * first):
            break
        first = first if chosen else best[0]
        unit = best[3]
        chosen.append(unit)
        covered |= {stem for stem in weights if term_found(stem, unit.stems | unit.heading_stems)}
    if chosen:
        cases = [u for u in _same_list_cases(chosen[0], units, weights) if u not in chosen]
        chosen += cases[:max_sentences - len(chosen)]
    claims = [ComposedClaim(chunk=u.chunk, quote_start=u.start, quote_end=u.end, rank=u.rank) for u in chosen]
    # The answer reads as prose; the claims keep the quotes as the sources write them.
    return Composition(answer=" ".join(_said(u) for u in chosen), claims=claims)
