"""The evidence units the built-in checker compares with a claim, cut the way it cuts them at check time.

Indexing stores them with their vectors (kb.models.ChunkUnit, TermEmbedding), so that a check reads the
vectors of its evidence instead of embedding it: a window of one unit is that unit's text, and the words give
paraphrase credit. A window joining several units is embedded whole at check time (and kept per process):
composing it from its units' vectors scored such windows as more similar than the model does, enough to let
a claim with a changed number pass against a wordier neighbouring window. The cutting is the checker's own (``analyze_candidate``):
any change there changes the stored texts too, and a stored text that no longer matches is simply embedded
at check time. kb sits above the checker and calls ``evidence_units`` directly (kb.services, kb.reembedding).
"""

from __future__ import annotations

from dataclasses import dataclass

from checking.analysis import analyze_candidate


@dataclass(frozen=True)
class EvidenceUnit:
    start: int  # in the evidence text
    end: int
    text: str  # what the checker embeds for it
    words: tuple[str, ...]  # its content words, embedded one by one for paraphrase credit


def evidence_units(text: str) -> list[EvidenceUnit]:
    return [EvidenceUnit(start=u.start, end=u.end, text=u.embed_text, words=tuple(u.words))
            for u in analyze_candidate(text).units]
