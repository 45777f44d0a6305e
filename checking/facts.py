"""A claim's checkable content in the language layer's normal form: what a reviewer's decision on one claim says
about another that states the same fact (review's reviewed facts).

A fact is its quantities (value with kind and unit, bound, change, what it is per), directions, whether it negates,
and its content words, names among them (no number, light word, negation cue or function word). Claims restate a
reviewed fact when (`facts_restated`):

- the same quantities, each bound, changed and per the same where both say it (the parser reads a bound or a rate
  only next to the number: one side's silence is no difference, except for a strict "more/less than");
- the same direction words (before/after, more/less, rose/fell: one only one of them writes changes the fact too),
  both negating or neither, no word negated in one and asserted in the other, and the same names;
- every word of the claims the reviewed claim's — itself, its word family, the synonyms the stemmer folds, its parts
  or characters in a language writing compounds as one word — or one its source wrote (the quote and headings it
  was confirmed against); and none of the reviewed claim's words left out;

and the built-in checker, reading the reviewed claims as the evidence, finds nothing contradicting them
(`contradicted_by`: two names paired the other way round, which no set of words shows). So a changed number, unit,
date, name, negation or direction never restates a fact, nor does a word put in another's place (which the checker
cannot tell from a synonym without a model of meaning: the console learns those from its reviewers, in its
vocabulary). Claims and facts are compared as sets, so an answer that joins two reviewed sentences into one, or
splits one in two, still restates them.

A claim the checker itself finds supported by the very quote a fact was confirmed against need not restate all of
it: it is within the fact (`fact_within`) when it says nothing beyond it that could be a changed fact — more than
a word, its quantities, directions, negation and names the fact's, at most half its words its own, none of those a
word the source offers elsewhere unless it keeps every word of the fact (a word in another's place is one the source
writes), and, where it negates, none at all; a claim joining facts may be within them part by part (`parts_within`).
Pure functions over text, as the rest of the checker.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from checking.analysis import NEGATION_CUES, analyze_claim
from checking.base import EvidenceCandidate
from checking.builtin import BuiltinChecker
from checking.findings import Effect
from checking.languages import detect_language, language_of_word, reasons_in
from checking.text import (
    CLAUSE_JOINERS,
    LIGHT_STEMS,
    NEGATION_BREAKS,
    function_word,
    is_content,
    related_stems,
    tokenize,
)
from checking.windows import stem_found

# Bound words ("at least", "or more") belong to the quantity they bound when the quantity reads its bound.
_BOUND_FAMILIES = frozenset({"superlative", "compare"})
_BOUND_REACH = 3  # tokens on either side of a quantity whose bound words are the quantity's
_INCLUSIVE_BOUNDS = frozenset({-1, 0, 1})  # unstated, at most, at least: "capped at 400" is "up to 400"


@dataclass(frozen=True)
class Quantity:
    kind: str
    value: str
    bound: int  # +2 more than, +1 at least, 0 unstated, -1 at most, -2 less than
    change: int  # +1 rose, -1 fell, 0 unstated or unchanged
    per: tuple[str, ...] = ()  # what it is per ("per night", 每晚), where the parser reads it

    def agrees(self, other: Quantity) -> bool:
        """Whether this claim's quantity states ``other``, the reviewed one: the same value, bound, change and rate.
        A rate or change only one of them states is taken as unstated (the parser reads them only next to the
        number); so is an inclusive bound the claim adds ("capped at 400" reviewed, "up to 400" claimed), never
        one it drops: "refunded within 14 days" does not hold for "refunded once 14 days have passed"."""
        if (self.kind, self.value) != (other.kind, other.value):
            return False
        bound_ok = self.bound == other.bound or (other.bound == 0 and self.bound in _INCLUSIVE_BOUNDS)
        per_ok = self.per == other.per or not self.per or not other.per
        return bound_ok and per_ok and (self.change == other.change or 0 in (self.change, other.change))


@dataclass(frozen=True)
class Fact:
    language: str
    quantities: tuple[Quantity, ...]
    directions: frozenset[tuple[str, int]]  # (family, polarity) of the direction words not bounding a quantity
    negates: bool
    words: frozenset[str]  # content stems (no number, light word or negation cue)
    negated: frozenset[str]  # those of them inside a negation's scope
    names: frozenset[str]  # those of them the claim writes as names

    @property
    def values(self) -> str:
        """The quantities' values, written out: facts stating the same fact have the same (a lookup key)."""
        return json.dumps(sorted([q.kind, q.value] for q in self.quantities), ensure_ascii=False)

    @property
    def key(self) -> str:
        """The fact as one value: claims of pending answers with the same key are one decision."""
        return hashlib.sha256(json.dumps(self.as_dict(), ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:32]

    def as_dict(self) -> dict:
        return {"language": self.language, "quantities": sorted([q.kind, q.value, q.bound, q.change, list(q.per)]
                                                               for q in self.quantities),
                "directions": sorted(list(d) for d in self.directions), "negates": self.negates,
                "words": sorted(self.words), "negated": sorted(self.negated), "names": sorted(self.names)}

    @classmethod
    def from_dict(cls, data: dict) -> Fact:
        return cls(language=data["language"],
                   quantities=tuple(Quantity(kind, value, bound, change, tuple(per))
                                    for kind, value, bound, change, per in data["quantities"]),
                   directions=frozenset((f, p) for f, p in data["directions"]), negates=data["negates"],
                   words=frozenset(data["words"]), negated=frozenset(data["negated"]),
                   names=frozenset(data["names"]))


def _kind_value(q) -> tuple[str, str]:
    """A quantity's kind and value written out; a share is a percentage ("half" and "50 percent", 四分之三 and
    百分之七十五 state the same fact)."""
    if isinstance(q.value, tuple):
        return q.kind, json.dumps(q.value)
    if q.kind == "fraction":
        return "percent", repr(round(float(q.value) * 100, 6))
    return q.kind, repr(round(float(q.value), 6))


def claim_fact(text: str, *, language: str | None = None) -> Fact:
    """The fact `text` states (one claim: split answers with checking.claims.split_claims first)."""
    language = language or detect_language(text)
    with reasons_in(language):
        claim = analyze_claim(text, names=set())
    unit = claim.unit
    near_bound = {k for q in unit.quantities if q.bound
                  for k in range(q.token_span[0] - q.lead - _BOUND_REACH, q.token_span[1] + _BOUND_REACH)}
    directions = frozenset((p.family, p.polarity) for p in unit.polars
                           if not (p.family in _BOUND_FAMILIES and p.index in near_bound))
    quantities = tuple(Quantity(*_kind_value(q), bound=q.bound, change=q.change or 0, per=tuple(sorted(q.per)))
                       for q in unit.quantities)
    words = frozenset(stem for stem, token in _content(claim))
    return Fact(language=language, quantities=quantities, directions=directions,
                negates=any(clause.has_negation for clause in unit.clauses), words=words,
                negated=frozenset(words & _negated(unit.clauses, words)),
                names=frozenset(token.stem for run in claim.entities for token in run) & words)


def _negated(clauses, words: frozenset[str]) -> set[str]:
    """The stems a negation denies, clause by clause: its scope's, or — when its scope holds only light words
    ("copying it to removable media is never allowed") — the clause's own, which come before it."""
    negated: set[str] = set()
    for clause in clauses:
        if clause.has_negation:
            negated |= clause.negated if clause.negated & words else set(clause.stems)
    return negated


def _content(claim) -> list[tuple[str, object]]:
    """The claim's weighted stems that state something: not light words ("need", "use"), negation cues (the fact
    says whether it negates) or function words the tokenizer keeps ("you'll", "anyone")."""
    lowers = {token.stem: token.lower for token in claim.unit.tokens}
    return [(stem, lowers.get(stem, stem)) for stem in claim.weights
            if stem not in LIGHT_STEMS and stem not in NEGATION_CUES and not function_word(lowers.get(stem, stem))]


def _named(stem: str, stems: frozenset[str]) -> bool:
    return stem_found(stem, stems) > 0 or any(related_stems(stem, other) for other in stems)


def _written_in(stem: str, stems: frozenset[str]) -> bool:
    """In a language writing words without spaces, a word whose every two characters side by side are written in
    `stems`: the segmenter cuts the same words differently in different sentences (酒水费 / 酒水 费用)."""
    text = "".join(stems)
    return len(stem) > 1 and all(stem[i:i + 2] in text for i in range(len(stem) - 1))


def _found(stem: str, stems: Collection[str]) -> bool:
    """`stem` among `stems`: itself, its word family, or — in a language writing compounds as one word — its parts
    (酒水费 where 酒水 and 费用 are) or its characters as written there."""
    stems = frozenset(stems)
    language = language_of_word(stem)
    if _named(stem, stems) or language.found_by_parts(stem, stems, covers=lambda part: _named(part, stems)):
        return True
    return language.ideograph is not None and language.ideograph.search(stem) is not None and _written_in(stem, stems)


def words_unknown(words: Collection[str], known: Collection[str]) -> set[str]:
    """Those of `words` that `known` lacks, through word families, folded synonyms and word parts."""
    return {stem for stem in words if not _found(stem, known)}


def _quantities_agree(claim: Sequence[Quantity], reviewed: Sequence[Quantity]) -> bool:
    """The same values, each bound and changed alike (a multiset matched one by one)."""
    if Counter((q.kind, q.value) for q in claim) != Counter((q.kind, q.value) for q in reviewed):
        return False
    left = list(reviewed)
    for quantity in claim:
        match = next((i for i, other in enumerate(left) if quantity.agrees(other)), None)
        if match is None:
            return False
        left.pop(match)
    return True


def _directions_agree(a: frozenset[tuple[str, int]], b: frozenset[tuple[str, int]]) -> bool:
    """The same direction words, family and way: one the other lacks ("4 hours before" for "within 4 hours")
    changes the fact as surely as the opposite word does."""
    return a == b


def _negation_agrees(claim: Fact, negated: frozenset[str], words: frozenset[str]) -> bool:
    """No word negated on one side is asserted on the other."""
    asserted = words - negated
    crosses = any(_found(s, asserted) and not _found(s, negated) for s in claim.negated)
    return not crosses and not any(_found(s, claim.words - claim.negated) and not _found(s, claim.negated)
                                   for s in negated)


def _joined(facts: Sequence[Fact], language: str) -> Fact:
    """Several facts read as one (an answer's sentences joined, or one split in two)."""
    return Fact(language=language, quantities=tuple(q for f in facts for q in f.quantities),
                directions=frozenset(d for f in facts for d in f.directions), negates=any(f.negates for f in facts),
                words=frozenset(w for f in facts for w in f.words),
                negated=frozenset(w for f in facts for w in f.negated),
                names=frozenset(w for f in facts for w in f.names))


# Of the reviewed claims' words, how many a restatement may leave out. None: a claim without "international" of
# "international trips must be booked 21 days ahead" states a wider fact, and nothing tells a qualifier from a word
# the sentence no longer needs.
MAX_LEFT_OUT = 0


def contradicted_by(claims: Sequence[str], reviewed: Sequence[str]) -> bool:
    """Whether the built-in checker, reading the reviewed claims as the evidence, finds the claims contradicting
    them: what the word sets cannot see — two names or terms paired the other way round, a word between the same
    neighbours replaced, a direction or negation it reads in context."""
    outcome = BuiltinChecker(embed=None).check(claim=" ".join(claims),
                                               candidates=[EvidenceCandidate(" ".join(reviewed))])
    return any(finding.effect is Effect.CONTRADICTS for finding in outcome.findings)


def facts_restated(claims: Sequence[Fact], reviewed: Sequence[Fact], *, grounded: Collection[str] = ()) -> bool:
    """Whether `claims` (one claim, or the claims of an answer that say it between them) state what `reviewed` (one
    reviewed claim, or several a decision settled together) stated: the same quantities, bounded, changed and per
    the same; no direction or negation the other way; the same names; every word of the claims the reviewed
    claims' or one of `grounded` (the quote and headings they were confirmed against: a restatement may name what
    the source names); and none of the reviewed claims' words left out (MAX_LEFT_OUT)."""
    if not claims or not reviewed or any(f.language != claims[0].language for f in (*claims, *reviewed)):
        return False
    claim, fact = _joined(claims, claims[0].language), _joined(reviewed, claims[0].language)
    if not _quantities_agree(claim.quantities, fact.quantities) or not _directions_agree(claim.directions,
                                                                                         fact.directions):
        return False
    if claim.negates != fact.negates or not _negation_agrees(claim, fact.negated, fact.words):
        return False
    if words_unknown(claim.names, fact.words) or words_unknown(fact.names, claim.words):
        return False
    return not words_unknown(claim.words - claim.names, {*fact.words, *grounded}) \
        and len(words_unknown(fact.words, claim.words)) <= MAX_LEFT_OUT


@lru_cache(maxsize=256)
def text_stems(text: str) -> frozenset[str]:
    """The content stems of a source's text (for `fact_within`'s `source_words`; the cache holds a few sources)."""
    return frozenset(token.stem for token in tokenize(text, 0, len(text), table=True) if is_content(token))


def _written_elsewhere(stem: str, *, source_words: Collection[str], source_text: str) -> bool:
    """The source writes `stem` — as a word of its own, or, in a language writing words without spaces, inside
    a longer one (首席 of 首席信息安全官, which the segmenter may cut otherwise there)."""
    if _found(stem, source_words):
        return True
    ideograph = language_of_word(stem).ideograph
    return ideograph is not None and ideograph.search(stem) is not None and stem in source_text


# Of a claim's words, the share that may be its own (neither the reviewed claim's nor a family or part of one):
# half. A claim mostly in other words is about something else, whatever its quote ("Confidential data sent
# outside needs the CISO's approval" against a reviewed "with a manager's approval beforehand").
MAX_OWN_WORDS = 0.5


def fact_within(claim: Fact, reviewed: Fact, *, grounded: Collection[str], source_words: Collection[str],
                source_text: str) -> bool:
    """Whether `claim` says nothing beyond `reviewed` that could be a changed fact, where the checker has already
    found the claim supported by the very quote the reviewed claim was confirmed against: each of its quantities
    one of the reviewed claim's (bound, changed and per the same), no direction word the reviewed claim lacks,
    negating alike, more than one word (or a word and a quantity), its names the reviewed claim's or the quote's
    (`grounded`), at most MAX_OWN_WORDS of its words its own; and none of those a word the source writes
    (`source_words`, `source_text`: the whole version) — a word in another's place ("domestic" for
    "international", one role for another) is one the source offers, a paraphrase's own ("cheaper", "identical")
    is not. What it leaves out of the reviewed claim it does not claim: a part of a confirmed fact, stated as its
    source states it."""
    if claim.language != reviewed.language or len(claim.words) + len(claim.quantities) < 2:
        return False  # one word ("the colon", a list's item) states nothing on its own: where it is said does
    if not all(any(q.agrees(other) for other in reviewed.quantities) for q in claim.quantities):
        return False
    if not claim.directions <= reviewed.directions:
        return False
    if claim.negates != reviewed.negates or not _negation_agrees(claim, reviewed.negated, reviewed.words):
        return False
    if words_unknown(claim.names, {*reviewed.words, *grounded}):
        return False
    own = words_unknown(claim.words, reviewed.words)
    if len(own) > MAX_OWN_WORDS * len(claim.words) or (claim.negates and own):
        return False  # what a negation is said of is the reviewed claim's to say: "overtime on a rest day is
        # never given time off" takes the words of "where time off cannot be arranged" to mean something else
    if not words_unknown(reviewed.words, claim.words):
        return True  # every word of the fact is there: what it adds, the checker found at the quote, and no word of
        # the fact has another in its place ("paid at 75 percent" for "you receive 75 percent")
    return not any(_written_elsewhere(stem, source_words=source_words, source_text=source_text)
                   for stem in words_unknown(claim.words, {*reviewed.words, *grounded}))


# Where a claim may be cut into parts, each within a fact of its own: its clause breaks (",", ";", "but") and the
# words joining one statement to the next ("and", 并且) — never between alternatives ("or"), which say one thing.
_PART_BREAKS = NEGATION_BREAKS | CLAUSE_JOINERS
# A part stands on its own when it states a quantity or this many words: "$65 per day for domestic trips", not
# "hotels" of "Flights, hotels and rental cars must be booked through SkyBridge", whose predicate is elsewhere.
_PART_WORDS = 3
_MAX_PIECES = 12  # beyond, the claim is a paragraph: checked whole, as before

T = TypeVar("T")


def claim_pieces(text: str) -> list[tuple[int, int]]:
    """The character spans between the places a claim may be cut (`_PART_BREAKS`)."""
    spans, start = [], 0
    for token in tokenize(text, 0, len(text), table=False):
        if token.lower in _PART_BREAKS:
            if text[start:token.start].strip():
                spans.append((start, token.start))
            start = token.end
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def parts_within(text: str, *, language: str, within: Callable[[str, Fact], T | None]) -> list[T] | None:
    """A claim joining facts ("$95 a day internationally and $65 a day for domestic trips") cut into two or more
    parts that each stand on their own and that `within` finds within a fact (the value it returns for the part), in
    the fewest parts; None when no cut does (the whole claim is the caller's to try). Every piece is in a part, so no condition or qualifier is left out; a piece
    stating nothing (no word, quantity nor negation) is no part. `within` is asked of each run of pieces once."""
    pieces = claim_pieces(text)
    if not 1 < len(pieces) <= _MAX_PIECES:
        return None
    best: list[list[T] | None] = [[]] + [None] * len(pieces)
    for end in range(1, len(pieces) + 1):
        for begin in range(end):
            if best[begin] is None or (begin, end) == (0, len(pieces)):
                continue
            part = text[pieces[begin][0]:pieces[end - 1][1]]
            fact = claim_fact(part, language=language)
            if not fact.words and not fact.quantities and not fact.negates:
                found: list[T] | None = best[begin]
            elif fact.quantities or len(fact.words) >= _PART_WORDS:
                value = within(part, fact)
                found = None if value is None else [*best[begin], value]
            else:
                continue
            if found is not None and (best[end] is None or len(found) < len(best[end])):
                best[end] = found
    return best[-1] or None
