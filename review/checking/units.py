"""The evidence units the built-in checker compares with a claim, cut the way it cuts them at check time.

Indexing stores them with their vectors (kb.models.ChunkUnit, TermEmbedding), so that a check reads the
vectors of its evidence instead of embedding it. The cutting is the checker's own (``analyze_candidate``):
any change there changes the stored texts too, and a stored text that no longer matches is simply embedded
at check time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from review.checking.analysis import analyze_candidate
from review.checking.windows import Window


@dataclass(frozen=True)
class EvidenceUnit:
    start: int  # in the evidence text
    end: int
    text: str  # what the checker embeds for it
    words: tuple[str, ...]  # its content words, embedded one by one for paraphrase credit


def evidence_units(text: str) -> list[EvidenceUnit]:
    return [EvidenceUnit(start=u.start, end=u.end, text=u.embed_text, words=tuple(u.words))
            for u in analyze_candidate(text).units]


def window_text(window: Window) -> str:
    """What a window is embedded as when its units' vectors were not stored (one unit: the unit's own text)."""
    return " ".join(u.embed_text for u in window.units)


def composed(vectors: np.ndarray) -> np.ndarray:
    """A window's vector from its units' (L2-normalised) vectors: their normalised sum."""
    total = vectors.sum(axis=0)
    norm = float(np.linalg.norm(total))
    return total / norm if norm else total
