"""Hybrid retrieval over approved sources: full text and vectors, fused by reciprocal rank."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.db.models.expressions import RawSQL
from pgvector.django import CosineDistance

from kb.embeddings import EmbeddingError, embed_texts
from kb.models import Chunk, DocumentVersion

logger = logging.getLogger(__name__)

RRF_K = 60  # the usual reciprocal-rank-fusion constant: dampens the weight of top ranks
# Most rows the full-text side ranks per step: ts_rank reads each tsvector, so this bounds its cost at any size.
FULLTEXT_RANK_CAP = 4000


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
    """Chunks of the versions usable as evidence. The version filter is compiled to SQL once here, so the
    queries of one search built on it (full text twice, vectors) reuse it: compiling it per query took longer
    than PostgreSQL takes to run them on a small knowledge base."""
    usable = DocumentVersion.objects.usable_as_evidence(clearance=clearance).order_by().values("id")
    sql, params = usable.query.sql_with_params()
    return Chunk.objects.filter(version_id__in=RawSQL(sql, params))


class _LexemeQuery(SearchQuery):
    """A tsquery over lexemes PostgreSQL has already normalised: cast, not parsed again (to_tsquery would stem a
    stem a second time)."""

    template = "%(expressions)s::tsquery"

    def __init__(self, lexemes: Sequence[str], *, operator: str) -> None:
        quoted = ("'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'" for lexeme in lexemes)
        super().__init__(f" {operator} ".join(quoted))


@dataclass(frozen=True)
class _Term:
    lexeme: str
    estimated_rows: float | None  # from the planner's statistics; None before the table was first analysed


def _query_terms(text: str) -> list[_Term]:
    """The query's lexemes (as the index stores them) with how many chunks each is expected to match.

    The estimate comes from the lexeme frequencies ANALYZE keeps for the tsvector column (what the planner itself
    uses): free to read and kept current by autovacuum, so no term table has to be maintained at indexing. A
    lexeme missing from that list is rarer than every listed one; like the planner, take half the lowest
    listed frequency for it."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            WITH terms AS (
                SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('english', %s))) AS lexeme
            ), stats AS (
                SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs,
                       greatest(c.reltuples, 0) AS rows
                FROM pg_stats s JOIN pg_class c ON c.oid = %s::regclass
                WHERE s.schemaname = current_schema() AND s.tablename = %s AND s.attname = 'search_vector'
            )
            SELECT terms.lexeme, stats.rows * coalesce(
                (SELECT f.freq FROM unnest(stats.elems, stats.freqs) AS f(lexeme, freq) WHERE f.lexeme = terms.lexeme),
                stats.freqs[array_length(stats.elems, 1) + 1] / 2  -- after the lexemes' own: the lowest frequency
            )
            FROM terms LEFT JOIN stats ON true
            ORDER BY terms.lexeme
            """,
            [text, Chunk._meta.db_table, Chunk._meta.db_table],
        )
        return [_Term(lexeme, rows) for lexeme, rows in cursor.fetchall()]


def _rare_terms(terms: list[_Term], *, budget: int) -> list[str]:
    """The rarest terms whose expected matches together stay within `budget` rows (at least the rarest one).

    On a table too small or too new for the estimates to bind, that is every term: the OR of all of them."""
    ranked = sorted(terms, key=lambda term: (term.estimated_rows or 0.0, term.lexeme))
    chosen, expected = [], 0.0
    for term in ranked:
        expected += term.estimated_rows or 0.0
        if chosen and expected > budget:
            break
        chosen.append(term.lexeme)
    return chosen


def _ranked_ids(
    match: SearchQuery, rank_by: SearchQuery, *, evidence: QuerySet[Chunk], limit: int, rank_cap: int,
    exclude: list[int],
) -> list[int]:
    # The LIMIT inside the subquery bounds the rows ts_rank reads, however common the words; the GIN index finds
    # them (a bitmap scan over the matching lexemes), the evidence filter keeps usable versions only.
    candidates = (
        evidence.filter(search_vector=match).exclude(id__in=exclude)
        .order_by().values("id")[:rank_cap]  # any rows: Chunk's default ordering would join versions and documents
    )
    return list(
        Chunk.objects.filter(id__in=candidates)
        .annotate(rank=SearchRank(F("search_vector"), rank_by, cover_density=False))
        .order_by("-rank", "id")
        .values_list("id", flat=True)[:limit]
    )


def fulltext_ids(
    *, query: str, clearance: str, limit: int, rank_cap: int = FULLTEXT_RANK_CAP,
    evidence: QuerySet[Chunk] | None = None,
) -> list[int]:
    """Chunks that contain every query term, best first; when those are fewer than `limit`, then chunks with any
    of the query's rarer terms. Both steps rank at most `rank_cap` rows, by overlap with all the query's terms."""
    terms = _query_terms(query)
    if not terms:
        return []
    lexemes = [term.lexeme for term in terms]
    evidence = evidence_chunks(clearance=clearance) if evidence is None else evidence
    any_term = _LexemeQuery(lexemes, operator="|")  # ranking rewards overlap: a question rarely repeats its answer
    found = _ranked_ids(_LexemeQuery(lexemes, operator="&"), any_term, evidence=evidence, limit=limit,
                        rank_cap=rank_cap, exclude=[])
    if len(found) >= limit or len(lexemes) == 1:
        return found
    rare = _LexemeQuery(_rare_terms(terms, budget=rank_cap), operator="|")
    return found + _ranked_ids(rare, any_term, evidence=evidence, limit=limit - len(found), rank_cap=rank_cap,
                               exclude=found)


def _vector_hits(vector: list[float], *, evidence: QuerySet[Chunk], limit: int, floor: float) -> list[tuple[int, float]]:
    with transaction.atomic():
        with connection.cursor() as cursor:
            # Filtered HNSW scans may stop early; let pgvector keep scanning until enough rows pass the filter.
            cursor.execute("SET LOCAL hnsw.iterative_scan = 'relaxed_order'")
            cursor.execute("SET LOCAL hnsw.ef_search = 100")
        rows = (
            evidence
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
    evidence = evidence_chunks(clearance=clearance)
    fulltext = fulltext_ids(query=query, clearance=clearance, limit=depth, evidence=evidence)
    vector_hits: list[tuple[int, float]] = []
    try:
        vector = vector if vector is not None else query_embedding(query)
        vector_hits = _vector_hits(vector, evidence=evidence, limit=depth, floor=floor)
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
