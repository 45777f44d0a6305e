"""Side-by-side version diff: changed lines paired, the changed words inside them marked (rendered server-side)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

CONTEXT_LINES = 3
# Words and the whitespace between them: a changed number or word is marked, not its whole line.
TOKEN = re.compile(r"\s+|\w+|[^\w\s]")


@dataclass(frozen=True)
class DiffSide:
    number: int | None  # line number in that version; None where the other side has a line this one lacks
    html: SafeString
    kind: str  # "same", "del" (old side), "add" (new side) or "empty"


@dataclass(frozen=True)
class DiffRow:
    old: DiffSide | None
    new: DiffSide | None
    skipped: int = 0  # a gap row: this many unchanged lines are not shown


@dataclass(frozen=True)
class VersionDiff:
    rows: list[DiffRow]
    added: int
    removed: int

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)


EMPTY = DiffSide(number=None, html=mark_safe(""), kind="empty")


def _word_marks(old: str, new: str) -> tuple[SafeString, SafeString]:
    """Both lines escaped, with the words only one of them has wrapped in <del> (old) and <ins> (new)."""
    a, b = TOKEN.findall(old), TOKEN.findall(new)
    old_parts, new_parts = [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        removed, inserted = escape("".join(a[i1:i2])), escape("".join(b[j1:j2]))
        if tag == "equal":
            old_parts.append(removed)
            new_parts.append(inserted)
            continue
        if removed:
            old_parts.append(f"<del>{removed}</del>")
        if inserted:
            new_parts.append(f"<ins>{inserted}</ins>")
    return mark_safe("".join(old_parts)), mark_safe("".join(new_parts))  # every piece escaped above


def _changed_rows(old_lines: list[str], new_lines: list[str], i1: int, i2: int, j1: int, j2: int) -> list[DiffRow]:
    rows = []
    for offset in range(max(i2 - i1, j2 - j1)):
        i, j = i1 + offset, j1 + offset
        has_old, has_new = i < i2, j < j2
        if has_old and has_new:
            old_html, new_html = _word_marks(old_lines[i], new_lines[j])
        else:
            old_html = escape(old_lines[i]) if has_old else ""
            new_html = escape(new_lines[j]) if has_new else ""
        rows.append(DiffRow(
            old=DiffSide(number=i + 1, html=mark_safe(old_html), kind="del") if has_old else EMPTY,
            new=DiffSide(number=j + 1, html=mark_safe(new_html), kind="add") if has_new else EMPTY,
        ))
    return rows


def _same_rows(lines: list[str], i1: int, i2: int, j1: int) -> list[DiffRow]:
    return [
        DiffRow(old=DiffSide(number=i + 1, html=escape(lines[i]), kind="same"),
                new=DiffSide(number=j1 + (i - i1) + 1, html=escape(lines[i]), kind="same"))
        for i in range(i1, i2)
    ]


def version_text_diff(*, old_text: str, new_text: str, context: int = CONTEXT_LINES) -> VersionDiff:
    """Rows for a two-column table: unchanged runs longer than 2 × `context` lines fold into one gap row."""
    old_lines, new_lines = old_text.splitlines(), new_text.splitlines()
    opcodes = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes()
    rows: list[DiffRow] = []
    added = removed = 0
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag != "equal":
            removed += i2 - i1
            added += j2 - j1
            rows += _changed_rows(old_lines, new_lines, i1, i2, j1, j2)
            continue
        keep_before = context if index > 0 else 0  # lines after the previous change
        keep_after = context if index < len(opcodes) - 1 else 0  # lines before the next change
        if i2 - i1 <= keep_before + keep_after:
            rows += _same_rows(old_lines, i1, i2, j1)
            continue
        rows += _same_rows(old_lines, i1, i1 + keep_before, j1)
        rows.append(DiffRow(old=None, new=None, skipped=i2 - i1 - keep_before - keep_after))
        rows += _same_rows(old_lines, i2 - keep_after, i2, j2 - keep_after)
    return VersionDiff(rows=rows, added=added, removed=removed)
