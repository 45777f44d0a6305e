"""The embedded PostgreSQL is killed (SIGKILL) while two API clients send answers: they only ever see 202 or
the API's JSON 503 with Retry-After, `run_console` starts the server again by itself on the same data, every
accepted answer is scored, and nothing is stored twice. Then, with the server started again by a management
command behind `run_console`'s back, stopping `run_console` stops it too. The same load with the web (gunicorn)
master killed instead: `run_console` restarts it, clients meet refused connections for that moment and nothing
else, and every accepted answer is scored.

`run_console` runs here as `make run` runs it: its own PostgreSQL and Redis under a var/ of the test's own."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import psutil
import pytest

from tests.faults.conftest import STACK_ENVIRONMENT
from tests.processes import ROOT, free_port, start, stop, wait_until

ANSWERS_PER_CLIENT = 6
POSTGRES_BACK_WITHIN = 30  # seconds from the kill: the promise
SCORED_WITHIN = 90  # seconds from the server being back


def _postgres_pid(pgdata) -> int | None:
    try:
        pid = int((pgdata / "postmaster.pid").read_text().splitlines()[0])
        return pid if str(pgdata) in psutil.Process(pid).cmdline() else None
    except (FileNotFoundError, IndexError, ValueError, psutil.NoSuchProcess):
        return None


class Client(threading.Thread):
    """A RAG application sending answers one after another, each with its own Idempotency-Key and sent again
    (after Retry-After, shortened here) until it is accepted. Halfway it waits for ``resume``: the test injects its
    fault then, so the second half is sent into the outage however fast the first half went (on a quick machine
    all twelve answers were once accepted before the kill, and no request met the outage)."""

    def __init__(self, *, base_url: str, token: str, name: str) -> None:
        super().__init__(daemon=True)
        self.http = httpx.Client(base_url=base_url, timeout=60, headers={"Authorization": f"Bearer {token}"})
        self.name_prefix = name
        self.responses: list[tuple[int, str, dict, str]] = []  # status, content type, JSON body, Retry-After
        self.accepted: dict[str, int] = {}  # Idempotency-Key -> answer id
        self.halfway, self.resume = threading.Event(), threading.Event()

    def run(self) -> None:
        for number in range(ANSWERS_PER_CLIENT):
            if number == ANSWERS_PER_CLIENT // 2:
                self.halfway.set()
                self.resume.wait(timeout=120)
            key = f"{self.name_prefix}-{number}"
            while key not in self.accepted:
                try:
                    response = self.http.post("/api/v1/answers", headers={"Idempotency-Key": key}, json={
                        "question": "How long is annual leave?",
                        "answer": f"Annual leave is {20 + number} days a year."})
                except httpx.TransportError:  # nothing listening: the web process is being restarted
                    self.responses.append((0, "", {}, ""))
                    time.sleep(0.5)
                    continue
                self.responses.append((response.status_code, response.headers.get("Content-Type", ""),
                                       _json(response), response.headers.get("Retry-After", "")))
                if response.status_code == 202:
                    self.accepted[key] = response.json()["id"]
                else:
                    time.sleep(0.5)


def _json(response: httpx.Response) -> dict:
    try:
        return response.json()
    except ValueError:
        return {"not json": response.text[:200]}


@pytest.fixture
def console():
    """`run_console` on embedded servers of its own; (base URL, environment, var dir, process, log)."""
    # Not under pytest's temporary directory: PostgreSQL runs as another user when the tests run as root, and
    # every pytest session makes /tmp/pytest-of-root private to its owner again.
    (ROOT / "var").mkdir(exist_ok=True)
    directory = Path(tempfile.mkdtemp(prefix="fault-postgres-", dir=ROOT / "var"))
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(STACK_ENVIRONMENT, CONSOLE_VAR_DIR=str(directory / "var"), WORKER_HEARTBEAT_MAX_AGE="6")
    port = free_port()
    log = directory / "run_console.log"
    process = start([sys.executable, str(ROOT / "manage.py"), "run_console", "--no-demo", "--port", str(port)],
                    env=env, log=log)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _healthz(base_url).get("status") == "ok", timeout=180, what="the console to start",
                   log=log)
        yield base_url, env, directory / "var", process, log
    finally:
        stop(process)
        pid = _postgres_pid((directory / "var" / "pgdata").resolve())
        if pid is not None:  # the test failed before run_console stopped it
            os.kill(pid, signal.SIGINT)
        shutil.rmtree(directory, ignore_errors=True)


def _healthz(base_url: str) -> dict:
    try:
        return httpx.get(f"{base_url}/healthz", timeout=5).json()
    except (httpx.HTTPError, ValueError):
        return {}


def _wait_every_answer_scored(*, base_url: str, token: str, answer_ids, log) -> None:
    http = httpx.Client(base_url=base_url, timeout=30, headers={"Authorization": f"Bearer {token}"})

    def every_answer_scored() -> bool:
        return "scoring" not in [http.get(f"/api/v1/answers/{answer_id}").json()["status"] for answer_id in answer_ids]

    wait_until(every_answer_scored, timeout=SCORED_WITHIN, what="every accepted answer to be scored", log=log)


def _manage(env: dict, *args: str) -> str:
    result = subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_postgres_killed_under_load_comes_back_by_itself_and_every_accepted_answer_is_scored(console):
    base_url, env, var_dir, process, log = console
    pgdata = (var_dir / "pgdata").resolve()
    token = _manage(env, "create_api_client", "assistant").split("token: ")[1].split()[0]
    first_pid = _postgres_pid(pgdata)
    assert first_pid is not None

    clients = [Client(base_url=base_url, token=token, name=name) for name in ("alpha", "beta")]
    for client in clients:
        client.start()
    wait_until(lambda: all(c.halfway.is_set() for c in clients), timeout=60, what="the first answers")
    # run_console is held while the server is down, so that the clients meet the outage however fast it would
    # restart the server (it once did so before any request arrived: 'no request met the outage').
    os.kill(process.pid, signal.SIGSTOP)
    try:
        os.kill(first_pid, signal.SIGKILL)
        for client in clients:
            client.resume.set()
        wait_until(lambda: any(status == 503 for client in clients for status, *_ in client.responses),
                   timeout=60, what="a request to meet the outage", log=log)
    finally:
        os.kill(process.pid, signal.SIGCONT)

    def postgres_back() -> bool:
        return _postgres_pid(pgdata) not in {None, first_pid} and _healthz(base_url).get("database", {}).get("ok")

    wait_until(postgres_back, timeout=POSTGRES_BACK_WITHIN, what="PostgreSQL to be back", log=log)
    for client in clients:
        client.join(timeout=120)
        assert not client.is_alive(), "a client never got its answers accepted"

    responses = [response for client in clients for response in client.responses]
    assert {status for status, *_ in responses} <= {202, 503}
    refused = [(content_type, body, retry_after) for status, content_type, body, retry_after in responses
               if status == 503]
    assert refused, "no request met the outage"
    for content_type, body, retry_after in refused:
        assert content_type == "application/json" and body["error"] == "unavailable" and int(retry_after) > 0

    accepted = {key: answer_id for client in clients for key, answer_id in client.accepted.items()}
    assert len(accepted) == len(set(accepted.values())) == 2 * ANSWERS_PER_CLIENT  # one answer per key

    _wait_every_answer_scored(base_url=base_url, token=token, answer_ids=accepted.values(), log=log)
    output = log.read_text()
    assert "the embedded PostgreSQL stopped; starting it again on the same data" in output
    assert "restarting web" not in output and "restarting worker" not in output  # they reconnected by themselves

    # A management command run while run_console cannot look (stopped) starts the server again itself ...
    second_pid = _postgres_pid(pgdata)
    os.kill(process.pid, signal.SIGSTOP)
    try:
        os.kill(second_pid, signal.SIGKILL)
        wait_until(lambda: not psutil.pid_exists(second_pid) or psutil.Process(second_pid).status() == "zombie",
                   timeout=10, what="the killed server to exit")
        _manage(env, "check")
        third_pid = _postgres_pid(pgdata)
        assert third_pid not in {None, second_pid}
    finally:
        os.kill(process.pid, signal.SIGCONT)
    # ... and stopping run_console stops it all the same.
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    assert _postgres_pid(pgdata) is None
    assert "Stopped web, worker and beat." in log.read_text()


def _web_master_pid(run_console: subprocess.Popen) -> int | None:
    for child in psutil.Process(run_console.pid).children():
        try:
            if child.status() != psutil.STATUS_ZOMBIE and any("gunicorn" in part for part in child.cmdline()):
                return child.pid
        except psutil.Error:  # killed, not yet reaped by run_console
            continue
    return None


def test_the_web_master_killed_under_load_is_restarted_and_every_accepted_answer_is_scored(console):
    base_url, env, _var_dir, process, log = console
    token = _manage(env, "create_api_client", "assistant").split("token: ")[1].split()[0]
    first_master = _web_master_pid(process)
    assert first_master is not None

    clients = [Client(base_url=base_url, token=token, name=name) for name in ("alpha", "beta")]
    for client in clients:
        client.start()
    wait_until(lambda: all(c.halfway.is_set() for c in clients), timeout=60, what="the first answers")
    os.kill(first_master, signal.SIGKILL)
    for client in clients:
        client.resume.set()

    wait_until(lambda: _web_master_pid(process) not in {None, first_master} and _healthz(base_url).get("status"),
               timeout=30, what="the web process to be back", log=log)
    for client in clients:
        client.join(timeout=120)
        assert not client.is_alive(), "a client never got its answers accepted"

    # Refused connections while no web process listened, never an error page; each key stored once.
    assert {status for client in clients for status, *_ in client.responses} <= {0, 202}
    accepted = {key: answer_id for client in clients for key, answer_id in client.accepted.items()}
    assert len(accepted) == len(set(accepted.values())) == 2 * ANSWERS_PER_CLIENT

    _wait_every_answer_scored(base_url=base_url, token=token, answer_ids=accepted.values(), log=log)
    assert "restarting it in" in log.read_text()
