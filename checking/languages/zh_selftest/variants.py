"""The Chinese variants of the self-test: supported ones (a clause dropped, clauses reordered, two sentences
joined) and unsupported ones (a number, unit, date, name, direction, negation, antonym or role changed; a sentence
moved from another document; a clause appended from one). Each returns the sentence unchanged when it cannot apply."""

from __future__ import annotations

import random
import re

from checking.languages.zh import ANTONYMS, BOUNDS_BEFORE, DIRECTION_PAIRS, NEGATION_CUES, RATE_WORDS
from checking.languages.zh_numbers import COUNTERS, DATE, UNITS, number_value
from checking.languages.zh_selftest.reading import (
    CHINESE,
    CONNECTIVES,
    DAY_OF_MONTH,
    DIGIT_CHARS,
    DIGIT_VALUES,
    MIN_WORDS,
    MONTH_DAY,
    WEEKDAY,
    WEEKDAYS,
    clauses_of,
    conditional,
    has_number,
    in_any,
    names_in,
    noun_phrase,
    quantities_in,
    split_subject,
    word_matches,
    words_of,
)

# ---- supported variants -------------------------------------------------------------------------------------------

_RESTRICTING = ("但", "除", "否则", "只", "仅", "才", "方可", "即使", "不过", "而", "逾期", "超过", "超出", "未", "如", "若")


def clause_drop(sentence: str) -> str:
    """Drop a parenthetical or the trailing clause after "，" when it holds no number and the rest still states
    something ("育儿假当年有效，不跨年累计。" -> "育儿假当年有效。"). A clause that restricts the rest (但……, 除……,
    仅……) stays: without it the rest says more than the source."""
    for match in re.finditer(r"（[^（）]*）|\([^()]*\)", sentence):
        inner = match.group()[1:-1]
        if len(inner) >= 2 and not has_number(inner) and not inner.startswith(("含", "不含", "即")):
            return sentence[:match.start()] + sentence[match.end():]
    clauses = clauses_of(sentence)
    if len(clauses) < 2:
        return sentence
    last, rest = clauses[-1], clauses[:-1]
    if has_number(last) or last.startswith(_RESTRICTING) or "除外" in last or len(words_of(last)) < 2:
        return sentence
    if noun_phrase(rest[-1]) or (len(rest) == 1 and re.match(r"(?:如果|若|如|凡|当|因)", rest[0])):
        return sentence
    shorter = "，".join(rest) + "。"
    return shorter if len(words_of(shorter)) >= MIN_WORDS - 2 else sentence


_FRONTED = re.compile(r"^(?:自|从|在|于|当)[^，]{2,30}(?:起|期间|时|之后|以后|后|之前|以前|前|中)$")
_REFERS_BACK = re.compile(r"其|该|此|上述|同时|也|还|并|且|则|但|而|另")


def reorder(sentence: str) -> str:
    """Move a fronted time or condition phrase behind the subject of its clause ("自2025年1月1日起，S由……" ->
    "S自2025年1月1日起由……"), or swap two clauses that each have their own subject and lean on nothing around them
    ("普通账号的……为九十天，管理员账号的……为六十天" -> the other way round)."""
    clauses = clauses_of(sentence)
    if len(clauses) >= 2 and _FRONTED.match(clauses[0]) and conditional(clauses[0]):
        parts = split_subject(clauses[1])
        if parts:
            moved = parts[0] + clauses[0] + parts[1]
            return "，".join([moved, *clauses[2:]]) + "。"
    for k in range(len(clauses) - 1):
        first, second = clauses[k], clauses[k + 1]
        a, b = split_subject(first), split_subject(second)
        if not a or not b or a[0] == b[0] or not _parallel(a, b):
            continue
        if any(_REFERS_BACK.search(c) or conditional(c) for c in (first, second)):
            continue
        if k + 2 < len(clauses) and clauses[k + 2].startswith(CONNECTIVES):  # "其中……" leans on the clause before
            continue
        return "，".join([*clauses[:k], second, first, *clauses[k + 2:]]) + "。"
    return sentence


def _parallel(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Two clauses of one shape, each stating its own fact: the same predicate word ("……须……，……须……") or a word of
    their subjects in common ("普通账号的密码有效期……，管理员账号的密码有效期……"). Swapping those keeps the meaning;
    an elaboration ("公司购买意外险，保额最高……") does not read before what it elaborates."""
    if words_of(a[1])[0][0] == words_of(b[1])[0][0]:
        return True
    shared = {w for w, _, _ in words_of(a[0]) if len(w) >= 2} & {w for w, _, _ in words_of(b[0]) if len(w) >= 2}
    return bool(shared)


_JOIN_PLAIN = re.compile(r"^(?:同时|此外|另外|但|并|且|还|也|其中|如|若|如果|因|对|自|在|从|经|除)")


def join(first: str, second: str) -> str:
    """Two sentences as one: "A，并且B。", or "A，B。" when B opens with a connective or a condition of its own
    ("并且如果……" reads badly)."""
    opener_is_condition = conditional(clauses_of(second)[0]) and len(clauses_of(second)) > 1
    glue = "，" if _JOIN_PLAIN.match(second) or opener_is_condition else "，并且"
    return f"{first[:-1]}{glue}{second}"


# ---- unsupported variants -----------------------------------------------------------------------------------------

def _digit_text(value: int, *, before: str, single: bool, unit: str) -> str:
    """A digit as Chinese writes it: 2 is 两 before 千/万/亿 (两万) and alone before a unit or measure word (两天, 两个),
    二 elsewhere (二十, 十二, 二百)."""
    if value == 2 and ((before != "" and before in "千万亿") or (single and (unit in UNITS or unit in COUNTERS))):
        return "两"
    return "零一二三四五六七八九"[value]


def _chinese_numeral_changed(numeral: str, unit: str, rng: random.Random) -> str | None:
    """The numeral with its leading digit changed, in the same characters: 五百 -> 六百, 两万 -> 三万, 十五 -> 二十五."""
    if numeral.startswith("十"):
        return "二" + numeral
    position = next((k for k, c in enumerate(numeral) if c in DIGIT_CHARS), None)
    if position is None:
        return None  # 百分之百
    digit = DIGIT_VALUES[numeral[position]]
    step = rng.choice((1, 2))
    new = digit + step if digit + step <= 9 else digit - step
    after = numeral[position + 1:position + 2]
    return numeral[:position] + _digit_text(new, before=after, single=len(numeral) == 1, unit=unit) + numeral[
        position + 1:]


def _arabic_changed(number: str, rng: random.Random) -> str:
    scale = re.search(r"\s*[万亿]$", number)
    digits = number[:scale.start()] if scale else number
    suffix = scale.group() if scale else ""
    plain = digits.replace(",", "")
    if "." in plain:
        whole, fraction = plain.split(".")
        last = int(fraction[-1])
        return f"{whole}.{fraction[:-1]}{last - 1 if last >= 5 else last + 2}{suffix}"
    value = int(plain)
    step = rng.choice((1, 2)) if value < 10 else max(1, round(value * rng.choice((0.2, 0.3, 0.5))))
    return (f"{value + step:,}" if "," in digits else str(value + step)) + suffix


def number_swap(sentence: str, rng: random.Random) -> str:
    """One amount changed, written as it was: 五百元 -> 六百元, 500元 -> 600元, 百分之五 -> 百分之七. Never a date, a
    day of a month, a clock time or an ordinal."""
    found = quantities_in(sentence)
    if not found:
        return sentence
    _, numeral, unit = rng.choice(found)
    number = numeral.group("number")
    new = _arabic_changed(number, rng) if number[0].isdigit() else _chinese_numeral_changed(number, unit, rng)
    if new is None:
        return sentence
    try:
        if number_value(new) == number_value(number):
            return sentence
    except (ValueError, KeyError, TypeError):
        return sentence
    return sentence[:numeral.start("number")] + new + sentence[numeral.end("number"):]


# A unit the language layer reads, for another it reads (公里 -> 英里 is left out: the layer has no 英里, and a
# swap the checker cannot read tests nothing but that). 月 and 日 alone are too often dates to swap.
_UNIT_SWAPS = {
    "元": "美元", "美元": "元", "欧元": "元", "块": "美元", "天": "周", "日": "周", "周": "个月", "星期": "个月",
    "个星期": "个月", "个月": "年", "年": "个月", "季度": "年", "个季度": "年", "小时": "分钟", "个小时": "分钟",
    "分钟": "小时", "秒": "分钟", "秒钟": "分钟", "工作日": "周", "个工作日": "周", "晚": "周", "公里": "米",
    "千米": "米", "米": "公里", "公斤": "斤", "斤": "公斤", "克": "公斤", "GB": "MB", "MB": "GB", "TB": "GB",
}
assert all(old in UNITS and new in UNITS for old, new in _UNIT_SWAPS.items())
# A rate's denominator ("每天八十元"), for another the layer reads as a rate too.
_RATE_SWAPS = {"每天": "每周", "每日": "每周", "每晚": "每周", "每夜": "每周", "每周": "每月", "每星期": "每月",
               "每月": "每年", "每个月": "每年", "每年": "每月", "每季度": "每年", "每小时": "每天", "每次": "每天"}
assert all(old in RATE_WORDS and new in RATE_WORDS for old, new in _RATE_SWAPS.items())
_RATE_REACH = 6  # characters from the rate word to its amount: "每年参加一次复训", "每人每天八十元"


def unit_swap(sentence: str, rng: random.Random) -> str:
    """A unit of an amount (元 -> 美元, 天 -> 周, 小时 -> 分钟) or a rate's denominator (每天 -> 每周) changed."""
    candidates: list[tuple[int, int, str]] = []
    quantities = quantities_in(sentence)
    for quantity, numeral, unit in quantities:
        if unit.strip() in _UNIT_SWAPS:
            start = numeral.end() + (len(unit) - len(unit.lstrip()))
            candidates.append((start, quantity.end, _UNIT_SWAPS[unit.strip()]))
    for start, end, word in word_matches(sentence, list(_RATE_SWAPS)):
        if any(end <= q.start <= end + _RATE_REACH and "，" not in sentence[end:q.start] for q, _, _ in quantities):
            candidates.append((start, end, _RATE_SWAPS[word]))
    if not candidates:
        return sentence
    start, end, new = rng.choice(sorted(candidates))
    return sentence[:start] + new + sentence[end:]


def _cn(value: int, like: str) -> str:
    """`value` written as `like` was: Arabic digits, or Chinese ones (二〇二五 digit by digit for a year)."""
    if like.isdigit():
        return str(value)
    if len(like) == 4 and all(c in "零〇一二三四五六七八九" for c in like):
        return "".join("〇一二三四五六七八九"[int(d)] for d in str(value))
    import cn2an

    return cn2an.an2cn(value, "low")


def date_swap(sentence: str, rng: random.Random) -> str:
    """A date changed: its month (2025年3月1日 -> 2025年5月1日), else its day (12月31日 -> 12月30日), else its year
    (2021年 -> 2022年); or a weekday (周一 -> 周三)."""
    candidates: list[tuple[int, int, str]] = []  # (start, end, new text) of the part changed
    for match in [*DATE.finditer(sentence), *MONTH_DAY.finditer(sentence)]:
        groups = match.groupdict()
        month, day = groups.get("month"), groups.get("day")
        try:
            if month and not (day and number_value(day) > 28):
                value = int(number_value(month))
                new = (value - 1 + rng.randint(1, 10)) % 12 + 1
                candidates.append((match.start("month"), match.end("month"), _cn(new, month)))
            elif day:
                value = int(number_value(day))
                new = value + rng.choice((1, 2)) if value <= 26 else value - rng.choice((1, 2))
                candidates.append((match.start("day"), match.end("day"), _cn(new, day)))
            elif groups.get("year"):
                year = groups["year"]
                candidates.append((match.start("year"), match.end("year"),
                                   _cn(int(number_value(year)) + rng.choice((-2, -1, 1, 2)), year)))
        except (ValueError, KeyError, TypeError):
            continue
    months = [m.span() for m in MONTH_DAY.finditer(sentence)]
    for match in DAY_OF_MONTH.finditer(sentence):
        if in_any(match.start(), months):
            continue
        value = int(number_value(match.group("day")))
        new = value + rng.choice((1, 2)) if value <= 26 else value - rng.choice((1, 2))
        candidates.append((match.start("day"), match.end("day"), _cn(new, match.group("day"))))
    for match in WEEKDAY.finditer(sentence):
        position = WEEKDAYS.index("日" if match.group("day") == "天" else match.group("day"))
        new = WEEKDAYS[(position + rng.randint(1, 5)) % 7]
        candidates.append((match.start("day"), match.end("day"), new))
    if not candidates:
        return sentence
    start, end, new = rng.choice(sorted(set(candidates)))
    return sentence[:start] + new + sentence[end:]


def name_swap(sentence: str, rng: random.Random, *, pool: dict[str, tuple[str, ...]]) -> str:
    """A name replaced by another of the knowledge base of the same kind (部门经理 -> 财务总监, “云途” -> “密盾”)."""
    present = names_in(sentence)
    if not present:
        return sentence
    start, end, kind = rng.choice(present)
    old = sentence[start:end]
    others = [n for n in pool.get(kind, ()) if n not in sentence and old not in n and n not in old]
    if not others:
        return sentence
    return sentence[:start] + rng.choice(others) + sentence[end:]


def direction_flip(sentence: str, rng: random.Random) -> str:
    """A direction word for its opposite (上调 -> 下调, 不超过 -> 不少于, 以上 -> 以下, 之前 -> 之后). 以上/以下 count
    only after an amount (with a measure word the layer does not know: "十二岁以下") or 及 ("三天及以上"), not as
    "the following" (以下要求)."""
    def keep(start: int, word: str) -> bool:
        if word in {"以上", "以下"}:
            return sentence[:start].endswith("及") or any(q.end <= start <= q.end + 1 and q.kind != "date"
                                                           for q in CHINESE.quantities(sentence))
        return True

    matches = [m for m in word_matches(sentence, list(DIRECTION_PAIRS)) if keep(m[0], m[2])]
    if not matches:
        return sentence
    start, end, word = rng.choice(matches)
    return sentence[:start] + DIRECTION_PAIRS[word] + sentence[end:]


# A negation cue (the language layer's) and what the sentence says without it.
_UNNEGATED = {"不得": "可以", "不能": "可以", "不可": "可以", "不准": "可以", "不许": "可以", "严禁": "可以", "禁止": "可以",
              "无需": "需要", "无须": "需要", "不必": "需要", "不用": "需要", "不予": "予以", "没有": "有", "未经": "经",
              "未能": "能", "不再": "继续", "不": ""}
assert all(cue[:2] in NEGATION_CUES or cue[:1] in NEGATION_CUES for cue in _UNNEGATED)
# A modal or copula and its negation, for a sentence that has no negation to remove.
_NEGATED = {"必须": "不必", "须": "无须", "还须": "无须", "应当": "不应当", "应该": "不应该", "应": "不应", "可以": "不得",
            "可": "不可", "只能": "不能", "能": "不能", "将": "不会", "会": "不会", "需要": "不需要", "是": "不是",
            "享受": "不享受", "适用": "不适用", "实行": "不实行", "予以": "不予"}
# Words after 不 that make it a bound or a direction, not a negation of a verb: 不 + 超过 is "at most".
_BOUND_AFTER_NOT = frozenset({words[0][1:] for words, _ in BOUNDS_BEFORE if words[0].startswith("不")}) | {"足", "满"}


def negate(sentence: str, rng: random.Random) -> str:
    """Remove the first negation (不得 -> 可以, 无需 -> 需要, 不 before a verb dropped), else negate the first modal or
    copula (须 -> 无须, 可以 -> 不得, 应当 -> 不应当, 为 -> 不是 after a subject)."""
    words = words_of(sentence)
    for k, (word, start, end) in enumerate(words):
        if word in _UNNEGATED:
            following = words[k + 1][0] if k + 1 < len(words) else ""
            if word == "不" and (following in _BOUND_AFTER_NOT or following in DIRECTION_PAIRS or not following):
                continue
            return sentence[:start] + _UNNEGATED[word] + sentence[end:]
    if any(word in NEGATION_CUES or word.startswith(("不", "无", "未")) for word, _, _ in words):
        return sentence  # a negation this table cannot undo: adding another would say "not not"
    # The main clause's modal: not one inside a condition ("需要停止工作的，可以申请病假" negates 可以).
    main = 0
    for clause in clauses_of(sentence)[:-1]:
        if not conditional(clause):
            break
        main += len(clause) + 1
    for k, (word, start, end) in enumerate(words):
        following = words[k + 1][0] if k + 1 < len(words) else ""
        if start >= main and word in _NEGATED and (word != "将" or following == "被"):  # 将 + noun is 把, not "will"
            return sentence[:start] + _NEGATED[word] + sentence[end:]
    parts = split_subject(clauses_of(sentence)[0])
    if parts and parts[1].startswith("为"):
        start = len(parts[0])
        return sentence[:start] + "不是" + sentence[start + 1:]
    return sentence


def antonym(sentence: str, rng: random.Random) -> str:
    """A word for its opposite from the language layer's pairs (国内 -> 国际, 允许 -> 禁止, 带薪 -> 无薪, 最高 -> 最低).
    必须 only as a predicate ("是必须的" -> "是可选的"): before a verb its opposite is a negation; 部分 ("the part") and
    内部 before a department's name never."""
    def keep(start: int, end: int, word: str) -> bool:
        if word == "必须":
            return sentence[end:end + 1] == "的"
        if word == "部分":
            return False
        if word == "批准":  # "经部门经理批准" (with the manager's approval), "公司批准的": no "经……拒绝"
            return "经" not in re.split(r"[，。]", sentence[:start])[-1] and sentence[end:end + 1] != "的"
        if word == "内部":
            return not any(s == end for s, _, kind in names_in(sentence) if kind == "department")
        return True

    matches = [m for m in word_matches(sentence, list(ANTONYMS)) if keep(*m)]
    if not matches:
        return sentence
    start, end, word = rng.choice(matches)
    return sentence[:start] + rng.choice(sorted(ANTONYMS[word])) + sentence[end:]


_LIST_CONNECTOR = re.compile(r"(?:[、，,和与及或/]|以及|或者|\s)*")
_RANGE_CONNECTOR = re.compile(r"[^，；。]{0,4}?(?:至|到|-|–|~|～|、|和|或|及)[^，；。]{0,2}")


def role_swap(sentence: str, rng: random.Random) -> str:
    """Two parties of one sentence in each other's place (申请人 …… 部门经理 -> 部门经理 …… 申请人); failing that,
    two different amounts. Never members of one list (部门经理和财务总监) or the two ends of a range (五千元至两万元)."""
    parties: dict[str, tuple[int, int]] = {}
    for start, end, kind in names_in(sentence):
        if kind != "quoted":
            parties.setdefault(sentence[start:end], (start, end))
    if len(parties) >= 2:
        a, b = rng.sample(sorted(parties), 2)
        (s1, e1), (s2, e2) = sorted([parties[a], parties[b]])
        if _LIST_CONNECTOR.fullmatch(sentence[e1:s2]):
            return sentence
    else:
        distinct: dict[float, tuple[int, int]] = {}
        for quantity, numeral, _ in quantities_in(sentence):
            try:
                distinct.setdefault(number_value(numeral.group("number")), numeral.span("number"))
            except (ValueError, KeyError, TypeError):
                continue
        if len(distinct) < 2:
            return sentence
        first, second = rng.sample(sorted(distinct), 2)
        (s1, e1), (s2, e2) = sorted([distinct[first], distinct[second]])
        if _RANGE_CONNECTOR.fullmatch(sentence[e1:s2]):
            return sentence
    return sentence[:s1] + sentence[s2:e2] + sentence[e1:s2] + sentence[s1:e1] + sentence[e2:]


def moved_sentence(sentence: str, *, subject: str) -> str:
    """Another document's sentence, said of this section's subject: "婚假须在……休完。" -> "住宿须在……休完。"."""
    parts = split_subject(sentence)
    if not parts or subject in sentence:
        return sentence
    return subject + parts[1]


def appended_clause(sentence: str, *, other: str) -> str:
    """A true sentence with a predicate from another document attached: "A。" -> "A，且须在……休完。"."""
    parts = split_subject(other)
    if not parts:
        return sentence
    predicate = re.split(r"[，；。]", parts[1])[0]
    if len(words_of(predicate)) < 3:
        return sentence
    return f"{sentence[:-1]}，且{predicate}。"
