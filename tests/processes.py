"""Helpers for tests that run the console's real processes (run_console, celery, gunicorn) as subprocesses
on the test database and a Redis database of the test's own."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def database_url() -> str:
    """The test database (pytest-django's test_console), as a URL a subprocess can be given."""
    from django.db import connection

    config = connection.settings_dict
    credentials = quote(config["USER"] or "")
    if config["PASSWORD"]:
        credentials += ":" + quote(config["PASSWORD"])
    host, port = config["HOST"] or "", config["PORT"] or ""
    if host.startswith("/"):  # a Unix socket directory
        return f"postgresql://{credentials}@/{config['NAME']}?host={quote(host)}"
    return f"postgresql://{credentials}@{host}:{port or 5432}/{config['NAME']}"


def own_redis_url(db: int) -> str:
    """A database of the test Redis that no other test's worker consumes from, emptied first."""
    import redis
    from django.conf import settings

    url = settings.REDIS_URL.rsplit("/", 1)[0] + f"/{db}"
    redis.Redis.from_url(url).flushdb()
    return url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process_environment(*, redis_url: str, var_dir: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(DATABASE_URL=database_url(), REDIS_URL=redis_url, CONSOLE_VAR_DIR=str(var_dir),
               ALLOWED_HOSTS="127.0.0.1,localhost", **extra)
    return env


def start(command: list[str], *, env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("ab") as output:
        return subprocess.Popen(command, env=env, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT,
                                start_new_session=True)


def stop(process: subprocess.Popen, *, grace: float = 30.0) -> None:
    """SIGTERM, then SIGKILL the whole process group of what is left."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=grace)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def worker_heartbeats(redis_url: str) -> dict[str, int]:
    """{worker name: pid of its main process} from the workers' own heartbeat keys."""
    import redis

    from console.workers import HEARTBEAT_PREFIX

    client = redis.Redis.from_url(redis_url)
    beats = {}
    for key in client.scan_iter(match=HEARTBEAT_PREFIX + "*"):
        value = client.get(key)
        if value is not None:
            beats[key.decode().removeprefix(HEARTBEAT_PREFIX)] = json.loads(value)["pid"]
    return beats


def wait_until(condition: Callable[[], object], *, timeout: float, what: str | Callable[[], str],
               log: Path | None = None):
    """The condition's first truthy result; AssertionError naming `what` (and the log's tail) after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.2)
    tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
    raise AssertionError(f"timed out after {timeout}s waiting for {what() if callable(what) else what}\n{tail}")
