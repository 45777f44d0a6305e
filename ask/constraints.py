"""What a question holds its answer to: the dates, numbers and names it asks about ("in April 2023", "for a
5-night stay", 2024年, "Shanghai", 上海). March is not April: a passage that covers the question's words but writes
another date is no evidence for it, however close the vectors of "April" and "March", so the Ask gate (ask/gate.py)
asks the passages that answer to write each constraint, as the checker reads them (checking.quantities for dates
and numbers in every language, checking.analysis for names):

- a date is met by the passage's dates that agree with it wherever both write a part (year, month, day), when
  between them they write every part the question does: "April 2023" by "April 2023" or by "April" with "2023"
  written as one date's, never by "April" beside a heading's "March 2023";
- a number written as one (not "a", 一次, "monthly": the checker's weak quantities) by the same value of the same
  kind, or by a bound or a range that holds it ("4 days" by "3 days or more", 八千元 by 五千元（含）至两万元);
- a name (capitalised words; in Chinese the segmenter's proper nouns) by its own word family only, never by a word
  of its class or a word vector.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from checking.analysis import looks_like_name
from checking.languages import language_of_word
from checking.quantities import Quantity, find_quantities
from checking.quantity_compare import comparable, same_value
from checking.text import Token, ideographs, is_content, synonym_in, tokenize
from checking.windows import stem_found
from kb.search import SearchHit

_RANGE_GAP = 4  # tokens at most between the two ends of a range ("5,000 and $10,000", "五千元（含）至两万元")


@dataclass(frozen=True)
class Constraint:
    surface: str  # as the question wrote it: "April 2023", "5 nights", "Shanghai"
    stems: frozenset[str]  # its words' stems: key terms the gate checks here rather than by their word family
    quantity: Quantity | None = None  # a date or a number; None for a name


@dataclass(frozen=True)
class PassageFacts:
    """What one passage (its text and heading path) writes that a constraint may be met by."""

    stems: frozenset[str]
    quantities: tuple[Quantity, ...]
    ranges: tuple[tuple[Quantity, Quantity], ...]  # like values written close together: a range's two ends


def question_constraints(*, question: str) -> list[Constraint]:
    """The question's dates and numbers written as numbers, and its names, in the order asked."""
    tokens = tokenize(question, 0, len(question), table=False)
    quantities = [q for q in find_quantities(question, tokens) if q.strong and not _written_into_a_word(q, tokens)]
    inside = {k for q in quantities for k in range(*q.token_span)}
    found = [(q.start, Constraint(surface=q.surface, quantity=q,
                                  stems=frozenset(tokens[k].stem for k in range(*q.token_span))))
             for q in quantities]
    run: list[Token] = []
    for k, token in enumerate([*tokens, None]):
        if token is not None and k not in inside and is_content(token) and _names(token):
            run.append(token)
            continue
        if run:
            found.append((run[0].start, Constraint(surface=question[run[0].start:run[-1].end],
                                                   stems=frozenset(t.stem for t in run))))
            run = []
    return [constraint for _, constraint in sorted(found, key=lambda item: item[0])]


def _written_into_a_word(quantity: Quantity, tokens: list[Token]) -> bool:
    """A number written into a word names something ("2FA", "MP3", "B2B"): it counts nothing."""
    first, end = quantity.token_span
    glued = [(first - 1, first), (end, end - 1)]
    return any(0 <= k < len(tokens) and tokens[k].kind == "word" and tokens[k].text.isascii()
               and (tokens[k].end == tokens[beside].start or tokens[beside].end == tokens[k].start)
               for k, beside in glued)


def _names(token: Token) -> bool:
    """A capitalised word past the question's first; a Chinese word is marked a name by the segmenter's proper
    nouns wherever it stands (上海的住宿标准……). A word its language classes with others of its kind (老公 with
    丈夫 and 配偶) is a common noun, however the segmenter tags it."""
    named = looks_like_name(token) or (token.capital and bool(ideographs(token.text)))
    return named and not language_of_word(token.lower).kindred(token.lower)


def passage_facts(*, hit: SearchHit, stems: Collection[str]) -> PassageFacts:
    quantities: list[Quantity] = []
    ranges: list[tuple[Quantity, Quantity]] = []
    for text, table in ((hit.chunk.text, True), (hit.chunk.heading_path, False)):
        tokens = tokenize(text, 0, len(text), table=table)
        found = find_quantities(text, tokens)
        quantities += found
        ranges += [(low, high) for low, high in zip(found, found[1:], strict=False)
                   if low.kind == high.kind != "date" and not low.bound and not high.bound
                   and 0 <= high.token_span[0] - low.token_span[1] <= _RANGE_GAP]
    return PassageFacts(stems=frozenset(stems), quantities=tuple(quantities), ranges=tuple(ranges))


def constraint_met(*, constraint: Constraint, passage: PassageFacts) -> bool:
    asked = constraint.quantity
    if asked is None:
        return all(stem_found(stem, passage.stems) or synonym_in(stem, passage.stems) for stem in constraint.stems)
    if asked.kind == "date":
        return _date_met(asked, [q for q in passage.quantities if q.kind == "date"])
    return any(_holds(asked, written) for written in passage.quantities) or any(
        low.kind == asked.kind and min(low.value, high.value) <= asked.value <= max(low.value, high.value)
        for low, high in passage.ranges)


def _date_met(asked: Quantity, dates: list[Quantity]) -> bool:
    agreeing = [date for date in dates if same_value(asked, date)]
    return all(part is None or any(date.value[k] == part for date in agreeing) for k, part in enumerate(asked.value))


def _holds(asked: Quantity, written: Quantity) -> bool:
    """The written value is the asked one, or a bound holding it ("3 days or more" holds 4 days)."""
    if not comparable(asked, written):
        return False
    return same_value(asked, written) or (bool(written.bound) and not asked.bound and same_value(written, asked))
