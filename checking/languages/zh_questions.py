"""How a Chinese question is read: which of its words name what it asks about, which must stand in a passage
for the Ask gate to answer (``ask/gate.py``), and how a compound is found by its parts. ``Chinese`` (zh.py) gives
these to the gate through ``TextLanguage``'s question hooks."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from functools import lru_cache

from checking.languages.base import QuestionTerm
from checking.languages.zh import (
    HAN,
    NEGATION_CUES,
    QUESTION_WORDS,
    RATE_WORDS,
    STOP_WORDS,
    asks,
    part_of_speech,
    word_parts,
)

# Modal and light verbs and particles a question is phrased with: they say how it asks, not what about (能休 is 能
# + 休, "can take"; 还能用吗 asks whether leave "can still be used"), as English's light words do (checking.text).
LIGHT_WORDS = frozenset("能 能够 可 可以 要 会 得 需 需要 应 应该 做 进行 有 是 用 去 来 让 给 算 还 完 请 被 了 过 着 吧 啊".split())
# Words placing an event in time relative to another ("辞职以后": after resigning): 后 and 前 alone are stop-words,
# and a policy says "离职的，…收回" without one; what the question asks about is the event.
_TIME_RELATIONS = frozenset("以后 之后 以前 之前".split())
# Words placing the question in the asker's own time or person ("我老婆下个月生孩子", "自己出差", "出发那天"):
# they say when or who asks, and a policy states its rule for any month and anyone.
_ASKERS_FRAME = frozenset("""自己 本人 今天 明天 昨天 后天 今年 明年 去年 这天 那天 当天 这个月 下个月 上个月 本月
    这周 下周 上周 本周 这次 下次 上次 最近 马上 现在 目前""".split())
# A superlative in a question names the bound it asks for (最多能报多少, 最晚什么时候): the answer states the bound
# in the policy's words (不超过, 最高, 以内), as 多少 asks for a number the answer states.
_BOUND_ASKED = re.compile(r"最[多少晚迟早长短高低大小]")
# A rate in a question names the denominator it asks by (每顿扣多少, 每周几天), which the answer states with its value.
_PER = re.compile(rf"(?:每个?{HAN.pattern})+")
# Modal words a question asks permission or condition with, as 可以 and 能 (LIGHT_WORDS) do: 才能再登, 是否允许.
_QUESTION_MODALS = frozenset("才能 才可以 允许".split())
# After a word asking for an amount, the next word is the measure asked for (多少天, 多少比例, 几位): the answer
# states a number, not that word, as "long" in English "how long". Generic nouns that make a question word of
# 什么 or 哪 (什么时候 "when", 什么情况下 "under what conditions", 哪些方面) do the same.
_AMOUNT_ASKERS = frozenset({"多少", "几", "多"})
_PLACE_ASKERS = frozenset({"什么", "哪", "哪个", "哪些", "何", "何种"})
_ASKING_NOUNS = frozenset({"时候", "时间", "情况", "地方", "原因", "方面", "方式", "条件", "样子"})


def asked_after(previous: str, word: str) -> bool:
    """``word``, following ``previous`` in a question, only completes the question word: 多少|比例, 什么|时候,
    多长|时间. A longer word after 多少 is what is counted, and asked about (多少燃油费)."""
    return (previous in _AMOUNT_ASKERS and len(word) <= 2) or (previous in _PLACE_ASKERS and word in _ASKING_NOUNS) \
        or previous + word in QUESTION_WORDS


def asked_measure(word: str) -> str:
    """The measure a one-word question asks in (天 of 几天, 元 of 多少元), or ""."""
    for asker in sorted(_AMOUNT_ASKERS, key=len, reverse=True):
        if word.startswith(asker) and len(word) > len(asker):
            return word[len(asker):]
    return ""


def light(word: str) -> bool:
    return word in LIGHT_WORDS or word in _TIME_RELATIONS


def frames(word: str) -> bool:
    """Whether a question's word frames what it asks (the asker's time or person, a rate, a bound, a modal, a
    function word) rather than naming it: it helps find the sentence that answers, but no passage need write it."""
    return word in _ASKERS_FRAME or word in _QUESTION_MODALS or word in RATE_WORDS or word in function_words() \
        or _BOUND_ASKED.fullmatch(word) is not None or _PER.fullmatch(word) is not None


@lru_cache(maxsize=1)
def function_words() -> frozenset[str]:
    """stopwords-iso's Chinese list, its words of two characters or more (因为, 只能, 其中, 就是): one character is
    often a word's head or a verb (人, 乘), which the gate weighs by its part of speech."""
    import stopwordsiso

    return frozenset(word for word in stopwordsiso.stopwords("zh") if len(word) > 1)


def question_term(word: str, previous: str) -> QuestionTerm | None:
    """The part of a question's word that names what it asks about, as the question wrote it, less the light words
    the segmenter joined to it (能休: "can" + "take" is 休; 最多能 is 最多), and whether a passage must write it;
    None for a light word, or the measure a question word asks for (多少|天)."""
    if light(word) or asked_after(previous, word):
        return None
    parts = word_parts(word)
    kept, at = [], 0
    for part in parts:
        if not (light(part) or part in STOP_WORDS or part in NEGATION_CUES or asks(part)):
            kept.append((at, at + len(part)))
        at += len(part)
    if not kept:
        return None
    start, end = (0, len(word)) if len(kept) == len(parts) else (kept[0][0], kept[-1][1])
    return QuestionTerm(start, end, required=not frames(word[start:end]))


def spoken_light(word: str) -> bool:
    """A verb of one character, as spoken Chinese asks with them (开车, 花钱, 交证明, 被偷): beside the question's
    other words, which name what it is about, it is not required. Another one-character word (假 of 年假, 丢
    "lost") names a thing or what happened to it, and stays required."""
    return len(word) == 1 and part_of_speech(word) == "v"


def found_by_parts(stem: str, words: Collection[str], *, covers: Callable[[str], bool]) -> bool:
    """Chinese writes a compound as one word, so a term is found by its parts: 住宿费 where 住宿 is (or a word
    ``covers`` finds for it) and a word with 费 in it; a one-character term (休, 假) in a word that has it (休完,
    婚假). Terms made only of single characters (多人) are found only whole."""
    if not HAN.match(stem):
        return False
    whole = [word for word in words if len(word) > 1 and HAN.match(word)]
    if len(stem) == 1:
        return any(stem in word for word in whole)
    parts = word_parts(stem)
    if len(parts) < 2 or all(len(part) == 1 for part in parts):
        return False
    return all(covers(part) if len(part) > 1 else any(part in word for word in whole) for part in parts)
