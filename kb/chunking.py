"""Heading-aware Markdown chunking that keeps exact source offsets.

Every chunk records where it came from (str offsets and 1-based lines in the
version's Markdown) so a claim can be traced back to a paragraph. Offsets are
Python str indices, so ``source[chunk.char_start:chunk.char_end] == chunk.text``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from markdown_it import MarkdownIt
from markdown_it.token import Token

from checking.sentences import sentence_spans

# markdown-it turns exactly these into "\n" before it numbers lines, so token
# maps count lines the same way (str.splitlines would also split on \x0c, \u2028...).
_LINE_BREAK = re.compile(r"\r\n?|\n")

_FRONT_MATTER_OPEN = re.compile(r"---[ \t]*")
_FRONT_MATTER_CLOSE = re.compile(r"(?:---|\.\.\.)[ \t]*")

_PARSER = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class ChunkDraft:
    ordinal: int  # 0, 1, ... in document order
    heading_path: str  # "Benefits > Health insurance"; "" before the first heading
    text: str  # == source[char_start:char_end]
    char_start: int
    char_end: int
    line_start: int  # 1-based, inclusive
    line_end: int  # 1-based, inclusive
    paragraphs: tuple[tuple[int, int], ...]  # char ranges of the blocks (or block parts) in the chunk


class ParsedMarkdown(NamedTuple):
    front_matter: str  # the leading YAML front matter, verbatim ("" if none)
    tokens: list[Token]  # maps are line numbers in the whole source


@dataclass(frozen=True)
class _SourceLines:
    """Converts between markdown-it's 0-based line numbers and str offsets."""

    source: str
    starts: tuple[int, ...]

    @classmethod
    def of(cls, source: str) -> _SourceLines:
        return cls(source, (0, *(match.end() for match in _LINE_BREAK.finditer(source))))

    def offset(self, line: int) -> int:
        # A map may end one past the last line when the text has no final newline.
        return self.starts[line] if line < len(self.starts) else len(self.source)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1


@dataclass(frozen=True)
class _Heading:
    level: int
    text: str


@dataclass(frozen=True)
class _Block:
    """A top-level block's stripped char range; ``kind`` is its markdown-it token type."""

    start: int
    end: int
    number: int
    kind: str


@dataclass(frozen=True)
class _Unit:
    """A piece that is never split: a whole block, or one sentence of a long paragraph."""

    start: int
    end: int
    block_number: int


@dataclass(frozen=True)
class _Section:
    heading_path: str
    units: list[_Unit]


def chunk_markdown(source: str, *, target_chars: int = 1000, max_chars: int = 2000) -> list[ChunkDraft]:
    if not 0 < target_chars <= max_chars:
        raise ValueError("need 0 < target_chars <= max_chars")
    lines = _SourceLines.of(source)
    drafts: list[ChunkDraft] = []
    for section in _sections(source, lines=lines, max_chars=max_chars):
        for units in _pack(section.units, target_chars=target_chars, max_chars=max_chars):
            draft = _draft(units, source=source, lines=lines, ordinal=len(drafts), heading_path=section.heading_path)
            drafts.append(draft)
    return drafts


def parse_markdown(source: str, *, parser: MarkdownIt) -> ParsedMarkdown:
    """Parse with token maps in lines of ``source``, leaving YAML front matter out.

    CommonMark would read front matter as a thematic break plus a setext heading,
    which would put "title: ..." into every heading path.
    """
    front_matter_lines = _count_front_matter_lines(source)
    body_start = _SourceLines.of(source).offset(front_matter_lines)
    tokens = parser.parse(source[body_start:])
    for token in tokens:
        if token.map is not None:
            token.map = [token.map[0] + front_matter_lines, token.map[1] + front_matter_lines]
    return ParsedMarkdown(source[:body_start], tokens)


def _count_front_matter_lines(source: str) -> int:
    lines = _LINE_BREAK.split(source)
    if not _FRONT_MATTER_OPEN.fullmatch(lines[0]):
        return 0
    for index, line in enumerate(lines[1:], start=1):
        if _FRONT_MATTER_CLOSE.fullmatch(line):
            return index + 1
    return 0


def _heading_text(inline: Token) -> str:
    """The heading as plain text: emphasis, code and link markup dropped, raw HTML ignored."""
    return " ".join(_plain_text(inline.children or []).split())


def _plain_text(children: Sequence[Token]) -> str:
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "text_special", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(_plain_text(child.children or []))
    return "".join(parts)


def _sections(source: str, *, lines: _SourceLines, max_chars: int) -> Iterator[_Section]:
    headings: list[_Heading] = []
    units: list[_Unit] = []
    for item in _top_level_items(source, lines=lines):
        if isinstance(item, _Heading):
            if units:
                yield _Section(_heading_path(headings), units)
                units = []
            _enter_heading(headings, heading=item)
        else:
            units.extend(_units_of_block(item, source=source, max_chars=max_chars))
    if units:
        yield _Section(_heading_path(headings), units)


def _top_level_items(source: str, *, lines: _SourceLines) -> Iterator[_Heading | _Block]:
    parsed = parse_markdown(source, parser=_PARSER)
    if parsed.front_matter:
        yield _block(source, start=0, end=len(parsed.front_matter), number=0, kind="front_matter")
    for index, token in enumerate(parsed.tokens):
        if token.level != 0 or token.nesting == -1 or token.map is None:
            continue
        if token.type == "heading_open":
            yield _Heading(level=int(token.tag[1:]), text=_heading_text(parsed.tokens[index + 1]))
        elif token.type != "hr":  # a thematic break separates blocks; it carries no content
            start, end = lines.offset(token.map[0]), lines.offset(token.map[1])
            yield _block(source, start=start, end=end, number=index + 1, kind=token.type)


def _block(source: str, *, start: int, end: int, number: int, kind: str) -> _Block:
    start, end = _strip(source, start=start, end=end)
    return _Block(start, end, number, kind)


def _enter_heading(headings: list[_Heading], *, heading: _Heading) -> None:
    while headings and headings[-1].level >= heading.level:
        headings.pop()
    headings.append(heading)


def _heading_path(headings: list[_Heading]) -> str:
    return " > ".join(heading.text for heading in headings if heading.text)


def _units_of_block(block: _Block, *, source: str, max_chars: int) -> list[_Unit]:
    if block.start == block.end:
        return []
    if block.kind == "paragraph_open" and block.end - block.start > max_chars:
        spans = sentence_spans(source, block.start, block.end)
        return [_Unit(start, end, block.number) for start, end in spans]
    return [_Unit(block.start, block.end, block.number)]


def _strip(source: str, *, start: int, end: int) -> tuple[int, int]:
    while start < end and source[start].isspace():
        start += 1
    while end > start and source[end - 1].isspace():
        end -= 1
    return start, end


def _pack(units: list[_Unit], *, target_chars: int, max_chars: int) -> Iterator[list[_Unit]]:
    current: list[_Unit] = []
    for unit in units:
        if current and unit.end - current[0].start > max_chars:
            yield current
            current = []
        current.append(unit)
        if unit.end - current[0].start >= target_chars:
            yield current
            current = []
    if current:
        yield current


def _draft(
    units: list[_Unit], *, source: str, lines: _SourceLines, ordinal: int, heading_path: str
) -> ChunkDraft:
    start, end = units[0].start, units[-1].end
    return ChunkDraft(
        ordinal=ordinal,
        heading_path=heading_path,
        text=source[start:end],
        char_start=start,
        char_end=end,
        line_start=lines.line_of(start) + 1,
        line_end=lines.line_of(end - 1) + 1,
        paragraphs=_block_ranges(units),
    )


def _block_ranges(units: list[_Unit]) -> tuple[tuple[int, int], ...]:
    """One range per block; sentences of a split paragraph join back into their block."""
    ranges: list[tuple[int, int, int]] = []
    for unit in units:
        if ranges and ranges[-1][0] == unit.block_number:
            ranges[-1] = (unit.block_number, ranges[-1][1], unit.end)
        else:
            ranges.append((unit.block_number, unit.start, unit.end))
    return tuple((start, end) for _, start, end in ranges)
