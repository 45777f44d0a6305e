"""Chinese claims for the self-test: the kinds of `review.selftest`, made the way Chinese is written.

`review.selftest.claims_synthesize` hands a Chinese version here. Sentences end at 。！？； (the language layer's
splitter), a word is a segmenter word (``language_for("zh").words``), numbers, units and dates are read by the
language layer (``quantities``, ``number_value``, ``zh.DATE``) and the swaps take their words from its tables
(``UNITS``, ``RATE_WORDS``, ``DIRECTION_PAIRS``, ``ANTONYMS``, ``NEGATION_CUES``, ``ROLE_ENDINGS``), so the checker is
tested on the words it is meant to know. What the layer has no table for is here: how a clause is dropped or moved,
how two sentences are joined, how a negation is removed or inserted, which words are the knowledge base's names.

The same rules as English: a variant is kept only when its transformation changed the text, at most `per_kind` per
kind, and the same inputs and seed always give the same claims (nothing depends on a set's order).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from checking.languages import detect_language, language_for
from checking.languages.base import Quantity
from checking.languages.zh import (
    ANTONYMS,
    BOUNDS_BEFORE,
    COUNTERS,
    DATE,
    DIRECTION_PAIRS,
    NEGATION_CUES,
    RATE_WORDS,
    ROLE_ENDINGS,
    STOP_WORDS,
    UNITS,
    number_value,
)
from review.selftest import _PARSER, PER_KIND, Section, SynthesisedClaim, _inline_text

CHINESE = language_for("zh")
_MIN_WORDS, _MAX_WORDS = 5, 60
_HAN = "\u4e00-\u9fff"
_WIDE = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
_DIGIT_CHARS = "一二两三四五六七八九"
_DIGIT_VALUES = {c: v for v, c in enumerate("零一二三四五六七八九")} | {"两": 2, "〇": 0}
# The numeral inside a quantity the language layer found ("百分之五" -> 五, "1.5万元" -> 1.5万, "三十分钟" -> 三十).
_NUMERAL = re.compile(r"(?P<percent>百分之)?(?P<number>[0-9]+(?:[.,][0-9]+)*(?:\s*[万亿])?|[零〇一二两三四五六七八九十百千万亿点]+)")
_CN_NUMBER = "[零〇一二两三四五六七八九十]{1,3}"
# Days of a month without a year ("3月31日", "每月10日和25日"): dates, not durations of days.
_MONTH_DAY = re.compile(rf"(?P<month>\d{{1,2}}|{_CN_NUMBER})月(?P<day>\d{{1,2}}|{_CN_NUMBER})[日号]")
_DAY_OF_MONTH = re.compile(rf"(?<=月)(?P<day>\d{{1,2}}|{_CN_NUMBER})[日号]")
_DAY_AFTER = re.compile(rf"(?:和|、|或|至|到)(?P<day>\d{{1,2}}|{_CN_NUMBER})[日号]")
# A weekday, not "每周五天" (five days a week) or "周岁".
_WEEKDAY = re.compile(r"(?<!每)(?:星期|周)(?P<day>[一二三四五六日天])(?![天个年月日周小时分钟次岁])")
_WEEKDAYS = "一二三四五六日"


# ---- reading the Markdown -----------------------------------------------------------------------------------------

def _paragraph(token) -> str:
    # A soft line break inside a Chinese paragraph is no space: Chinese writes none between words.
    return re.sub(rf"(?<=[{_WIDE}])\s+(?=[{_WIDE}])", "", _inline_text(token))


def _words(text: str) -> list[tuple[str, int, int]]:
    return [(w.text, w.start, w.end) for w in CHINESE.words(text)]


def _is_statement(sentence: str) -> bool:
    return sentence.endswith("。") and _MIN_WORDS <= len(_words(sentence)) <= _MAX_WORDS


def sections_of(markdown: str) -> list[Section]:
    """Prose sentences (paragraphs and list items; not headings, tables or code) grouped by their heading. A
    sentence ending in "；" (a list item of a series) is a statement of its own and ends in "。" here."""
    sections: list[Section] = []
    heading, sentences = "", []
    tokens = _PARSER.parse(markdown)
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            if sentences:
                sections.append(Section(heading, tuple(sentences)))
            heading, sentences = _inline_text(tokens[index + 1]), []
        elif token.type == "paragraph_open":
            text = _paragraph(tokens[index + 1])
            if text and (text[-1].isalnum()):  # a list item written without its full stop
                text += "。"
            for start, end in CHINESE.sentences(text):
                sentence = text[start:end]
                if sentence[-1] in "；;":
                    sentence = sentence[:-1] + "。"
                if _is_statement(sentence):
                    sentences.append(sentence)
    if sentences:
        sections.append(Section(heading, tuple(sentences)))
    return sections


# ---- words, numbers and names ---------------------------------------------------------------------------------------

def _boundaries(sentence: str) -> set[int]:
    return {b for _, a, z in _words(sentence) for b in (a, z)}


def _aligned(sentence: str, start: int, end: int) -> bool:
    """`start`..`end` begins and ends at word boundaries: a table's word is a whole word or a run of words."""
    bounds = _boundaries(sentence)
    return start in bounds and end in bounds


def _word_matches(sentence: str, table: Sequence[str]) -> list[tuple[int, int, str]]:
    """Occurrences of the table's words that are whole segmenter words (or runs of them), longest first, no two
    overlapping, in text order: "不超过" is one match, not "超过" inside it."""
    found: list[tuple[int, int, str]] = []
    for word in sorted(table, key=lambda w: (-len(w), w)):
        for match in re.finditer(re.escape(word), sentence):
            span = match.span()
            if _aligned(sentence, *span) and not any(span[0] < z and a < span[1] for a, z, _ in found):
                found.append((*span, word))
    return sorted(found)


def _date_spans(sentence: str) -> list[tuple[int, int]]:
    """Dates: years with or without month and day (2025年3月1日), days of a month (3月31日, 每月10日和25日), weekdays."""
    spans = [m.span() for m in DATE.finditer(sentence)]
    spans += [m.span() for m in _MONTH_DAY.finditer(sentence)]
    for match in _DAY_OF_MONTH.finditer(sentence):
        spans.append(match.span())
        end = match.end()
        while (after := _DAY_AFTER.match(sentence, end)) is not None:
            spans.append((after.start("day"), after.end()))
            end = after.end()
    spans += [m.span() for m in _WEEKDAY.finditer(sentence)]
    return sorted(set(spans))


def _in_any(position: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)


def _quantities(sentence: str) -> list[tuple[Quantity, re.Match[str], str]]:
    """The language layer's quantities that are amounts: not dates or days of a month, clock times (9:00, 10点)
    or ordinals (第一), and whole words. With each, its numeral and its unit as written."""
    dates = _date_spans(sentence)
    found = []
    for quantity in CHINESE.quantities(sentence):
        if quantity.kind == "date" or _in_any(quantity.start, dates):
            continue
        numeral = _NUMERAL.match(sentence, quantity.start)
        if numeral is None or not numeral.group("number"):
            continue
        before, after = sentence[quantity.start - 1:quantity.start], sentence[numeral.end():numeral.end() + 1]
        if before in {"第", ":", "："} or after in {":", "：", "点"}:
            continue
        if quantity.end not in _boundaries(sentence):  # "一次" in "一次性"; a word may start before it ("限十人")
            continue
        found.append((quantity, numeral, sentence[numeral.end():quantity.end]))
    return found


def _has_number(text: str) -> bool:
    return bool(re.search(r"[0-9]", text) or CHINESE.quantities(text) or "半" in text)


def _tagged(sentence: str) -> list[tuple[str, int, int, str]]:
    """The segmenter's words with their part-of-speech tags and offsets (only to find people's names)."""
    import rjieba

    found, position = [], 0
    for word, tag in rjieba.tag(CHINESE.fold(sentence)):
        found.append((sentence[position:position + len(word)], position, position + len(word), tag))
        position += len(word)
    return found


_ROLE_WORDS = frozenset(ROLE_ENDINGS)
_PERSON_TAGS = frozenset({"nr", "nrfg", "nrt"})
_NOT_DEPARTMENTS = frozenset({"全部", "内部", "外部", "总部", "本部", "局部"})
_MODIFIER_TAGS = frozenset({"n", "nz", "nt", "vn", "eng"})
_FUNCTION_CHARACTERS = tuple("经须由报向给交于在对按均还并且将把被")
# The parties a procedure names by what they do: the language layer's (申请人 applies, 审批人 approves) and a few
# more it has no opposite for.
_PARTIES = frozenset({w for w in ANTONYMS if w.endswith("人")} | {"交接人", "经办人", "报告人", "报销人"})
_QUOTED = re.compile(r"“(?P<name>[^”\s]{2,10})”|「(?P<name2>[^」\s]{2,10})」")


def names_in(sentence: str) -> list[tuple[int, int, str]]:
    """The knowledge base's names in a sentence, as (start, end, kind): roles (部门经理, 人力资源总监, 副总裁),
    departments (财务部, IT部), people named after their role (财务总监周海燕), systems in quotes (“云途”), and the
    parties of a procedure (申请人, 审批人). A role is a word with a role ending (the language layer's), with the noun
    before it when the word is a bare ending (人力资源 + 总监)."""
    words = _tagged(sentence)
    found: list[tuple[int, int, str]] = []
    for k, (word, start, end, _) in enumerate(words):
        previous = words[k - 1] if k else None
        modifier = previous is not None and _modifier(previous)
        # A lone 部 is always a department's: any word before it names it (展览 + 部, though 展览 is a verb).
        names_department = previous is not None and _modifier(previous, tags=None)
        if word.endswith(ROLE_ENDINGS):
            found.append((previous[1] if word in _ROLE_WORDS and modifier else start, end, "role"))
        elif word.endswith("部") and word not in _NOT_DEPARTMENTS and (
                len(word) >= 3 or word == "部" and names_department):
            found.append((previous[1] if word == "部" else start, end, "department"))
        elif word in _PARTIES:
            found.append((start, end, "party"))
        elif word == "人" and previous is not None and previous[0] + word in _PARTIES:
            found.append((previous[1], end, "party"))
    # A person is named right after a role ("财务总监周海燕", "首席信息安全官陈立明"): the tagger's name run there.
    k = 0
    while k < len(words):
        if words[k][3] in _PERSON_TAGS and k and (words[k - 1][0].endswith(ROLE_ENDINGS) or words[k - 1][0] == "官"):
            end = k
            while end + 1 < len(words) and words[end + 1][3] in _PERSON_TAGS:
                end += 1
            start, stop = words[k][1], words[end][2]
            if 2 <= stop - start <= 4 and re.fullmatch(rf"[{_HAN}]+", sentence[start:stop]):
                found = [n for n in found if not (n[0] < stop and start < n[1])]
                found.append((start, stop, "person"))
            k = end + 1
        else:
            k += 1
    for match in _QUOTED.finditer(sentence):
        group = "name" if match.group("name") else "name2"
        found = [n for n in found if not (n[0] < match.end(group) and match.start(group) < n[1])]
        found.append((match.start(group), match.end(group), "quoted"))
    return sorted(set(found))


def _modifier(word: tuple[str, int, int, str], *, tags: frozenset[str] | None = _MODIFIER_TAGS) -> bool:
    """A noun that makes a bare role or "部" a title (人力资源 + 总监, 信息安全 + 部, IT + 部); not a verb or
    preposition the tagger took for a noun (须经 + 总经理)."""
    text, _, _, tag = word
    return ((tags is None or tag in tags) and re.fullmatch(rf"[{_HAN}A-Za-z]{{2,6}}", text) is not None
            and text not in STOP_WORDS and not text.startswith(_FUNCTION_CHARACTERS))


def name_pool(texts: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Every name of the knowledge base's prose by kind, in a fixed order (never a set's)."""
    pool: dict[str, set[str]] = {}
    for text in texts:
        for section in sections_of(text):
            for sentence in section.sentences:
                for start, end, kind in names_in(sentence):
                    pool.setdefault(kind, set()).add(sentence[start:end])
    return {kind: tuple(sorted(names, key=lambda n: (len(n), n))) for kind, names in sorted(pool.items())}


# ---- subject and predicate ------------------------------------------------------------------------------------------

# Words a predicate starts with: modals, the copula, "由" (by whom), "按" (by what rule), a few policy verbs.
_PREDICATE_STARTS = frozenset(
    """须 必须 还须 应当 应 应该 可以 可 只能 不得 不能 不予 不再 无需 无须 需要 需 为 是 由 按 实行 享受 一律 均 将 会
    原则上 最高 最长 最多 不超过 禁止 没有 不 分为""".split()
)
_CONNECTIVES = ("并", "且", "但", "而", "或", "则", "也", "还", "即", "其", "该", "此", "同时", "其中", "包括", "如", "若",
                "因", "对", "经", "在", "自", "从", "当", "除", "否则", "逾期", "凡", "按", "由", "以", "每", "上述")


def split_subject(clause: str) -> tuple[str, str] | None:
    """A clause's subject (a short noun phrase with no punctuation or number) and its predicate (from the first
    predicate word on): "婚假须在……休完" -> ("婚假", "须在……休完")."""
    words = _words(clause)
    for k, (word, start, _) in enumerate(words):
        if word in _PREDICATE_STARTS:
            subject, predicate = clause[:start], clause[start:]
            if not 1 <= k <= 8 or not 2 <= len(subject) <= 16 or subject.startswith(_CONNECTIVES):
                return None
            if not re.fullmatch(rf"[{_HAN}A-Za-z]+", subject) or _has_number(subject):
                return None
            return subject, predicate
    return None


def _clauses(sentence: str) -> list[str]:
    return sentence[:-1].split("，")


_CONDITION_WORDS = frozenset({"的", "时", "时候", "后", "之后", "以后", "前", "之前", "以前", "期间", "中", "起", "下"})


def _conditional(clause: str) -> bool:
    """The clause sets a condition or a time for what follows ("员工离职的", "发生一级事件时", "出发前"): its last word
    says so ("小时" is no "时")."""
    words = _words(clause)
    return bool(words) and (words[-1][0] in _CONDITION_WORDS or words[-1][0].endswith(("期间", "日起")))


def _noun_phrase(clause: str) -> bool:
    """A clause that only names something ("能够通过电话解决的事项"): a 的 and nothing but nouns after it."""
    if _conditional(clause):
        return True
    if "的" not in clause:
        return False
    tail = clause[clause.rindex("的") + 1:]
    return bool(tail) and all(tag.startswith("n") for _, _, _, tag in _tagged(tail))


# ---- supported variants -------------------------------------------------------------------------------------------

_RESTRICTING = ("但", "除", "否则", "只", "仅", "才", "方可", "即使", "不过", "而", "逾期", "超过", "超出", "未", "如", "若")


def clause_drop(sentence: str) -> str:
    """Drop a parenthetical or the trailing clause after "，" when it holds no number and the rest still states
    something ("育儿假当年有效，不跨年累计。" -> "育儿假当年有效。"). A clause that restricts the rest (但……, 除……,
    仅……) stays: without it the rest says more than the source."""
    for match in re.finditer(r"（[^（）]*）|\([^()]*\)", sentence):
        inner = match.group()[1:-1]
        if len(inner) >= 2 and not _has_number(inner) and not inner.startswith(("含", "不含", "即")):
            return sentence[:match.start()] + sentence[match.end():]
    clauses = _clauses(sentence)
    if len(clauses) < 2:
        return sentence
    last, rest = clauses[-1], clauses[:-1]
    if _has_number(last) or last.startswith(_RESTRICTING) or "除外" in last or len(_words(last)) < 2:
        return sentence
    if _noun_phrase(rest[-1]) or (len(rest) == 1 and re.match(r"(?:如果|若|如|凡|当|因)", rest[0])):
        return sentence
    shorter = "，".join(rest) + "。"
    return shorter if len(_words(shorter)) >= _MIN_WORDS - 2 else sentence


_FRONTED = re.compile(r"^(?:自|从|在|于|当)[^，]{2,30}(?:起|期间|时|之后|以后|后|之前|以前|前|中)$")
_REFERS_BACK = re.compile(r"其|该|此|上述|同时|也|还|并|且|则|但|而|另")


def reorder(sentence: str) -> str:
    """Move a fronted time or condition phrase behind the subject of its clause ("自2025年1月1日起，S由……" ->
    "S自2025年1月1日起由……"), or swap two clauses that each have their own subject and lean on nothing around them
    ("普通账号的……为九十天，管理员账号的……为六十天" -> the other way round)."""
    clauses = _clauses(sentence)
    if len(clauses) >= 2 and _FRONTED.match(clauses[0]) and _conditional(clauses[0]):
        parts = split_subject(clauses[1])
        if parts:
            moved = parts[0] + clauses[0] + parts[1]
            return "，".join([moved, *clauses[2:]]) + "。"
    for k in range(len(clauses) - 1):
        first, second = clauses[k], clauses[k + 1]
        a, b = split_subject(first), split_subject(second)
        if not a or not b or a[0] == b[0] or not _parallel(a, b):
            continue
        if any(_REFERS_BACK.search(c) or _conditional(c) for c in (first, second)):
            continue
        if k + 2 < len(clauses) and clauses[k + 2].startswith(_CONNECTIVES):  # "其中……" leans on the clause before
            continue
        return "，".join([*clauses[:k], second, first, *clauses[k + 2:]]) + "。"
    return sentence


def _parallel(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Two clauses of one shape, each stating its own fact: the same predicate word ("……须……，……须……") or a word of
    their subjects in common ("普通账号的密码有效期……，管理员账号的密码有效期……"). Swapping those keeps the meaning;
    an elaboration ("公司购买意外险，保额最高……") does not read before what it elaborates."""
    if _words(a[1])[0][0] == _words(b[1])[0][0]:
        return True
    shared = {w for w, _, _ in _words(a[0]) if len(w) >= 2} & {w for w, _, _ in _words(b[0]) if len(w) >= 2}
    return bool(shared)


_JOIN_PLAIN = re.compile(r"^(?:同时|此外|另外|但|并|且|还|也|其中|如|若|如果|因|对|自|在|从|经|除)")


def join(first: str, second: str) -> str:
    """Two sentences as one: "A，并且B。", or "A，B。" when B opens with a connective or a condition of its own
    ("并且如果……" reads badly)."""
    opener_is_condition = _conditional(_clauses(second)[0]) and len(_clauses(second)) > 1
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
    position = next((k for k, c in enumerate(numeral) if c in _DIGIT_CHARS), None)
    if position is None:
        return None  # 百分之百
    digit = _DIGIT_VALUES[numeral[position]]
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
    found = _quantities(sentence)
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
    quantities = _quantities(sentence)
    for quantity, numeral, unit in quantities:
        if unit.strip() in _UNIT_SWAPS:
            start = numeral.end() + (len(unit) - len(unit.lstrip()))
            candidates.append((start, quantity.end, _UNIT_SWAPS[unit.strip()]))
    for start, end, word in _word_matches(sentence, list(_RATE_SWAPS)):
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
    for match in [*DATE.finditer(sentence), *_MONTH_DAY.finditer(sentence)]:
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
    months = [m.span() for m in _MONTH_DAY.finditer(sentence)]
    for match in _DAY_OF_MONTH.finditer(sentence):
        if _in_any(match.start(), months):
            continue
        value = int(number_value(match.group("day")))
        new = value + rng.choice((1, 2)) if value <= 26 else value - rng.choice((1, 2))
        candidates.append((match.start("day"), match.end("day"), _cn(new, match.group("day"))))
    for match in _WEEKDAY.finditer(sentence):
        position = _WEEKDAYS.index("日" if match.group("day") == "天" else match.group("day"))
        new = _WEEKDAYS[(position + rng.randint(1, 5)) % 7]
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

    matches = [m for m in _word_matches(sentence, list(DIRECTION_PAIRS)) if keep(m[0], m[2])]
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
    words = _words(sentence)
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
    for clause in _clauses(sentence)[:-1]:
        if not _conditional(clause):
            break
        main += len(clause) + 1
    for k, (word, start, end) in enumerate(words):
        following = words[k + 1][0] if k + 1 < len(words) else ""
        if start >= main and word in _NEGATED and (word != "将" or following == "被"):  # 将 + noun is 把, not "will"
            return sentence[:start] + _NEGATED[word] + sentence[end:]
    parts = split_subject(_clauses(sentence)[0])
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

    matches = [m for m in _word_matches(sentence, list(ANTONYMS)) if keep(*m)]
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
        for quantity, numeral, _ in _quantities(sentence):
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
    if len(_words(predicate)) < 3:
        return sentence
    return f"{sentence[:-1]}，且{predicate}。"


# ---- the synthesiser ----------------------------------------------------------------------------------------------

def _section_subject(heading: str) -> str | None:
    """A short heading ("婚假", "伙食补助", "终端设备") names what its section is about; "出差申请与审批" names two things."""
    heading = heading.rstrip("：:")
    if re.fullmatch(rf"[{_HAN}]{{2,6}}", heading) and not re.search(r"[与和及、]", heading):
        return heading
    return None


def claims_synthesize(*, text: str, others: Sequence[str], seed: int = 0,
                      per_kind: int = PER_KIND) -> list[SynthesisedClaim]:
    """Labelled Chinese claims about `text`; the Chinese documents among `others` lend names and foreign sentences
    (an English sentence said of a Chinese heading tests nothing)."""
    chinese_others = [other for other in others if detect_language(other) == "zh"]
    # The knowledge base's own terms are words to the segmenter (as when the versions were indexed), whichever
    # process runs this: the same words, so the same claims.
    CHINESE.terms_add(term for t in [text, *chinese_others] for term in CHINESE.document_terms(t))
    sections = sections_of(text)
    pool = name_pool([text, *chinese_others])
    foreign = [s for other in chinese_others for section in sections_of(other) for s in section.sentences]
    own = [(section, sentence) for section in sections for sentence in section.sentences]
    claims: list[SynthesisedClaim] = []

    def emit(kind: str, label: str, pairs: list[tuple[str, str]]) -> None:
        seen = set()
        for source, claim in pairs:
            if claim != source and claim not in seen and len(seen) < per_kind:
                seen.add(claim)
                claims.append(SynthesisedClaim(claim=claim, label=label, kind=kind, source=source))

    def shuffled(kind: str, items: list) -> list:
        items = list(items)
        random.Random(f"{seed}:{kind}").shuffle(items)
        return items

    def each(kind: str, transform: Callable[[str, random.Random], str]) -> list[tuple[str, str]]:
        rng = random.Random(f"{seed}:{kind}:transform")
        return [(sentence, transform(sentence, rng)) for _, sentence in shuffled(kind, own)]

    verbatim = [(s, s) for _, s in shuffled("verbatim", own)][:per_kind]
    claims += [SynthesisedClaim(claim=s, label="supported", kind="verbatim", source=s) for s, _ in verbatim]
    emit("clause_dropped", "supported", [(s, clause_drop(s)) for _, s in shuffled("clause_dropped", own)])
    emit("reordered", "supported", [(s, reorder(s)) for _, s in shuffled("reordered", own)])
    pairs = [(a, b) for section in sections for a, b in zip(section.sentences, section.sentences[1:])
             if len(_words(a)) + len(_words(b)) <= _MAX_WORDS]
    emit("joined", "supported", [(a + b, join(a, b)) for a, b in shuffled("joined", pairs)])

    emit("number_swap", "unsupported", each("number_swap", number_swap))
    emit("unit_swap", "unsupported", each("unit_swap", unit_swap))
    emit("date_swap", "unsupported", each("date_swap", date_swap))
    emit("name_swap", "unsupported", each("name_swap", lambda s, rng: name_swap(s, rng, pool=pool)))
    emit("direction_flip", "unsupported", each("direction_flip", direction_flip))
    emit("negation", "unsupported", each("negation", negate))
    emit("antonym", "unsupported", each("antonym", antonym))
    emit("role_swap", "unsupported", each("role_swap", role_swap))

    subjects = [subject for section in sections if (subject := _section_subject(section.heading))]
    if subjects and foreign:
        rng = random.Random(f"{seed}:moved_sentence:subject")
        emit("moved_sentence", "unsupported",
             [(s, moved_sentence(s, subject=rng.choice(subjects))) for s in shuffled("moved_sentence", foreign)])
    if foreign:
        rng = random.Random(f"{seed}:appended_clause:other")
        emit("appended_clause", "unsupported",
             [(s, appended_clause(s, other=rng.choice(foreign))) for _, s in shuffled("appended_clause", own)])
    return claims
