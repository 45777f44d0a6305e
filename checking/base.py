"""What every claim checker takes and gives: evidence candidates in, a ``CheckOutcome`` with typed findings out.

The built-in checker and the external ones (AlignScore, an LLM judge) all implement ``ClaimChecker``, so
the pipeline chains them without knowing which is which.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from checking.findings import Finding

if TYPE_CHECKING:
    import numpy

# (queries, passages) -> their L2-normalised rows, in one call: the claim and single words are queries, evidence
# units are passages (kb.embeddings.Role: e5 embeds the two sides of a comparison differently).
Embedder = Callable[[list[str], list[str]], tuple["numpy.ndarray", "numpy.ndarray"]]


class CheckerUnavailable(Exception):
    """The checker could not give a score (down, timed out, answered nonsense)."""


@dataclass(frozen=True)
class EvidenceCandidate:
    text: str  # a chunk's text (or a raw context string)
    # The chunk's heading path ("Handbook > Benefits > Health insurance"): its words count as the chunk's
    # own for term matching, since chunk text leaves headings out; never quoted, so offsets stay in ``text``.
    heading: str = ""


@dataclass(frozen=True)
class PartSupport:
    """A second passage a claim's support was put together from (synthesis): where it is quoted, and the span of
    the claim only it supplies ("Safra Catz" of "Oracle has two CEOs, Mark Hurd and Safra Catz")."""

    candidate_index: int
    quote_start: int
    quote_end: int
    claim_start: int
    claim_end: int


@dataclass(frozen=True)
class CheckOutcome:
    score: float  # 0..1
    findings: list[Finding]  # evidence spans are offsets in candidates[candidate_index].text
    candidate_index: int | None  # the best evidence; None when there were no candidates
    quote_start: int  # the pinned span inside candidates[candidate_index].text
    quote_end: int
    # Soft measures of the chosen window (coverage, relevance, similarity when embedded, unsupported_terms,
    # light_terms, the rules' own score, subject_coverage): what the scoring model reads besides the findings.
    signals: dict[str, float] = field(default_factory=dict)
    features: dict[str, float] = field(default_factory=dict)  # what the fitted model read (training reads it too)
    parts: list[PartSupport] = field(default_factory=list)  # the other passages a synthesized support cites

    @property
    def reasons(self) -> list[str]:
        from checking.scoring import reasons_for  # scoring builds on these types

        return reasons_for(self)


class ClaimChecker(Protocol):
    name: str

    def check(self, *, claim: str, candidates: Sequence[EvidenceCandidate]) -> CheckOutcome: ...
