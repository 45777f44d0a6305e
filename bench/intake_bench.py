"""Accepted answers per second on `POST /api/v1/answers`, and how fast scoring drains what was accepted.

A real gunicorn serves the console on a free local port against a database of the benchmark's own
(`console_bench_intake`, Redis database 6). A new API client is created each run; --requests answers (a
question, 2-5 sentences of the demo documents, an external_id, an Idempotency-Key on some) are posted from
--threads client threads, each with its own keep-alive httpx client. Intake needs no evidence, so no worker
runs during the burst: every accepted answer waits on the queue. Then (unless --no-score) the demo documents
are indexed and a real Celery worker scores the backlog for up to --score-seconds; answers scored per second
is the "scoring keeps pace" half of the figure.

Run: .venv/bin/python bench/intake_bench.py [--help]
"""

from __future__ import annotations

import argparse
import collections
import datetime
import os
import random
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness and check_bench, beside this file
from check_bench import (  # noqa: E402
    CLEARANCE,
    demo_import,
    demo_sentences,
    free_port,
    index_queue,
    index_wait,
    stale_tasks_discard,
    web_command,
    web_wait,
)
from harness import (  # noqa: E402
    BenchError,
    bench_run,
    bench_users,
    database_arguments,
    latency_row,
    load_average,
    print_table,
    progress,
    running,
    server_arguments,
    worker_command,
    worker_wait,
)

API_CLIENT_PREFIX = "intake-bench"
HTTP_TIMEOUT = 30.0


@dataclass(frozen=True)
class Submission:
    body: dict
    idempotency_key: str | None


def submissions(*, count: int, seed: int, idempotent_share: float) -> list[Submission]:
    """Realistic bodies: a question, an answer of 2-5 demo sentences, an external id; some with a key."""
    rng = random.Random(seed)
    sentences = demo_sentences()
    run = datetime.datetime.now().strftime("%Y%m%d%H%M%S")  # keys and ids unique across runs on one database
    result = []
    for number in range(count):
        picked = rng.sample(sentences, rng.randint(2, 5))
        question = f"What does the policy say about {picked[0].split()[1].lower()} {picked[0].split()[2].lower()}?"
        body = {"question": question, "answer": " ".join(picked), "external_id": f"chat-{run}-{number}"}
        key = f"intake-{run}-{number}" if rng.random() < idempotent_share else None
        result.append(Submission(body=body, idempotency_key=key))
    return result


@dataclass(frozen=True)
class Burst:
    seconds: list[float]  # latency of each request
    statuses: collections.Counter
    wall_seconds: float
    client_cpu_seconds: float  # this process: the 8 httpx clients share the machine with the server
    server_cpu_seconds: float  # the gunicorn workers: less sensitive to other load than answers/s


def cpu_seconds(pids: Sequence[int]) -> float:
    """User + system CPU time of these processes so far (all their threads)."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of proc(5))
    return ticks / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def burst_run(base_url: str, token: str, items: Sequence[Submission], *, threads: int, server_pids: Sequence[int]
              ) -> Burst:
    """Post every item from `threads` threads, each with its own keep-alive client."""
    local = threading.local()
    clients: list[httpx.Client] = []
    lock = threading.Lock()

    def client() -> httpx.Client:
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {token}"},
                                        timeout=HTTP_TIMEOUT)
            with lock:
                clients.append(local.client)
        return local.client

    def post(item: Submission) -> tuple[float, int]:
        headers = {"Idempotency-Key": item.idempotency_key} if item.idempotency_key else {}
        started = time.perf_counter()
        try:
            status = client().post("/api/v1/answers", json=item.body, headers=headers).status_code
        except httpx.TransportError:
            status = 0  # no HTTP answer at all
        return time.perf_counter() - started, status

    try:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            server_cpu, client_cpu = cpu_seconds(server_pids), time.process_time()
            started = time.perf_counter()
            results = list(pool.map(post, items))
            wall = time.perf_counter() - started
            server_cpu, client_cpu = cpu_seconds(server_pids) - server_cpu, time.process_time() - client_cpu
    finally:
        for each in clients:
            each.close()
    return Burst(seconds=[s for s, _ in results], statuses=collections.Counter(st for _, st in results),
                 wall_seconds=wall, client_cpu_seconds=client_cpu, server_cpu_seconds=server_cpu)


@dataclass(frozen=True)
class Drain:
    scored: int
    claims: int  # claims of the scored answers
    waiting: int
    span_seconds: float  # first to last scored_at


def score_drain(client_id: int, *, worker_concurrency: int, timeout: float) -> Drain:
    """Start a worker on the backlog; stop after `timeout` s or when nothing waits. Rate from the scored_at stamps
    (the first answer pays the model's loading)."""
    from django.db.models import Max, Min

    from review.models import Answer, AnswerStatus, Claim

    answers = Answer.objects.filter(client_id=client_id)
    with running(worker_command(worker_concurrency, name="intake-bench")) as worker:
        worker_wait(worker, timeout=60)
        deadline = time.monotonic() + timeout
        while answers.filter(status=AnswerStatus.SCORING).exists() and time.monotonic() < deadline:
            if worker.poll() is not None:
                raise BenchError(f"the Celery worker exited with code {worker.returncode}")
            time.sleep(1.0)
    stale_tasks_discard()  # what is left (and what the stopped worker handed back) is not for the next run
    scored = answers.filter(scored_at__isnull=False)
    stamps = scored.aggregate(first=Min("scored_at"), last=Max("scored_at"))
    span = (stamps["last"] - stamps["first"]).total_seconds() if stamps["first"] else 0.0
    return Drain(scored=scored.count(), claims=Claim.objects.filter(answer__in=scored).count(),
                 waiting=answers.filter(status=AnswerStatus.SCORING).count(), span_seconds=span)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Accepted answers/s and latency of POST /api/v1/answers through gunicorn, then answers "
                    "scored/s by a Celery worker. Uses its own database; see docs/performance.md.",
    )
    parser.add_argument("--requests", type=int, default=2000, help="answers posted (default 2000)")
    parser.add_argument("--threads", type=int, default=8, help="client threads (default 8)")
    parser.add_argument("--warmup", type=int, default=40, help="untimed answers posted first (default 40)")
    parser.add_argument("--idempotent-share", type=float, default=0.3,
                        help="share of answers sent with an Idempotency-Key (default 0.3)")
    parser.add_argument("--no-score", action="store_true", help="skip the scoring half (no worker, no index)")
    parser.add_argument("--score-seconds", type=float, default=90.0,
                        help="how long the worker scores the backlog at most (default 90)")
    parser.add_argument("--seed", type=int, default=11, help="seed of the answers (default 11)")
    server_arguments(parser)
    database_arguments(parser, database="console_bench_intake", redis_db=6)
    args = parser.parse_args(argv)
    if args.requests < 100 or args.threads < 1 or args.warmup < 0 or not 0 <= args.idempotent_share <= 1:
        parser.error("--requests at least 100, --threads positive, --warmup not negative, share within 0..1")
    return args


def benchmark(args: argparse.Namespace) -> None:
    from review.services import api_client_create

    stale_tasks_discard()
    version_ids: list[int] = []
    chunks = 0
    if not args.no_score:
        curator, approver = bench_users()
        version_ids = demo_import(curator=curator, approver=approver)
        progress("indexing the demo documents for the scoring half ...")
        with running(worker_command(args.worker_concurrency, name="intake-bench-index")) as worker:
            worker_wait(worker, timeout=60)
            index_queue(version_ids)
            chunks = index_wait(version_ids, timeout=300)
    # Answers keep their client (on_delete=PROTECT): each run has a client, and so a backlog, of its own.
    client, token = api_client_create(name=f"{API_CLIENT_PREFIX}-{time.time_ns()}", clearance=CLEARANCE)
    items = submissions(count=args.warmup + args.requests, seed=args.seed, idempotent_share=args.idempotent_share)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    progress(f"starting gunicorn on {base_url} ...")
    with running(web_command(port, workers=args.web_workers, threads=args.web_threads),
                 {"ALLOWED_HOSTS": "127.0.0.1"}) as web:
        web_wait(web, base_url, timeout=60)
        server_pids = children(web.pid)  # the gunicorn workers (the arbiter only watches them)
        burst_run(base_url, token, items[: args.warmup], threads=args.threads, server_pids=server_pids)
        load_before = load_average()
        progress(f"posting {args.requests} answers from {args.threads} threads ...")
        burst = burst_run(base_url, token, items[args.warmup:], threads=args.threads, server_pids=server_pids)
        load_after = load_average()
    drain = None
    if not args.no_score:
        progress(f"scoring the backlog for up to {args.score_seconds:.0f} s ...")
        drain = score_drain(client.pk, worker_concurrency=args.worker_concurrency, timeout=args.score_seconds)
    print_table("POST /api/v1/answers", result_rows(args, burst=burst, drain=drain, documents=len(version_ids),
                                                    chunks=chunks, load_before=load_before, load_after=load_after))


def result_rows(args: argparse.Namespace, *, burst: Burst, drain: Drain | None, documents: int, chunks: int,
                load_before: str, load_after: str) -> list[tuple[str, str]]:
    accepted = burst.statuses.get(202, 0)
    errors = {status: n for status, n in sorted(burst.statuses.items()) if status != 202}
    rows = [
        ("serving", f"gunicorn {args.web_workers} workers × {args.web_threads} threads (gthread), same box"),
        ("client", f"{args.threads} threads, one keep-alive httpx client each; {args.requests} answers of 2-5 "
                   f"demo sentences, {args.idempotent_share:.0%} with an Idempotency-Key (seed {args.seed})"),
        ("accepted", f"**{accepted / burst.wall_seconds:.0f} answers/s** ({accepted} in {burst.wall_seconds:.1f} s)"),
        latency_row("latency", burst.seconds),
        ("CPU per request", f"gunicorn workers {burst.server_cpu_seconds / len(burst.seconds) * 1000:.2f} ms, "
                            f"bench client {burst.client_cpu_seconds / len(burst.seconds) * 1000:.2f} ms "
                            "(PostgreSQL and Redis not counted)"),
        ("errors by status", ", ".join(f"{status or 'no answer'}: {n}" for status, n in errors.items()) or "none"),
        ("load average before / after the burst", f"{load_before} / {load_after}"),
    ]
    if drain is not None:
        per_second = 1 / drain.span_seconds if drain.span_seconds > 0 else 0.0
        rate = (drain.scored - 1) * per_second
        claims_rate = drain.claims * (drain.scored - 1) / max(drain.scored, 1) * per_second
        rows += [
            ("knowledge base", f"{documents} demo documents, {chunks} chunks"),
            ("scoring", f"**{rate:.1f} answers/s, {claims_rate:.1f} claims/s** (celery prefork, "
                        f"concurrency {args.worker_concurrency}; "
                        f"{drain.scored} scored in {drain.span_seconds:.1f} s from first to last, "
                        f"{drain.waiting} still waiting after {args.score_seconds:.0f} s)"),
            ("load average at end", load_average()),
        ]
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    os.environ["REVIEW_CHECKERS"] = "builtin"  # the scoring half is of the built-in checker
    return bench_run(name="intake_bench", database=args.database, redis_db=args.redis_db, fresh=args.fresh,
                     body=lambda: benchmark(args))


if __name__ == "__main__":
    sys.exit(main())
