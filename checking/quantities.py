"""Quantities read from tokens: counts, money, percentages, durations, sizes, lengths, dates, times of day,
frequencies and fractions, each with its unit normalised, its bound, direction of change and rate.

The words around a number that qualify it (bounds, hedges, change, rate, unit) are read in ``quantity_cues``;
dates written with a month's name in ``dates``; numbers that name or number rather than measure ("passage 2", a
flattened list's "1  ") are told in ``numbering``; how two quantities compare is ``quantity_compare``."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from checking.dates import DAY_SUFFIXES, date_at, is_year
from checking.languages import every_language
from checking.numbering import inline_enumerators, names_a_source
from checking.quantity_cues import (
    bound_after,
    bound_before,
    change_after,
    change_before,
    described_time_unit,
    hedged_before,
    per_after,
    per_before,
    unit_at,
)
from checking.quantity_words import (
    ALTERNATIVE_WORDS,
    ARTICLE_NUMERALS,
    CHANGE_ORIGIN_WORDS,
    CHANGE_TARGET_WORDS,
    CURRENCY_CODES,
    CURRENCY_SYMBOLS,
    FRACTION_DENOMINATORS,
    FREQUENCY_ADVERBS,
    ISO_DATE,
    MONTHS,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    PER_YEAR,
    RANGE_WORDS,
    SCALE_SUFFIXES,
    SCALE_WORDS,
    TIME_OF_DAY,
    TIMES,
    UNITS,
    WEEKDAYS,
)
from checking.text import (
    LIST_JOINERS,
    Token,
    is_content,
    tokenize,
)

_LIST_GAP = 3  # content words between list members
_LANGUAGES = every_language()  # dates and ordinals written as another language writes them (2025年1月1日, 第一季度)
_COUNTERS = frozenset().union(*(language.cues.counters for language in _LANGUAGES))


@dataclass(frozen=True, slots=True)
class Quantity:
    kind: str
    value: float | tuple[int | None, int | None, int | None]
    surface: str
    start: int
    end: int
    pos: float
    cell: int
    per: frozenset[str] = frozenset()
    bound: int = 0  # +1 at least, +2 more than, -1 at most, -2 less than
    change: int | None = None  # +1 rose, -1 fell, 0 unchanged
    change_index: int = -1  # the token saying so
    hedged: bool = False
    scale: float = 1.0
    decimals: int = 0
    strong: bool = True
    token_span: tuple[int, int] = (0, 0)  # the number with its unit: not words of the text
    lead: int = 0  # tokens of a bound phrase ("at least") just before it
    described: tuple[int, ...] = ()  # words inside the span that are words of the text: "20 *vacation* days"
    anchor: float = -1.0  # where the words before it are measured from; see _align_ranges
    superseded: bool = False  # the value a change started from: "$20" of "raised from $20 to $25"

    def __post_init__(self) -> None:
        if self.anchor < 0:
            object.__setattr__(self, "anchor", self.pos)




def _number_value(raw: str) -> tuple[float, int]:
    digits = raw.replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return float(digits), decimals


def find_quantities(text: str, tokens: list[Token]) -> list[Quantity]:
    quantities: list[Quantity] = []
    consumed: set[int] = set()

    def token_range(char_start: int, char_end: int) -> tuple[int, int]:
        ks = [k for k, t in enumerate(tokens) if t.start >= char_start and t.end <= char_end]
        return (ks[0], ks[-1] + 1) if ks else (0, 0)

    if tokens:
        lo, hi = tokens[0].start, tokens[-1].end
        for match in TIME_OF_DAY.finditer(text, lo, hi):
            if match.group(6):
                minutes = {"noon": 720, "midday": 720, "midnight": 0}[match.group(6).lower()]
            elif match.group(3):
                hour = int(match.group(1)) % 12 + (12 if match.group(3).lower() == "p" else 0)
                minutes = hour * 60 + int(match.group(2) or 0)
            else:
                minutes = int(match.group(4)) * 60 + int(match.group(5))
            a, b = token_range(match.start(), match.end())
            if a == b:
                continue
            consumed.update(range(a, b))
            quantities.append(Quantity("time", minutes, match.group().strip(), match.start(), match.end(),
                                        tokens[a].pos, tokens[a].cell, token_span=(a, b)))
        for match in ISO_DATE.finditer(text, lo, hi):
            a, b = token_range(match.start(), match.end())
            consumed.update(range(a, b))
            value = (int(match.group(1)), int(match.group(2)), int(match.group(3)))
            quantities.append(Quantity("date", value, match.group(), match.start(), match.end(), tokens[a].pos,
                                        tokens[a].cell, token_span=(a, b)))
        written = itertools.chain.from_iterable(language.written_dates(text, lo, hi) for language in _LANGUAGES)
        for date in written:  # 2025年1月1日, 二〇二五年三月, 2024年
            a, b = token_range(date.start, date.end)
            if a == b or consumed.intersection(range(a, b)):
                continue
            consumed.update(range(a, b))
            quantities.append(Quantity("date", date.value, date.surface, date.start, date.end, tokens[a].pos,
                                        tokens[a].cell, token_span=(a, b)))

    enumerators = inline_enumerators(text, tokens)
    i = 0
    while i < len(tokens):
        if i in consumed:
            i += 1
            continue
        if names_a_source(tokens, i) or i in enumerators:
            i += 1
            continue
        parsed = _parse_quantity_at(text, tokens, i, consumed)
        if parsed is None:
            i += 1
            continue
        quantity, next_i = parsed
        quantities.append(quantity)
        consumed.update(range(quantity.token_span[0], quantity.token_span[1]))
        i = max(next_i, i + 1)
    return _mark_superseded(tokens, _align_ranges(tokens, sorted(quantities, key=lambda q: q.start)))


def _mark_superseded(tokens: list[Token], quantities: list[Quantity]) -> list[Quantity]:
    """"raised from $20 to $25", "由四百元下调至三百五十元": the first value is what the change replaced, not what
    holds now; a like value after it, written after a to-word and governed by a change word, is the new one."""
    marked = list(quantities)
    for k, (before, after) in enumerate(itertools.pairwise(quantities)):
        if before.kind != after.kind:
            continue
        first, second = _word_before(tokens, before.token_span[0]), _word_before(tokens, after.token_span[0])
        if after.change not in (None, 0) and first in CHANGE_ORIGIN_WORDS and any(
                t.lower in CHANGE_TARGET_WORDS for t in tokens[before.token_span[1]:after.token_span[0]]):
            marked[k] = replace(before, superseded=True)
        elif before.change not in (None, 0) and first in CHANGE_TARGET_WORDS and second in CHANGE_ORIGIN_WORDS:
            marked[k + 1] = replace(after, superseded=True)  # "rose to $25 from $20"
    return marked


def _word_before(tokens: list[Token], i: int) -> str:
    return tokens[i - 1].lower if i > 0 else ""


def _align_ranges(tokens: list[Token], quantities: list[Quantity]) -> list[Quantity]:
    """Share what comes before a list of like quantities.

    "5 to 7 business days": both ends take the first one's position. "reduced by $15 for lunch and $25 for
    dinner": "reduced by" is as much $25's as $15's, so later members measure the words before the list
    from the first member, and "for lunch" is $15's label, not $25's.
    """
    aligned = list(quantities)
    for k in range(1, len(aligned)):
        before, after = aligned[k - 1], aligned[k]
        if _day_of_the_same_month(tokens, before, after):  # "April 24th and 25th", "March 3 to 5"
            aligned[k] = after = replace(after, kind="date", value=(before.value[0], before.value[1], int(after.value)))
        if before.kind != after.kind:
            continue
        gap = tokens[before.token_span[1] : after.token_span[0]]
        between = before.token_span[0] > 0 and tokens[before.token_span[0] - 1].lower == "between"
        if len(gap) == 1 and (gap[0].lower in RANGE_WORDS or (between and gap[0].lower == "and")):
            aligned[k] = replace(after, pos=before.pos, anchor=before.anchor)
        elif labels_follow(gap):
            aligned[k] = replace(after, anchor=before.anchor)
    return aligned


def _day_of_the_same_month(tokens: list[Token], before: Quantity, after: Quantity) -> bool:
    """A day number right after a date with a month and day, joined to it by "and", "or", "to", "&" or a dash: the
    same month's day, written without the month again."""
    if before.kind != "date" or not isinstance(before.value, tuple) or before.value[1] is None \
            or before.value[2] is None or after.kind not in ("ordinal", "count"):
        return False
    start = after.token_span[0]
    end = start + 1 + (start + 1 < len(tokens) and tokens[start + 1].lower in DAY_SUFFIXES)
    gap = tokens[before.token_span[1]:start]
    # what follows is no thing counted ("April 24 and 25 people" counts people)
    return tokens[start].text.isdigit() and 1 <= int(tokens[start].text) <= 31 \
        and (end == len(tokens) or not is_content(tokens[end])) \
        and len(gap) == 1 and gap[0].lower in (*RANGE_WORDS, "and", "or", "&")


def labels_follow(gap: list[Token]) -> bool:
    """"$15 for lunch and $25": each label follows its number (unlike "men (3.4%), women (3.1%)")."""
    joints = [k for k, t in enumerate(gap) if t.lower in LIST_JOINERS]
    if not joints or sum(is_content(t) for t in gap) > _LIST_GAP:
        return False
    before, after = gap[: joints[0]], gap[joints[-1] + 1 :]
    return any(is_content(t) for t in before) and not any(is_content(t) for t in after)


def _parse_quantity_at(text: str, tokens: list[Token], i: int, consumed: set[int]) -> tuple[Quantity, int] | None:
    tok = tokens[i]
    date = date_at(tokens, i)
    if date is not None:
        value, first, end = date
        if first in consumed:
            first = i
        # month names stay words of the text too: they anchor which clause a number belongs to ("th" of "24th" is
        # the day's)
        named = tuple(k for k in range(first, end) if tokens[k].kind == "word" and tokens[k].lower not in DAY_SUFFIXES)
        return _make(text, tokens, "date", value, first, end, described=named), end
    if tok.capital and tok.lower in WEEKDAYS:
        return _make(text, tokens, "weekday", WEEKDAYS[tok.lower], i, i + 1, described=(i,)), i + 1
    if tok.kind == "num":
        return _parse_number(text, tokens, i)
    if tok.kind == "word":
        return _parse_word_quantity(text, tokens, i)
    return None


def _parse_number(text: str, tokens: list[Token], i: int) -> tuple[Quantity, int] | None:
    tok = tokens[i]
    if i > 0 and tokens[i - 1].text in ".," and tokens[i - 1].start == tok.start - 1 and i > 1 \
            and tokens[i - 2].kind == "num" and tokens[i - 2].end == tokens[i - 1].start:
        return None  # the tail of "1.2.3" or "3,4"
    if i + 1 < len(tokens) and tokens[i + 1].capital and tokens[i + 1].lower.rstrip(".") in MONTHS \
            and len(tok.text) <= 2:
        return None  # the day of "14 July 2015"; the month parses the date
    if i + 1 < len(tokens) and tokens[i + 1].start == tok.end and tokens[i + 1].text == "(":
        return None  # "401(k)" names a plan
    value, decimals = _number_value(tok.lower)  # the digits: a Chinese numeral's lower-case form is its value
    first = i
    currency = None
    change = None
    # a currency sign or code right before: "$12", "US$ 5", "EUR 40"
    if i > 0 and tokens[i - 1].text in CURRENCY_SYMBOLS:
        currency = CURRENCY_SYMBOLS[tokens[i - 1].text]
        first = i - 1
    elif i > 0 and tokens[i - 1].lower in CURRENCY_CODES:
        currency = CURRENCY_CODES[tokens[i - 1].lower]
        first = i - 1
    sign_index = first - 1
    if sign_index >= 0 and tokens[sign_index].text in "+-−" and tokens[sign_index].end == tokens[first].start:
        before = text[tokens[sign_index].start - 1] if tokens[sign_index].start > 0 else " "
        if not before.isalnum():
            change = 1 if tokens[sign_index].text == "+" else -1
            first = sign_index
    j = i + 1
    # ordinals "25th", "1st"
    if j < len(tokens) and tokens[j].lower in DAY_SUFFIXES and tokens[j].start == tok.end:
        return _make(text, tokens, "ordinal", value, first, j + 1), j + 1
    # the year of a bare four-digit number
    if currency is None and is_year(tok) and not (j < len(tokens) and unit_at(tokens, j)):
        return _make(text, tokens, "date", (int(value), None, None), i, j), j
    scale = 1.0
    if j < len(tokens):
        scale_word = tokens[j].lower
        if scale_word in SCALE_WORDS:
            scale = SCALE_WORDS[scale_word]
            j += 1
        elif scale_word in SCALE_SUFFIXES and (tokens[j].start == tok.end or currency) and (
                currency or scale_word in ("k", "bn", "mn", "mln")):
            scale = SCALE_SUFFIXES[scale_word]
            j += 1
    kind = "count"
    factor = 1.0
    if currency is not None:
        kind = f"money:{currency}"
    if scale == 1.0 and unit_at(tokens, j) is None:
        partner = _range_partner(text, tokens, j, between=first > 0 and tokens[first - 1].lower == "between")
        if partner is not None and value < float(partner.value) / partner.scale:
            bound, lead = bound_before(tokens, first)  # "5 to 7 business days": the near end takes the unit
            change, change_index = (change, -1) if change is not None else change_before(tokens, first)
            return _make(text, tokens, partner.kind, value * partner.scale, first, j, core=i, lead=lead, bound=bound,
                         change=change, change_index=change_index, scale=partner.scale, decimals=decimals,
                         per=partner.per), j
    unit = None
    if j < len(tokens) and tokens[j].text == "-" and j + 1 < len(tokens) and tokens[j].start == tokens[j - 1].end:
        unit = unit_at(tokens, j + 1)  # "40-hour", "14-day"
        if unit is not None:
            j += 1
    if unit is None:
        unit = unit_at(tokens, j)
    described: tuple[int, ...] = ()
    if unit is None and currency is None:
        unit_index, unit = described_time_unit(tokens, j)
        described, j = tuple(range(j, unit_index)), unit_index
    if unit is not None and (currency is None or unit[0].startswith("money")):
        unit_kind, factor, used = unit
        if currency is None or unit_kind == kind:
            kind = unit_kind
            j += used
        else:
            factor = 1.0
    elif unit is not None:
        factor = 1.0
    if currency is None and kind == "count" and len(tok.text) > 4 and tok.text.isdigit() and tok.text[0] == "0":
        return None  # zip codes, identifiers
    core_end = j
    per, j = per_after(tokens, j)
    per = per or per_before(tokens, first)
    bound, lead = bound_before(tokens, first)
    after = bound_after(tokens, j, counted=kind == "count" and currency is None and not per)
    if after is not None:
        bound = bound or after[0]
        j += after[1]
    change_index = -1
    if change is None:
        change, change_index = change_before(tokens, first)
        if change is None and not after:
            change = change_after(tokens, j)
    quantity = _make(
        text, tokens, kind, value * scale * factor, first, j, core=i, core_end=core_end, lead=lead, per=per,
        bound=bound, change=change, change_index=change_index, hedged=hedged_before(tokens, first),
        scale=scale * factor, decimals=decimals, described=described,
    )
    if kind == "count" and not per:
        quantity = replace(quantity, surface=_counted(text, tokens, first, j))
    if tok.text in ARTICLE_NUMERALS and currency is None and not bound:
        quantity = replace(quantity, strong=False)
    return quantity, j


def _counted(text: str, tokens: list[Token], first: int, j: int) -> str:
    """A count with what it counts, for reasons: "10 failed sign-in attempts" rather than "10", "十二位" rather than
    "十二" (a language's counter, written after the number)."""
    end = j
    if end < len(tokens) and tokens[end].lower in _COUNTERS and tokens[end].start == tokens[end - 1].end:
        return text[tokens[first].start : tokens[end].end]
    while end < len(tokens) and end - j < 5 and tokens[end].start - tokens[end - 1].end <= 1:
        tok = tokens[end]
        if tok.text == "-" and end + 1 < len(tokens) and tokens[end + 1].kind == "word":
            end += 2  # "sign-in"
        elif tok.kind == "word" and tok.text.islower() and is_content(tok):
            end += 1
        else:
            break
    return " ".join(text[tokens[first].start : tokens[end - 1].end].split())


def _range_partner(text: str, tokens: list[Token], j: int, *, between: bool) -> Quantity | None:
    """The far end of "5 to 7 business days" / "between 4.5 and 7.3 billion km" / "five to seven hours" /
    "2 or 3 minutes", when it has the unit."""
    if j + 1 >= len(tokens) or not (tokens[j + 1].kind == "num" or tokens[j + 1].lower in NUMBER_WORDS):
        return None
    joint = tokens[j].lower
    if joint not in RANGE_WORDS and joint not in ALTERNATIVE_WORDS and not (between and joint == "and"):
        return None
    parse = _parse_number if tokens[j + 1].kind == "num" else _parse_word_quantity
    parsed = parse(text, tokens, j + 1)
    if parsed is None or (parsed[0].kind == "count" and parsed[0].scale == 1.0) or parsed[0].kind == "date":
        return None
    return parsed[0]


def _frequency_at(text: str, tokens: list[Token], i: int) -> tuple[Quantity, int] | None:
    """How often, as times per year: "monthly", "semi-annually", "twice a year", "every quarter"."""
    lower = tokens[i].lower
    if lower in FREQUENCY_ADVERBS:
        return _make(text, tokens, "frequency", FREQUENCY_ADVERBS[lower], i, i + 1, strong=False), i + 1
    if lower == "semi" and i + 2 < len(tokens) and tokens[i + 1].text == "-" and tokens[i + 2].lower == "annually":
        return _make(text, tokens, "frequency", 2.0, i, i + 3, strong=False), i + 3
    times, j = TIMES.get(lower), i + 1
    if times is None and lower in NUMBER_WORDS and i + 1 < len(tokens) and tokens[i + 1].lower == "times":
        times, j = float(NUMBER_WORDS[lower]), i + 2
    if times is None and lower not in ("every", "each"):
        return None
    if j + 1 < len(tokens) and tokens[j].lower in ("a", "an", "per", "every", "each"):
        j += 1
    period = tokens[j].lower.rstrip("s") if j < len(tokens) and (times or j == i + 1) else ""
    if period not in PER_YEAR:
        return None
    return _make(text, tokens, "frequency", (times or 1.0) * PER_YEAR[period], i, j + 1, strong=False), j + 1


def _parse_word_quantity(text: str, tokens: list[Token], i: int) -> tuple[Quantity, int] | None:
    frequency = _frequency_at(text, tokens, i)
    if frequency is not None:
        return frequency
    tok = tokens[i]
    lower = tok.lower
    nxt = tokens[i + 1].lower if i + 1 < len(tokens) else ""
    after_hyphen = i + 2 < len(tokens) and nxt == "-"
    # fractions: "one sixth", "two-thirds", "a quarter"
    denominator_index = i + 2 if after_hyphen else i + 1
    if lower in ("one", "a", "two", "three", "four", "five") and denominator_index < len(tokens):
        denominator = FRACTION_DENOMINATORS.get(tokens[denominator_index].lower)
        if denominator and not (denominator_index + 1 < len(tokens) and tokens[denominator_index + 1].text == "-"):
            numerator = 1 if lower in ("one", "a") else NUMBER_WORDS[lower]
            if lower == "a" and tokens[denominator_index].lower not in ("half", "third", "quarter"):
                return None
            return _make(text, tokens, "fraction", numerator / denominator, i, denominator_index + 1), \
                denominator_index + 1
    if lower == "half" and not (i > 0 and tokens[i - 1].lower in ("first", "second", "a", "one")):
        return _make(text, tokens, "fraction", 0.5, i, i + 1, strong=False), i + 1
    if (share := _fraction(lower)) is not None:  # 四分之三, 一半
        return _make(text, tokens, "fraction", share, i, i + 1), i + 1
    if lower in ORDINAL_WORDS:
        if lower == "second" and i > 0 and tokens[i - 1].kind == "num":
            return None  # "30 second" is a duration
        return _make(text, tokens, "ordinal", ORDINAL_WORDS[lower], i, i + 1, strong=False), i + 1
    if (nth := _ordinal(lower)) is not None:
        return _make(text, tokens, "ordinal", nth, i, i + 1, strong=False), i + 1
    if lower in ("a", "an") and i + 1 < len(tokens):
        unit = unit_at(tokens, i + 1)
        previous_is_quantity = i > 0 and (tokens[i - 1].kind == "num" or tokens[i - 1].lower in UNITS
                                          or tokens[i - 1].lower in ("once", "twice", "thrice", "times"))
        if unit and unit[0].startswith("duration") and not previous_is_quantity and tokens[i + 1].lower != "second":
            per, j = per_after(tokens, i + 1 + unit[2])
            bound, lead = bound_before(tokens, i)  # "within an hour" bounds it as "within 1 hour" does
            return _make(text, tokens, unit[0], unit[1], i, i + 1 + unit[2], per=per, bound=bound, lead=lead,
                         strong=False), i + 1 + unit[2]
        return None
    if lower not in NUMBER_WORDS:
        return None
    value = float(NUMBER_WORDS[lower])
    j = i + 1
    if after_hyphen and tokens[i + 2].lower in NUMBER_WORDS and value >= 20:
        value += NUMBER_WORDS[tokens[i + 2].lower]  # "twenty-five"
        j = i + 3
    if j < len(tokens) and tokens[j].lower in SCALE_WORDS:
        value *= SCALE_WORDS[tokens[j].lower]
        j += 1
    unit = None
    if j + 1 < len(tokens) and tokens[j].text == "-":
        unit = unit_at(tokens, j + 1)
        if unit is not None:
            j += 1
    if unit is None:
        unit = unit_at(tokens, j)
    kind, factor = "count", 1.0
    if unit is not None:
        kind, factor, used = unit
        j += used
    elif (partner := _range_partner(text, tokens, j, between=i > 0 and tokens[i - 1].lower == "between")) \
            is not None and value < float(partner.value) / partner.scale:
        kind, factor = partner.kind, partner.scale  # "five to seven hours": the near end takes the unit
    elif lower == "one":
        return None  # "one of the largest": too often not a count
    core_end = j
    per, j = per_after(tokens, j)
    bound, lead = bound_before(tokens, i)
    after = bound_after(tokens, j, counted=kind == "count" and not per)
    if after is not None:
        bound = bound or after[0]
        j += after[1]
    change, change_index = change_before(tokens, i)
    return _make(text, tokens, kind, value * factor, i, j, core_end=core_end, lead=lead, per=per, bound=bound,
                 change=change, change_index=change_index,
                 hedged=hedged_before(tokens, i), scale=factor), j


def _fraction(word: str) -> float | None:
    """The share a word names in a language's own way (四分之三: 0.75), or None."""
    for language in _LANGUAGES:
        if (share := language.fraction(word)) is not None:
            return share
    return None


def _ordinal(word: str) -> int | None:
    """The place a word names in a language's own way (第一季度: 1), or None."""
    for language in _LANGUAGES:
        if (nth := language.ordinal(word)) is not None:
            return nth
    return None


def _make(text: str, tokens: list[Token], kind: str, value, first: int, end: int, *, core: int | None = None,
          core_end: int | None = None, lead: int = 0, **extra) -> Quantity:
    """Tokens ``first``..``end`` are the surface; ``first``..``core_end`` the number and unit proper (a
    rate's "per mile" stays a word of the text). ``core`` is the number's own token (its position)."""
    start, stop = tokens[first].start, tokens[end - 1].end
    anchor = tokens[first if core is None else core]
    return Quantity(kind=kind, value=value, surface=" ".join(text[start:stop].split()), start=start, end=stop,
                     pos=anchor.pos, cell=anchor.cell, token_span=(first, core_end or end), lead=lead, **extra)


# A column header's unit, in brackets: "普通员工（元/间·晚）", "Price ($/month)", "Storage (GB)", "Share (%)".
_HEADER_UNIT = re.compile(r"[（(]\s*([^（）()]{1,16}?)\s*[）)]")
_BARE_NUMBER = re.compile(r"[0-9][0-9,]*(?:\.[0-9]+)?")


@lru_cache(maxsize=256)
def header_unit(text: str) -> Quantity | None:
    """One of the unit a column header names in brackets (1元, $1/month, 1 GB), if it names one."""
    match = _HEADER_UNIT.search(text)
    if match is None:
        return None
    unit = match.group(1)
    symbol, _, per = unit.partition("/")
    for written in (f"1{unit}", f"1 {unit}", f"{unit}1", f"{symbol}1/{per}"):
        tokens = tokenize(written, 0, len(written), table=False)
        found = find_quantities(written, tokens)
        if len(found) == 1 and found[0].kind != "count":
            return found[0]
    return None


def with_header_units(quantities: list[Quantity], units: list[Quantity | None]) -> list[Quantity]:
    """A table cell's bare number ("350") in its column's unit (元 per room-night: 350元); a number the cell writes
    with a unit of its own keeps it."""
    measured = []
    for q in quantities:
        unit = units[q.cell] if 0 <= q.cell < len(units) else None
        if unit is not None and q.kind == "count" and _BARE_NUMBER.fullmatch(q.surface):
            q = replace(q, kind=unit.kind, value=q.value * unit.value, per=q.per | unit.per, scale=unit.scale)
        measured.append(q)
    return measured
