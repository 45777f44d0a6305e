"""Windows: up to three nearby units of a candidate, grown from the units sharing most with the claim; a
window is what gets checked and quoted. Also how far the claim's words are found in one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from checking.analysis import Candidate, Claim, Unit
from checking.quantity_compare import comparable, same_value
from checking.text import family_member_in
from checking.vocabulary import vocabulary_in

_RELATED_CREDIT = 0.85  # "employ" / "employment"
_ELSEWHERE_CREDIT = 0.5  # the word is in the candidate, outside the quoted window
# Windows: a few seed units per candidate, grown by nearby units that add coverage.
_SEEDS_PER_CANDIDATE = 3
_MAX_WINDOW_UNITS = 3
_MAX_UNIT_GAP = 3
_MIN_GAIN = 0.1
_UNIT_CREDITS_KEPT = 4096  # claim stems remembered per unit (unit_credit)


@dataclass
class Window:
    candidate: int
    units: list[Unit]  # chosen units, in document order
    start: int
    end: int
    stems: set[str]
    similarity: float | None = None
    word_credit: dict[str, float] = field(default_factory=dict)  # claim stem -> credit from similar words
    # claim stem -> the closest any word of the window comes to it (embedded claim words only): a paraphrase
    # comes close ("purchase" / "buy"), an invented fact does not ("cryptocurrency").
    word_similarity: dict[str, float] = field(default_factory=dict)
    # claim stems credited because the evidence words them otherwise in the same place ("jobless rate" /
    # "unemployment rate"): credited, but still shown as a substitution, which a person may judge otherwise
    reworded_in_place: set[str] = field(default_factory=set)
    joined_parts: tuple[Window, Window] | None = None  # two windows checked together (see builtin._joined)

    @property
    def joined(self) -> bool:
        return self.joined_parts is not None


def stem_found(stem: str, stems: set[str] | frozenset[str]) -> float:
    """How far ``stem`` is among ``stems``: itself, a word of its family, or a synonym people accepted."""
    return _family_found(stem, stems) or _accepted_found(stem, stems)


def _family_found(stem: str, stems: set[str] | frozenset[str]) -> float:
    if stem in stems:
        return 1.0
    return _RELATED_CREDIT if family_member_in(stem, stems) else 0.0


def _accepted_found(stem: str, stems: set[str] | frozenset[str]) -> float:
    return 1.0 if vocabulary_in(stem, stems) else 0.0


def claim_coverage(claim: Claim, stems: set[str]) -> float:
    total = sum(claim.weights.values())
    if not total:
        return 1.0
    return sum(w * stem_found(s, stems) for s, w in claim.weights.items()) / total


def unit_credit(stem: str, unit: Unit) -> float:
    """stem_found(stem, unit.stems), its word-family part kept on the unit: a cached candidate's units meet the
    same claim stems. Accepted synonyms are looked up each time: a pair accepted or removed counts at once."""
    credit = unit.stem_credit.get(stem)
    if credit is None:
        if len(unit.stem_credit) >= _UNIT_CREDITS_KEPT:  # a long-lived worker's unit meets ever new claim words
            unit.stem_credit.clear()
        credit = unit.stem_credit[stem] = _family_found(stem, unit.stems)
    return credit or _accepted_found(stem, unit.stems)


def window_relevance(claim: Claim, units: list[Unit]) -> float:
    """How much of the claim (its words, then its numbers) these units have between them."""
    return _Relevance(claim, units).of(range(len(units)))


class _Relevance:
    """``window_relevance`` over sets of some units, from each unit's credits for the claim's words and the claim
    numbers it matches, read once: growing windows asks for many overlapping sets of one candidate's units. A
    word's credit in a set is its best in one unit (the credit of the union of their words)."""

    def __init__(self, claim: Claim, units: list[Unit]) -> None:
        self.weights = list(claim.weights.values())
        self.total = sum(self.weights)
        self.credits = [[unit_credit(s, u) for s in claim.weights] for u in units]
        self.quantities = len(claim.unit.quantities)
        self.matched = [
            {i for i, q in enumerate(claim.unit.quantities) if any(comparable(q, e) and same_value(q, e)
                                                                  for e in u.quantities)}
            for u in units
        ] if self.quantities else []

    def of(self, indices: Sequence[int]) -> float:
        if not self.total:
            lexical = 1.0
        else:
            rows = [self.credits[k] for k in indices]
            lexical = sum(w * max(column) for w, column in zip(self.weights, zip(*rows))) / self.total
        if not self.quantities:
            return lexical
        hits = len(set().union(*(self.matched[k] for k in indices)))
        return 0.7 * lexical + 0.3 * hits / self.quantities


def candidate_windows(claim: Claim, index: int, candidate: Candidate) -> list[Window]:
    units = candidate.units
    relevance = _Relevance(claim, units)
    ranked = sorted(range(len(units)), key=lambda k: -relevance.of([k]))
    windows: list[Window] = []
    seen: set[tuple[int, ...]] = set()
    for seed in ranked[:_SEEDS_PER_CANDIDATE]:
        chosen = tuple(_grow(relevance, len(units), seed))
        if chosen in seen:
            continue
        seen.add(chosen)
        members = [units[k] for k in chosen]
        windows.append(Window(candidate=index, units=members, start=members[0].start, end=members[-1].end,
                               stems=set().union(candidate.heading_stems, *(u.stems for u in members))))
    return windows


def _grow(relevance: _Relevance, count: int, seed: int) -> list[int]:
    """Add nearby units while they cover claim words or quantities the window still lacks."""
    chosen = [seed]
    while len(chosen) < _MAX_WINDOW_UNITS:
        current = relevance.of(chosen)
        best_gain, best_k = 0.0, None
        lo, hi = chosen[0], chosen[-1]
        for k in range(max(0, lo - _MAX_UNIT_GAP), min(count, hi + _MAX_UNIT_GAP + 1)):
            if k in chosen:
                continue
            gain = relevance.of(sorted([*chosen, k])) - current
            if gain > best_gain:
                best_gain, best_k = gain, k
        if best_k is None or best_gain < _MIN_GAIN:
            break
        chosen = sorted([*chosen, best_k])
    return chosen


def term_credit(stem: str, window: Window, candidate: Candidate) -> float:
    found = stem_found(stem, window.stems)
    if found:
        return found
    if stem in window.word_credit:
        return window.word_credit[stem]
    return _ELSEWHERE_CREDIT if stem_found(stem, candidate.stems) else 0.0