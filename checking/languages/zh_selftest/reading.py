"""Reading a Chinese version for the self-test: its sections and sentences, its words, numbers and dates, its
names (roles, departments, parties, quoted names) and where a clause's subject ends."""

from __future__ import annotations

import re
from collections.abc import Sequence

from checking.languages import language_for
from checking.languages.base import Quantity
from checking.languages.zh import ANTONYMS, ROLE_ENDINGS, STOP_WORDS
from checking.languages.zh_numbers import DATE
from checking.selftest import Section, inline_text
from checking.selftest import sections_of as markdown_sections

CHINESE = language_for("zh")
MIN_WORDS, MAX_WORDS = 5, 60
HAN = "\u4e00-\u9fff"
_WIDE = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
DIGIT_CHARS = "一二两三四五六七八九"
DIGIT_VALUES = {c: v for v, c in enumerate("零一二三四五六七八九")} | {"两": 2, "〇": 0}
# The numeral inside a quantity the language layer found ("百分之五" -> 五, "1.5万元" -> 1.5万, "三十分钟" -> 三十).
_NUMERAL = re.compile(r"(?P<percent>百分之)?(?P<number>[0-9]+(?:[.,][0-9]+)*(?:\s*[万亿])?|[零〇一二两三四五六七八九十百千万亿点]+)")
_CN_NUMBER = "[零〇一二两三四五六七八九十]{1,3}"
# Days of a month without a year ("3月31日", "每月10日和25日"): dates, not durations of days.
MONTH_DAY = re.compile(rf"(?P<month>\d{{1,2}}|{_CN_NUMBER})月(?P<day>\d{{1,2}}|{_CN_NUMBER})[日号]")
DAY_OF_MONTH = re.compile(rf"(?<=月)(?P<day>\d{{1,2}}|{_CN_NUMBER})[日号]")
_DAY_AFTER = re.compile(rf"(?:和|、|或|至|到)(?P<day>\d{{1,2}}|{_CN_NUMBER})[日号]")
# A weekday, not "每周五天" (five days a week) or "周岁".
WEEKDAY = re.compile(r"(?<!每)(?:星期|周)(?P<day>[一二三四五六日天])(?![天个年月日周小时分钟次岁])")
WEEKDAYS = "一二三四五六日"


# ---- reading the Markdown -----------------------------------------------------------------------------------------

def _paragraph(token) -> str:
    # A soft line break inside a Chinese paragraph is no space: Chinese writes none between words.
    return re.sub(rf"(?<=[{_WIDE}])\s+(?=[{_WIDE}])", "", inline_text(token))


def words_of(text: str) -> list[tuple[str, int, int]]:
    return [(w.text, w.start, w.end) for w in CHINESE.words(text)]


def _is_statement(sentence: str) -> bool:
    return sentence.endswith("。") and MIN_WORDS <= len(words_of(sentence)) <= MAX_WORDS


def _statements(inline) -> list[str]:
    """A paragraph's statements as Chinese ends them. A sentence ending in "；" (a list item of a series) is a
    statement of its own and ends in "。" here."""
    text = _paragraph(inline)
    if text and (text[-1].isalnum()):  # a list item written without its full stop
        text += "。"
    found = []
    for start, end in CHINESE.sentences(text):
        sentence = text[start:end]
        if sentence[-1] in "；;":
            sentence = sentence[:-1] + "。"
        if _is_statement(sentence):
            found.append(sentence)
    return found


def sections_of(markdown: str) -> list[Section]:
    """Prose sentences (paragraphs and list items; not headings, tables or code) grouped by their heading."""
    return markdown_sections(markdown, statements=_statements)


# ---- words, numbers and names ---------------------------------------------------------------------------------------

def _boundaries(sentence: str) -> set[int]:
    return {b for _, a, z in words_of(sentence) for b in (a, z)}


def _aligned(sentence: str, start: int, end: int) -> bool:
    """`start`..`end` begins and ends at word boundaries: a table's word is a whole word or a run of words."""
    bounds = _boundaries(sentence)
    return start in bounds and end in bounds


def word_matches(sentence: str, table: Sequence[str]) -> list[tuple[int, int, str]]:
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
    spans += [m.span() for m in MONTH_DAY.finditer(sentence)]
    for match in DAY_OF_MONTH.finditer(sentence):
        spans.append(match.span())
        end = match.end()
        while (after := _DAY_AFTER.match(sentence, end)) is not None:
            spans.append((after.start("day"), after.end()))
            end = after.end()
    spans += [m.span() for m in WEEKDAY.finditer(sentence)]
    return sorted(set(spans))


def in_any(position: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)


def quantities_in(sentence: str) -> list[tuple[Quantity, re.Match[str], str]]:
    """The language layer's quantities that are amounts: not dates or days of a month, clock times (9:00, 10点)
    or ordinals (第一), and whole words. With each, its numeral and its unit as written."""
    dates = _date_spans(sentence)
    found = []
    for quantity in CHINESE.quantities(sentence):
        if quantity.kind == "date" or in_any(quantity.start, dates):
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


def has_number(text: str) -> bool:
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
            if 2 <= stop - start <= 4 and re.fullmatch(rf"[{HAN}]+", sentence[start:stop]):
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
    return ((tags is None or tag in tags) and re.fullmatch(rf"[{HAN}A-Za-z]{{2,6}}", text) is not None
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
CONNECTIVES = ("并", "且", "但", "而", "或", "则", "也", "还", "即", "其", "该", "此", "同时", "其中", "包括", "如", "若",
                "因", "对", "经", "在", "自", "从", "当", "除", "否则", "逾期", "凡", "按", "由", "以", "每", "上述")


def split_subject(clause: str) -> tuple[str, str] | None:
    """A clause's subject (a short noun phrase with no punctuation or number) and its predicate (from the first
    predicate word on): "婚假须在……休完" -> ("婚假", "须在……休完")."""
    words = words_of(clause)
    for k, (word, start, _) in enumerate(words):
        if word in _PREDICATE_STARTS:
            subject, predicate = clause[:start], clause[start:]
            if not 1 <= k <= 8 or not 2 <= len(subject) <= 16 or subject.startswith(CONNECTIVES):
                return None
            if not re.fullmatch(rf"[{HAN}A-Za-z]+", subject) or has_number(subject):
                return None
            return subject, predicate
    return None


def clauses_of(sentence: str) -> list[str]:
    return sentence[:-1].split("，")


_CONDITION_WORDS = frozenset({"的", "时", "时候", "后", "之后", "以后", "前", "之前", "以前", "期间", "中", "起", "下"})


def conditional(clause: str) -> bool:
    """The clause sets a condition or a time for what follows ("员工离职的", "发生一级事件时", "出发前"): its last word
    says so ("小时" is no "时")."""
    words = words_of(clause)
    return bool(words) and (words[-1][0] in _CONDITION_WORDS or words[-1][0].endswith(("期间", "日起")))


def noun_phrase(clause: str) -> bool:
    """A clause that only names something ("能够通过电话解决的事项"): a 的 and nothing but nouns after it."""
    if conditional(clause):
        return True
    if "的" not in clause:
        return False
    tail = clause[clause.rindex("的") + 1:]
    return bool(tail) and all(tag.startswith("n") for _, _, _, tag in _tagged(tail))
