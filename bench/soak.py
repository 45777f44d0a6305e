"""Soak: the console as `make run` starts it, under a steady load with a webhook receiver, while each of its parts
is SIGKILLed in turn every few minutes. Not in CI: an hour by default.

`manage.py run_console` runs on embedded servers of its own (PostgreSQL and Redis under --var-dir, recreated
each run) with the demo loaded; `run_console` restarts whatever is killed. This script is only a client: it
posts answers (demo sentences, so most are released and sent to the webhook) at --rate per second with an
Idempotency-Key each, and sends an answer again on a refusal (503, connection refused) as a RAG application
would; every --kill-every seconds it SIGKILLs one of web (the gunicorn master), worker (the Celery main
process), beat, redis-server and the PostgreSQL postmaster, in a shuffled order per round. Afterwards it waits
up to --drain seconds for every accepted answer to be final and every release to be delivered, then stops the
console with SIGINT (Ctrl-C) and reports:

- lost answers: accepted (202) but never final, or unknown — must be 0;
- duplicate webhook deliveries per release (by answer id and status; by `webhook-id` when the console sends it);
- releases never delivered; responses with a 5xx other than the documented 503; connection errors;
- p50/p95 latency of `POST /api/v1/answers`;
- each part's memory (PSS of the process and what it forked) at the first and last sample, and its peak; a
  killed part starts again small, so growth is read between kills too (the per-sample log on --memory-log).

Run: .venv/bin/python bench/soak.py [--duration 3600] [--rate 3] [--kill-every 300] [--help]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness, beside this file
from harness import BenchError, duration, load_average, percentile, print_table, progress  # noqa: E402

PROJECT_DIR = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PARTS = ("web", "worker", "beat", "redis", "postgres")
FINAL_STATUSES = {"released", "pending_review", "approved", "rejected"}
RELEASED_STATUSES = {"released", "approved", "rejected"}  # a webhook is sent for each (rejected: the fallback)
POST_TIMEOUT = 30.0
MAX_SENDS = 40  # an answer refused this many times in a row is counted as refused, not lost (never accepted)

# The demo sentences, the client and a release threshold under which plainly supported answers are released.
SETUP = """
import json, sys
sys.path.insert(0, "bench")
from check_bench import demo_sentences
from review.learning.adopted import adopted_checker
from review.learning.models import CheckerModel
from review.services import api_client_create
client, token = api_client_create(name="soak-" + __import__("uuid").uuid4().hex[:8], clearance="internal")
CheckerModel.objects.filter(pk=adopted_checker().model_id).update(release_threshold=0.6)
print("SOAK " + json.dumps({"token": token, "sentences": demo_sentences()}), flush=True)
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Delivery:
    answer_id: int
    status: str
    webhook_id: str
    at: float


@dataclass
class Tally:
    started: float = 0.0  # when the load began (monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    accepted: dict[int, float] = field(default_factory=dict)  # answer id -> when it was accepted
    latencies: list[float] = field(default_factory=list)
    statuses: collections.Counter = field(default_factory=collections.Counter)
    connection_errors: int = 0
    refused_for_good: int = 0
    deliveries: list[Delivery] = field(default_factory=list)
    kills: list[tuple[float, str, int, float | None]] = field(default_factory=list)  # at, part, pid, back after
    # part -> [(when, pid of its main process, MiB)]
    memory: dict[str, list[tuple[float, int, float]]] = field(default_factory=lambda: collections.defaultdict(list))


def receiver(tally: Tally) -> ThreadingHTTPServer:
    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                payload = json.loads(body)
                delivery = Delivery(int(payload["id"]), str(payload.get("status")),
                                    self.headers.get("webhook-id", ""), time.monotonic())
                with tally.lock:
                    tally.deliveries.append(delivery)
            finally:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Console:
    """`manage.py run_console` on embedded servers of its own, and the pids of its parts."""

    def __init__(self, var_dir: Path, port: int, log: Path) -> None:
        self.var_dir = var_dir
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = log
        self.env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
        self.env |= {"CONSOLE_VAR_DIR": str(var_dir), "WEBHOOK_ALLOWED_HOSTS": "127.0.0.1",
                     "ALLOWED_HOSTS": "127.0.0.1,localhost", "REVIEW_AUDIT_SAMPLE_RATE": "0",
                     "REVIEW_HIGH_RISK_TOPICS": "", "PYTHONUNBUFFERED": "1", "LOG_LEVEL": "WARNING"}
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen([PYTHON, "manage.py", "run_console", "--port", str(self.port)],
                                            cwd=PROJECT_DIR, env=self.env, stdout=output, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + 600
        while not self.healthy():
            if self.process.poll() is not None:
                raise BenchError(f"run_console exited with code {self.process.returncode}; see {self.log}")
            if time.monotonic() > deadline:
                raise BenchError(f"the console was not healthy within 600 s; see {self.log}")
            time.sleep(1)

    def manage(self, code: str) -> str:
        result = subprocess.run([PYTHON, "manage.py", "shell", "-c", code], cwd=PROJECT_DIR, env=self.env,
                                capture_output=True, text=True, timeout=300, check=False)
        if result.returncode:
            raise BenchError(f"manage.py shell failed: {result.stderr[-2000:]}")
        return result.stdout

    def healthy(self) -> bool:
        try:
            return httpx.get(self.url + "/healthz", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    def part_processes(self) -> dict[str, psutil.Process]:
        """The main process of each part that is running now."""
        parts = {}
        for child in psutil.Process(self.process.pid).children():
            try:
                command = " ".join(child.cmdline())
            except psutil.Error:
                continue
            if "gunicorn" in command:
                parts["web"] = child
            elif " worker" in command:
                parts["worker"] = child
            elif " beat" in command:
                parts["beat"] = child
        for part, pid_file in (("redis", self.var_dir / "redis" / "redis.pid"),
                               ("postgres", self.var_dir / "pgdata" / "postmaster.pid")):
            try:
                parts[part] = psutil.Process(int(pid_file.read_text().split()[0]))
            except (FileNotFoundError, IndexError, ValueError, psutil.Error):
                pass
        return parts

    def stop(self) -> int:
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else 0
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            return self.process.wait()


def memory_mib(process: psutil.Process) -> float:
    """PSS of the process and everything it forked (shared pages counted once across them)."""
    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            info = member.memory_full_info()
            total += getattr(info, "pss", info.rss)
        except psutil.Error:
            pass
    return total / 1024 / 1024


def post_answers(console: Console, token: str, sentences: list[str], tally: Tally, *, rate: float,
                 until: float, callback: str, rng: random.Random) -> None:
    """One answer every 1/rate seconds, each sent until it is accepted (or refused MAX_SENDS times)."""
    http = httpx.Client(base_url=console.url, timeout=POST_TIMEOUT, headers={"Authorization": f"Bearer {token}"},
                        limits=httpx.Limits(max_connections=32))

    def send(number: int, text: str) -> None:
        key = uuid.uuid4().hex
        body = {"question": "What do the demo documents say?", "answer": text, "external_id": f"soak-{number}",
                "callback_url": callback}
        for _attempt in range(MAX_SENDS):
            started = time.monotonic()
            try:
                response = http.post("/api/v1/answers", json=body, headers={"Idempotency-Key": key})
            except httpx.HTTPError:
                with tally.lock:
                    tally.connection_errors += 1
                time.sleep(1)
                continue
            with tally.lock:
                tally.latencies.append(time.monotonic() - started)
                tally.statuses[response.status_code] += 1
            if response.status_code == 202:
                with tally.lock:
                    tally.accepted[response.json()["id"]] = time.monotonic()
                return
            if response.status_code not in {429, 503}:  # bad input or a bug: sending again changes nothing
                return
            time.sleep(float(response.headers.get("Retry-After") or 1))
        with tally.lock:
            tally.refused_for_good += 1

    with ThreadPoolExecutor(max_workers=16) as pool:
        number = 0
        next_at = time.monotonic()
        while next_at < until:
            pool.submit(send, number, " ".join(rng.sample(sentences, rng.randint(1, 3))))
            number += 1
            next_at += 1 / rate
            time.sleep(max(0.0, next_at - time.monotonic()))
    http.close()


def kill_parts(console: Console, tally: Tally, *, every: float, until: float, rng: random.Random,
               stop: threading.Event) -> None:
    order: list[str] = []
    while not stop.wait(every) and time.monotonic() < until:
        if not order:
            order = rng.sample(PARTS, len(PARTS))
        part = order.pop()
        process = console.part_processes().get(part)
        if process is None:
            progress(f"  {part}: not running at its turn (still coming back from a kill?)")
            continue
        killed_at = time.monotonic()
        process.send_signal(signal.SIGKILL)
        back = None
        while time.monotonic() - killed_at < 300 and not stop.is_set():
            time.sleep(0.5)
            # Back: /healthz ok again, and this part running as a new process.
            again = console.part_processes().get(part)
            if again is not None and again.pid != process.pid and console.healthy():
                back = time.monotonic() - killed_at
                break
        tally.kills.append((killed_at, part, process.pid, back))
        progress(f"  killed {part} (pid {process.pid}); healthy again after "
                 f"{'never' if back is None else f'{back:.1f} s'}")


def sample_memory(console: Console, tally: Tally, *, every: float, stop: threading.Event, log: Path) -> None:
    with log.open("a") as output:
        while not stop.wait(every):
            now = time.monotonic()
            processes = console.part_processes()
            sample = {part: memory_mib(process) for part, process in processes.items()}
            for part, mib in sample.items():
                tally.memory[part].append((now, processes[part].pid, mib))
            output.write(json.dumps({"at": round(now - tally.started, 1),
                                     **{k: round(v, 1) for k, v in sample.items()}}) + "\n")
            output.flush()


def final_states(console: Console, token: str, ids: list[int]) -> dict[int, str]:
    http = httpx.Client(base_url=console.url, timeout=30, headers={"Authorization": f"Bearer {token}"})

    def status(answer_id: int) -> tuple[int, str]:
        for _ in range(10):
            try:
                response = http.get(f"/api/v1/answers/{answer_id}")
                if response.status_code == 200:
                    return answer_id, response.json()["status"]
                if response.status_code == 404:
                    return answer_id, "unknown"
            except httpx.HTTPError:
                pass
            time.sleep(1)
        return answer_id, "unreachable"

    with ThreadPoolExecutor(max_workers=4) as pool:
        states = dict(pool.map(status, ids))
    http.close()
    return states


def drain(console: Console, token: str, tally: Tally, *, timeout: float) -> dict[int, str]:
    """Wait for every accepted answer to be final and every release delivered; their last known states."""
    deadline = time.monotonic() + timeout
    states: dict[int, str] = {}
    while True:
        if console.process.poll() is not None:
            raise BenchError(f"run_console exited with code {console.process.returncode} while draining "
                             "(stopped from outside?): no honest figures")
        waiting = [answer_id for answer_id in tally.accepted if states.get(answer_id) not in FINAL_STATUSES]
        states |= final_states(console, token, waiting)
        with tally.lock:
            delivered = {delivery.answer_id for delivery in tally.deliveries}
        undelivered = [answer_id for answer_id, state in states.items()
                       if state in RELEASED_STATUSES and answer_id not in delivered]
        unfinished = [answer_id for answer_id, state in states.items() if state not in FINAL_STATUSES]
        if not unfinished and not undelivered or time.monotonic() > deadline:
            return states
        progress(f"  draining: {len(unfinished)} not final, {len(undelivered)} releases not delivered")
        time.sleep(5)


def report(tally: Tally, states: dict[int, str], *, args: argparse.Namespace, elapsed: float,
           stop_code: int, console_log: Path) -> list[tuple[str, str]]:
    per_release = collections.Counter((d.answer_id, d.status) for d in tally.deliveries)
    by_webhook_id = collections.Counter(d.webhook_id for d in tally.deliveries if d.webhook_id)
    delivered = {answer_id for answer_id, _status in per_release}
    released = [answer_id for answer_id, state in states.items() if state in RELEASED_STATUSES]
    lost = sorted(answer_id for answer_id, state in states.items() if state not in FINAL_STATUSES)
    server_errors = sum(count for code, count in tally.statuses.items() if code >= 500 and code != 503)
    final_counts = collections.Counter(states.values())
    log_text = console_log.read_text(errors="replace")
    tracebacks = log_text.count("Traceback (most recent call last)")
    rows = [
        ("duration", f"{elapsed:.0f} s of load at {args.rate}/s, a kill every {args.kill_every:.0f} s"),
        ("load average at end", load_average()),
        ("answers accepted (202)", str(len(tally.accepted))),
        ("final states", ", ".join(f"{state} {count}" for state, count in sorted(final_counts.items()))),
        ("**lost answers** (accepted, never final)", f"{len(lost)}" + (f": {lost[:20]}" if lost else "")),
        ("refused for good (never accepted)", str(tally.refused_for_good)),
        ("responses", ", ".join(f"{code} ×{count}" for code, count in sorted(tally.statuses.items()))),
        ("**5xx other than 503**", str(server_errors)),
        ("connection errors (sent again)", str(tally.connection_errors)),
        ("POST /api/v1/answers", f"p50 {duration(percentile(tally.latencies, 50))}, "
                                 f"p95 {duration(percentile(tally.latencies, 95))}, "
                                 f"max {duration(max(tally.latencies))} (n={len(tally.latencies)})"
         if len(tally.latencies) > 1 else "no answers"),
        ("webhook deliveries", str(len(tally.deliveries))),
        ("**duplicate deliveries** (same answer and status)",
         str(sum(count - 1 for count in per_release.values()))),
        ("duplicate `webhook-id`s", str(sum(count - 1 for count in by_webhook_id.values()))
         if by_webhook_id else "no `webhook-id` header sent"),
        ("releases never delivered", str(len(set(released) - delivered))),
        ("run_console stop (SIGINT)", f"exit code {stop_code}; {tracebacks} tracebacks in its log"),
    ]
    rows += duplicate_rows(tally)
    for killed_at, part, pid, back in tally.kills:
        rows.append((f"kill at {killed_at - tally.started:.0f} s: {part} (pid {pid})",
                     "healthy again after " + ("never (within 300 s)" if back is None else f"{back:.1f} s")))
    for part in PARTS:
        samples = tally.memory.get(part)
        if samples:
            first, last, peak = samples[0][2], samples[-1][2], max(mib for _at, _pid, mib in samples)
            rows.append((f"memory: {part}", f"first {first:.0f} MiB, last {last:.0f} MiB, peak {peak:.0f} MiB "
                                            f"({len(samples)} samples); {memory_rise(samples)}"))
    return rows


WARM_UP_SECONDS = 60  # a new process loads its code and models first: its growth counts from then


def memory_rise(samples: list[tuple[float, int, float]]) -> str:
    """The rise within the longest-lived process, after its warm-up (a killed part starts again small, so first and
    last samples, of different processes, say little)."""
    lives: dict[int, list[tuple[float, float]]] = collections.defaultdict(list)
    for at, pid, mib in samples:
        lives[pid].append((at, mib))
    warm = [[(at, mib) for at, mib in life if at - life[0][0] >= WARM_UP_SECONDS] for life in lives.values()]
    warm = [life for life in warm if len(life) > 1]
    if not warm:
        return "no process lived long enough to tell"
    life = max(warm, key=lambda life: life[-1][0] - life[0][0])
    return (f"longest-lived process {life[0][1]:.0f} → {life[-1][1]:.0f} MiB over {life[-1][0] - life[0][0]:.0f} s "
            f"after its first {WARM_UP_SECONDS} s")


def duplicate_rows(tally: Tally) -> list[tuple[str, str]]:
    """Each repeated delivery: which answer, how long after the first, and when in the run."""
    first: dict[tuple[int, str], float] = {}
    rows = []
    for delivery in sorted(tally.deliveries, key=lambda d: d.at):
        key = (delivery.answer_id, delivery.status)
        if key in first:
            rows.append((f"repeat: answer {delivery.answer_id} ({delivery.status})",
                         f"{delivery.at - first[key]:.1f} s after the first, at {delivery.at - tally.started:.0f} s"
                         + (f", webhook-id {delivery.webhook_id}" if delivery.webhook_id else "")))
        else:
            first[key] = delivery.at
    return rows
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=3600, help="seconds of load (default 3600)")
    parser.add_argument("--rate", type=float, default=3.0, help="answers posted per second (default 3)")
    parser.add_argument("--kill-every", type=float, default=300, help="seconds between kills (default 300)")
    parser.add_argument("--drain", type=float, default=300, help="seconds to wait for the backlog (default 300)")
    parser.add_argument("--memory-every", type=float, default=30, help="seconds between memory samples")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--var-dir", type=Path, default=PROJECT_DIR / "var" / "soak",
                        help="the soak console's embedded servers (emptied first; default var/soak)")
    parser.add_argument("--port", type=int, default=0, help="the soak console's port (default: a free one)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    if args.var_dir.exists():
        shutil.rmtree(args.var_dir)
    args.var_dir.mkdir(parents=True)
    console_log = args.var_dir / "run_console.log"
    console = Console(args.var_dir, args.port or free_port(), console_log)
    tally = Tally()
    hooks = receiver(tally)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        progress(f"starting run_console on {console.url} (log {console_log})")
        console.start()
        setup = next(line for line in console.manage(SETUP).splitlines() if line.startswith("SOAK "))
        setup = json.loads(setup.removeprefix("SOAK "))
        sentences = [s for s in setup["sentences"] if not re.search(r"\b(refund|price|contract)", s, re.IGNORECASE)]
        progress(f"load: {args.rate}/s for {args.duration:.0f} s, {len(sentences)} demo sentences; "
                 f"a kill every {args.kill_every:.0f} s")
        tally.started = time.monotonic()
        until = tally.started + args.duration
        threads = [
            threading.Thread(target=kill_parts, args=(console, tally),
                             kwargs={"every": args.kill_every, "until": until, "rng": rng, "stop": stop}),
            threading.Thread(target=sample_memory, args=(console, tally),
                             kwargs={"every": args.memory_every, "stop": stop,
                                     "log": args.var_dir / "memory.jsonl"}),
        ]
        for thread in threads:
            thread.start()
        post_answers(console, setup["token"], sentences, tally, rate=args.rate, until=until,
                     callback=f"http://127.0.0.1:{hooks.server_port}/hook", rng=random.Random(args.seed + 1))
        elapsed = time.monotonic() - tally.started
        progress(f"load done ({len(tally.accepted)} accepted); draining for up to {args.drain:.0f} s")
        states = drain(console, setup["token"], tally, timeout=args.drain)
        stop.set()
        for thread in threads:
            thread.join()
        time.sleep(5)  # a late duplicate still counts
        stop_code = console.stop()
        print_table("Soak", report(tally, states, args=args, elapsed=elapsed, stop_code=stop_code,
                                   console_log=console_log))
    except BenchError as exc:
        print(f"soak: {exc}", file=sys.stderr)
        return 1
    finally:
        stop.set()
        console.stop()
        hooks.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
