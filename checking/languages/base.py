"""What every language's text module gives the checker: typed words, sentences and quantities, with offsets into
the text as written, and the cue words the rules read."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from checking.text import Token


@dataclass(frozen=True)
class Word:
    text: str  # as written
    start: int
    end: int
    key: str  # what matching compares: a stem, or the Simplified form


@dataclass(frozen=True)
class Quantity:
    """A number with its unit, in the English quantities' kinds (``checking.quantity_words.UNITS``): money:CNY,
    duration:s (seconds), duration:mo (months), percent, count, date ((year, month, day)), … so that values compare
    across languages."""

    kind: str
    value: float | tuple[int | None, int | None, int | None]  # scaled to the kind's base: 1.5万元 is 15000
    surface: str
    start: int
    end: int

    def same_as(self, other: Quantity) -> bool:
        if self.kind != other.kind:
            return False
        if isinstance(self.value, tuple) or isinstance(other.value, tuple):
            return self.value == other.value
        return abs(self.value - other.value) <= 1e-9 * max(1.0, abs(self.value))


@dataclass(frozen=True)
class QuestionTerm:
    """The part of a question's word (``word[start:end]``) that names what the question asks about, and whether the
    Ask gate asks a passage to write it (a word that only frames the question need not be written)."""

    start: int
    end: int
    required: bool = True


MAX_SUBJECT_WORDS = 8  # a statement's opening phrase longer than this, verb not found, is no subject to carry


def opening_phrase(text: str, words: Sequence[Word], *, end: int) -> list[Word]:
    """``words[:end]`` after the last comma-closed opening among them ("In the passages, the plan" -> "the plan"):
    the phrase a statement opens with, once a verb at ``end`` is found."""
    start = max((k for k in range(1, end) if re.search(r"[,，:：]", text[words[k - 1].end:words[k].start])), default=0)
    return list(words[start:end])


_HEADER_UNIT = re.compile(r"\s*[(（]([^()（）]{1,20})[)）]\s*$")
_BARE_NUMBER = re.compile(r"[\d.,]+")


def header_unit(column: str, value: str) -> tuple[str, str]:
    """A column name without the unit it puts in brackets, and the cell's value with that unit after it where the
    cell is a bare number: ("普通员工（元/间·晚）", "600") -> ("普通员工", "600元/间·晚"); ("Price (USD)", "12") ->
    ("Price", "12 USD")."""
    unit = _HEADER_UNIT.search(column)
    if unit is None or not _BARE_NUMBER.fullmatch(value):
        return column, value
    joiner = "" if re.search(r"[\u4e00-\u9fff]", unit.group(1)) else " "
    return column[:unit.start()].strip(), f"{value}{joiner}{unit.group(1)}"


@dataclass(frozen=True)
class Cues:
    """The cue words a language adds to the checker's English ones (``checking.text``), by the role the rules give
    them. English's are ``checking.text``'s own, so it adds none."""

    change_words: dict[str, int] = field(default_factory=dict)  # +1 rose, -1 fell, 0 unchanged
    compare_words: dict[str, int] = field(default_factory=dict)  # +1 more than, -1 less than
    superlative_words: dict[str, int] = field(default_factory=dict)  # +1 most, -1 least
    order_words: dict[str, int] = field(default_factory=dict)  # -1 before, +1 after
    reply_words: frozenset[str] = frozenset()  # a reply made of these states nothing ("是的。")
    chatter: re.Pattern[str] | None = None  # pleasantries a sentence may open with
    # How an assistant frames a statement: an opening that attributes it to the sources ("Based on the given
    # passages,", "Passage 2 states that", 根据以上段落，), matched at the statement's start and never content; and
    # a sentence about itself or its answer ("Unable to answer based on given passages.", "Here's my answer:"),
    # which states nothing about the world.
    framing: re.Pattern[str] | None = None
    framing_after: re.Pattern[str] | None = None  # an attribution closing a statement (", as passage 3 says.")
    meta: re.Pattern[str] | None = None
    # A statement that the sources lack something ("The passages do not mention X", 段落中没有提到X): its group
    # "stated" is what they are said to lack.
    absence: tuple[re.Pattern[str], ...] = ()
    back_references: frozenset[str] = frozenset()  # a sentence opening with one leans on the one before ("These")
    # Back-references that, standing alone before the verb, point at the whole statement before ("This is because
    # …", 这是因为……), not at its subject; before a noun ("These symptoms", 该期限) they name the subject again.
    demonstratives: frozenset[str] = frozenset()
    negation_breaks: frozenset[str] = frozenset()  # words ending a negation's reach ("但")
    coordinators: frozenset[str] = frozenset()  # "and", "or"
    # The verb a predicate's negation follows ("are not", "isn't"): a negation after it with nothing it could deny
    # after it ("live chat isn't included") denies its subject, which came before.
    copulas: frozenset[str] = frozenset()
    clause_joiners: frozenset[str] = frozenset()  # words joining one statement to another ("and", 并且), not "or"
    antonym_pairs: tuple[tuple[str, str], ...] = ()  # opposites that can stand in one slot
    stop_words: frozenset[str] = frozenset()  # never content words
    counters: frozenset[str] = frozenset()  # what a count is counted in, written after its number (位 of 十二位)
    # A comparison written around its second value ("比去年多"): the word before that value, and the degree after
    # it, +1 more, -1 less.
    compared_with: frozenset[str] = frozenset()
    compared_degrees: dict[str, int] = field(default_factory=dict)


class TextLanguage(Protocol):
    code: str
    locale: str  # the Django language code its reasons are written in ("zh-hans")
    negation_cues: frozenset[str]
    question_words: frozenset[str]
    direction_pairs: dict[str, str]  # each word with its opposite direction
    antonyms: dict[str, frozenset[str]]

    def sentences(self, text: str) -> list[tuple[int, int]]: ...

    def words(self, text: str) -> list[Word]: ...

    def search_words(self, text: str) -> list[str]: ...

    def quantities(self, text: str) -> list[Quantity]: ...

    def fold(self, text: str) -> str: ...

    def terms_add(self, terms: Iterable[str]) -> None: ...

    def document_terms(self, markdown: str) -> list[str]: ...

    # Clauses: where a claim sentence may be cut in two (checking.claims), and how names pair across clauses.
    names_paired_by_clause: bool  # two names in parallel clauses of one sentence are paired, lacking a linking word

    def stands_alone(self, text: str) -> bool:
        """Whether ``text`` (one side of a clause cut) is a statement of its own."""
        ...

    def leans_back(self, text: str) -> bool:
        """Whether a clause opens by leaning on the one before ("; it …", "；但……")."""
        ...

    def provisions_paired(self, left: str, right: str) -> bool:
        """Whether two clauses are provisions to be checked together (which gets which is what they say)."""
        ...

    # Back-references (checking.references): what a claim opening with "These …" or 它… is about.
    word_separator: str  # how its words are written one after another: " ", or "" for Chinese

    def leading_subject(self, text: str) -> list[Word]:
        """The words of the phrase a statement opens with as what it is about, up to its verb ("Morning sickness"
        of "Morning sickness is nausea in pregnancy.", 国内出差的住宿标准 of 国内出差的住宿标准为每晚五百元), after a
        comma-closed opening ("In the passages,"); none where no verb ends it within a few words."""
        ...

    # What the checker's English core (checking.text, checking.quantities) takes in from each language: its cue words,
    # its tokens, its dates and ordinals, and the tests of its script and word families. English is that core, so it
    # adds nothing here: empty tables, no ideographs, no dates, no families, and None for tokens.
    cues: Cues
    ideograph: re.Pattern[str] | None  # one character of its script that is a word of its own (Han), or None

    def tokens(self, text: str, start: int, end: int, *, table: bool) -> list[Token] | None:
        """``text[start:end]`` as the rules' tokens, or None where ``checking.text``'s own tokenizer reads it."""
        ...

    def asks(self, word: str) -> bool:
        """Whether a lower-case word asks rather than names what is asked about, beside ``checking.text``'s English
        question words."""
        ...

    def one_word_family(self, a: str, b: str) -> bool:
        """Whether two stems are one word to this language (Chinese 坐 / 乘坐), beside ``checking.text``'s English
        word families."""
        ...

    def family_member_in(self, stem: str, stems: set[str] | frozenset[str]) -> bool:
        """Whether a stem of ``stem``'s word family is among ``stems``, by ``one_word_family``, its candidates
        picked cheaply first."""
        ...

    def synonyms(self, word: str) -> frozenset[str]:
        """The words of the same meaning as a word of its script, beyond what its stems fold together."""
        ...

    def kindred(self, word: str) -> frozenset[str]:
        """The words of the small class of a person or thing of its script (老婆: 配偶, 丈夫, …), broader than its
        synonyms: what the Ask gate accepts as naming the same kind of thing, never evidence for a claim."""
        ...

    def word_parts(self, word: str) -> tuple[str, ...]:
        """The smaller words a word of its script is made of (国际出差: 国际, 出差), or none."""
        ...

    def written_dates(self, text: str, start: int, end: int) -> list[Quantity]:
        """The dates written in ``text[start:end]`` in its own way (2025年1月1日), read from the text rather than from
        tokens; ``checking.quantities`` reads English dates from tokens itself."""
        ...

    def fraction(self, word: str) -> float | None:
        """The share a word of its own names (四分之三: 0.75, 一半: 0.5), or None."""
        ...

    def ordinal(self, word: str) -> int | None:
        """The place a word of its own names (第一季度: 1), or None."""
        ...

    # Questions (ask/gate.py, ask/compose.py): which of a question's content words name what it asks about. Each is
    # asked of a word written in its script (checking.languages.language_of_word).
    def question_term(self, word: str, previous: str) -> QuestionTerm | None:
        """The part of a question's lower-case content word (``previous``: the word before it) that names what is
        asked, and whether a passage must write it; None when the word only asks or carries the question."""
        ...

    def row_sentence(self, *, label: str, cells: Sequence[tuple[str, str]]) -> str:
        """A table row written as a sentence naming its row and each column ("The nightly cap for San Francisco is
        $300."): how the Ask composer answers from a table, and a claim the checker reads like any other."""
        ...

    def function_word(self, word: str) -> bool:
        """Whether a lower-case word of its script states no fact of its own (Chinese 因为, 只能, 另外): a claim
        restating another may add or drop it."""
        ...

    def spoken_light(self, word: str) -> bool:
        """Whether a key term is a word the question speaks with (Chinese 开 of 开车), required only where the
        question names nothing else."""
        ...

    def found_by_parts(self, stem: str, words: Collection[str], *, covers: Callable[[str], bool]) -> bool:
        """Whether a term of its script is found among a passage's words by its parts, each part covered by
        ``covers`` (Chinese 住宿费 by 住宿 and a word with 费)."""
        ...

    def asked_measure(self, word: str) -> str:
        """The measure a one-word question word asks in (Chinese 天 of 几天), or ""."""
        ...
