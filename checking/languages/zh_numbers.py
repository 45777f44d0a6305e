"""Chinese numerals, dates and quantities: values read by cn2an, units in the English quantities' kinds so that a
Chinese value compares with an English one, dates (2025年1月1日), ordinals (第一季度) and shares (四分之三, 一半).
The rest of Chinese reading is checking.languages.zh."""

from __future__ import annotations

import re

from checking.languages.base import Quantity

CHINESE_DIGITS = "零〇一二两三四五六七八九"
CHINESE_NUMBER = rf"[{CHINESE_DIGITS}十百千万亿点]+"
# ASCII digits only, as in English: "１" or "²" are digits to str.isdigit() but not numbers to float().
ARABIC_NUMBER = r"[0-9]+(?:[.,][0-9]+)*(?:\s*[万亿])?"
_NUMBER = rf"(?:{ARABIC_NUMBER}|{CHINESE_NUMBER})"
DATE = re.compile(rf"(?P<year>\d{{4}}|[{CHINESE_DIGITS}]{{4}})\s*年\s*"
                  rf"(?:(?P<month>\d{{1,2}}|[{CHINESE_DIGITS}十]{{1,3}})\s*月"
                  rf"(?:\s*(?P<day>\d{{1,2}}|[{CHINESE_DIGITS}十]{{1,3}})\s*[日号])?)?")

# unit -> (kind, factor to the kind's base unit): the same kinds as the English quantities (checking.quantity_words),
# so the quantity rules compare a Chinese value with an English one.
UNITS: dict[str, tuple[str, float]] = {
    "元": ("money:CNY", 1), "块": ("money:CNY", 1), "块钱": ("money:CNY", 1), "人民币": ("money:CNY", 1),
    "美元": ("money:USD", 1), "欧元": ("money:EUR", 1), "日元": ("money:JPY", 1), "英镑": ("money:GBP", 1),
    "秒": ("duration:s", 1), "秒钟": ("duration:s", 1), "分钟": ("duration:s", 60), "小时": ("duration:s", 3600),
    "个小时": ("duration:s", 3600), "天": ("duration:s", 86400), "日": ("duration:s", 86400),
    "周": ("duration:s", 604800), "星期": ("duration:s", 604800), "个星期": ("duration:s", 604800),
    "工作日": ("duration:bd", 1), "个工作日": ("duration:bd", 1), "万元": ("money:CNY", 1e4),
    "个月": ("duration:mo", 1), "月": ("duration:mo", 1), "年": ("duration:mo", 12), "个季度": ("duration:mo", 3),
    "季度": ("duration:mo", 3), "晚": ("duration:night", 1), "夜": ("duration:night", 1),
    "毫米": ("length:m", 1e-3), "厘米": ("length:m", 1e-2), "米": ("length:m", 1), "公里": ("length:m", 1e3),
    "千米": ("length:m", 1e3), "克": ("mass:g", 1), "斤": ("mass:g", 500), "公斤": ("mass:g", 1e3),
    "千克": ("mass:g", 1e3), "吨": ("mass:g", 1e6), "KB": ("data", 1e3), "MB": ("data", 1e6), "GB": ("data", 1e9),
    "TB": ("data", 1e12), "%": ("percent", 1), "％": ("percent", 1),
}
# Counted things keep their counter: 3次 and 3人 are both counts, of different things.
COUNTERS = ("次", "人", "名", "位", "个", "张", "份", "项", "条", "家", "台", "件", "篇", "页", "个字符", "字符", "倍")
_UNIT = "|".join(sorted((re.escape(u) for u in (*UNITS, *COUNTERS)), key=len, reverse=True))
_QUANTITY = re.compile(rf"(?P<percent>百分之)?(?P<number>{_NUMBER})\s*(?P<unit>{_UNIT})?")


def number_value(raw: str) -> float:
    """An Arabic, Chinese or mixed numeral: "2,000", "两千", "三千五百", "1.5万", "零点五"."""
    import cn2an

    compact = raw.replace(",", "").replace(" ", "")
    if re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", compact):
        return float(compact)
    if compact == "百":  # "百分之百": one hundred, as 十 alone is ten (cn2an reads 十, not 百; 千元 may be 数千元)
        return 100.0
    return float(cn2an.cn2an(compact, "smart"))


def written_dates(text: str, start: int, end: int) -> list[Quantity]:
    """The dates written in ``text[start:end]`` (2025年1月1日, 二〇二五年三月)."""
    return [Quantity(kind="date", value=date_value(match), surface=match.group(), start=match.start(),
                     end=match.end()) for match in DATE.finditer(text, start, end)]


def quantities(text: str) -> list[Quantity]:
    """Every quantity written in ``text``, dates first: a four-digit year is a date, not a count."""
    found = written_dates(text, 0, len(text))  # a four-digit year: "2025年" is a date, "3年" a duration
    taken = [(date.start, date.end) for date in found]
    for match in _QUANTITY.finditer(text):
        if any(start < match.end() and match.start() < end for start, end in taken):
            continue
        quantity = _quantity_of(match)
        if quantity is not None:
            found.append(quantity)
    return sorted(found, key=lambda q: q.start)


def date_value(match: re.Match) -> tuple[int, int | None, int | None]:
    """(year, month, day) of a DATE match: 2025年1月1日, 二〇二五年三月."""
    month, day = match.group("month"), match.group("day")
    return (int(number_value(match.group("year"))), int(number_value(month)) if month else None,
            int(number_value(day)) if day else None)


# An ordinal: "第一季度", "第三天", "第2条"; "一季度" to "四季度" (no 个) name a quarter of the year as "第一季度" does.
_ORDINAL = re.compile(rf"第(?P<nth>[{CHINESE_DIGITS}十百]+|[0-9]+)|(?P<quarter>[一二三四])季度")


# A share: 四分之三 (three quarters), 三分之一, and 一半 (a half). 百分之 is a percentage, read with its number.
_SHARE_NUMBER = rf"[{CHINESE_DIGITS}十]{{1,3}}|[0-9]+"
_FRACTION = re.compile(rf"(?P<denominator>{_SHARE_NUMBER})分之(?P<numerator>{_SHARE_NUMBER})|(?P<half>一半)")


def fraction_value(word: str) -> float | None:
    """The share a word names (四分之三: 0.75, 一半: 0.5), or None."""
    match = _FRACTION.fullmatch(word)
    if match is None:
        return None
    if match.group("half"):
        return 0.5
    try:
        return number_value(match.group("numerator")) / number_value(match.group("denominator"))
    except (ValueError, KeyError, TypeError, ZeroDivisionError):
        return None


def ordinal_value(word: str) -> int | None:
    """The place a word names (第一季度: 1, 三季度: 3), or None."""
    match = _ORDINAL.match(word)
    if match is None:
        return None
    try:
        return int(number_value(match.group("nth") or match.group("quarter")))
    except (ValueError, KeyError, TypeError):
        return None


def _quantity_of(match: re.Match) -> Quantity | None:
    raw, unit = match.group("number"), match.group("unit")
    if raw in {"点", "万", "亿"} or (raw == "一" and not unit and not match.group("percent")):
        return None  # a word, not a number ("一起", "一般")
    try:
        value = number_value(raw)
    except (ValueError, KeyError, TypeError):
        return None  # cn2an refuses a run it cannot read ("十点" as a time is left to the words)
    if match.group("percent") or unit in ("%", "％"):
        kind, factor = "percent", 1.0
    elif unit in UNITS:
        kind, factor = UNITS[unit]
    elif unit:
        kind, factor = f"count:{unit}", 1.0
    else:
        kind, factor = "count", 1.0
    return Quantity(kind=kind, value=value * factor, surface=match.group(), start=match.start(), end=match.end())
