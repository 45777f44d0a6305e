"""Claims per second and latency of `POST /api/v1/check` over the real path.

The demo documents (kb/demo/*.md) are imported with `kb_import` and indexed by a
real Celery worker (`celery -A config worker`, a subprocess) into a database of
the benchmark's own (`console_bench_check`, Redis database 3). A real gunicorn
serves the console on a free local port; each request goes HTTP -> Django ->
Redis -> worker (claim split, hybrid retrieval, built-in checker) -> Redis ->
Django -> HTTP. Answers have 5 claims each (--claims): sentences of the demo documents,
some with one number changed, so both supported and contradicted claims are
scored. After a warm-up, every concurrency level sends --requests requests. Then, with the servers stopped,
the same answers are checked in this process (the check without its round trip) and the raw model embeds each
answer's claims (the least a check that embeds its claims can cost).

Run: .venv/bin/python bench/check_bench.py [--help]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness, beside this file
from harness import (  # noqa: E402
    BIN_DIR,
    PROJECT_DIR,
    BenchError,
    bench_run,
    bench_users,
    database_arguments,
    latency_row,
    load_average,
    percentile,
    print_table,
    progress,
    running,
    server_arguments,
    worker_command,
    worker_wait,
)

if TYPE_CHECKING:
    from console.models import User
    from review.models import ApiClient

DEMO_DIR = PROJECT_DIR / "kb" / "demo"
API_CLIENT_NAME = "check-bench"
CLEARANCE = "internal"  # kb_import's default security level for the demo documents
HTTP_TIMEOUT = 60.0  # above API_CHECK_TIMEOUT (30 s): the server answers 503 before the client gives up
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


# Knowledge base ---------------------------------------------------------------------------------------------


def demo_import(*, curator: User, approver: User) -> list[int]:
    """Import and approve each demo document once, as an operator would; the ids of their versions."""
    from django.core.management import call_command

    from kb.models import Document, DocumentVersion

    paths = sorted(DEMO_DIR.glob("*.md"))
    for path in paths:
        if not Document.objects.filter(key=path.stem).exists():
            call_command("kb_import", str(path), "--owner", curator.username, "--approve-as", approver.username,
                         stdout=io.StringIO())
    return list(DocumentVersion.objects.filter(document__key__in=[p.stem for p in paths]).values_list("pk", flat=True))


def stale_tasks_discard() -> None:
    """Tasks an interrupted earlier run left on the bench Redis must not run during the timing."""
    from config.celery import app

    app.control.purge()


def index_queue(version_ids: Sequence[int]) -> None:
    """Queue every version not yet indexed for the worker; a task for a claimed version is a no-op."""
    from kb import services
    from kb.models import DocumentVersion, IndexState
    from kb.tasks import version_index

    for version in DocumentVersion.objects.filter(pk__in=version_ids).exclude(index_state=IndexState.READY):
        if version.index_state == IndexState.QUEUED:
            version_index.delay(version.pk)
        else:  # failed, or stuck in "indexing" by a worker an earlier run stopped
            services.version_index_retry(version=version, user=None)


def index_wait(version_ids: Sequence[int], *, timeout: float) -> int:
    """Wait until the worker has indexed every version; the number of chunks."""
    from kb.models import Chunk, DocumentVersion, IndexState

    deadline = time.monotonic() + timeout
    versions = DocumentVersion.objects.filter(pk__in=version_ids)
    while versions.exclude(index_state=IndexState.READY).exists():
        failed = versions.filter(index_state=IndexState.FAILED).first()
        if failed is not None:
            raise BenchError(f"the worker could not index {failed}: {failed.index_error}")
        if time.monotonic() > deadline:
            raise BenchError(f"the demo documents were not indexed within {timeout:.0f} s")
        time.sleep(0.5)
    return Chunk.objects.filter(version_id__in=version_ids).count()


# Answers ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchAnswer:
    text: str
    swapped: tuple[bool, ...]  # per claim: True when one of its numbers was changed


def demo_sentences() -> list[str]:
    """Prose sentences of the demo documents that the claim splitter keeps whole, as one claim each."""
    from checking.claims import split_claims

    sentences = []
    for path in sorted(DEMO_DIR.glob("*.md")):
        for claim in split_claims(path.read_text()):
            text = " ".join(claim.text.split())  # Markdown wraps paragraphs; an answer is one line
            if (text[:1].isupper() and text.endswith(".") and "|" not in text and 40 <= len(text) <= 300
                    and len(split_claims(text)) == 1):
                sentences.append(text)
    return sentences


def number_swapped(sentence: str, rng: random.Random) -> str | None:
    """The sentence with the last digit of one of its numbers changed ("14 days" -> "17 days"), if it has one."""
    numbers = list(_NUMBER.finditer(sentence))
    if not numbers:
        return None
    end = rng.choice(numbers).end()
    digit = (int(sentence[end - 1]) + rng.randint(1, 9)) % 10
    return f"{sentence[: end - 1]}{digit}{sentence[end:]}"


def bench_answers(*, count: int, seed: int, swap_rate: float, claims: tuple[int, int] = (5, 5)) -> list[BenchAnswer]:
    """`count` answers of `claims` (fewest, most) claims each (counted with the splitter the worker uses)."""
    from checking.claims import split_claims

    rng = random.Random(seed)
    sentences = demo_sentences()
    answers: list[BenchAnswer] = []
    for _ in range(count * 20):
        if len(answers) == count:
            return answers
        chosen, swapped = [], []
        size = claims[0] if claims[0] == claims[1] else rng.randint(*claims)  # a fixed size draws nothing: same answers
        for sentence in rng.sample(sentences, size):
            changed = number_swapped(sentence, rng) if rng.random() < swap_rate else None
            chosen.append(changed or sentence)
            swapped.append(changed is not None)
        text = " ".join(chosen)
        if len(split_claims(text)) == len(chosen):
            answers.append(BenchAnswer(text=text, swapped=tuple(swapped)))
    raise BenchError(f"could not build {count} answers of {claims} claims from {len(sentences)} demo sentences")


# Processes --------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def web_command(port: int, *, workers: int, threads: int) -> list[str]:
    return [str(BIN_DIR / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
            "--threads", str(threads), "--log-level", "warning"]


def web_wait(web: subprocess.Popen, base_url: str, *, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            httpx.get(f"{base_url}/healthz", timeout=2.0)  # any answer will do: the worker heartbeat may be old
            return
        except httpx.TransportError:
            if web.poll() is not None:
                raise BenchError(f"gunicorn exited with code {web.returncode}") from None
            if time.monotonic() > deadline:
                raise BenchError(f"gunicorn did not answer within {timeout:.0f} s") from None
            time.sleep(0.2)


# Load -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    seconds: float
    verdicts: tuple[str, ...]


@dataclass(frozen=True)
class LevelResult:
    concurrency: int
    results: list[CheckResult]
    wall_seconds: float


def check_post(client: httpx.Client, answer: BenchAnswer) -> CheckResult:
    started = time.perf_counter()
    response = client.post("/api/v1/check", json={"answer": answer.text})
    seconds = time.perf_counter() - started
    if response.status_code != 200:
        raise BenchError(f"POST /api/v1/check answered {response.status_code}: {response.text[:300]}")
    verdicts = tuple(claim["verdict"] for claim in response.json()["claims"])
    if len(verdicts) != len(answer.swapped):
        raise BenchError(f"expected {len(answer.swapped)} claims, the check found {len(verdicts)} in {answer.text!r}")
    return CheckResult(seconds=seconds, verdicts=verdicts)


def level_run(client: httpx.Client, answers: Sequence[BenchAnswer], *, concurrency: int) -> LevelResult:
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        started = time.perf_counter()
        results = list(pool.map(lambda answer: check_post(client, answer), answers))
        return LevelResult(concurrency=concurrency, results=results, wall_seconds=time.perf_counter() - started)


def level_rows(level: LevelResult) -> list[tuple[str, str]]:
    count = len(level.results)
    claims = sum(len(result.verdicts) for result in level.results)
    return [
        latency_row(f"concurrency {level.concurrency}: latency", [r.seconds for r in level.results]),
        (f"concurrency {level.concurrency}: throughput",
         f"**{claims / level.wall_seconds:.1f} claims/s**, {count / level.wall_seconds:.2f} requests/s "
         f"({count} requests in {level.wall_seconds:.1f} s)"),
    ]


def verdict_row(answers: Sequence[BenchAnswer], level: LevelResult) -> tuple[str, str]:
    """A sanity check that the real checker ran: verbatim claims pass, changed numbers do not."""
    verbatim_supported = verbatim = swapped_caught = swapped = 0
    for answer, result in zip(answers, level.results, strict=True):
        for was_swapped, verdict in zip(answer.swapped, result.verdicts, strict=True):
            if was_swapped:
                swapped += 1
                swapped_caught += verdict != "supported"
            else:
                verbatim += 1
                verbatim_supported += verdict == "supported"
    return ("verdicts (sanity)", f"verbatim claims supported {verbatim_supported}/{verbatim}; "
                                 f"number-swapped claims not supported {swapped_caught}/{swapped}")


# Command line -----------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Claims/s and p50/p95 latency of POST /api/v1/check (5-claim answers, built-in checker) "
                    "through gunicorn, Redis and a Celery worker. Uses its own database; see docs/performance.md.",
    )
    parser.add_argument("--requests", type=int, default=50,
                        help="timed requests per concurrency level, at least 50 (default 50)")
    parser.add_argument("--concurrency", default="1,2",
                        help="comma-separated client concurrency levels, each timed separately; above the worker "
                             "concurrency requests queue and may hit API_CHECK_TIMEOUT (default 1,2)")
    parser.add_argument("--warmup", type=int, default=4, help="untimed warm-up requests (default 4)")
    parser.add_argument("--claims", default="5",
                        help="claims per answer, N or LO-HI for a random count each (default 5; 1-3 for the short "
                             "answers an assistant mostly sends)")
    parser.add_argument("--swap-rate", type=float, default=0.5,
                        help="chance that a claim with a number gets one of them changed (default 0.5)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the answers (default 7)")
    server_arguments(parser)
    database_arguments(parser, database="console_bench_check", redis_db=3)
    parser.add_argument("--text-cache", action="store_true",
                        help="let the worker keep the vectors of texts it has embedded (REVIEW_TEXT_CACHE_SIZE); off "
                             "by default: the timed answers reuse demo sentences, and every level sends the same "
                             "answers, so a warm cache would time checks that embed nothing")
    args = parser.parse_args(argv)
    try:
        args.levels = [int(level) for level in args.concurrency.split(",")]
    except ValueError:
        parser.error("--concurrency takes comma-separated integers, e.g. 1,2")
    try:
        low, _, high = args.claims.partition("-")
        args.claims = (int(low), int(high or low))
    except ValueError:
        parser.error("--claims takes N or LO-HI, e.g. 5 or 1-3")
    if not 1 <= args.claims[0] <= args.claims[1]:
        parser.error("--claims must be at least 1, LO not above HI")
    if args.requests < 50:
        parser.error("--requests must be at least 50 for a meaningful p95")
    if min(args.levels) < 1 or args.warmup < 0 or not 0 <= args.swap_rate <= 1:
        parser.error("concurrency levels must be positive, --warmup not negative, --swap-rate within 0..1")
    return args


def bench_client_token() -> tuple[ApiClient, str]:
    """A new API client each run: the last run's token was printed nowhere and is gone (names are unique)."""
    from review.models import ApiClient
    from review.services import api_client_create

    ApiClient.objects.filter(name=API_CLIENT_NAME).delete()  # /api/v1/check stores no answers that would protect it
    return api_client_create(name=API_CLIENT_NAME, clearance=CLEARANCE)


def benchmark(args: argparse.Namespace) -> None:
    curator, approver = bench_users()
    version_ids = demo_import(curator=curator, approver=approver)
    stale_tasks_discard()
    _, token = bench_client_token()
    answers = bench_answers(count=args.requests, seed=args.seed, swap_rate=args.swap_rate, claims=args.claims)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"

    progress(f"starting a Celery worker and gunicorn on {base_url} ...")
    worker_env = {} if args.text_cache else {"REVIEW_TEXT_CACHE_SIZE": "0"}
    with (running(worker_command(args.worker_concurrency, name="check-bench"), worker_env) as worker,
          running(web_command(port, workers=args.web_workers, threads=args.web_threads),
                  {"ALLOWED_HOSTS": "127.0.0.1"}) as web,
          httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {token}"},
                       timeout=HTTP_TIMEOUT) as client):
        worker_wait(worker, timeout=60)
        index_queue(version_ids)
        chunks = index_wait(version_ids, timeout=300)
        web_wait(web, base_url, timeout=60)
        progress(f"warming up with {args.warmup} requests ...")
        # Spread over the worker processes: each loads the embedding model on its first task.
        level_run(client, answers[: args.warmup], concurrency=args.worker_concurrency)
        levels = []
        for concurrency in args.levels:
            progress(f"timing {len(answers)} requests at concurrency {concurrency} ...")
            levels.append(level_run(client, answers, concurrency=concurrency))

    # With the worker and gunicorn stopped, the same answers in this process: the check alone, and the model alone.
    progress("timing the same answers in-process (no HTTP, no Redis) and the model on their claims ...")
    in_process = in_process_run(answers, text_cache=args.text_cache)
    print_table("POST /api/v1/check", result_rows(args, documents=len(version_ids), chunks=chunks, answers=answers,
                                                  levels=levels, in_process=in_process))


@dataclass(frozen=True)
class InProcess:
    check_seconds: list[float]  # review.pipeline.answer_check per answer, warm
    model_seconds: list[float]  # the embedding model alone on each answer's claims
    embedded_texts: int  # texts the checks sent to the model, all answers


def in_process_run(answers: Sequence[BenchAnswer], *, text_cache: bool) -> InProcess:
    """The check without the round trip (what the worker does for one request, with its text cache on or off as
    the worker had it), and the raw model on the claims (the least any check that embeds its claims can cost)."""
    from django.conf import settings

    from kb import embeddings
    from kb.embeddings import Role, allow_local_model, get_provider
    from checking.claims import split_claims
    from review.pipeline import answer_check

    allow_local_model()
    if not text_cache:
        settings.REVIEW_TEXT_CACHE_SIZE = 0
    provider = get_provider()
    sent: list[int] = []
    embed = embeddings.embed_texts

    def counting(texts: list[str], *, role: Role, language: str) -> list[list[float]]:
        sent.append(len(texts))
        return embed(texts, role=role, language=language)

    for answer in answers[:4]:  # warm: model loaded, claims of the timed answers not yet cached
        answer_check(question="", answer_text=answer.text, clearance=CLEARANCE)
    claims = [[span.text for span in split_claims(answer.text)] for answer in answers]
    model_seconds = []
    for texts in claims:
        started = time.perf_counter()
        provider.embed(texts, role=Role.QUERY)
        model_seconds.append(time.perf_counter() - started)
    from kb import vectors

    vectors.recent_vectors_forget()  # every timed check embeds its claims, as a new answer would
    vectors.embed_texts = counting
    try:
        check_seconds = []
        for answer in answers:
            started = time.perf_counter()
            answer_check(question="", answer_text=answer.text, clearance=CLEARANCE)
            check_seconds.append(time.perf_counter() - started)
    finally:
        vectors.embed_texts = embed
    return InProcess(check_seconds=check_seconds, model_seconds=model_seconds, embedded_texts=sum(sent))


def in_process_rows(levels: Sequence[LevelResult], in_process: InProcess, answers: int) -> list[tuple[str, str]]:
    http_p50 = percentile([r.seconds for r in levels[0].results], 50)
    check_p50 = percentile(in_process.check_seconds, 50)
    return [
        latency_row("in-process check (no HTTP/Redis)", in_process.check_seconds),
        latency_row("raw model on the answer's claims", in_process.model_seconds),
        ("texts embedded per answer (in-process)", f"{in_process.embedded_texts / answers:.1f}"),
        (f"round trip share at concurrency {levels[0].concurrency}",
         f"{http_p50 - check_p50:.3f} s of p50 {http_p50:.3f} s ({(http_p50 - check_p50) / http_p50:.0%}): HTTP, "
         "gunicorn, Redis both ways, the worker picking the task up"),
    ]


def result_rows(args: argparse.Namespace, *, documents: int, chunks: int, answers: Sequence[BenchAnswer],
                levels: Sequence[LevelResult], in_process: InProcess) -> list[tuple[str, str]]:
    from django.conf import settings

    swapped = sum(sum(answer.swapped) for answer in answers)
    return [
        ("knowledge base", f"{documents} demo documents (kb/demo), {chunks} chunks, clearance {CLEARANCE!r}"),
        ("answers", f"{len(answers)} × {'–'.join(dict.fromkeys(map(str, args.claims)))} claims from demo sentences, "
                    f"{swapped} of {sum(len(a.swapped) for a in answers)} claims with a number changed "
                    f"(seed {args.seed})"),
        ("serving", f"gunicorn {args.web_workers} workers × {args.web_threads} threads; celery prefork worker, "
                    f"concurrency {args.worker_concurrency}; checkers: builtin; worker text cache "
                    f"{'on' if args.text_cache else 'off (every check embeds its claims and windows)'}"),
        ("torch threads per worker process", f"{settings.KB_EMBEDDING_THREADS} (KB_EMBEDDING_THREADS)"),
        *[row for level in levels for row in level_rows(level)],
        verdict_row(answers, levels[0]),  # the same answers at every level
        *in_process_rows(levels, in_process, len(answers)),
        ("load average at end", load_average()),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    os.environ["REVIEW_CHECKERS"] = "builtin"  # the benchmark is of the built-in checker, whatever the shell says
    return bench_run(name="check_bench", database=args.database, redis_db=args.redis_db, fresh=args.fresh,
                     body=lambda: benchmark(args))


if __name__ == "__main__":
    sys.exit(main())
