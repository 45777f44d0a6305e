"""Dates written with a month's name ("April 24th", "14 July 2015", "Jan. 2024", "May of 2023"), read from
tokens for ``checking.quantities``; ISO dates and dates written as another language writes them are read there."""

from __future__ import annotations

import re

from checking.quantity_words import MAY_CUES, MONTHS
from checking.text import Token

DAY_SUFFIXES = frozenset({"st", "nd", "rd", "th"})  # "1st", "24th"
_AMBIGUOUS_MONTHS = frozenset({"jan", "mar", "dec"})  # a name, a verb, a decimal: months only before a number


def date_at(tokens: list[Token], i: int) -> tuple[tuple[int | None, int | None, int | None], int, int] | None:
    """A date starting at token i: ((year, month, day), first token, end token)."""
    tok = tokens[i]
    month = MONTHS.get(bare_word(tok.lower))
    if month is None or not tok.capital:
        return None
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    prev = tokens[i - 1] if i > 0 else None
    if tok.lower == "may" and not ((nxt and nxt.kind == "num") or (prev and prev.lower in MAY_CUES)):
        return None
    if bare_word(tok.lower) in _AMBIGUOUS_MONTHS and not (nxt and nxt.kind == "num"):
        return None  # "Mar", "Dec" alone are too ambiguous; "Apr", "Sept" are not
    day = year = None
    first, j = i, i + 1
    if j < len(tokens) and tokens[j].text == "." and tokens[j].start == tok.end and len(tok.lower) <= 4 \
            and tok.lower not in ("may", "june", "july"):
        j += 1  # "Jan."
    if j < len(tokens) and tokens[j].kind == "num" and "," not in tokens[j].lower and "." not in tokens[j].lower:
        number = int(tokens[j].lower)
        if 1 <= number <= 31 and len(tokens[j].lower) <= 2:
            day = number
            j += 1
            if j < len(tokens) and tokens[j].lower in DAY_SUFFIXES and tokens[j].start == tokens[j - 1].end:
                j += 1
            if j + 1 < len(tokens) and tokens[j].lower == "," and is_year(tokens[j + 1]):
                year = int(tokens[j + 1].lower)
                j += 2
        elif is_year(tokens[j]):
            year = number
            j += 1
    elif j + 1 < len(tokens) and tokens[j].lower == "," and is_year(tokens[j + 1]):
        year = int(tokens[j + 1].lower)
        j += 2
    if day is None and prev is not None and prev.kind == "num" and len(prev.lower) <= 2 and 1 <= int(prev.lower) <= 31:
        day = int(prev.lower)  # "14 July 2015"
        first = i - 1
    if year is None and j < len(tokens) and tokens[j].lower == "of" and j + 1 < len(tokens) and is_year(tokens[j + 1]):
        year = int(tokens[j + 1].lower)
        j += 2
    return (year, month, day), first, j


def bare_word(word: str) -> str:
    """"February's" -> "february", "Jan." -> "jan"."""
    return re.sub(r"['’]s$", "", word).rstrip(".")


def is_year(tok: Token) -> bool:
    return tok.kind == "num" and len(tok.lower) == 4 and tok.lower.isdigit() and 1000 <= int(tok.lower) <= 2199
