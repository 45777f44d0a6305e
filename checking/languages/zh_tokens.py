"""Chinese text as the rules' tokens. The rules read checking.text.Token: Chinese text becomes the same tokens, so
every rule family runs on it. A numeral token is written as in the text ("五百"), its lower-case form is its value in
Arabic digits ("500"): the quantity parser reads numbers from that. Punctuation reads as its ASCII twin ("，" as
","), so the rules' clause and list breaks apply."""

from __future__ import annotations

import re

from checking.languages.zh import PUNCTUATION_PIECE, QUOTED_TERM, ROLE_ENDINGS, SEGMENTER, fold
from checking.languages.zh_numbers import ARABIC_NUMBER, CHINESE_DIGITS, CHINESE_NUMBER, COUNTERS, UNITS, number_value

_ASCII_PUNCTUATION = {"，": ",", "、": ",", "。": ".", "；": ";", "：": ":", "！": "!", "？": "?", "（": "(",
                      "）": ")", "“": '"', "”": '"', "‘": "'", "’": "'", "《": '"', "》": '"', "「": '"', "」": '"'}
_MARKUP = frozenset("*_`#>[]")
# Quotation marks and title marks around a short term name it ("云途"系统, 密码管理器「安盾」, 《员工手册》), whatever
# the segmenter's tags say.
_QUOTED_NAME = re.compile(QUOTED_TERM + r'|"([^"\n]{2,20})"')


def _numeral_text(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


# A numeral is cut out of the text before the segmenter sees it, so it reads the same whatever its neighbours
# ("一百五十八天" in one sentence and "158天" in another): Arabic digits always; a Chinese numeral when a unit or
# counter follows it, or it is a percentage ("百分之八十"), and it is not an ordinal ("第一季度") or part of a word
# ("一般", "统一" are followed by no unit).
_UNIT_AHEAD = "|".join(sorted((re.escape(u) for u in (*UNITS, *COUNTERS, "万", "亿")), key=len, reverse=True))
_CARVED_NUMERAL = re.compile(
    rf"(?P<percent>百分之)(?P<pnumber>{CHINESE_NUMBER}|{ARABIC_NUMBER})"
    rf"|(?:(?P<arabic>{ARABIC_NUMBER})|(?<!第)(?P<chinese>[{CHINESE_DIGITS}十百千][{CHINESE_DIGITS}十百千万亿点]*)(?!季度)"
    rf"(?=\s*(?:{_UNIT_AHEAD})))"
    rf"\s*(?P<unit>{_UNIT_AHEAD})?"
)
# "不" before a comparison is one bound ("不超过": at most), not a negation of the clause.
_NEGATED_COMPARISONS = frozenset({"超过", "少于", "低于", "高于", "多于", "大于", "小于", "足"})
_BOUND_NEGATIONS = frozenset({"不", "不得", "不能", "不可", "不应", "不宜"})


def _segment(text: str, start: int, end: int) -> list[tuple[str, int, int, str]]:
    """(kind, start, end, lower) of the words and punctuation of text[start:end], by the segmenter."""
    pieces: list[tuple[str, int, int, str]] = []
    for piece, a, b in SEGMENTER.tokenize(fold(text[start:end])):
        a, b = start + a, start + b
        if piece.isspace():
            continue
        if PUNCTUATION_PIECE.match(piece):
            pieces += [("punct", a + k, a + k + 1, _ASCII_PUNCTUATION.get(c, c)) for k, c in enumerate(piece)
                       if not c.isspace()]
        elif pieces and pieces[-1][3] in _BOUND_NEGATIONS and pieces[-1][2] == a and piece in _NEGATED_COMPARISONS:
            pieces[-1] = ("word", pieces[-1][1], b, "不" + piece)  # 不得少于 reads as 不少于
        else:
            pieces.append(("word", a, b, piece))
    return pieces


def _pieces(text: str, start: int, end: int) -> list[tuple[str, int, int, str]]:
    """(kind, start, end, lower) of each piece: numerals carved out first (a percentage as its number and a "%"
    after it), the text between them segmented."""
    pieces: list[tuple[str, int, int, str]] = []
    at = start
    for match in _CARVED_NUMERAL.finditer(text, start, end):
        raw = match.group("pnumber") or match.group("arabic") or match.group("chinese")
        try:
            value = number_value(raw)
        except (ValueError, KeyError, TypeError):
            continue  # not a number cn2an can read: left to the segmenter
        pieces += _segment(text, at, match.start())
        if match.group("percent"):
            pieces += [("num", match.start("pnumber"), match.end(), _numeral_text(value)),
                       ("punct", match.end(), match.end(), "%")]
            pieces.insert(len(pieces) - 2, ("word", match.start(), match.start("pnumber"), "百分之"))
        else:
            number_end = match.end("arabic") if match.group("arabic") else match.end("chinese")
            pieces.append(("num", match.start(), number_end, _numeral_text(value)))
            if match.group("unit"):  # the unit too: "天" of "九十八天为" is no part of "天为"
                pieces.append(("word", match.start("unit"), match.end("unit"), match.group("unit")))
        at = match.end()
    return pieces + _segment(text, at, end)


def tokens(text: str, start: int, end: int, *, table: bool) -> list:
    """Chinese text (from ``start`` to ``end``) as the rules' tokens (checking.text.Token)."""
    from checking.text import CONJUNCTION_GAP, CONJUNCTIONS, PUNCTUATION_GAPS, Token

    found: list[Token] = []
    pos = 0.0
    cell = -1 if text[start:end].lstrip().startswith("|") else 0
    names = SEGMENTER.proper_nouns(fold(text[start:end]))
    quoted = [match.span(match.lastindex) for match in _QUOTED_NAME.finditer(text, start, end)]
    for kind, a, b, lower in _pieces(text, start, end):
        if table and lower == "|":
            cell += 1
            pos += PUNCTUATION_GAPS["|"]
            continue
        if kind == "punct" and lower in _MARKUP:
            continue
        if kind == "punct":
            pos += PUNCTUATION_GAPS.get(lower, 0.0)
        else:
            pos += 1.0 + CONJUNCTION_GAP * (lower in CONJUNCTIONS)
        found.append(Token(
            text=text[a:b], lower=lower, stem=lower, start=a, end=b, kind=kind,
            pos=pos, cell=cell if table else -1,
            capital=kind == "word" and (lower in names or lower.endswith(ROLE_ENDINGS) or text[a].isupper()
                                        or any(qa <= a and b <= qb for qa, qb in quoted)),
            initial=not any(t.kind == "word" for t in found) or (bool(found) and found[-1].lower in ".!?:"),
        ))
    return found
