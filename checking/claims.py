"""Split an answer (plain text or Markdown) into checkable claims with exact offsets.

A claim is a sentence, a list item or a table row; a sentence that joins two
independent statements (", and ...", "; ...", ", while ...") is split in two when
both halves can stand alone. Offsets are ``str`` indices, so
``answer[claim.start:claim.end] == claim.text``.

Not everything is a claim: headings, table header rows, questions, short
conversational lines ("Hope this helps!", "Let me know if ...") and replies with
nothing checkable in them ("Yes.", "Exactly!": no number and no word beyond
answer words and stop-words) are skipped, so pleasantries never make
an answer unverifiable. Nor is how an assistant frames what it says: an
attribution opening or closing a statement ("Based on the given passages,",
", as mentioned in passage 3") is cut from its claim, and its words about
itself or its answer ("Unable to answer based on given passages.") are no
claim (each language's patterns, ``checking.languages``). An answer with no claim at all goes to a person
(``pipeline.risk_assess``).

``text_segments`` is shared with the checker, which cuts evidence the same way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from checking.languages import detect_language, language_for
from checking.references import carried_subject, leading_reference
from checking.sentences import sentence_spans, strip_span
from checking.text import (
    CHATTER_PATTERNS,
    CLOSING_FRAMING_PATTERNS,
    FRAMING_PATTERNS,
    META_PATTERNS,
    REPLY_WORDS,
    absence_stated,
    is_content,
    tokenize,
)

SegmentKind = Literal["heading", "item", "table_header", "table_row", "sentence"]
_BlockKind = Literal["heading", "item", "table_header", "table_row", "paragraph"]


@dataclass(frozen=True)
class ClaimSpan:
    text: str
    start: int  # offsets into the answer text; answer[start:end] == text
    end: int
    # A claim opening with a back-reference ("These symptoms …") is checked with the previous claim's subject in
    # its place (checking.references): ``reference`` is where that word is in ``text``, ``subject`` what stands in
    # for it. What a person reads — text, span, quote — stays the claim's own.
    reference: tuple[int, int] | None = None
    subject: str = ""

    @property
    def checked_text(self) -> str:
        """The text the checker reads for the claim."""
        if self.reference is None:
            return self.text
        start, end = self.reference
        return self.text[:start] + self.subject + self.text[end:]

    def span_in_text(self, span: tuple[int, int]) -> tuple[int, int]:
        """A span of ``checked_text`` (a finding's) as offsets in ``text``: the subject's words are the
        back-reference's."""
        if self.reference is None:
            return span
        start, end = self.reference
        shift = (end - start) - len(self.subject)
        subject_end = start + len(self.subject)
        a, b = span
        return (a if a < start else start if a < subject_end else a + shift,
                b if b <= start else end if b <= subject_end else b + shift)


@dataclass(frozen=True)
class Segment:
    start: int
    end: int
    kind: SegmentKind
    block: int  # the sentences of one paragraph or item, and the rows of one table, share it


@dataclass
class _OpenBlock:
    start: int
    end: int
    kind: _BlockKind


_HEADING = re.compile(r"[ \t]{0,3}#{1,6}(?:[ \t]+|$)")
# A "heading" line longer than this is text that merely starts with "#" (a web page flattened onto one line);
# read as a heading it would hide every sentence of it from the checker.
_MAX_HEADING_CHARS = 200
_LIST_MARKER = re.compile(r"[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+")
_TABLE_ROW = re.compile(r"[ \t]*\|")
_TABLE_SEPARATOR = re.compile(r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?")
_LINE = re.compile(r"[^\n]*\n|[^\n]+")

_CLAUSE_CUT = re.compile(r",\s+(?:and|but|while|whereas)\s+|;\s+|；")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*|\d[\d,.]*")
_CHATTER = re.compile(
    r"\W*(?:hope (?:this|that|it) helps|i hope|let me know|feel free|happy to help|glad to help|thanks?\b|"
    r"thank you|hi\b|hello\b|hey\b|good (?:morning|afternoon|evening)\b|sure\b|certainly\b|of course|"
    r"great question|good question|you're welcome|"
    r"you are welcome|please (?:reach out|contact|ask))",
    re.IGNORECASE,
)
# A reply opening a sentence, up to its comma: "不可以，", "No, ".
_REPLY_OPENING = re.compile(r"\s*([^\W\d_][^\W\d_ ]*(?: [^\W\d_]+)?)\s*[,，]\s*")
_REPLY_PIECE = re.compile(r"[\W_]+")
_CHATTER_MAX_WORDS = 12
_CHATTER_MAX_CHARS = 24
_MAX_FRAMINGS = 3  # "Therefore, based on the passages, it is important to note that ..."


def split_claims(text: str) -> list[ClaimSpan]:
    claims: list[ClaimSpan] = []
    for segment in text_segments(text, quotations=True):
        if segment.kind in ("heading", "table_header") or not _is_claim_like(text[segment.start : segment.end]):
            continue
        start = _statement_start(text, _after_reply(text, segment.start, segment.end), segment.end)
        if start is None:
            continue
        for clause_start, clause_end in _independent_clauses(text, start, _statement_end(text, start, segment.end)):
            claims.append(ClaimSpan(text[clause_start:clause_end], clause_start, clause_end))
    return _subjects_carried(claims)


def _subjects_carried(claims: list[ClaimSpan]) -> list[ClaimSpan]:
    """Each claim opening with a back-reference, checked with the subject of the claim before it (that claim's own
    subject taken over where it leaned back itself: "It costs $40. It has five users.")."""
    carried: list[ClaimSpan] = []
    subject = ""
    for claim in claims:
        # A claim about the sources ("It is unclear whether X", "They do not mention X") names what it is about
        # itself: its "it" or "they" is no earlier claim's subject.
        reference = leading_reference(claim.text) if absence_stated(claim.text) is None else None
        if reference is not None and subject:
            claim = replace(claim, reference=reference, subject=subject)
        subject = carried_subject(claim.checked_text) or (subject if claim.reference is not None else "")
        carried.append(claim)
    return carried


def _statement_start(text: str, start: int, end: int) -> int | None:
    """Where the statement of ``text[start:end]`` starts after the assistant's framing ("Based on the given
    passages, ", "Passage 2 states that "): the framing names which evidence, it is not content, and its passage
    numbers are no quantities. None where the sentence states nothing about the world: the assistant's words about
    itself or its answer ("Unable to answer based on given passages.", "Here's my answer:"), or framing alone."""
    for _ in range(_MAX_FRAMINGS):
        framing = next((m for pattern in FRAMING_PATTERNS if (m := pattern.match(text, start, end)) and m.end() > start),
                       None)
        if framing is None:
            break
        start = framing.end()
    if any(pattern.match(text, start, end) for pattern in META_PATTERNS) or text[start:end].rstrip().endswith(":"):
        return None
    # An attribution standing alone after its sentence's full stop ("… in the urine. (Passage 2)") names the source
    # of the sentence before; it states nothing itself.
    if any(pattern.match(text, start, end) for pattern in CLOSING_FRAMING_PATTERNS):
        return None
    return start if _checkable(text[start:end]) else None


def _statement_end(text: str, start: int, end: int) -> int:
    """Where the statement ends before an attribution closing it (", as mentioned in passage 3.", "(Passage 2)")."""
    for pattern in CLOSING_FRAMING_PATTERNS:
        closing = pattern.search(text, start, end)
        if closing is not None and closing.start() > start:
            return closing.start()
    return end


def _after_reply(text: str, start: int, end: int) -> int:
    """Where a sentence's statement starts, after an opening reply ("不可以，公司禁止…", "No, refunds are…"): the
    reply says nothing a source could confirm, the statement after it does."""
    opening = _REPLY_OPENING.match(text, start, end)
    if opening is None or opening.group(1).lower() not in REPLY_WORDS or not _checkable(text[opening.end():end]):
        return start
    return opening.end()


def text_segments(text: str, *, quotations: bool = False) -> list[Segment]:
    """Headings, list items, table rows and sentences of ``text``, in order, whitespace-trimmed (a quotation one
    sentence with the one quoting it, with ``quotations``: see sentence_spans)."""
    segments: list[Segment] = []
    for block, (start, end, kind) in enumerate(_blocks(text)):
        if kind in ("paragraph", "item"):
            sentences = sentence_spans(text, start, end, quotations=quotations)
            sentence_kind: SegmentKind = "item" if kind == "item" and len(sentences) == 1 else "sentence"
            segments.extend(Segment(a, b, sentence_kind, block) for a, b in sentences)
        else:
            segments.append(Segment(start, end, kind, block))
    return segments


def _blocks(text: str) -> list[tuple[int, int, _BlockKind]]:
    """Markdown-ish blocks: headings, list items, table rows and soft-wrapped paragraphs."""
    blocks: list[tuple[int, int, _BlockKind]] = []
    open_block: _OpenBlock | None = None

    def close() -> None:
        nonlocal open_block
        if open_block is not None:
            blocks.append((*strip_span(text, open_block.start, open_block.end), open_block.kind))
            open_block = None

    rows_in_table = 0
    for match in _LINE.finditer(text):
        line = match.group().rstrip("\r\n")
        line_start, line_end = match.start(), match.start() + len(line)
        if not line.strip():
            close()
            rows_in_table = 0
            continue
        if _TABLE_ROW.match(line):
            close()
            if not _TABLE_SEPARATOR.fullmatch(line):
                kind: _BlockKind = "table_header" if rows_in_table == 0 else "table_row"
                blocks.append((*strip_span(text, line_start, line_end), kind))
                rows_in_table += 1
            continue
        rows_in_table = 0
        heading = _HEADING.match(line) if line_end - line_start <= _MAX_HEADING_CHARS else None
        marker = _LIST_MARKER.match(line)
        if heading:
            close()
            blocks.append((*strip_span(text, line_start + heading.end(), line_end), "heading"))
        elif marker:
            close()
            open_block = _OpenBlock(line_start + marker.end(), line_end, "item")
        elif open_block is not None:
            open_block.end = line_end  # a soft-wrapped continuation line
        else:
            open_block = _OpenBlock(line_start, line_end, "paragraph")
    close()
    return [(start, end, kind) for start, end, kind in blocks if start < end]


def _independent_clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cut a sentence at ", and" / "; " / ", while" / "；" when both sides stand alone (the sentence's language
    says what a clause is)."""
    language = language_for(detect_language(text[start:end]))
    pieces: list[tuple[int, int]] = []
    piece_start = start
    depth_ok = _outside_brackets(text, start, end)
    for cut in _CLAUSE_CUT.finditer(text, start, end):
        if not depth_ok(cut.start()):
            continue
        left, right = text[piece_start : cut.start()], text[cut.end() : end]
        if language.stands_alone(left) and language.stands_alone(_first_clause(right)) \
                and not language.leans_back(right) and not language.provisions_paired(left, right):
            pieces.append(strip_span(text, piece_start, cut.start()))
            piece_start = cut.end()
    pieces.append(strip_span(text, piece_start, end))
    return [(a, b) for a, b in pieces if a < b]


def _outside_brackets(text: str, start: int, end: int) -> Callable[[int], bool]:
    depth = [0] * (end - start + 1)
    level = 0
    for offset, char in enumerate(text[start:end]):
        level += char in "([{"
        level -= char in ")]}" and level > 0
        depth[offset + 1] = level
    return lambda position: depth[position - start] == 0


def _first_clause(text: str) -> str:
    cut = _CLAUSE_CUT.search(text)
    return text[: cut.start()] if cut else text


def _is_claim_like(sentence: str) -> bool:
    if not any(char.isalnum() for char in sentence):
        return False
    stripped = sentence.rstrip(" *_\"'”’)")
    if stripped.endswith("?"):
        return False
    short = len(_WORD.findall(sentence)) <= _CHATTER_MAX_WORDS
    # Chinese has no spaces to count words by: its pleasantries are told by length.
    chatter = _CHATTER.match(sentence) or (len(sentence) <= _CHATTER_MAX_CHARS
                                           and any(pattern.match(sentence) for pattern in CHATTER_PATTERNS))
    if short and chatter and not any(char.isdigit() for char in sentence):
        return False
    return _checkable(sentence)


def _checkable(sentence: str) -> bool:
    """A number, or a word that says what about: "Paris.", "$750.", "Refunds are not available." are; "Yes.",
    "No.", "Exactly!", "It is." and "很遗憾，不能。" are not (a source cannot confirm them on their own)."""
    if all(reply.lower() in REPLY_WORDS for reply in _REPLY_PIECE.split(sentence) if reply):
        return False  # the segmenter cuts replies into words ("不适用" is 不 + 适用); as written they are replies
    return any(token.kind == "num" or (is_content(token) and token.lower not in REPLY_WORDS)
               for token in tokenize(sentence, 0, len(sentence), table=False))
