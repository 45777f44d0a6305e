"""What two approved sources that disagree about a claim actually say differently: the differing words of their
quotes (marked on the review page) and, when the differences are short, a sentence naming the values of both."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from django.utils.translation import gettext

if TYPE_CHECKING:
    from kb.models import DocumentVersion
    from review.models import Claim, Evidence, SourceCorrection

# Numbers (with currency, separators, a percent sign or a clock time) stay one token; so do words.
_TOKEN = re.compile(r"[$€£]?\d+(?:[.,:/]\d+)*%?|\w+|[^\w\s]")
_NUMBER = re.compile(r"[$€£]?\d")
# Longer differing runs are rewordings, not a value: the sentence falls back to naming the sources only.
SHORT_DIFFERENCE_TOKENS = 4
# More differing runs than this are another passage, not values to name ("says Friday, 8:00").
MAX_VALUES_NAMED = 3
# Words after a number that are no unit of it ("$65 per day" says "$65", not "$65 per").
_NOT_A_UNIT = frozenset("a an and at by for from in of on or per the to with".split())


@dataclass(frozen=True)
class QuotePiece:
    text: str
    differs: bool


@dataclass(frozen=True)
class QuoteDifference:
    first: list[QuotePiece]
    second: list[QuotePiece]
    first_says: str  # the first quote's differing values ("30 days", "Friday, 8:00"); "" when they are no short values
    second_says: str


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def _pieces(text: str, tokens: list[re.Match[str]], differing: list[tuple[int, int]]) -> list[QuotePiece]:
    """`text` cut into alternating plain and differing pieces; together they are `text` again."""
    pieces: list[QuotePiece] = []
    position = 0
    for first, last in differing:
        start, end = tokens[first].start(), tokens[last - 1].end()
        if start > position:
            pieces.append(QuotePiece(text[position:start], differs=False))
        pieces.append(QuotePiece(text[start:end], differs=True))
        position = end
    if position < len(text) or not pieces:
        pieces.append(QuotePiece(text[position:], differs=False))
    return pieces


def _value(text: str, tokens: list[re.Match[str]], first: int, last: int) -> str:
    """The differing run as a value: a number keeps the unit that follows it ("30" → "30 days", "30-day")."""
    def word_at(index: int) -> str:
        return tokens[index].group() if index < len(tokens) else ""

    if _NUMBER.match(tokens[last - 1].group()):
        if (word_at(last) == "-" and word_at(last + 1).isalpha()
                and tokens[last - 1].end() == tokens[last].start() and tokens[last].end() == tokens[last + 1].start()):
            last += 2
        elif word_at(last).isalpha() and word_at(last).lower() not in _NOT_A_UNIT:
            last += 1
    return text[tokens[first].start():tokens[last - 1].end()]


def quote_difference(*, first: str, second: str) -> QuoteDifference:
    """Mark what differs between two quotes, word by word (case ignored). When the quotes share little, only the
    numbers one has and the other lacks are marked: marking every word would mark nothing."""
    first_tokens, second_tokens = _tokens(first), _tokens(second)
    first_words = [t.group().lower() for t in first_tokens]
    second_words = [t.group().lower() for t in second_tokens]
    matcher = SequenceMatcher(a=first_words, b=second_words, autojunk=False)
    runs = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    if matcher.ratio() < 0.5:
        def lone_numbers(words: list[str], others: list[str]) -> list[tuple[int, int]]:
            return [(i, i + 1) for i, word in enumerate(words) if _NUMBER.match(word) and word not in others]
        first_runs, second_runs = lone_numbers(first_words, second_words), lone_numbers(second_words, first_words)
    else:
        first_runs = [(i1, i2) for i1, i2, _, _ in runs if i2 > i1]
        second_runs = [(j1, j2) for _, _, j1, j2 in runs if j2 > j1]

    first_says = second_says = ""
    if matcher.ratio() >= 0.5:
        paired = [(i1, i2, j1, j2) for i1, i2, j1, j2 in runs
                  if 0 < i2 - i1 <= SHORT_DIFFERENCE_TOKENS and 0 < j2 - j1 <= SHORT_DIFFERENCE_TOKENS]
        if paired and len(paired) == len(runs) <= MAX_VALUES_NAMED:
            first_says = ", ".join(_value(first, first_tokens, i1, i2) for i1, i2, _, _ in paired)
            second_says = ", ".join(_value(second, second_tokens, j1, j2) for _, _, j1, j2 in paired)
    elif 0 < len(first_runs) <= MAX_VALUES_NAMED and 0 < len(second_runs) <= MAX_VALUES_NAMED:
        first_says = ", ".join(_value(first, first_tokens, *run) for run in first_runs)
        second_says = ", ".join(_value(second, second_tokens, *run) for run in second_runs)
    return QuoteDifference(
        first=_pieces(first, first_tokens, first_runs), second=_pieces(second, second_tokens, second_runs),
        first_says=first_says, second_says=second_says,
    )


def disagreement_sentence(*, first_source: str, second_source: str, difference: QuoteDifference) -> str:
    """'Approved sources disagree: FAQ v1 says 30 days; Refund policy v2 says 45 days.'"""
    if difference.first_says and difference.second_says:
        return gettext(
            "Approved sources disagree: %(first)s says %(first_says)s; %(second)s says %(second_says)s.") % {
            "first": first_source, "first_says": difference.first_says,
            "second": second_source, "second_says": difference.second_says}
    return gettext("Approved sources disagree: %(first)s and %(second)s say different things about this claim.") % {
        "first": first_source, "second": second_source}


def version_label(version: DocumentVersion) -> str:
    """A source as the disagreement sentence names it: "Refund policy v2"."""
    return f"{version.document.title} v{version.number}"


# What the reviewer said about a pair of sources, as the form posts it.
SUPPORTING_RIGHT, CONFLICTING_RIGHT, NEITHER = "supporting", "conflicting", "neither"
RIGHT_CHOICES = (SUPPORTING_RIGHT, CONFLICTING_RIGHT, NEITHER)


@dataclass(frozen=True)
class ConflictPair:
    """The source supporting a claim beside an approved source stating otherwise, and the reviewer's word on it."""

    supporting: Evidence
    conflicting: Evidence
    difference: QuoteDifference
    sentence: str
    recorded: SourceCorrection | None  # the reviewer's current choice for this pair, if any
    right: str  # SUPPORTING_RIGHT, CONFLICTING_RIGHT, NEITHER, or "" when nobody said yet

    @property
    def right_label(self) -> str:
        if self.right == NEITHER:
            return gettext("Neither / can't tell")
        chosen = self.supporting if self.right == SUPPORTING_RIGHT else self.conflicting
        return gettext("%(source)s is right") % {"source": version_label(chosen.chunk.version)} if self.right else ""


def conflict_pairs(claim: Claim) -> list[ConflictPair]:
    """Each conflicting source of the claim beside its best (supporting) source; reads prefetched rows only."""
    from review.models import SourceCorrection

    supporting = claim.best_evidence
    conflicting_sources = [e for e in claim.conflicting_evidence if e.chunk is not None]
    if supporting is None or supporting.chunk is None or not conflicting_sources:
        return []
    corrections = [c for c in claim.source_corrections.all() if c.status != SourceCorrection.Status.WITHDRAWN]
    pairs = []
    for conflicting in conflicting_sources:
        versions = {supporting.chunk.version_id, conflicting.chunk.version_id}
        recorded = max((c for c in corrections if {c.wrong_version_id, c.other_version_id} == versions),
                       key=lambda c: (c.created_at, c.pk), default=None)
        right = ""
        if recorded is not None:
            right = (NEITHER if recorded.right_version_id is None
                     else SUPPORTING_RIGHT if recorded.right_version_id == supporting.chunk.version_id
                     else CONFLICTING_RIGHT)
        difference = quote_difference(first=supporting.quote, second=conflicting.quote)
        if not any(piece.differs for piece in [*difference.first, *difference.second]):
            continue  # the two quotes say the same: no conflict to show, nor a choice to ask for
        sentence = disagreement_sentence(first_source=version_label(supporting.chunk.version),
                                         second_source=version_label(conflicting.chunk.version), difference=difference)
        pairs.append(ConflictPair(supporting=supporting, conflicting=conflicting, difference=difference,
                                  sentence=sentence, recorded=recorded, right=right))
    return pairs
