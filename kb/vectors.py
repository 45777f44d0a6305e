"""Vectors for the checker and the Ask gate, from the cheapest source that has them (`CachedEmbedder`): the units
indexing stored with the evidence, this process's recent texts, the indexed vocabulary, and only then the model."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
from django.conf import settings

from kb.embeddings import Role, embed_texts, get_provider, on_reference_scale
from kb.models import ChunkUnit, TermEmbedding


# What a check had to embed (claims, the units of contexts given with an answer, words no version has indexed)
# recurs across answers: keep the vectors per process, keyed by model, role and text (REVIEW_TEXT_CACHE_SIZE of
# them).
_RECENT_VECTORS: OrderedDict[tuple[str, Role, str], np.ndarray] = OrderedDict()


class CachedEmbedder:
    """What the checker embeds, from the cheapest source that has it: the vectors stored with the answer's evidence
    (its chunks' units, read once per answer: windows are composed of units), this process's recent
    texts, the indexed vocabulary (TermEmbedding), and only then the model. Each distinct text once per answer and
    role: a claim and an evidence unit of the same words are different inputs to e5 (kb.embeddings.Role)."""

    def __init__(self, *, language: str) -> None:
        self.language = language  # the text's: its model embeds everything compared with it (kb.embeddings)
        provider = get_provider(language)
        self.model_id = provider.model_id
        self.similarity_scale = provider.similarity_scale
        self.vectors: dict[tuple[Role, str], np.ndarray] = {}

    def stored_units_load(self, *, chunk_ids: set[int]) -> None:
        """The units indexing embedded for these chunks with this model: no need to embed them now (another model's
        vectors are not comparable: those units are embedded at check time)."""
        rows = ChunkUnit.objects.filter(chunk_id__in=chunk_ids, chunk__version__embedding_model=self.model_id)
        for text, vector in rows.values_list("text", "embedding"):
            self.vectors.setdefault((Role.PASSAGE, text), np.frombuffer(vector, dtype=np.float32))

    def prime(self, texts: Sequence[str], *, role: Role) -> None:
        missing = []
        for text in dict.fromkeys(texts):
            if (role, text) in self.vectors:
                continue
            if (key := (self.model_id, role, text)) in _RECENT_VECTORS:
                _RECENT_VECTORS.move_to_end(key)
                self.vectors[role, text] = _RECENT_VECTORS[key]
            else:
                missing.append(text)
        words = [t for t in missing if " " not in t] if role is Role.QUERY else []  # indexed words are queries
        if words:
            for term, vector in TermEmbedding.objects.filter(model_id=self.model_id, term__in=words).values_list(
                    "term", "embedding"):
                self.vectors[role, term] = _RECENT_VECTORS[self.model_id, role, term] = np.frombuffer(
                    vector, dtype=np.float32)
            missing = [t for t in missing if (role, t) not in self.vectors]
        if missing:
            for text, vector in zip(missing, embed_texts(missing, role=role, language=self.language), strict=True):
                self.vectors[role, text] = _RECENT_VECTORS[self.model_id, role, text] = np.asarray(vector,
                                                                                                 dtype=np.float32)
        _trim(_RECENT_VECTORS, settings.REVIEW_TEXT_CACHE_SIZE)

    def vectors_for(self, texts: list[str], *, role: Role) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        self.prime(texts, role=role)
        return np.stack([self.vectors[role, t] for t in texts])

    def comparable(self, similarity):
        """Cosines of this model on the scale the checker's thresholds were set on (kb.embeddings.REFERENCE_SCALE)."""
        return on_reference_scale(similarity, self.similarity_scale)

    def __call__(self, queries: list[str], passages: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The checker's Embedder (checking.base): its claim and words as queries, its evidence as passages."""
        return self.vectors_for(queries, role=Role.QUERY), self.vectors_for(passages, role=Role.PASSAGE)


def _trim(cache: OrderedDict, size: int) -> None:
    while len(cache) > size:
        cache.popitem(last=False)


def recent_vectors_forget() -> None:
    """Forget this process's recent vectors: a benchmark or a test that counts what is embedded starts afresh."""
    _RECENT_VECTORS.clear()
