"""Hybrid retrieval over approved sources: full text and vectors, fused by reciprocal rank."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection, transaction
from django.db.models import F, QuerySet
from pgvector.django import CosineDistance

from kb.embeddings import EmbeddingError, embed_texts
from kb.models import Chunk, DocumentVersion

logger = logging.getLogger(__name__)

RRF_K = 60  # the usual reciprocal-rank-fusion constant: dampens the weight of top ranks
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass
class SearchHit:
    chunk: Chunk
    score: float  # fused RRF score
    fulltext_rank: int | None = None
    vector_rank: int | None = None
    similarity: float | None = None  # cosine similarity of query and chunk, when the vector side ran

    @property
    def matched_by(self) -> list[str]:
        return [name for name, rank in (("full text", self.fulltext_rank), ("vector", self.vector_rank)) if rank]


@dataclass
class SearchResult:
    hits: list[SearchHit]
    warnings: list[str] = field(default_factory=list)


def evidence_chunks(*, clearance: str) -> QuerySet[Chunk]:
    usable = DocumentVersion.objects.usable_as_evidence(clearance=clearance).values("id")
    return Chunk.objects.filter(version_id__in=usable)


def _fulltext_query(text: str) -> SearchQuery | None:
    words = _WORD.findall(text.lower())
    if not words:
        return None
    # OR the words: a question rarely repeats every word of its answer; ranking rewards overlap.
    return SearchQuery(" | ".join(dict.fromkeys(words)), search_type="raw", config="english")


def _fulltext_ids(query: str, *, clearance: str, limit: int) -> list[int]:
    tsquery = _fulltext_query(query)
    if tsquery is None:
        return []
    return list(
        evidence_chunks(clearance=clearance)
        .filter(search_vector=tsquery)
        .annotate(rank=SearchRank(F("search_vector"), tsquery, cover_density=False))
        .order_by("-rank", "id")
        .values_list("id", flat=True)[:limit]
    )


def _vector_hits(vector: list[float], *, clearance: str, limit: int, floor: float) -> list[tuple[int, float]]:
    with transaction.atomic():
        with connection.cursor() as cursor:
            # Filtered HNSW scans may stop early; let pgvector keep scanning until enough rows pass the filter.
            cursor.execute("SET LOCAL hnsw.iterative_scan = 'relaxed_order'")
            cursor.execute("SET LOCAL hnsw.ef_search = 100")
        rows = (
            evidence_chunks(clearance=clearance)
            .annotate(distance=CosineDistance("embedding", vector))
            .order_by("distance")
            .values_list("id", "distance")[:limit]
        )
        return [(chunk_id, 1 - distance) for chunk_id, distance in rows if 1 - distance >= floor]


def query_embedding(text: str) -> list[float]:
    return embed_texts([text])[0]


def chunks_search(
    *, query: str, clearance: str, k: int = 5, depth: int = 50, similarity_floor: float | None = None,
    vector: list[float] | None = None,
) -> SearchResult:
    """Top-k chunks of usable versions for `query`; each hit says which index found it."""
    floor = settings.KB_SIMILARITY_FLOOR if similarity_floor is None else similarity_floor
    warnings: list[str] = []
    fulltext = _fulltext_ids(query, clearance=clearance, limit=depth)
    vector_hits: list[tuple[int, float]] = []
    try:
        vector = vector if vector is not None else query_embedding(query)
        vector_hits = _vector_hits(vector, clearance=clearance, limit=depth, floor=floor)
    except EmbeddingError as exc:
        logger.warning("vector search skipped: %s", exc)
        warnings.append(f"Vector search unavailable ({exc}); showing full-text matches only.")

    hits: dict[int, SearchHit] = {}
    for rank, chunk_id in enumerate(fulltext, start=1):
        hits[chunk_id] = SearchHit(chunk=None, score=1 / (RRF_K + rank), fulltext_rank=rank)  # type: ignore[arg-type]
    for rank, (chunk_id, similarity) in enumerate(vector_hits, start=1):
        hit = hits.setdefault(chunk_id, SearchHit(chunk=None, score=0.0))  # type: ignore[arg-type]
        hit.score += 1 / (RRF_K + rank)
        hit.vector_rank, hit.similarity = rank, similarity

    best = sorted(hits.items(), key=lambda item: (-item[1].score, item[0]))[:k]
    chunks = Chunk.objects.select_related("version__document__owner", "version__approved_by").in_bulk(
        [chunk_id for chunk_id, _ in best]
    )
    for chunk_id, hit in best:
        hit.chunk = chunks[chunk_id]
    return SearchResult(hits=[hit for _, hit in best], warnings=warnings)
