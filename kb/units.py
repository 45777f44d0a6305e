"""How indexing cuts a chunk into the units a checker compares with claims (stored as kb.models.ChunkUnit).

The cutting is the checker's (checking.units), which registers it here when its app is ready: kb stores
what the cutter gives and does not import review.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured


@dataclass(frozen=True)
class EvidenceUnit:
    start: int  # in the evidence text
    end: int
    text: str  # what the checker embeds for it
    words: tuple[str, ...]  # its content words, embedded one by one for paraphrase credit


UnitCutter = Callable[[str], list[EvidenceUnit]]
_cutter: UnitCutter | None = None


def unit_cutter_register(cutter: UnitCutter) -> None:
    global _cutter
    _cutter = cutter


def evidence_units_cut(text: str) -> list[EvidenceUnit]:
    if _cutter is None:
        raise ImproperlyConfigured("no checker registered how to cut evidence units (is the review app installed?)")
    return _cutter(text)
