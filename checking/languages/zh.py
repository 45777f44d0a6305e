"""Simplified Chinese: words from rjieba (with the knowledge base's own terms added), numerals read by cn2an,
Traditional characters folded into Simplified by OpenCC, and the cue words the rules read.

Offsets always point into the text as written: folding maps character for character, and a numeral's value is
read from its own span ("两千元" is 2000 yuan at the span of "两千元").
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

from checking.languages.base import MAX_SUBJECT_WORDS, Cues, Quantity, QuestionTerm, Word, header_unit, opening_phrase
from checking.languages.zh_numbers import (
    COUNTERS,
    UNITS,
    fraction_value,
    ordinal_value,
    quantities,
    written_dates,
)

# A sentence ends at a full stop, exclamation or question mark, or a semicolon (which in Chinese policy text joins
# independent clauses), with any closing quotes or brackets after it; a blank line ends one too.
_SENTENCE_END = re.compile(r"[。！？；!?;]+[”’」』）)]*|\n\s*\n")
# A segmenter piece that is no word: nothing but punctuation and spaces.
PUNCTUATION_PIECE = re.compile(r"^[\s\W_]+$")
HAN = re.compile(r"[\u3400-\u9fff]")  # a Han character: each is a word of its own, or part of one
# A name in Chinese quotation or title marks: 「云途」, 《差旅费管理办法》, “安盾”.
QUOTED_TERM = r"「([^」\n]{2,20})」|《([^》\n]{2,20})》|“([^”\n]{2,20})”"
_MARKED_TERM = re.compile(r"\*\*([^*\n]{2,20})\*\*|" + QUOTED_TERM)
# A name-like run: no spaces, punctuation or digits (a cell reading "500元" is a value, not a term).
_TERM = re.compile(r"[\u4e00-\u9fffA-Za-z]{2,12}")

STOP_WORDS = frozenset(
    """的 了 和 与 及 以及 或 或者 在 是 为 对 将 把 被 由 从 到 等 也 都 就 而 并 且 之 其 该 此 这 那 这些 那些 个 些
    我们 你 您 我 他 她 它 他们 按 按照 根据 可 会 应 应当 应该 需 需要 进行 予以 均 各 每 所 有 于 向 给 以 中 内 上 下
    时 后 前 则 若 如 如果 即 亦 还 又 再 已 已经 所有 相关 有关 一 一个 要 做 哦 啊 吧 呀 嘛 啦 并且 而且
    百分之""".split()  # 百分之七十五 is the quantity 75%: its 百分之 is no word a source must state besides
)
# What a question asks with, not what it asks about: never a key term.
QUESTION_WORDS = frozenset(
    """多少 哪些 哪个 哪 什么 怎么 怎样 如何 是否 可以吗 吗 呢 几 多久 多长 多长时间 谁 何时 什么时候 为什么 能否 能不能
    可不可以 需不需要 是不是 有没有 请问 请 告诉 一下 的话 分别 多长时间""".split()
)
# A word asking for an amount asks, whatever it measures: 几天, 多少钱, 多长时间, 多久, 哪个部门.
_ASKING = re.compile(r"(?:几|多少|多长|多久|多大|多高|多远|哪)\w*")


def asks(word: str) -> bool:
    """The word asks rather than names what is asked about."""
    return word in QUESTION_WORDS or _ASKING.fullmatch(word) is not None
# Words that answer or steer a conversation without stating anything: a reply made of these ("是的。", "不行。",
# "很遗憾，不能。") has nothing a source could confirm; the sentence after it says what it means.
REPLY_WORDS = frozenset(
    """是的 是 对 对的 没错 正确 可以 能 不能 不可以 不行 行 不是 没有 没有的 有 有的 好 好的 当然 当然可以 很遗憾 遗憾
    抱歉 不好意思 不用 不需要 需要 不适用 否 嗯 您好 你好 谢谢""".split()
)
# Pleasantries the segmenter cuts into ordinary words ("没问题" is 没 + 问题, "不客气" is 不 + 客气): a sentence
# opening with one says nothing a source could confirm (the English list is checking.claims._CHATTER).
CHATTER = re.compile(
    r"\W*(?:没问题|没关系|不客气|不用谢|早上好|上午好|中午好|下午好|晚上好|大家好|再见|祝您|很高兴为您|乐意为您|"
    r"希望(?:这|以上|我的回答)?(?:能)?对您有(?:所)?帮助|如有(?:其他|任何)?(?:问题|疑问)|欢迎(?:随时)?(?:咨询|联系|提问))"
)
# What an assistant names its sources by: 段落, 材料二, 以上内容 — 内容 and 信息 only with a word pointing at the
# passages (从信息安全角度 is no framing).
# A source's number written in Chinese numerals (段落二, 段落十二).
SOURCE_NUMERAL = r"[一二三四五六七八九十]{1,3}"
# The sources an assistant names, and a knowledge base's own documents with their topic (根据休假制度，根据规范，).
_SOURCES = r"(?:(?:(?:以上|上述|所给|给定|提供的|所提供的|检索到的|这些|各)(?:的)?(?:段落|材料|资料|文段|片段|来源|文档|内容|信息)" \
           r"|段落|材料|资料|文段|片段|来源|文档)(?:[一二三四五六七八九十\d]+(?:[、和与及][一二三四五六七八九十\d]+)*)?" \
           r"|(?:公司|本|该|相关)?(?:的)?[\u4e00-\u9fff]{0,8}?(?:制度|规定|规范|政策|手册|指南|须知|办法|规章|条例))"
_CLOSING_SOURCE = rf"[（(](?:见|参见|来自|根据|引自)?{_SOURCES}[）)]"
FRAMING = re.compile(
    rf"(?:因此|所以|总之|综上|另外|此外|但是|不过)?[，,]?(?:(?:根据|依据|按照|据|从){_SOURCES}(?:的内容|所述|中的信息|来看|可知|中)?"
    rf"[，,：:]?(?:可以看出|可知|可以得知)?[，,]?|{_SOURCES}(?:中)?(?:指出|提到|表明|显示|说明|称|写道|明确)[，,：:]?"
    # what a source covers ("段落一主要介绍了如何使用牙线"): the rest, checked as any claim is
    rf"|{_SOURCES}(?:主要|还|也|只)?(?:介绍了|讨论了|描述了|讲述了|讲解了|解释了|涉及)[，,：:]?"
    r"|(?:需要|值得)注意的是[，,：:]?"
    # an attribution that closed the sentence before, split off with its full stop: "……流失。（段落2）年假……"
    rf"|{_CLOSING_SOURCE})"
)
# An attribution closing a statement: "……尿液中（段落2）。", "（见段落三）".
FRAMING_AFTER = re.compile(rf"{_CLOSING_SOURCE}(?=[。！.!]?$)")
# What a statement about the sources says they lack: the rest of the clause, two characters at least (婚假), not
# ending on a comma or 的.
_STATED = r"(?P<stated>[^。；;]+[^。；;，,的])"
ABSENCE = re.compile(
    # the sources named ("未说明理由的，不予报销" is a rule, not a claim about the passages), except before 提到/提及,
    # which only a text does
    rf"(?:但是|不过|但|另外)?[，,]?(?:{_SOURCES}(?:中|里)?(?:都|均|并)?(?:没有|没|未|并未|不曾)(?:明确|具体)?"
    r"(?:提到|提及|说明|涉及|给出|包含|介绍|写明|规定)|(?:没有|未|并未)(?:明确|具体)?(?:提到|提及))(?:关于|有关)?"
    + _STATED
)
# "X在段落中并未说明", "X没有提到"; 说明 and 写明 only with the sources named (the rule "未说明理由的" is no such claim).
# What is lacked is the shortest opening before them.
_ABSENCE_PASSIVE = re.compile(
    _STATED.replace("{2,}", "{2,}?") + rf"[，,]?(?:(?:在)?{_SOURCES}(?:中|里)(?:都|均|并)?(?:没有|没|未|并未)(?:明确|具体)?"
    r"(?:说明|提到|提及|写明|指出|给出)|(?:并)?(?:没有|未|并未)(?:明确|具体)?(?:提到|提及))[。！]?$"
)
# "不清楚X", "尚不明确X": the answer says the sources do not settle X.
_ABSENCE_UNCLEAR = re.compile(
    r"(?:但是|不过|但|因此|所以)?[，,]?(?:目前)?(?:尚|还)?(?:不清楚|不明确|不确定)" + _STATED
)
BACK_REFERENCES = frozenset({"这", "这些", "这个", "这种", "它", "它们", "该", "此", "其", "他", "她", "他们"})
DEMONSTRATIVES = frozenset({"这", "这些", "这个", "这种", "该", "此"})
META = re.compile(
    rf"\W*(?:因此|所以|抱歉|很抱歉|对不起)?[，,]?(?:(?:我)?(?:无法|不能|没法)(?:根据{_SOURCES})?(?:回答|作答|提供|确定)"
    r"|我(?:必须|将|会|只能)|(?:以下|下面)是(?:我的)?(?:回答|答案)|(?:答案|回答)(?:是|为)[：:]"
    # the courtesy that closes an answer: 如果您还有其他问题，请随时告诉我；希望以上信息对您有帮助
    r"|(?:如果|如)您?(?:还)?有(?:其他|任何|更多)?(?:问题|疑问)[，,]?请?随时(?:告诉我|问我|提问)"
    r"|希望(?:以上|这些|这个|我的)?(?:信息|回答|答案|内容)?(?:对您|能)有(?:所)?帮助)"
)
NEGATION_CUES = frozenset("不 没 没有 无 无需 无须 不必 不用 不得 不可 不能 不准 不予 不许 禁止 严禁 未 非 勿 别 免 "
                           "不会 不要 不需要 无法 不再 不可以 不应 不宜".split())
# Each direction word with its opposite (上调/下调, 不超过/不少于, 之前/之后).
_DIRECTION_PAIRS = (
    ("上调", "下调"), ("增加", "减少"), ("提高", "降低"), ("上升", "下降"), ("增长", "下降"), ("升高", "降低"),
    ("以上", "以下"), ("高于", "低于"), ("多于", "少于"), ("超过", "不足"), ("不少于", "不超过"), ("至少", "至多"),
    ("最少", "最多"), ("之前", "之后"), ("以前", "以后"), ("早于", "晚于"), ("提前", "推迟"), ("扩大", "缩小"),
)
DIRECTION_PAIRS: dict[str, str] = {**dict(_DIRECTION_PAIRS), **{b: a for a, b in _DIRECTION_PAIRS}}
ANTONYM_PAIRS = (
    ("国内", "国际"), ("国内", "境外"), ("必须", "可选"), ("允许", "禁止"), ("强制", "自愿"), ("批准", "拒绝"),
    ("有薪", "无薪"), ("带薪", "无薪"), ("正式", "临时"), ("公开", "内部"), ("最高", "最低"), ("上限", "下限"),
    ("开启", "关闭"), ("启用", "停用"), ("全额", "部分"), ("申请人", "审批人"), ("提交人", "审核人"),
)


# What the English tables of the rules take in (checking.text, checking.quantity_words): the same roles, in Chinese.
SCALE_WORDS = {"万": 1e4, "亿": 1e8}
# Chinese has no article: "一次出差" is "a trip", "一年内" "within a year". Like English "a year", such a one is a
# quantity when the evidence has it and no missing fact when it has not.
ARTICLE_NUMERALS = frozenset({"一"})
REFERENCE_WORDS = frozenset({"段落", "文段", "片段", "材料", "资料", "来源", "文档", "文章"})  # 段落二: which source
BOUNDS_BEFORE = (
    (("不超过",), -1), (("最多",), -1), (("至多",), -1), (("不高于",), -1), (("不多于",), -1), (("不大于",), -1),
    (("不少于",), 1), (("至少",), 1), (("不低于",), 1), (("最少",), 1), (("不小于",), 1),
    (("超过",), 2), (("多于",), 2), (("高于",), 2), (("大于",), 2), (("少于",), -2), (("低于",), -2),
    (("小于",), -2), (("不足",), -2), (("不满",), -2), (("未满",), -2),
)
BOUNDS_AFTER = ((("以上",), 1), (("及以上",), 1), (("以下",), -1), (("及以下",), -1), (("以内",), -1),
                (("之内",), -1))
CHANGE_ORIGIN_WORDS = frozenset({"由", "从"})
CHANGE_TARGET_WORDS = frozenset({"至", "到", "为"})
CHANGE_WORDS = {"增加": 1, "增长": 1, "上调": 1, "提高": 1, "上升": 1, "升高": 1, "上浮": 1, "增至": 1, "涨": 1,
                "延长": 1, "放宽": 1, "减少": -1, "下调": -1, "降低": -1, "下降": -1, "下浮": -1, "降至": -1,
                "减至": -1, "跌": -1, "缩短": -1, "收紧": -1}
COMPARE_WORDS = {"多于": 1, "高于": 1, "大于": 1, "长于": 1, "超过": 1, "少于": -1, "低于": -1, "小于": -1,
                 "短于": -1, "不足": -1, "不满": -1, "未满": -1, "不少于": 1, "不低于": 1, "至少": 1, "不超过": -1,
                 "不高于": -1, "不多于": -1, "至多": -1}
# "今年的预算为五千万元，比去年的四千万元多": 比 before the value compared with, the degree after it.
COMPARED_WITH = frozenset({"比"})
COMPARED_DEGREES = {"多": 1, "高": 1, "大": 1, "长": 1, "少": -1, "低": -1, "小": -1, "短": -1}
SUPERLATIVE_WORDS = {"最高": 1, "最多": 1, "最大": 1, "最长": 1, "上限": 1, "最低": -1, "最少": -1, "最小": -1,
                     "最短": -1, "下限": -1}
# 前/后 alone too: "下班前" is segmented 下班 + 前 (目前, 最后, 前往 are words of their own).
ORDER_WORDS = {"之前": -1, "以前": -1, "早于": -1, "提前": -1, "前": -1, "之后": 1, "以后": 1, "晚于": 1, "推迟": 1,
               "后": 1}
COORDINATORS = frozenset({"和", "与", "及", "以及", "或", "或者"})
CLAUSE_JOINERS = frozenset({"和", "与", "及", "以及", "并且", "而且", "并", "同时", "另外"})
# For the scoring model's text measures (checking.features), as English "it", "they", "I", "you".
PRONOUNS = frozenset("它 它们 他 他们 她 她们 这 这个 这些 那 那个 那些 其".split())
PERSONAL_WORDS = frozenset("我 我们 咱们 你 你们 您 我的 你的".split())
DISCOURSE_WORDS = frozenset("是的 对 嗯 好的 好 当然 其实 不过 另外 哦 啊 吧".split())
# Words opening a clause that adds a further fact ("，且……", "，并……", "，同时……"), as English "with", "including".
ADDING_WORDS = frozenset({"且", "并且", "并", "同时", "另外", "此外", "而且", "还", "以及"})
_MIN_CLAUSE_WORDS = 3  # content words: fewer make no statement of their own
# Words opening a clause that leans on the one before ("；但……", "；其……", "；否则……"): no statement of its own.
DEPENDENT_OPENERS = PRONOUNS | ADDING_WORDS | frozenset({"但", "但是", "而", "也", "则", "否则", "因此", "所以"})
# A rate's denominator comes before the number in Chinese ("每晚五百元": 500 yuan per night), in English after it.
RATE_WORDS = {"每天": "day", "每日": "day", "每晚": "night", "每夜": "night", "每周": "week", "每星期": "week",
              "每月": "month", "每个月": "month", "每年": "year", "每季度": "quarter", "每小时": "hour", "每人": "person",
              "每位": "person", "每次": "time", "每公里": "kilometer", "每张": "ticket", "每件": "item"}
# Words that start what a statement says of its subject (孕吐是……, 住宿标准为……, 报销须……); so do a verb, a
# preposition, an adverb, a numeral or a conjunction (by the segmenter's tags), unless 的 makes it a modifier
# (国内出差的住宿标准).
PREDICATE_MARKERS = frozenset({"是", "为", "有", "可", "可以", "须", "必须", "需", "需要", "应", "应当", "应该", "能",
                               "能够", "会", "将", "要", "均", "都", "也", "还", "仅", "只", "通常", "一般"})
_PREDICATE_TAGS = frozenset({"v", "p", "d", "m", "c"})
RATE_REACH = 3  # tokens back from the number: "每人每月的伙食补助为" is too far, "每晚不超过五百元" is not
NEGATION_BREAKS = frozenset({"但", "但是", "而", "因为", "除非", "除了", "不过"})


def _antonyms() -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for a, b in ANTONYM_PAIRS:
        found.setdefault(a, set()).add(b)
        found.setdefault(b, set()).add(a)
    return {word: frozenset(others) for word, others in found.items()}


ANTONYMS = _antonyms()


@cache
def _converter():
    import opencc

    return opencc.OpenCC("t2s")


@lru_cache(maxsize=4096)
def _fold_character(character: str) -> str:
    folded = _converter().convert(character)
    return folded if len(folded) == 1 else character


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def fold(text: str) -> str:
    """Traditional characters as Simplified, character for character (offsets stay valid). A lone surrogate (not
    text, but a str may hold one) reads as U+FFFD: the converters and the segmenter take only valid UTF-8."""
    text = _SURROGATE.sub("\ufffd", text)
    folded = _converter().convert(text)
    if len(folded) == len(text):
        return folded
    return "".join(_fold_character(c) for c in text)  # a phrase conversion changed the length: map one by one


@dataclass
class _Segmenter:
    """rjieba, with the terms of the knowledge base added so they are never cut apart. One per process."""

    added: set[str] = field(default_factory=set)
    cues_added: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def tokenize(self, text: str) -> list[tuple[str, int, int]]:
        import rjieba

        self._vocabulary_load()
        return rjieba.tokenize(text)

    def proper_nouns(self, text: str) -> set[str]:
        import rjieba

        self._vocabulary_load()
        return {word for word, tag in rjieba.tag(text) if tag in _PROPER_TAGS and word not in _NOT_PLACES}

    def part_of_speech(self, word: str) -> str:
        import rjieba

        self._vocabulary_load()
        tags = rjieba.tag(word)
        return tags[0][1][:1] if len(tags) == 1 else ""

    def cut_for_search(self, text: str) -> list[str]:
        import rjieba

        self._vocabulary_load()
        return rjieba.cut_for_search(text)

    def _vocabulary_load(self) -> None:
        """The rules' own cue words are words: the dictionary cuts 不少于 into 不少 + 于 and 审批人 into 审批 + 人,
        and a cue cut apart is a cue the rules never see."""
        if not self.cues_added:
            self.add(word for word in _CUE_WORDS if len(word) > 1)
            self.cues_added = True

    def cut_exact(self, text: str) -> list[str]:
        """Dictionary words only (no guessing of unknown words): what a guessed word is made of."""
        import rjieba

        self._vocabulary_load()
        return rjieba.cut(text, False)

    def add(self, terms: Iterable[str]) -> None:
        import rjieba

        with self.lock:
            for term in terms:
                term = term.strip()
                if term and term not in self.added and len(term) <= 20:
                    rjieba.add_word(term, None, None)  # freq and tag: the dictionary's defaults
                    self.added.add(term)
                    word_parts.cache_clear()  # a word now in the dictionary is no longer its characters


_CUE_WORDS = frozenset({
    *NEGATION_CUES, *DIRECTION_PAIRS, *ANTONYMS, *CHANGE_WORDS, *COMPARE_WORDS, *SUPERLATIVE_WORDS, *ORDER_WORDS,
    *(word for words, _ in (*BOUNDS_BEFORE, *BOUNDS_AFTER) for word in words),
})
SEGMENTER = _Segmenter()


class Chinese:
    code = "zh"
    locale = "zh-hans"
    negation_cues = NEGATION_CUES
    question_words = QUESTION_WORDS
    direction_pairs = DIRECTION_PAIRS
    antonyms = ANTONYMS
    cues = Cues(change_words=CHANGE_WORDS, compare_words=COMPARE_WORDS, superlative_words=SUPERLATIVE_WORDS,
                order_words=ORDER_WORDS, reply_words=REPLY_WORDS, chatter=CHATTER, framing=FRAMING,
                framing_after=FRAMING_AFTER, meta=META,
                absence=(ABSENCE, _ABSENCE_PASSIVE, _ABSENCE_UNCLEAR),
                back_references=BACK_REFERENCES, demonstratives=DEMONSTRATIVES,
                negation_breaks=NEGATION_BREAKS,
                coordinators=COORDINATORS, clause_joiners=CLAUSE_JOINERS, antonym_pairs=ANTONYM_PAIRS,
                stop_words=STOP_WORDS,
                counters=frozenset(COUNTERS), compared_with=COMPARED_WITH, compared_degrees=COMPARED_DEGREES)
    ideograph = HAN

    def sentences(self, text: str) -> list[tuple[int, int]]:
        spans, start = [], 0
        for match in _SENTENCE_END.finditer(text):
            spans.append((start, match.end()))
            start = match.end()
        spans.append((start, len(text)))
        return [trimmed for span in spans if (trimmed := _strip(text, *span))]

    def words(self, text: str) -> list[Word]:
        folded = fold(text)
        return [Word(text=text[start:end], start=start, end=end, key=piece)
                for piece, start, end in SEGMENTER.tokenize(folded) if not PUNCTUATION_PIECE.match(piece)]

    def search_words(self, text: str) -> list[str]:
        """Words for the full-text index: a long word with the shorter dictionary words inside it."""
        return [piece for piece in SEGMENTER.cut_for_search(fold(text)) if not PUNCTUATION_PIECE.match(piece)]

    def quantities(self, text: str) -> list[Quantity]:
        return quantities(text)

    def fold(self, text: str) -> str:
        return fold(text)

    def terms_add(self, terms: Iterable[str]) -> None:
        SEGMENTER.add(terms)

    # Clauses: policy text joins provisions with "；", each a statement ("年假须提前三个工作日申请；连续休年假超过五
    # 天的，须提前两周申请"). No function word links two names as "on" does in English ("Windows电脑使用BitLocker，
    # Mac电脑使用FileVault"): parallel clauses pair them.
    names_paired_by_clause = True

    def stands_alone(self, text: str) -> bool:
        """Enough content words of its own: "超过十五天的，须经人力资源总监批准" has four."""
        from checking.text import is_content, tokenize

        return sum(is_content(t) for t in tokenize(text, 0, len(text), table=False)) >= _MIN_CLAUSE_WORDS

    def leans_back(self, text: str) -> bool:
        from checking.text import tokenize

        first = next((t.lower for t in tokenize(text, 0, len(text), table=False) if t.kind == "word"), None)
        return first is None or first in DEPENDENT_OPENERS

    def provisions_paired(self, left: str, right: str) -> bool:
        """Provisions stating like quantities ("直系亲属去世的，给予丧假三天；祖父母去世的，给予丧假一天"): which
        gets which is what the claim says, so they are checked together, where an exchange of the two shows."""
        kinds = {q.kind for q in self.quantities(left)}
        return any(q.kind in kinds for q in self.quantities(right))

    word_separator = ""

    def leading_subject(self, text: str) -> list[Word]:
        """The words before what the statement says of them (孕吐 of 孕吐是怀孕期间常见的恶心症状), without a 的
        ending them, nor a rate (每月): how often is what the statement says, not what it is about."""
        words = self.words(text)
        for k, word in enumerate(words[:MAX_SUBJECT_WORDS + 1]):
            following = words[k + 1].key if k + 1 < len(words) else ""
            if k and following != "的" and (word.key in PREDICATE_MARKERS or word.key in NEGATION_CUES
                                            or word.key in RATE_WORDS
                                            or SEGMENTER.part_of_speech(word.key) in _PREDICATE_TAGS):
                phrase = [word for word in opening_phrase(text, words, end=k) if word.key not in RATE_WORDS]
                while phrase and phrase[-1].key == "的":
                    phrase.pop()
                while phrase and phrase[0].key == "的":  # of a rate left out ("每月的话费补贴")
                    phrase.pop(0)
                return phrase
        return []

    def row_sentence(self, *, label: str, cells: Sequence[tuple[str, str]]) -> str:
        said = [f"{name}为{value}" for name, value in (header_unit(c, v) for c, v in cells)]
        return f"{label}的" + "，".join(said) + "。"  # one sentence: the row's label once, as a person writes it

    def document_terms(self, markdown: str) -> list[str]:
        """What the document marks as a term of its own: bold text, names in 「」《》“”, and short table cells."""
        found = [next(group for group in m.groups() if group) for m in _MARKED_TERM.finditer(markdown)]
        for line in markdown.splitlines():
            if line.lstrip().startswith("|"):
                found += [cell.strip() for cell in line.strip().strip("|").split("|")]
        return [fold(term) for term in dict.fromkeys(found) if _TERM.fullmatch(term)]

    # What the checker's English core takes in (base.TextLanguage): this module's functions (defined further down),
    # its tokens (zh_tokens) and its thesaurus (zh_thesaurus).
    def tokens(self, text: str, start: int, end: int, *, table: bool) -> list:
        from checking.languages.zh_tokens import tokens  # which reads this module's numerals and segmenter

        return tokens(text, start, end, table=table)

    def asks(self, word: str) -> bool:
        return asks(word)

    def one_word_family(self, a: str, b: str) -> bool:
        return one_word_family(a, b)

    def family_member_in(self, stem: str, stems: set[str] | frozenset[str]) -> bool:
        """Candidates hold ``stem``'s last character: one_word_family pairs a character with the word it heads."""
        if len(stem) <= 2 and HAN.match(stem):
            return any(other != stem and one_word_family(stem, other) for other in stems if stem[-1] in other)
        return False

    def synonyms(self, word: str) -> frozenset[str]:
        if not HAN.match(word):
            return frozenset()
        from checking.languages.zh_thesaurus import synonyms  # which reads this module's tables

        return synonyms(word)

    def kindred(self, word: str) -> frozenset[str]:
        if not HAN.match(word):
            return frozenset()
        from checking.languages.zh_thesaurus import kindred

        return kindred(word)

    def word_parts(self, word: str) -> tuple[str, ...]:
        return word_parts(word) if HAN.match(word) else ()

    def question_term(self, word: str, previous: str) -> QuestionTerm | None:
        from checking.languages import zh_questions  # which reads this module's tables

        return zh_questions.question_term(word, previous)

    def function_word(self, word: str) -> bool:
        from checking.languages import zh_questions

        return word in zh_questions.function_words()

    def spoken_light(self, word: str) -> bool:
        from checking.languages import zh_questions

        return zh_questions.spoken_light(word)

    def found_by_parts(self, stem: str, words: Collection[str], *, covers: Callable[[str], bool]) -> bool:
        from checking.languages import zh_questions

        return zh_questions.found_by_parts(stem, words, covers=covers)

    def asked_measure(self, word: str) -> str:
        from checking.languages import zh_questions

        return zh_questions.asked_measure(word)

    def written_dates(self, text: str, start: int, end: int) -> list[Quantity]:
        return written_dates(text, start, end)

    def fraction(self, word: str) -> float | None:
        return fraction_value(word)

    def ordinal(self, word: str) -> int | None:
        return ordinal_value(word)


def _strip(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


CHINESE = Chinese()


_HAN_WORD = re.compile(r"^[\u3400-\u9fff]+$")


def is_han_word(word: str) -> bool:
    """Whether ``word`` is written in Chinese characters only."""
    return bool(_HAN_WORD.match(word))


def one_word_family(a: str, b: str) -> bool:
    """A one-character word and the two-character word it heads, which Chinese uses as one word: 坐 / 乘坐,
    须 / 必须, 买 / 购买. A verb ending in a noun is the verb and its object, no form of the noun (辞职 "resign" is
    no 职 "post", and so no kin of 入职 "join"). Cue words keep their own meaning (不 is no form of 并不, nor 前 of
    提前), and so do units and rates (年 is no form of 每年)."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return (len(short) == 1 and len(long) == 2 and long.endswith(short) and is_han_word(long)
            and short not in _CUE_WORDS and short not in NEGATION_CUES and short not in STOP_WORDS
            and short not in COUNTERS and short not in UNITS and short not in ANTONYMS and long not in RATE_WORDS
            and not (part_of_speech(long) == "v" and part_of_speech(short) == "n"))


@lru_cache(maxsize=65536)
def part_of_speech(word: str) -> str:
    """The dictionary's part of speech of ``word``, coarsely ("v", "n", "d"; "ng", a noun morpheme, is "n")."""
    return SEGMENTER.part_of_speech(word)


@lru_cache(maxsize=65536)
def word_parts(word: str) -> tuple[str, ...]:
    """The smaller words ``word`` is made of, in order, without overlaps, covering as much of it as dictionary
    words can (the rest as single characters): 国际出差 as 国际 + 出差, 住宿费 as 住宿 + 费, 笔记本电脑 as 笔记本 +
    电脑. A word the dictionary does not know (joined by the segmenter's guessing: 能休, 没休) is its characters.
    ``(word,)`` for a word with no smaller dictionary word in it."""
    folded = fold(word)
    inside = {piece for piece in [*SEGMENTER.cut_for_search(folded), *SEGMENTER.cut_exact(folded)]
              if 1 < len(piece) < len(folded)}
    # best[i]: (characters covered by dictionary words, pieces) for folded[:i]
    best: list[tuple[int, tuple[str, ...]]] = [(0, ())]
    for end in range(1, len(folded) + 1):
        options = [(best[end - 1][0], (*best[end - 1][1], folded[end - 1]))]
        options += [(best[start][0] + end - start, (*best[start][1], folded[start:end]))
                    for start in range(end - 1) if folded[start:end] in inside]
        best.append(max(options, key=lambda option: option[0]))
    covered, pieces = best[-1]
    if covered == 0 and SEGMENTER.cut_exact(folded) != [folded]:
        return tuple(folded)  # not a dictionary word: its characters (能休 -> 能, 休)
    return pieces if covered else (folded,)


# Names ----------------------------------------------------------------------------------------------------------
# Chinese writes no capitals: a name is what the segmenter tags as a person, organisation or other proper noun (a
# place too, but for common words it tags as places), or a role by its ending. The rules' name logic then applies.
_PROPER_TAGS = frozenset({"nr", "nrt", "nrfg", "nt", "nz", "ns"})
_NOT_PLACES = frozenset({"城市", "地区", "国内", "国外", "境内", "境外", "全国", "本地", "当地", "各地", "海外", "异地"})
ROLE_ENDINGS = ("经理", "总监", "主管", "总裁", "主任", "董事", "部长", "专员", "负责人", "总经理", "委员会")
