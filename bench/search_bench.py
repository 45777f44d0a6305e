"""Hybrid retrieval over 100,000 distinct chunks: latency and recall@5 of queries whose answer passage is known.

1. Builds the chunk table from varied text, not from copies:
   - the evidence passages of the external claim-support sets (eval/external/: BEGIN and WiCE, see the licence
     note there), one chunk each, with their answers as queries whose answer passage is known;
   - the demo knowledge base (kb/demo/, chunked by kb.chunking), with the verbatim supported claims of
     eval/claims-dev.jsonl as queries (the answer passage: the chunk that holds the claim);
   - generated policies filling the table to --target-chunks: text from a word-bigram model of all the real
     text above, with invented names and codes, so the vocabulary is large and skewed like a real one.
   Every real passage and --embedded generated chunks are embedded with the real model; the other generated
   chunks take the vector of a random embedded one plus small Gaussian noise (embedding 100,000 texts takes
   about 1.5 hours on 2 cores). Rows go in with bulk inserts (not the indexing services), HNSW and GIN upkept on
   insert, then ANALYZE, as autovacuum would after a bulk load.
2. Times `kb.search.chunks_search` (k=5) per query with the query embedded in-process and with the query vector
   given (database only), and `kb.search.fulltext_ids` alone; reports recall@5: the answer passage in the top 5.

Its own database (console_bench_search) and Redis database 5; --search-only reuses the last run's table.

Run: .venv/bin/python bench/search_bench.py [--help]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

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
)

EXTERNAL_SETS = [PROJECT_DIR / "eval" / "external" / name for name in ("begin-dev.jsonl", "wice-dev.jsonl")]
DEMO_DIR = PROJECT_DIR / "kb" / "demo"
DEMO_CLAIMS = PROJECT_DIR / "eval" / "claims-dev.jsonl"
KEY_PREFIX = "search-bench-"
LEVELS = ["public"] * 30 + ["internal"] * 50 + ["confidential"] * 15 + ["restricted"] * 5
VECTOR_NOISE = 0.025  # per dimension: cosine to the vector it perturbs is about 0.9 in 384 dimensions
INSERT_BATCH_CHUNKS = 5000


@dataclass(frozen=True)
class Passage:
    heading: str
    text: str

    @property
    def embedding_input(self) -> str:  # as kb.services embeds a chunk
        return f"{self.heading}\n\n{self.text}" if self.heading else self.text


@dataclass(frozen=True)
class SourceDocument:
    key: str
    title: str
    security_level: str
    passages: list[Passage]


@dataclass(frozen=True)
class KnownQuery:
    text: str
    source: str  # begin, wice, demo
    answer_hashes: frozenset[str]  # content hashes of the chunks that answer it


def _hash(passage: Passage) -> str:
    from kb.embeddings import content_hash

    return content_hash(passage.embedding_input)


# Real text ------------------------------------------------------------------------------------------------


def external_documents() -> tuple[list[SourceDocument], list[KnownQuery]]:
    """One chunk per distinct evidence passage, ten to a document; each answer queries its own evidence."""
    passages: dict[str, Passage] = {}
    queries = []
    for path in EXTERNAL_SETS:
        for line in path.read_text().splitlines():
            item = json.loads(line)
            passage = passages.setdefault(item["evidence"], Passage(heading="", text=item["evidence"].strip()))
            queries.append(KnownQuery(item["answer"], item["source"], frozenset([_hash(passage)])))
    ordered = list(passages.values())
    documents = [
        SourceDocument(f"{KEY_PREFIX}external-{n // 10:03d}", f"External evidence {n // 10}", "public",
                       ordered[n : n + 10])
        for n in range(0, len(ordered), 10)
    ]
    return documents, queries


def markdown_documents(directory: Path, *, name: str) -> list[SourceDocument]:
    from kb.chunking import chunk_markdown

    if not directory.is_dir():
        return []
    return [
        SourceDocument(f"{KEY_PREFIX}{name}-{path.stem}", path.stem.replace("-", " ").title(), "internal",
                       [Passage(draft.heading_path, draft.text) for draft in chunk_markdown(path.read_text())])
        for path in sorted(directory.glob("*.md"))
    ]


def demo_queries(documents: Sequence[SourceDocument]) -> list[KnownQuery]:
    """Supported dev claims that appear verbatim in one demo chunk: there the answer passage is known."""
    passages = [passage for document in documents for passage in document.passages]
    queries = []
    for line in DEMO_CLAIMS.read_text().splitlines():
        claim = json.loads(line)
        needle = " ".join(claim["claim"].rstrip(".").split())
        holders = frozenset(_hash(p) for p in passages if needle in " ".join(p.text.split()))
        if claim["label"] == "supported" and holders:
            queries.append(KnownQuery(claim["claim"], "demo", holders))
    return queries


# Generated policies ---------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[^\s|#*]+")
_SYLLABLES = ["ka", "lo", "ren", "vi", "dor", "sa", "mi", "tur", "el", "qua", "zen", "bri", "ost", "fa", "nel",
              "ur", "ta", "gro", "pe", "lin", "hav", "cor", "ym", "dra"]
_SECTION_KINDS = ["Purpose", "Scope", "Eligibility", "Procedure", "Exceptions", "Records", "Contacts", "Approval",
                  "Reporting", "Definitions", "Responsibilities", "Review", "Costs", "Safety", "Training"]


class PolicyGenerator:
    """Pseudo-policies from a word-bigram model of real text, sprinkled with invented names and codes."""

    def __init__(self, texts: Sequence[str], *, seed: int) -> None:
        self.rng = random.Random(seed)
        self.following: dict[str, list[str]] = defaultdict(list)
        self.starts: list[str] = []
        for text in texts:
            words = _TOKEN.findall(text)
            for before, after in zip(words, words[1:], strict=False):
                self.following[before].append(after)
                if before.endswith(".") and after[:1].isupper():
                    self.starts.append(after)

    def _invented(self) -> str:
        if self.rng.random() < 0.3:
            return f"{self.rng.choice('ABCDEFGHJKLMNPRSTVWXZ')}{self.rng.choice('ABCDEFGHJKLMNPRSTVWXZ')}-" \
                   f"{self.rng.randint(100, 9999)}"
        return "".join(self.rng.choice(_SYLLABLES) for _ in range(self.rng.randint(2, 4))).capitalize()

    def paragraph(self, *, words: int) -> str:
        out = [self.rng.choice(self.starts)]
        while len(out) < words or not out[-1].endswith("."):
            choices = self.following.get(out[-1])
            word = self.rng.choice(choices) if choices and len(out) < words * 2 else None
            if word is None:  # a dead end, or long enough: close the sentence and start another
                out[-1] = out[-1].rstrip(",;:") + "."
                if len(out) >= words:
                    break
                word = self.rng.choice(self.starts)
            out.append(self._invented() if word[:1].isupper() and self.rng.random() < 0.15 else word)
        return " ".join(out)

    def documents(self, *, count: int, first: int) -> Iterator[SourceDocument]:
        for number in range(first, first + count):
            title = f"{self._invented()} {self.rng.choice(['policy', 'guide', 'procedure', 'standard'])}"
            passages = [
                Passage(f"{title} > {self.rng.choice(_SECTION_KINDS)} {section + 1}",
                        "\n\n".join(self.paragraph(words=self.rng.randint(25, 70))
                                    for _ in range(self.rng.randint(1, 3))))
                for section in range(self.rng.randint(5, 15))
            ]
            yield SourceDocument(f"{KEY_PREFIX}generated-{number:05d}", title, self.rng.choice(LEVELS), passages)


# Loading ---------------------------------------------------------------------------------------------------


def kb_reset() -> None:
    from django.db import connection

    from console.models import AuditEvent
    from kb.models import Chunk, Document, DocumentVersion, EmbeddingCache

    tables = ", ".join(connection.ops.quote_name(model._meta.db_table)
                       for model in (Chunk, DocumentVersion, Document, EmbeddingCache, AuditEvent))
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")


def documents_insert(documents: Sequence[SourceDocument], vectors: dict[str, list[float]]) -> int:
    """Approved, indexed versions with their chunks (embedding and search vector), as indexing leaves them."""
    from django.db import connection, transaction
    from django.utils import timezone

    from kb.embeddings import get_provider
    from kb.models import Chunk, Document, DocumentVersion, IndexState, VersionStatus

    curator, approver = bench_users()
    now = timezone.now()
    with transaction.atomic():
        created = Document.objects.bulk_create(
            Document(key=d.key, title=d.title, owner=curator, security_level=d.security_level,
                     source_type=Document.SourceType.IMPORT)
            for d in documents
        )
        versions = DocumentVersion.objects.bulk_create(
            DocumentVersion(document=document, number=1, text="\n\n".join(p.text for p in d.passages),
                            sha256="0" * 64, note="search benchmark", effective_from=now,
                            status=VersionStatus.APPROVED, submitted_by=curator, submitted_at=now,
                            approved_by=approver, approved_at=now, index_state=IndexState.READY,
                            index_done=len(d.passages), index_total=len(d.passages),
                            embedding_model=get_provider().model_id)
            for document, d in zip(created, documents, strict=True)
        )
        chunks = []
        for version, d in zip(versions, documents, strict=True):
            start, line = 0, 1
            for ordinal, passage in enumerate(d.passages):
                end, lines = start + len(passage.text), passage.text.count("\n")
                chunks.append(Chunk(
                    version=version, ordinal=ordinal, heading_path=passage.heading[:1000], text=passage.text,
                    char_start=start, char_end=end, line_start=line, line_end=line + lines,
                    paragraphs=[[start, end]], content_hash=_hash(passage), embedding=vectors[_hash(passage)],
                ))
                start, line = end + 2, line + lines + 2
        Chunk.objects.bulk_create(chunks, batch_size=1000)
        with connection.cursor() as cursor:  # the search vector kb.services gives a chunk
            cursor.execute(
                "UPDATE kb_chunk SET search_vector = "
                "setweight(to_tsvector('english', heading_path), 'A') || setweight(to_tsvector('english', text), 'B') "
                "WHERE version_id = ANY(%s)", [[v.pk for v in versions]],
            )
    return len(chunks)


def table_build(*, target: int, embedded: int, seed: int) -> list[tuple[str, str]]:
    import numpy as np
    from django.db import connection

    from kb.embeddings import Role, get_provider

    kb_reset()
    started = time.perf_counter()
    external, _ = external_documents()
    demo = markdown_documents(DEMO_DIR, name="demo")
    real = external + demo
    real_passages = [p for d in real for p in d.passages]

    generator = PolicyGenerator([p.text for p in real_passages], seed=seed)
    generated: list[SourceDocument] = []
    rows = len(real_passages)
    while rows < target:
        document = next(generator.documents(count=1, first=len(generated)))
        document.passages[target - rows:] = []  # the last document fills the table exactly
        generated.append(document)
        rows += len(document.passages)
    generated_passages = [p for d in generated for p in d.passages]
    generate_seconds = time.perf_counter() - started

    rng = random.Random(seed)
    to_embed = real_passages + rng.sample(generated_passages, min(embedded, len(generated_passages)))
    progress(f"embedding {len(to_embed):,} texts with the real model ...")
    started = time.perf_counter()
    vectors = dict(zip((_hash(p) for p in to_embed),
                       get_provider().embed([p.embedding_input for p in to_embed], role=Role.PASSAGE),
                       strict=True))
    embed_seconds = time.perf_counter() - started
    bases = [np.array(vectors[_hash(p)]) for p in to_embed[len(real_passages):]]
    noise = np.random.default_rng(seed)
    for passage in generated_passages:
        if _hash(passage) not in vectors:
            vector = rng.choice(bases) + noise.normal(0, VECTOR_NOISE, len(bases[0]))
            vectors[_hash(passage)] = (vector / np.linalg.norm(vector)).tolist()

    progress(f"inserting {rows:,} chunks ...")
    started, inserted, batch, batch_rows = time.perf_counter(), 0, [], 0
    everything = real + generated
    for number, document in enumerate(everything, start=1):
        batch.append(document)
        batch_rows += len(document.passages)
        if batch_rows >= INSERT_BATCH_CHUNKS or number == len(everything):
            inserted += documents_insert(batch, vectors)
            batch, batch_rows = [], 0
            progress(f"  {inserted:,} chunks")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE kb_chunk, kb_documentversion, kb_document")  # as autovacuum would after a bulk load
        cursor.execute("SELECT count(*) FROM ts_stat('SELECT search_vector FROM kb_chunk')")
        lexemes = cursor.fetchone()[0]
    insert_seconds = time.perf_counter() - started

    sources = [("external evidence (eval/external: BEGIN, WiCE)", external), ("demo knowledge base (kb/demo)", demo),
               ("generated policies", generated)]
    return [
        *[(name, f"{sum(len(d.passages) for d in docs):,} chunks in {len(docs):,} documents")
          for name, docs in sources],
        ("chunks in the table", f"{inserted:,}; {lexemes:,} distinct lexemes"),
        ("vectors", f"{len(to_embed):,} embedded with the real model in {embed_seconds:.0f} s (every real passage "
                    f"and {len(to_embed) - len(real_passages):,} generated); the other {inserted - len(to_embed):,} "
                    f"generated chunks: an embedded generated chunk's vector + N(0, {VECTOR_NOISE}) noise"),
        ("build", f"text generated in {generate_seconds:.0f} s; inserted (HNSW + GIN upkept) and analysed in "
                  f"{insert_seconds:.0f} s"),
    ]


# Timing -----------------------------------------------------------------------------------------------------


def known_queries(*, seed: int, count: int, clearance: str) -> list[KnownQuery]:
    """Rebuilt from the files (no model needed); only those whose answer passage is in the table."""
    from kb.models import Chunk
    from kb.search import evidence_chunks

    _, queries = external_documents()
    queries += demo_queries(markdown_documents(DEMO_DIR, name="demo"))
    usable = set(evidence_chunks(clearance=clearance).filter(version__document__key__startswith=KEY_PREFIX)
                 .exclude(version__document__key__contains="-generated-").values_list("content_hash", flat=True))
    queries = [q for q in queries if q.answer_hashes & usable]
    if not queries or not Chunk.objects.exists():
        raise BenchError("no benchmark table: run without --search-only first")
    return random.Random(seed).sample(queries, min(count, len(queries)))


def timed(queries: Sequence[KnownQuery], search) -> tuple[list[float], dict[str, list[bool]]]:
    """Seconds per call, and per source whether the answer passage was among the hashes the call returned."""
    seconds, found = [], defaultdict(list)
    for query in queries:
        started = time.perf_counter()
        hashes = search(query)
        seconds.append(time.perf_counter() - started)
        found[query.source].append(bool(query.answer_hashes & hashes))
    return seconds, found


def recall(found: dict[str, list[bool]]) -> str:
    every = [hit for hits in found.values() for hit in hits]
    parts = [f"{source} {sum(hits)}/{len(hits)}" for source, hits in sorted(found.items())]
    return f"**{100 * sum(every) / len(every):.1f} %** ({sum(every)}/{len(every)}; " + ", ".join(parts) + ")"


def search_rows(queries: Sequence[KnownQuery], *, clearance: str, k: int, warmup: int) -> list[tuple[str, str]]:
    from kb.embeddings import Role, embed_texts
    from kb.models import Chunk
    from kb.search import chunks_search, evidence_chunks, fulltext_ids

    vectors = dict(zip((q.text for q in queries),
                       embed_texts([q.text for q in queries], role=Role.QUERY, language="en"), strict=True))

    def hybrid(query: KnownQuery, *, vector: list[float] | None = None) -> set[str]:
        result = chunks_search(query=query.text, clearance=clearance, k=k, vector=vector)
        if result.warnings:
            raise BenchError(f"search degraded: {result.warnings[0]}")
        return {hit.chunk.content_hash for hit in result.hits}

    def fulltext(query: KnownQuery) -> set[str]:
        ids = fulltext_ids(query=query.text, clearance=clearance, limit=k)
        return set(Chunk.objects.filter(pk__in=ids).values_list("content_hash", flat=True))

    timed(queries[:warmup], hybrid)  # model, connections, buffer cache
    embedded, _ = timed(queries, hybrid)
    database, found = timed(queries, lambda q: hybrid(q, vector=vectors[q.text]))
    fulltext_seconds, fulltext_found = timed(queries, fulltext)
    return [
        ("searched", f"{Chunk.objects.count():,} chunks, {evidence_chunks(clearance=clearance).count():,} usable at "
                     f"clearance {clearance!r}; k={k}"),
        ("queries", f"{len(queries)} answers/claims whose answer passage is known, after {warmup} warm-up"),
        latency_row("chunks_search, query embedded in-process", embedded),
        latency_row("chunks_search, query vector given (database only)", database),
        latency_row("fulltext_ids alone (top k)", fulltext_seconds),
        ("recall@5, hybrid", recall(found)),
        ("recall@5, full-text side alone", recall(fulltext_found)),
        ("load average at end", load_average()),
    ]


def explain(query: str, *, clearance: str, k: int) -> None:
    """EXPLAIN ANALYZE of the statements `fulltext_ids` runs for one query."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from kb.search import fulltext_ids

    with CaptureQueriesContext(connection) as captured:
        fulltext_ids(query=query, clearance=clearance, limit=k)
    print(f"\n### EXPLAIN ANALYZE, fulltext_ids(query={query!r})\n")
    with connection.cursor() as cursor:
        for statement in captured.captured_queries:
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {statement['sql']}")
            print("```\n" + "\n".join(row[0] for row in cursor.fetchall()) + "\n```")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Build a 100,000-chunk table of varied text and time hybrid "
                                                 "retrieval with recall@5. Uses its own database.")
    parser.add_argument("--target-chunks", type=int, default=100_000, help="rows in the chunk table (default 100000)")
    parser.add_argument("--embedded", type=int, default=1000,
                        help="generated chunks embedded with the real model; the rest perturb them (default 1000)")
    parser.add_argument("--queries", type=int, default=300, help="timed queries, a seeded sample (default 300)")
    parser.add_argument("--warmup", type=int, default=10, help="untimed warm-up queries (default 10)")
    parser.add_argument("-k", type=int, default=5, help="hits per query (default 5, as the checker asks)")
    parser.add_argument("--clearance", default="internal", choices=["public", "internal", "confidential", "restricted"])
    parser.add_argument("--seed", type=int, default=7)
    database_arguments(parser, database="console_bench_search", redis_db=5)
    parser.add_argument("--search-only", action="store_true", help="time retrieval over the last run's table")
    parser.add_argument("--explain", metavar="QUERY", help="also print EXPLAIN ANALYZE of the full-text statements")
    args = parser.parse_args(argv)
    if args.queries < 100 or args.target_chunks < 1000:
        parser.error("--queries must be at least 100 and --target-chunks at least 1000")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        django_setup(database=args.database, redis_db=args.redis_db, fresh=args.fresh)
        from kb.embeddings import allow_local_model

        allow_local_model()  # embed in this process, as a worker would
        print_table("Machine", machine_facts())
        if not args.search_only:
            rows = table_build(target=args.target_chunks, embedded=args.embedded, seed=args.seed)
            print_table("Chunk table", rows)
        queries = known_queries(seed=args.seed, count=args.queries, clearance=args.clearance)
        progress(f"timing {len(queries)} retrieval queries ...")
        print_table("Retrieval", search_rows(queries, clearance=args.clearance, k=args.k, warmup=args.warmup))
        if args.explain:
            explain(args.explain, clearance=args.clearance, k=args.k)
    except BenchError as exc:
        print(f"search_bench: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
