"""What every benchmark here shares: its own database and Redis, Django set up against them, the report's
tables and the child processes (gunicorn, Celery) it starts and stops."""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))  # run as a script from any directory

# Django and project imports live inside functions: settings must see the bench DATABASE_URL first.
if TYPE_CHECKING:
    from console.models import User
BIN_DIR = Path(sys.executable).parent
BENCH_SECRET_KEY = "bench-only-secret-key-for-a-throwaway-database-0123456789"


class BenchError(RuntimeError):
    """The benchmark could not produce an honest number (and exits non-zero)."""


# Bench database and environment ---------------------------------------


def bench_database_url(name: str, *, fresh: bool) -> str:
    """URL of database `name` on the configured (or embedded) server, created if missing; --fresh recreates it."""
    import psycopg
    from psycopg import sql

    from front import embedded

    if "bench" not in name:  # it is emptied and dropped freely: never the console's or the tests' database
        raise BenchError(f"refusing database {name!r}: a bench database's name contains 'bench'")
    base_url = os.environ.get("DATABASE_URL") or embedded.ensure_postgres()
    bench_url = urlparse(base_url)._replace(path=f"/{name}").geturl()
    with psycopg.connect(base_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None
        if exists and fresh:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        if fresh or not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return bench_url


def bench_redis_url(db: int) -> str:
    """A Redis database of the benchmark's own, so no console or test worker ever takes its tasks."""
    from front import embedded

    configured = os.environ.get("REDIS_URL")
    return urlparse(configured)._replace(path=f"/{db}").geturl() if configured else embedded.start_redis(db=db)


def django_setup(*, database: str, redis_db: int, fresh: bool) -> None:
    """Point settings at the bench database and Redis, set Django up and migrate."""
    os.environ["DATABASE_URL"] = bench_database_url(database, fresh=fresh)
    os.environ["REDIS_URL"] = bench_redis_url(redis_db)
    os.environ.setdefault("SECRET_KEY", BENCH_SECRET_KEY)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)


def database_arguments(parser: argparse.ArgumentParser, *, database: str, redis_db: int) -> None:
    """--database, --redis-db and --fresh: where a benchmark keeps its data (never the console's or the tests')."""
    parser.add_argument("--database", default=database, help=f"bench database name (default {database})")
    parser.add_argument("--redis-db", type=int, default=redis_db,
                        help=f"bench Redis database number (default {redis_db})")
    parser.add_argument("--fresh", action="store_true", help="drop and recreate the bench database first")


def server_arguments(parser: argparse.ArgumentParser) -> None:
    """The Celery worker and gunicorn a benchmark starts."""
    parser.add_argument("--worker-concurrency", type=int, default=2, help="Celery worker processes (default 2)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn worker processes (default 2)")
    parser.add_argument("--web-threads", type=int, default=4, help="threads per gunicorn worker (default 4)")


def bench_run(*, name: str, database: str, redis_db: int, fresh: bool, body: Callable[[], None]) -> int:
    """A benchmark's whole run: Django on its own database, the machine's facts, then `body`; exit code 1 with
    the reason when it could not produce an honest number."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the `finally` blocks that stop the children
    try:
        django_setup(database=database, redis_db=redis_db, fresh=fresh)
        print_table("Machine", machine_facts())
        body()
    except BenchError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    return 0


def bench_users() -> tuple[User, User]:
    """(curator, approver): four-eyes approval needs two people."""
    from django.contrib.auth.models import Group

    from console import roles
    from console.models import SecurityLevel, User

    def user_with_role(username: str, role: str) -> User:
        user, _ = User.objects.get_or_create(username=username, defaults={"clearance": SecurityLevel.RESTRICTED})
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        return user

    return user_with_role("bench-curator", roles.CURATOR), user_with_role("bench-approver", roles.APPROVER)


def machine_facts() -> list[tuple[str, str]]:
    """What the numbers were measured on: printed with every result."""
    from django.db import connection

    cpu_model = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")),
        platform.processor() or "unknown",
    )
    mem_kib = int(Path("/proc/meminfo").read_text().split()[1])
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        postgres = cursor.fetchone()[0]
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        pgvector = cursor.fetchone()[0]
    return [
        ("date", datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")),
        ("cpus (nproc)", str(len(os.sched_getaffinity(0)))),
        ("cpu model", cpu_model),
        ("memory", f"{mem_kib / 1024 / 1024:.1f} GiB"),
        ("load average at start", load_average()),
        ("python", platform.python_version()),
        ("postgresql / pgvector", f"{postgres} / {pgvector}"),
    ]


def load_average() -> str:
    """1, 5 and 15 minute load: other work on the machine shows up here, and in the numbers."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def percentile(values: Sequence[float], pct: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[pct - 1]


def duration(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"


def latency_row(label: str, seconds: Sequence[float]) -> tuple[str, str]:
    return label, (f"p50 {duration(percentile(seconds, 50))}, p95 {duration(percentile(seconds, 95))}, "
                   f"mean {duration(statistics.fmean(seconds))}, max {duration(max(seconds))} (n={len(seconds)})")


def print_table(title: str, rows: Sequence[tuple[str, str]]) -> None:
    """A Markdown table, so results paste straight into docs/performance.md."""
    width = max(len(name) for name, _ in rows)
    print(f"\n### {title}\n")
    print(f"| {'':<{width}} | result |\n|{'-' * (width + 2)}|---|")
    for name, value in rows:
        print(f"| {name:<{width}} | {value} |")


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# Processes the benchmarks start --------------------------------------------


def process_start(command: list[str], extra_env: dict[str, str] | None = None) -> subprocess.Popen:
    """A child in its own process group (gunicorn and celery fork), with the bench DATABASE_URL / REDIS_URL."""
    return subprocess.Popen(command, cwd=PROJECT_DIR, env={**os.environ, **(extra_env or {})},
                            start_new_session=True)


def process_stop(child: subprocess.Popen, *, grace: float = 15.0) -> None:
    """SIGTERM the leader (celery and gunicorn then stop their own children), SIGKILL the group after `grace` s."""
    child.terminate()
    with suppress(subprocess.TimeoutExpired):
        child.wait(timeout=grace)
    with suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)  # whatever of the group outlived the grace period
    child.wait()


@contextmanager
def running(command: list[str], extra_env: dict[str, str] | None = None) -> Iterator[subprocess.Popen]:
    child = process_start(command, extra_env)
    try:
        yield child
    finally:
        process_stop(child)


def worker_command(concurrency: int, *, name: str) -> list[str]:
    return [str(BIN_DIR / "celery"), "-A", "config", "--quiet", "worker", "--loglevel", "WARNING",
            "--concurrency", str(concurrency), "--hostname", f"{name}-{os.getpid()}@%h"]


def worker_wait(worker: subprocess.Popen, *, timeout: float) -> None:
    from config.celery import app

    deadline = time.monotonic() + timeout
    while not app.control.ping(timeout=1.0):
        if worker.poll() is not None:
            raise BenchError(f"the Celery worker exited with code {worker.returncode}")
        if time.monotonic() > deadline:
            raise BenchError(f"the Celery worker did not answer a ping within {timeout:.0f} s")
