"""Indexing throughput and retrieval latency, on a database of the benchmark's own.

1. Generates a seeded synthetic corpus of Markdown documents (headings, paragraphs
   with numbers, dates and names, lists, tables), uploads and approves them with
   kb.services. Then, in the same run: the raw model (the configured local runtime,
   --processes processes × KB_EMBEDDING_THREADS threads) embeds exactly the texts
   indexing will embed (chunks, the checker's units, their words); then a real
   Celery worker (`--concurrency` --processes) indexes every version from its queue
   (chunk, embed, store, full-text index). Reports both rates and their ratio.
   With --languages zh,en it does this for each language in turn (the same shapes in
   Chinese, indexed by the Chinese model) and sets the rates side by side.
2. Grows the chunk table to --target-chunks by copying whole indexed versions
   (text, real embeddings, search vectors) into extra approved documents, so the
   HNSW and GIN indexes work on that many real rows; see docs/performance.md.
3. Times `kb.search.chunks_search` (hybrid full text + vector) for --queries queries
   cut from corpus sentences: once with the query embedded in-process, as the
   worker does, and once with precomputed query vectors (database work only).

Everything lives in the database `console_bench` on the embedded PostgreSQL (or on
the server of DATABASE_URL) and Redis database 2, never the developer's or the
tests'. Each run empties the benchmark's knowledge base and indexes it again
(with a cold embedding cache); --search-only reuses what the last run left.

Run: .venv/bin/python bench/index_bench.py [--help]   (--index-only: just step 1)
     .venv/bin/python bench/index_bench.py --languages zh,en --index-only --documents 60   (Chinese beside English)
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness import (  # noqa: E402  (beside this file)
    BenchError,
    bench_users,
    database_arguments,
    django_setup,
    latency_row,
    load_average,
    machine_facts,
    print_table,
    progress,
    running,
    worker_command,
    worker_wait,
)
from synthetic_corpus import CORPUS_KEY_PREFIX, CORPUS_WORDS, SyntheticDocument, synthetic_corpus  # noqa: E402  (beside this file)

# Django and project imports live inside functions: settings must see the bench DATABASE_URL first.
if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess
    from multiprocessing.queues import Queue
    from multiprocessing.synchronize import Event

    from console.models import User
    from kb.models import DocumentVersion

COPY_KEY_INFIX = "-copy-"


# Phase 1: upload, approve and index ------------------------------------------------------------------------


@dataclass(frozen=True)
class IndexStats:
    language: str
    model_id: str
    documents: int
    chunks_per_document: list[int]
    markdown_bytes: int
    processes: int
    upload_seconds: float
    texts: int  # distinct texts indexing embeds: chunks, units, words
    raw_model_seconds: float  # the model alone on those texts, same processes and threads
    worker_start_seconds: float
    index_seconds: float  # the Celery worker indexing every version

    @property
    def chunks(self) -> int:
        return sum(self.chunks_per_document)


def kb_reset() -> None:
    """Empty the bench database's knowledge base (and its audit trail): every run indexes from a cold cache."""
    from django.db import connection

    from console.models import AuditEvent
    from kb.models import Chunk, Document, DocumentVersion, EmbeddingCache, TermEmbedding

    models = (Chunk, DocumentVersion, Document, EmbeddingCache, TermEmbedding, AuditEvent)
    tables = ", ".join(connection.ops.quote_name(model._meta.db_table) for model in models)
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")


def corpus_upload(corpus: Sequence[SyntheticDocument], *, curator: User, approver: User) -> list[int]:
    """Create, upload and approve every document through kb.services (audited, four-eyes); version ids."""
    from kb import services
    from kb.models import Document

    version_ids = []
    for document in corpus:
        created = services.document_create(
            key=document.key, title=document.title, owner=curator, security_level=document.security_level,
            created_by=curator, source_type=Document.SourceType.IMPORT,
        )
        version = services.version_upload(document=created, raw=document.markdown.encode(),
                                          filename=f"{document.key}.md", uploaded_by=curator)
        services.version_approve(version=version, approver=approver, note="benchmark corpus", via="index_bench")
        version_ids.append(version.pk)
    return version_ids


def queued_index_tasks_discard() -> None:
    """version_upload queued an index task per version on the bench Redis: the timed run queues them again."""
    from config.celery import app

    app.control.purge()


def texts_to_embed(version_ids: Sequence[int]) -> list[str]:
    """What indexing embeds, each text once (the embedding cache starts empty): every chunk with its heading,
    the checker's units of every chunk, and their words (kb.services.version_index_run)."""
    from django.conf import settings

    from kb.chunking import chunk_markdown
    from kb.models import DocumentVersion
    from kb.services import embedding_input
    from checking.units import evidence_units

    texts: dict[str, None] = {}
    words: set[str] = set()
    for text in DocumentVersion.objects.filter(pk__in=version_ids).order_by("pk").values_list("text", flat=True):
        for draft in chunk_markdown(text, target_chars=settings.KB_CHUNK_TARGET_CHARS):
            texts[embedding_input(draft.heading_path, draft.text)] = None
            for unit in evidence_units(draft.text):
                texts[unit.text] = None
                words.update(unit.words)
    return list(texts) + sorted(words)


def raw_model_process(texts: list[str], language: str, ready: Queue, start: Event) -> None:
    """The model of `language` alone on one process's share of the texts, as many threads as a worker process
    gives it."""
    import django

    django.setup()
    from kb.embeddings import Role, allow_local_model, get_provider

    allow_local_model()
    provider = get_provider(language)
    provider.embed(["warm-up"], role=Role.PASSAGE)
    ready.put(os.getpid())
    start.wait()
    provider.embed(texts, role=Role.PASSAGE)  # one call: sorted by length into full batches, the model's best case


def raw_model_seconds(texts: Sequence[str], *, language: str, processes: int) -> float:
    """Wall time of `processes` processes side by side embedding their share of `texts` with the model alone."""
    context = multiprocessing.get_context("spawn")  # fresh interpreters: no forked connections or model state
    ready, start = context.Queue(), context.Event()
    children = [context.Process(target=raw_model_process, args=(list(texts[i::processes]), language, ready, start),
                                daemon=True)  # daemons: they go when this process goes
                for i in range(processes)]
    for child in children:
        child.start()
    processes_wait_ready(children, ready)
    started = time.perf_counter()
    start.set()
    for child in children:
        child.join()
    seconds = time.perf_counter() - started
    if any(child.exitcode != 0 for child in children):
        raise BenchError("a raw-model process failed; see the traceback above")
    return seconds


def processes_wait_ready(children: Sequence[BaseProcess], ready: Queue) -> None:
    """Wait until every child has loaded its model; fail at once if one dies on the way."""
    for _ in children:
        while True:
            try:
                ready.get(timeout=1)
                break
            except queue.Empty:
                if not all(child.is_alive() for child in children):
                    raise BenchError("a benchmark process died while starting; see the traceback above") from None


def worker_warm(worker: subprocess.Popen, *, processes: int, timeout: float) -> float:
    """Seconds until the worker answers a ping and each of its processes has embedded a text (model loaded)."""
    from kb.tasks import embed_texts_task

    started = time.perf_counter()
    worker_wait(worker, timeout=timeout)
    for result in [embed_texts_task.delay([f"warm-up {k}"], "query", "en") for k in range(2 * processes)]:
        result.get(timeout=timeout)
    return time.perf_counter() - started


def versions_index(version_ids: Sequence[int], *, processes: int) -> tuple[float, float]:
    """Index the versions with a real Celery worker (`--concurrency processes`), queued as uploads queue them:
    (worker start-up seconds, indexing wall time from the first message to the last version ready)."""
    from kb.models import DocumentVersion, IndexState
    from kb.tasks import version_index

    with running(worker_command(processes, name="index-bench")) as worker:
        progress(f"  starting a Celery worker with {processes} processes ...")
        start_seconds = worker_warm(worker, processes=processes, timeout=300)
        started, next_report = time.perf_counter(), 100
        for version_id in version_ids:
            version_index.delay(version_id)
        versions = DocumentVersion.objects.filter(pk__in=version_ids)
        while (done := versions.filter(index_state=IndexState.READY).count()) < len(version_ids):
            if worker.poll() is not None:
                raise BenchError(f"the Celery worker exited with code {worker.returncode}")
            failed = versions.filter(index_state=IndexState.FAILED).first()
            if failed is not None:
                raise BenchError(f"the worker could not index {failed}: {failed.index_error}")
            if done >= next_report:
                progress(f"  indexed {done}/{len(version_ids)} documents in {time.perf_counter() - started:.0f} s")
                next_report = done - done % 100 + 100
            time.sleep(0.2)
        return start_seconds, time.perf_counter() - started


def chunks_per_version(version_ids: Sequence[int]) -> list[int]:
    from django.db.models import Count

    from kb.models import DocumentVersion, IndexState

    versions = DocumentVersion.objects.filter(pk__in=version_ids)
    failed = versions.exclude(index_state=IndexState.READY).values_list("pk", "index_error")
    if failed:
        raise BenchError(f"{len(failed)} versions were not indexed, e.g. {failed[0]}")
    return list(versions.annotate(n=Count("chunks")).values_list("n", flat=True))


def versions_language_check(version_ids: Sequence[int], *, language: str) -> None:
    """Uploads detect a version's language; a corpus read as another language would time the wrong model."""
    from kb.models import DocumentVersion

    others = DocumentVersion.objects.filter(pk__in=version_ids).exclude(language=language)
    if others.exists():
        raise BenchError(f"{others.count()} '{language}' documents were read as another language, "
                         f"e.g. {others.first()} as '{others.first().language}'")


def corpus_index(*, seed: int, documents: int, processes: int, language: str) -> IndexStats:
    from kb.embeddings import get_provider

    kb_reset()
    curator, approver = bench_users()
    corpus = synthetic_corpus(seed=seed, count=documents, language=language)
    progress(f"uploading and approving {documents} '{language}' documents ...")
    started = time.perf_counter()
    version_ids = corpus_upload(corpus, curator=curator, approver=approver)
    upload_seconds = time.perf_counter() - started
    queued_index_tasks_discard()
    versions_language_check(version_ids, language=language)

    texts = texts_to_embed(version_ids)
    progress(f"the model alone: {len(texts):,} texts in {processes} processes ...")
    raw_seconds = raw_model_seconds(texts, language=language, processes=processes)
    progress(f"indexing {documents} documents (chunk, embed, full text) with a Celery worker ...")
    start_seconds, index_seconds = versions_index(version_ids, processes=processes)
    return IndexStats(language=language, model_id=get_provider(language).model_id, documents=documents, chunks_per_document=chunks_per_version(version_ids),
                      markdown_bytes=sum(len(d.markdown.encode()) for d in corpus), processes=processes,
                      upload_seconds=upload_seconds, texts=len(texts), raw_model_seconds=raw_seconds,
                      worker_start_seconds=start_seconds, index_seconds=index_seconds)


def index_rows(stats: IndexStats, *, seed: int) -> list[tuple[str, str]]:
    from django.conf import settings

    per_doc = stats.chunks_per_document
    raw_rate, index_rate = stats.texts / stats.raw_model_seconds, stats.texts / stats.index_seconds
    return [
        ("documents", f"{stats.documents:,} synthetic Markdown documents in '{stats.language}' (seed {seed}), "
                      f"{stats.markdown_bytes / 1e6:.1f} MB"),
        ("chunks", f"{stats.chunks:,} (per document: min {min(per_doc)}, median {statistics.median(per_doc):g}, "
                   f"max {max(per_doc)})"),
        ("texts embedded", f"{stats.texts:,} distinct (chunks with their heading, the checker's units, their words)"),
        ("upload + approve (not indexing)", f"{stats.upload_seconds:.1f} s, "
                                            f"{stats.documents / stats.upload_seconds:.0f} documents/s"),
        ("embedding", f"{stats.model_id}, {stats.processes} processes × {settings.KB_EMBEDDING_THREADS} "
                      f"thread(s) (KB_EMBEDDING_THREADS), cold embedding cache"),
        ("raw model, same texts", f"{stats.raw_model_seconds:.1f} s: {raw_rate:.1f} texts/s "
                                  f"({stats.chunks / stats.raw_model_seconds:.1f} chunks/s equivalent)"),
        ("Celery worker start (ping + model in every process)", f"{stats.worker_start_seconds:.1f} s"),
        ("index wall time (Celery worker)", f"{stats.index_seconds:.1f} s"),
        ("index throughput", f"**{stats.chunks / stats.index_seconds:.1f} chunks/s**, {index_rate:.1f} texts/s, "
                             f"{stats.documents / stats.index_seconds:.2f} documents/s"),
        ("**indexing / raw model**", f"**{100 * stats.raw_model_seconds / stats.index_seconds:.0f} %**"),
        ("load average after indexing", load_average()),
    ]


def side_by_side_rows(runs: Sequence[IndexStats]) -> list[tuple[str, str]]:
    """Each language's indexing and raw-model rates, and each against English's (same run, same machine)."""
    first = next((stats for stats in runs if stats.language == "en"), runs[0])

    def rate(stats: IndexStats, seconds: float) -> float:
        return stats.chunks / seconds

    rows = []
    for stats in runs:
        index_rate, raw_rate = rate(stats, stats.index_seconds), rate(stats, stats.raw_model_seconds)
        versus = "" if stats is first else (
            f"; {index_rate / rate(first, first.index_seconds):.2f}× '{first.language}' indexing")
        rows.append((f"'{stats.language}': {stats.model_id}",
                     f"indexing **{index_rate:.1f} chunks/s** ({stats.chunks:,} chunks in {stats.index_seconds:.1f} s), "
                     f"raw model {raw_rate:.1f} chunks/s equivalent{versus}"))
    return rows


# Phase 2: grow the chunk table ------------------------------------------------------------------------------

# Copy rows as they are: same text, offsets, content hash, real embedding and search vector.
COPY_CHUNKS_SQL = """
INSERT INTO kb_chunk (version_id, ordinal, heading_path, text, char_start, char_end, line_start, line_end,
                      paragraphs, content_hash, embedding, search_vector)
SELECT pairs.copy_id, c.ordinal, c.heading_path, c.text, c.char_start, c.char_end, c.line_start, c.line_end,
       c.paragraphs, c.content_hash, c.embedding, c.search_vector
FROM unnest(%s::bigint[], %s::bigint[]) WITH ORDINALITY AS pairs(original_id, copy_id, position)
JOIN kb_chunk c ON c.version_id = pairs.original_id
ORDER BY pairs.position, c.ordinal
LIMIT %s
"""


@dataclass(frozen=True)
class GrowStats:
    copies: int  # copy documents created
    rows: int
    seconds: float


def original_versions() -> list[DocumentVersion]:
    from django.db.models import Count

    from kb.models import DocumentVersion, IndexState

    return list(
        DocumentVersion.objects.filter(document__key__startswith=CORPUS_KEY_PREFIX, index_state=IndexState.READY)
        .exclude(document__key__contains=COPY_KEY_INFIX)
        .select_related("document")
        .annotate(chunk_count=Count("chunks"))
        .order_by("pk")
    )


def versions_copy(originals: Sequence[DocumentVersion], *, replica: int, rows: int) -> int:
    """Approved, indexed copies of `originals` (new documents) with their chunks, at most `rows` of them."""
    from django.db import connection, transaction
    from django.utils import timezone

    from kb.models import Document, DocumentVersion, IndexState, VersionStatus

    curator, approver = bench_users()
    now = timezone.now()
    with transaction.atomic():
        documents = Document.objects.bulk_create(
            Document(key=f"{v.document.key}{COPY_KEY_INFIX}{replica}", title=v.document.title, owner=curator,
                     security_level=v.document.security_level, source_type=Document.SourceType.IMPORT)
            for v in originals
        )
        copies = DocumentVersion.objects.bulk_create(
            DocumentVersion(
                document=document, number=1, text=v.text, sha256=v.sha256, filename=v.filename,
                note=f"benchmark copy of {v}", effective_from=v.effective_from, status=VersionStatus.APPROVED,
                submitted_by=curator, submitted_at=now, approved_by=approver, approved_at=now,
                index_state=IndexState.READY, index_done=v.chunk_count, index_total=v.chunk_count,
                embedding_model=v.embedding_model,
            )
            for document, v in zip(documents, originals, strict=True)
        )
        with connection.cursor() as cursor:
            cursor.execute(COPY_CHUNKS_SQL, [[v.pk for v in originals], [c.pk for c in copies], rows])
            return cursor.rowcount


def chunks_grow(*, target: int) -> GrowStats:
    """Copy whole indexed versions (the last one partly) until the chunk table holds `target` rows."""
    from django.db import connection

    from kb.models import Chunk

    originals = original_versions()
    if not originals:
        raise BenchError("no indexed corpus to copy: run without --search-only first")
    needed = target - Chunk.objects.count()
    copies = rows = replica = 0
    started = time.perf_counter()
    while needed > 0:
        replica += 1
        batch: list[DocumentVersion] = []
        for version in originals:
            if sum(v.chunk_count for v in batch) >= needed:
                break
            batch.append(version)
        copied = versions_copy(batch, replica=replica, rows=needed)
        copies, rows, needed = copies + len(batch), rows + copied, needed - copied
        progress(f"  copy {replica}: {copied:,} chunks, {Chunk.objects.count():,} in the table")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE kb_chunk, kb_documentversion, kb_document")  # as autovacuum would after a bulk load
    return GrowStats(copies=copies, rows=rows, seconds=time.perf_counter() - started)


def grow_rows(stats: GrowStats, *, corpus_chunks: int) -> list[tuple[str, str]]:
    from kb.models import Chunk

    rate = f", {stats.rows / stats.seconds:,.0f} rows/s" if stats.rows else ""
    return [
        ("method", "copies of the indexed corpus's chunks (text, real embedding, search vector) into extra "
                   "approved, indexed documents; HNSW and GIN maintained on insert"),
        ("real chunks (embedded here)", f"{corpus_chunks:,}"),
        ("copied chunks", f"{stats.rows:,} into {stats.copies:,} copy documents in {stats.seconds:.1f} s{rate}"),
        ("chunks in the table", f"{Chunk.objects.count():,}"),
    ]


# Phase 3: retrieval latency ---------------------------------------------------------------------------------

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n(?=- )")


@dataclass(frozen=True)
class Query:
    text: str
    source_hash: str  # content hash of the chunk it was cut from (copies share it)


def search_queries(*, seed: int, count: int, clearance: str) -> list[Query]:
    """Spans of 5–9 words cut from sentences of corpus chunks the client may read: what a user might type."""
    from console.models import SecurityLevel
    from kb.models import Chunk

    chunks = (
        Chunk.objects.filter(version__document__key__startswith=CORPUS_KEY_PREFIX,
                             version__document__security_level__in=SecurityLevel.up_to(clearance))
        .exclude(version__document__key__contains=COPY_KEY_INFIX)
        .order_by("pk")
        .values_list("text", "content_hash")
    )
    sentences = [
        (sentence.removeprefix("- ").split(), content_hash)
        for text, content_hash in chunks
        for sentence in _SENTENCE_SPLIT.split(text)
        if not sentence.startswith(("|", "#")) and len(sentence.split()) >= 8
    ]
    if len(sentences) < count:
        raise BenchError(f"only {len(sentences)} corpus sentences to query; index the corpus first")
    rng = random.Random(seed)
    queries = []
    for words, content_hash in rng.sample(sentences, count):
        size = rng.randint(5, 9)
        start = rng.randint(0, len(words) - size)
        queries.append(Query(" ".join(words[start : start + size]).strip(".,"), content_hash))
    return queries


def search_latencies(
    queries: Sequence[Query], *, clearance: str, k: int, vectors: Sequence[list[float]] | None = None,
) -> tuple[list[float], int]:
    """Seconds per `chunks_search` call, and how many found the chunk their query was cut from."""
    from kb.search import chunks_search

    seconds, found = [], 0
    for index, query in enumerate(queries):
        started = time.perf_counter()
        result = chunks_search(query=query.text, clearance=clearance, k=k,
                               vector=vectors[index] if vectors else None)
        seconds.append(time.perf_counter() - started)
        if result.warnings:
            raise BenchError(f"search degraded: {result.warnings[0]}")
        found += query.source_hash in {hit.chunk.content_hash for hit in result.hits}
    return seconds, found


def search_rows(*, seed: int, count: int, clearance: str, k: int, warmup: int) -> list[tuple[str, str]]:
    from kb.embeddings import Role, embed_texts
    from kb.models import Chunk
    from kb.search import evidence_chunks

    queries = search_queries(seed=seed, count=count, clearance=clearance)
    vectors = embed_texts([query.text for query in queries], role=Role.QUERY, language="en")
    search_latencies(queries[:warmup], clearance=clearance, k=k)  # model, connections, buffer cache
    with_embedding, found = search_latencies(queries, clearance=clearance, k=k)
    database_only, _ = search_latencies(queries, clearance=clearance, k=k, vectors=vectors)
    return [
        ("searched", f"{Chunk.objects.count():,} chunks, {evidence_chunks(clearance=clearance).count():,} "
                     f"usable at clearance {clearance!r}; k={k}"),
        ("queries", f"{count} spans of 5–9 words cut from corpus sentences (seed {seed}), after {warmup} warm-up"),
        latency_row("chunks_search, query embedded in-process", with_embedding),
        latency_row("chunks_search, query vector given (database only)", database_only),
        ("sanity: source chunk (or a copy) in the top k", f"{found}/{count} ({100 * found / count:.0f}%)"),
        ("load average at end", load_average()),
    ]


# Command line -----------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Index a synthetic corpus with the real services (chunks/s), grow the chunk table, and time "
                    "hybrid retrieval (p50/p95). Uses its own database; see docs/performance.md.",
    )
    parser.add_argument("--documents", type=int, default=1000, help="synthetic documents to index (default 1000)")
    parser.add_argument("--target-chunks", type=int, default=100_000,
                        help="grow the chunk table to this many rows before timing retrieval (default 100000)")
    parser.add_argument("--processes", type=int, default=len(os.sched_getaffinity(0)),
                        help="indexing processes side by side, as a worker's --concurrency (default: the CPUs)")
    parser.add_argument("--queries", type=int, default=200, help="timed retrieval queries, at least 100 (default 200)")
    parser.add_argument("--warmup", type=int, default=10, help="untimed warm-up queries (default 10)")
    parser.add_argument("-k", type=int, default=5, help="hits per query (default 5, as the checker asks)")
    parser.add_argument("--clearance", default="internal", choices=["public", "internal", "confidential", "restricted"],
                        help="clearance of the searching client (default internal)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the corpus and the queries (default 7)")
    parser.add_argument("--languages", default="en",
                        help="comma-separated corpus languages indexed one after the other and set side by side, "
                             "e.g. zh,en (default en); English goes last: growing and retrieval use its corpus")
    database_arguments(parser, database="console_bench", redis_db=2)
    parser.add_argument("--search-only", action="store_true",
                        help="skip indexing and growing; time retrieval over what the last run left")
    parser.add_argument("--index-only", action="store_true",
                        help="stop after indexing: no growing, no retrieval")
    args = parser.parse_args(argv)
    if args.queries < 100:
        parser.error("--queries must be at least 100 for a meaningful p95")
    if min(args.documents, args.processes, args.k) < 1 or args.warmup < 0:
        parser.error("--documents, --processes and -k must be positive, --warmup not negative")
    args.languages = [language.strip() for language in args.languages.split(",") if language.strip()]
    unknown = sorted(set(args.languages) - set(CORPUS_WORDS))
    if unknown or not args.languages:
        parser.error(f"--languages: each of {', '.join(CORPUS_WORDS)} (not {', '.join(unknown) or 'none'})")
    if "en" not in args.languages and not args.index_only:
        parser.error("retrieval is timed with English queries: include en in --languages, or add --index-only")
    args.languages.sort(key=lambda language: language == "en")  # English last, its corpus left for retrieval
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # exit cleanly: that stops the indexing processes
    try:
        django_setup(database=args.database, redis_db=args.redis_db, fresh=args.fresh)
        from kb.embeddings import allow_local_model

        allow_local_model()  # embed in this process, as a worker would
        print_table("Machine", machine_facts())
        if not args.search_only:
            runs = []
            for language in args.languages:
                stats = corpus_index(seed=args.seed, documents=args.documents, processes=args.processes,
                                     language=language)
                print_table(f"Indexing ({language})", index_rows(stats, seed=args.seed))
                runs.append(stats)
            if len(runs) > 1:
                print_table("Side by side", side_by_side_rows(runs))
            if args.index_only:
                return 0
            progress(f"growing the chunk table to {args.target_chunks:,} rows ...")
            print_table("Chunk table", grow_rows(chunks_grow(target=args.target_chunks), corpus_chunks=stats.chunks))
        progress(f"timing {args.queries} retrieval queries ...")
        print_table("Retrieval", search_rows(seed=args.seed, count=args.queries, clearance=args.clearance, k=args.k,
                                             warmup=args.warmup))
    except BenchError as exc:
        print(f"index_bench: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
