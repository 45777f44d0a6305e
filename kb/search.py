"""Hybrid retrieval over approved sources: full text and vectors, fused by reciprocal rank.

`chunks_search_many` serves every claim of an answer in one pass: the evidence filter is compiled once, the query
terms of all claims are read in one statement, the vector searches share one transaction and the hits are loaded
in one query. The statements are written in SQL because building them through the ORM for each claim cost more
than PostgreSQL takes to run them on a small knowledge base."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL
from django.utils.translation import gettext
from pgvector import Vector

from checking.languages import detect_language, fulltext_form
from console.metrics import SEARCH_SECONDS
from console.tracing import traced
from kb.embeddings import EmbeddingError, Role, embed_texts, get_provider
from kb.models import Chunk, DocumentVersion, EvidenceSpan
from kb.terms import knowledge_terms_load

logger = logging.getLogger(__name__)

RRF_K = 60  # the usual reciprocal-rank-fusion constant: dampens the weight of top ranks
# Most rows the full-text side ranks per step: ts_rank reads each tsvector, so this bounds its cost at any size.
FULLTEXT_RANK_CAP = 4000
_CHUNKS = Chunk._meta.db_table
_VERSIONS = DocumentVersion._meta.db_table


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


@dataclass(frozen=True)
class _Evidence:
    """The versions usable as evidence, as an SQL subquery (with its parameters) selecting their ids."""

    sql: str
    params: tuple


def _usable_versions(*, clearance: str) -> _Evidence:
    # Straight from the spans (no join back to the versions): an index probe per row for the vector search.
    usable = EvidenceSpan.objects.live(clearance=clearance).order_by().values("version_id")
    sql, params = usable.query.sql_with_params()
    return _Evidence(sql=sql, params=tuple(params))


def evidence_chunks(*, clearance: str) -> QuerySet[Chunk]:
    """Chunks of the versions usable as evidence."""
    usable = _usable_versions(clearance=clearance)
    return Chunk.objects.filter(version_id__in=RawSQL(usable.sql, usable.params))


@dataclass(frozen=True)
class _Term:
    lexeme: str
    estimated_rows: float | None  # from the planner's statistics; None before the table was first analysed


def _query_terms(texts: Sequence[str]) -> list[list[_Term]]:
    """Each text's lexemes (as the index stores them) with how many chunks each is expected to match.

    The estimate comes from the lexeme frequencies ANALYZE keeps for the tsvector column (what the planner itself
    uses): free to read and kept current by autovacuum, so no term table has to be maintained at indexing. A
    lexeme missing from that list is rarer than every listed one; like the planner, take half the lowest
    listed frequency for it."""
    terms: list[list[_Term]] = [[] for _ in texts]
    with connection.cursor() as cursor:
        cursor.execute(
            """
            WITH terms AS (
                SELECT DISTINCT q.ordinal, unnest(tsvector_to_array(to_tsvector('english', q.text))) AS lexeme
                FROM unnest(%s::text[]) WITH ORDINALITY AS q(text, ordinal)
            ), stats AS MATERIALIZED (
                SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs,
                       greatest(c.reltuples, 0) AS rows
                FROM pg_stats s JOIN pg_class c ON c.oid = %s::regclass
                WHERE s.schemaname = current_schema() AND s.tablename = %s AND s.attname = 'search_vector'
            ), listed AS (  -- unnested once and joined by lexeme: not searched once per term
                SELECT f.lexeme, f.freq FROM stats, unnest(stats.elems, stats.freqs) AS f(lexeme, freq)
            )
            SELECT terms.ordinal, terms.lexeme, stats.rows * coalesce(
                listed.freq,
                stats.freqs[array_length(stats.elems, 1) + 1] / 2  -- after the lexemes' own: the lowest frequency
            )
            FROM terms LEFT JOIN stats ON true LEFT JOIN listed ON listed.lexeme = terms.lexeme
            ORDER BY terms.ordinal, terms.lexeme
            """,
            [list(texts), _CHUNKS, _CHUNKS],
        )
        for ordinal, lexeme, rows in cursor.fetchall():
            terms[ordinal - 1].append(_Term(lexeme, rows))
    return terms


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


def _tsquery(lexemes: Sequence[str], *, operator: str) -> str:
    """A tsquery over lexemes PostgreSQL has already normalised, to be cast, not parsed again (to_tsquery would
    stem a stem a second time)."""
    return f" {operator} ".join("'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'" for lexeme in lexemes)


@dataclass(frozen=True)
class _FulltextStep:
    """One ranked full-text lookup: chunks matching `match` (a tsquery), ranked by `rank_by`, at most `limit`."""

    match: str
    rank_by: str
    limit: int
    exclude: tuple[int, ...] = ()


def _ranked_ids(steps: Sequence[_FulltextStep], *, evidence: _Evidence, rank_cap: int) -> list[list[int]]:
    """Each step's chunk ids, best first, all in one statement.

    The LIMIT inside the subquery bounds the rows ts_rank reads, however common the words; the GIN index finds
    them (a bitmap scan over the matching lexemes), the evidence filter keeps usable versions only. Each row is
    ranked as the scan reads it: fetching the rows again by id to rank them doubled the cost at 100,000 chunks."""
    if not steps:
        return []
    found: list[list[int]] = [[] for _ in steps]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT q.ordinal, r.id
            FROM unnest(%s::tsquery[], %s::tsquery[], %s::int[], %s::text[])
                 WITH ORDINALITY AS q(match, rank_by, row_limit, exclude, ordinal)
            CROSS JOIN LATERAL (
                SELECT found.id, found.rank FROM (
                    SELECT u.id, ts_rank(u.search_vector, q.rank_by) AS rank FROM {_CHUNKS} u
                    WHERE u.version_id IN ({evidence.sql}) AND u.search_vector @@ q.match
                      AND u.id <> ALL(q.exclude::int[])
                    LIMIT %s
                ) found
                ORDER BY found.rank DESC, found.id
                LIMIT q.row_limit
            ) r
            ORDER BY q.ordinal, r.rank DESC, r.id
            """,
            [[step.match for step in steps], [step.rank_by for step in steps], [step.limit for step in steps],
             ["{" + ",".join(map(str, step.exclude)) + "}" for step in steps], *evidence.params, rank_cap],
        )
        for ordinal, chunk_id in cursor.fetchall():
            found[ordinal - 1].append(chunk_id)
    return found


def _fulltext_ids(term_lists: Sequence[list[_Term]], *, evidence: _Evidence, limit: int,
                  rank_cap: int) -> list[list[int]]:
    """For each query (its terms): chunks with every term, best first; when those are fewer than `limit`, then
    chunks with any of its rarer terms. Each step is one statement for all the queries."""
    found: list[list[int]] = [[] for _ in term_lists]
    any_term = {i: _tsquery([t.lexeme for t in terms], operator="|") for i, terms in enumerate(term_lists) if terms}
    # Ranking rewards overlap with all of a query's terms: a question rarely repeats its answer.
    every = {i: _FulltextStep(match=_tsquery([t.lexeme for t in term_lists[i]], operator="&"), rank_by=rank_by,
                              limit=limit) for i, rank_by in any_term.items()}
    for i, ids in zip(every, _ranked_ids(list(every.values()), evidence=evidence, rank_cap=rank_cap), strict=True):
        found[i] = ids
    rarer = {i: _FulltextStep(match=_tsquery(_rare_terms(term_lists[i], budget=rank_cap), operator="|"),
                              rank_by=rank_by, limit=limit - len(found[i]), exclude=tuple(found[i]))
             for i, rank_by in any_term.items() if len(found[i]) < limit and len(term_lists[i]) > 1}
    for i, ids in zip(rarer, _ranked_ids(list(rarer.values()), evidence=evidence, rank_cap=rank_cap), strict=True):
        found[i] = found[i] + ids
    return found


def fulltext_ids(*, query: str, clearance: str, limit: int, rank_cap: int = FULLTEXT_RANK_CAP) -> list[int]:
    """Chunks that contain every query term, best first; when those are fewer than `limit`, then chunks with any
    of the query's rarer terms. Both steps rank at most `rank_cap` rows, by overlap with all the query's terms."""
    (ids,) = _fulltext_ids(_query_terms([fulltext_form(query)]), evidence=_usable_versions(clearance=clearance), limit=limit,
                           rank_cap=rank_cap)
    return ids


def _vector_hits(vectors: Sequence[list[float]], *, evidence: _Evidence, limit: int, floor: float,
                 model_id: str) -> list[list[tuple[int, float]]]:
    """Each vector's nearest chunks (at least `floor` similar) among the versions embedded by `model_id`, all in
    one statement: another model's vectors are not comparable with these (a version embedded before the model
    changed is found by full text until the housekeeping sweep has embedded it again)."""
    found: list[list[tuple[int, float]]] = [[] for _ in vectors]
    with transaction.atomic(), connection.cursor() as cursor:
        # Filtered HNSW scans may stop early; let pgvector keep scanning until enough rows pass the filter.
        cursor.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                       "set_config('hnsw.ef_search', '100', true)")
        cursor.execute(
            f"""
            SELECT q.ordinal, h.id, h.distance
            FROM unnest(%s::vector[]) WITH ORDINALITY AS q(embedding, ordinal)
            CROSS JOIN LATERAL (
                SELECT c.id, c.embedding <=> q.embedding AS distance FROM {_CHUNKS} c
                WHERE c.version_id IN ({evidence.sql})
                  AND c.version_id IN (SELECT v.id FROM {_VERSIONS} v WHERE v.embedding_model = %s)
                ORDER BY distance
                LIMIT %s
            ) h
            ORDER BY q.ordinal, h.distance, h.id
            """,
            [[Vector._to_db(vector) for vector in vectors], *evidence.params, model_id, limit],
        )
        for ordinal, chunk_id, distance in cursor.fetchall():
            if 1 - distance >= floor:
                found[ordinal - 1].append((chunk_id, 1 - distance))
    return found


def _fused(fulltext: list[int], vector_hits: list[tuple[int, float]], *, k: int) -> list[tuple[int, SearchHit]]:
    hits: dict[int, SearchHit] = {}
    for rank, chunk_id in enumerate(fulltext, start=1):
        hits[chunk_id] = SearchHit(chunk=None, score=1 / (RRF_K + rank), fulltext_rank=rank)  # type: ignore[arg-type]
    for rank, (chunk_id, similarity) in enumerate(vector_hits, start=1):
        hit = hits.setdefault(chunk_id, SearchHit(chunk=None, score=0.0))  # type: ignore[arg-type]
        hit.score += 1 / (RRF_K + rank)
        hit.vector_rank, hit.similarity = rank, similarity
    return sorted(hits.items(), key=lambda item: (-item[1].score, item[0]))[:k]


def _hit_chunks(chunk_ids: set[int]) -> dict[int, Chunk]:
    """The hits' chunks, each version (and its Markdown) loaded once however many of its chunks were found; the
    vectors are left out, nothing downstream reads them."""
    chunks = Chunk.objects.defer("embedding", "search_vector").order_by().in_bulk(chunk_ids)
    versions = DocumentVersion.objects.select_related("document__owner", "approved_by").in_bulk(
        {chunk.version_id for chunk in chunks.values()})
    for chunk in chunks.values():
        chunk.version = versions[chunk.version_id]
    return chunks


def chunks_search_many(
    *, queries: Sequence[str], clearance: str, k: int = 5, depth: int = 50, similarity_floor: float | None = None,
    vectors: Sequence[list[float] | None] | None = None, language: str | None = None,
) -> list[SearchResult]:
    """Top-k chunks of usable versions for each query; each hit says which index found it. A query is embedded by
    the model of its `language` (detected from the query when not given), and its vector compared only with the
    versions that model embedded (kb.embeddings: other versions are found by full text). `vectors`, where given, are
    the queries' query vectors by that model (the others are embedded here, together)."""
    if not queries:
        return []
    with SEARCH_SECONDS.time(), traced("knowledge base search", queries=len(queries), k=k):
        return _search_many(queries=queries, clearance=clearance, k=k, depth=depth,
                            similarity_floor=similarity_floor, vectors=vectors, language=language)


def _search_many(
    *, queries: Sequence[str], clearance: str, k: int, depth: int, similarity_floor: float | None,
    vectors: Sequence[list[float] | None] | None, language: str | None,
) -> list[SearchResult]:
    knowledge_terms_load()  # segment the queries as the passages were
    floor = settings.KB_SIMILARITY_FLOOR if similarity_floor is None else similarity_floor
    evidence = _usable_versions(clearance=clearance)
    fulltext = _fulltext_ids(_query_terms([fulltext_form(q) for q in queries]), evidence=evidence, limit=depth,
                             rank_cap=FULLTEXT_RANK_CAP)
    warnings: list[str] = []
    vector_hits: list[list[tuple[int, float]]] = [[] for _ in queries]
    given = list(vectors) if vectors is not None else [None] * len(queries)
    by_language: dict[str, list[int]] = {}
    for i, query in enumerate(queries):
        by_language.setdefault(language or detect_language(query), []).append(i)
    try:
        for code, indexes in by_language.items():
            missing = [i for i in indexes if given[i] is None]
            for i, vector in zip(missing, embed_texts([queries[i] for i in missing], role=Role.QUERY, language=code)
                                 if missing else [], strict=True):
                given[i] = vector
            found = _vector_hits([given[i] for i in indexes], evidence=evidence, limit=depth, floor=floor,
                                 model_id=get_provider(code).model_id)
            for i, hits in zip(indexes, found, strict=True):
                vector_hits[i] = hits
    except EmbeddingError as exc:
        logger.warning("vector search skipped: %s", exc)
        warnings.append(gettext("Vector search unavailable (%(error)s); showing full-text matches only.") % {"error": exc})

    fused = [_fused(ids, hits, k=k) for ids, hits in zip(fulltext, vector_hits, strict=True)]
    chunks = _hit_chunks({chunk_id for best in fused for chunk_id, _ in best})
    results = []
    for best in fused:
        for chunk_id, hit in best:
            hit.chunk = chunks[chunk_id]
        results.append(SearchResult(hits=[hit for _, hit in best], warnings=list(warnings)))
    return results


def chunks_search(
    *, query: str, clearance: str, k: int = 5, depth: int = 50, similarity_floor: float | None = None,
    vector: list[float] | None = None,
) -> SearchResult:
    """Top-k chunks of usable versions for `query`; each hit says which index found it."""
    (result,) = chunks_search_many(queries=[query], clearance=clearance, k=k, depth=depth,
                                   similarity_floor=similarity_floor, vectors=[vector])
    return result
