"""What a checker found, as typed values: routing, the review page and the scoring model read these, never text.

A ``Finding`` names one observation about a claim and the evidence it was compared with (a number that differs,
a name the evidence never mentions, a value that matches), where in the claim and in the evidence it sits, and
which way it pushes: a *contradiction* says the evidence states something else about the same subject and always
holds the claim; *missing* says a fact of the claim is absent; *weakens* is soft doubt; *supports* is agreement.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Effect(StrEnum):
    CONTRADICTS = "contradicts"
    MISSING = "missing"
    WEAKENS = "weakens"
    SUPPORTS = "supports"


class FindingKind(StrEnum):
    # Hard contradictions: the evidence states another value about the same subject.
    QUANTITY_MISMATCH = "quantity_mismatch"  # numbers, money, percentages, dates, times, units
    DIRECTION = "direction"  # rose/fell, above/below, before/after, more/less
    NEGATION = "negation"  # the evidence negates what the claim asserts, or the other way round
    ENTITY_SWAP = "entity_swap"  # another name in the same place
    ROLE_SWAP = "role_swap"  # two names or terms paired the other way round
    SLOT_SWAP = "slot_swap"  # another word between the same two neighbours
    # Facts of the claim the evidence lacks.
    MISSING_QUANTITY = "missing_quantity"
    MISSING_ENTITY = "missing_entity"
    MISSING_SUBJECT = "missing_subject"  # the evidence states its facts about something else
    ENTITY_ELSEWHERE = "entity_elsewhere"  # the name is in other evidence, not beside this fact
    UNSUPPORTED_ADDITION = "unsupported_addition"  # an appended phrase or an invented superlative
    # Soft doubt.
    UNSUPPORTED_TERM = "unsupported_term"  # a content word found nowhere in the evidence
    SUBSTITUTION = "substitution"  # a word the evidence replaces with another
    WEAK_MISSING_QUANTITY = "weak_missing_quantity"  # an unspecific number (a count word, a hedge) not found
    # Agreement.
    QUANTITY_MATCH = "quantity_match"
    # Claims about the sources themselves ("the passages do not mention X"), checked against what they state.
    ABSENT_FROM_SOURCES = "absent_from_sources"  # no source states what the claim says they lack
    STATED_IN_SOURCES = "stated_in_sources"  # a source states what the claim says they lack
    # Outside checkers.
    EXTERNAL_SUPPORT = "external_support"
    EXTERNAL_DOUBT = "external_doubt"


KIND_EFFECTS: dict[FindingKind, Effect] = {
    FindingKind.QUANTITY_MISMATCH: Effect.CONTRADICTS,
    FindingKind.DIRECTION: Effect.CONTRADICTS,
    FindingKind.NEGATION: Effect.CONTRADICTS,
    FindingKind.ENTITY_SWAP: Effect.CONTRADICTS,
    FindingKind.ROLE_SWAP: Effect.CONTRADICTS,
    FindingKind.SLOT_SWAP: Effect.CONTRADICTS,
    FindingKind.MISSING_QUANTITY: Effect.MISSING,
    FindingKind.MISSING_ENTITY: Effect.MISSING,
    FindingKind.MISSING_SUBJECT: Effect.MISSING,
    FindingKind.ENTITY_ELSEWHERE: Effect.MISSING,
    FindingKind.UNSUPPORTED_ADDITION: Effect.MISSING,
    FindingKind.UNSUPPORTED_TERM: Effect.WEAKENS,
    FindingKind.SUBSTITUTION: Effect.WEAKENS,
    FindingKind.WEAK_MISSING_QUANTITY: Effect.WEAKENS,
    FindingKind.QUANTITY_MATCH: Effect.SUPPORTS,
    FindingKind.ABSENT_FROM_SOURCES: Effect.SUPPORTS,
    FindingKind.STATED_IN_SOURCES: Effect.CONTRADICTS,
    FindingKind.EXTERNAL_SUPPORT: Effect.SUPPORTS,
    FindingKind.EXTERNAL_DOUBT: Effect.WEAKENS,
}

Span = tuple[int, int]


@dataclass(frozen=True)
class Finding:
    kind: FindingKind
    message: str  # for people, in the claim's language: "claim says 4.5 percent; evidence says 3.5 percent"
    claim_span: Span | None = None  # offsets in the claim text
    evidence_span: Span | None = None  # offsets in the evidence candidate's text
    subject: str = ""  # what it is about, as the claim writes it: the word found nowhere, the matching value
    # what the evidence writes in its place, for a word put in another's place (substitutions and slot swaps): the
    # pair a reviewer who confirms the claim says means the same (kb's vocabulary records it)
    rival: str = ""

    @property
    def effect(self) -> Effect:
        return KIND_EFFECTS[self.kind]

    @property
    def is_contradiction(self) -> bool:
        return self.effect is Effect.CONTRADICTS

    def as_dict(self) -> dict:
        data = {"kind": str(self.kind), "effect": str(self.effect), "message": self.message, "subject": self.subject,
                "claim_span": list(self.claim_span) if self.claim_span else None,
                "evidence_span": list(self.evidence_span) if self.evidence_span else None}
        return {**data, "rival": self.rival} if self.rival else data

    @classmethod
    def from_dict(cls, data: dict) -> Finding:
        claim_span, evidence_span = data.get("claim_span"), data.get("evidence_span")
        return cls(kind=FindingKind(data["kind"]), message=data["message"], subject=data.get("subject", ""),
                   rival=data.get("rival", ""), claim_span=tuple(claim_span) if claim_span else None,
                   evidence_span=tuple(evidence_span) if evidence_span else None)


def about_another_subject(findings: Iterable[Finding]) -> bool:
    """The evidence states its facts of another subject than the claim's: what it says against the claim is
    then no contradiction of it (nor a conflict between sources), only a sign that nothing supports it."""
    return any(f.kind is FindingKind.MISSING_SUBJECT for f in findings)
