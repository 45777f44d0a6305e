"""Worker identity and heartbeats: which Celery workers are alive, and since when their processes run.

Each worker writes its own heartbeat key (with an expiry) from its event loop, so /healthz can name every live
worker (a task sent by beat would reach only one of them), and the work-claim sweep (console/work_claims.py) can
tell a claim of a dead worker from one of a live one. The heartbeat says when this worker process started:
claims made under its name before then belong to a dead predecessor, and the worker hands them back itself when
it starts, before it takes any task.

A restarted worker keeps its name (its claims are recognised by it), so the heartbeat also says which process
wrote it, on which machine: a reader on the same machine (same host name and process namespace, as under
`run_console`) counts a heartbeat whose process is gone as dead at once, instead of for the rest of its
WORKER_HEARTBEAT_MAX_AGE. Elsewhere the key's expiry is the only sign.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from functools import cache

import psutil
import redis
from celery import bootsteps, signals
from django.conf import settings

logger = logging.getLogger(__name__)

HEARTBEAT_PREFIX = "console:worker-heartbeat:"


class _ThisWorker:
    """This process's worker: its node name (e.g. celery@box) and when it started. Set before the pool forks, so
    a task in a pool process can name the worker that claims its work (a task request's hostname is the machine's
    under some pools, not the worker's)."""

    name = ""
    started = 0.0


@signals.worker_init.connect
def _remember_this_worker(sender, **kwargs) -> None:
    _ThisWorker.name = sender.hostname
    _ThisWorker.started = time.time()


def this_worker_name() -> str:
    """The worker running this task ("" outside a worker)."""
    return _ThisWorker.name


def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)


def heartbeat_interval() -> float:
    """Each worker writes its heartbeat three times per WORKER_HEARTBEAT_MAX_AGE, so one lost write is no alarm."""
    return settings.WORKER_HEARTBEAT_MAX_AGE / 3


@cache
def this_machine() -> str:
    """This host and process namespace: two processes that agree on it can see each other's pids (containers
    sharing the host's name but not its processes do not)."""
    try:
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:  # not Linux: no process of another machine is ever taken for one of this
        namespace = f"pid {os.getpid()}"
    return f"{socket.gethostname()} {namespace}"


def record_worker_heartbeat(*, hostname: str, started: float = 0.0) -> None:
    """`started`: when this worker process started (epoch seconds). Claims its name holds from before then were
    made by a previous process of the same name, which died with them (console/work_claims.py)."""
    value = json.dumps({"at": time.time(), "pid": os.getpid(), "started": started, "machine": this_machine()})
    _redis().set(HEARTBEAT_PREFIX + hostname, value, ex=settings.WORKER_HEARTBEAT_MAX_AGE)


def _process_gone(beat: dict) -> bool:
    """Does the heartbeat name a process of this machine that has died (or whose pid now belongs to a process
    started after the worker)? False when it cannot be told from here."""
    if beat.get("machine") != this_machine() or not beat.get("pid"):
        return False
    try:
        process = psutil.Process(int(beat["pid"]))
        if process.status() == psutil.STATUS_ZOMBIE:
            return True
        started = float(beat.get("started") or 0.0)
        return bool(started) and process.create_time() > started + 1.0  # the pid was given to a newer process
    except psutil.NoSuchProcess:
        return True
    except psutil.Error:  # not ours to inspect: assume it lives
        return False


def _heartbeats(client: redis.Redis) -> dict[str, dict]:
    """{worker name: its heartbeat} for every key that has not expired."""
    keys = sorted(client.scan_iter(match=HEARTBEAT_PREFIX + "*", count=100))
    beats = {}
    for key, value in zip(keys, client.mget(keys) if keys else [], strict=True):
        if value is not None:  # expired between the scan and the read
            beats[key.decode().removeprefix(HEARTBEAT_PREFIX)] = json.loads(value)
    return beats


def forget_worker(*, hostname: str) -> None:
    _redis().delete(HEARTBEAT_PREFIX + hostname)


def worker_liveness() -> tuple[list[str], list[str]]:
    """(names of the live workers, names whose heartbeat has not expired but whose process is known dead)."""
    live, gone = [], []
    for name, beat in _heartbeats(_redis()).items():
        (gone if _process_gone(beat) else live).append(name)
    return live, gone


def live_workers() -> list[str]:
    """Names of the workers whose heartbeat has not expired and whose process is not known to be dead."""
    return worker_liveness()[0]


def worker_start_times() -> dict[str, float]:
    """{name: when its running process started} for every live worker (`live_workers`). Raises
    redis.RedisError when Redis cannot be reached: then nobody can tell which worker is dead."""
    return {name: float(beat.get("started", 0.0)) for name, beat in _heartbeats(_redis()).items()
            if not _process_gone(beat)}


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A consumer step (the Celery app adds it: config/celery.py) that beats from the worker's event loop, once
    per process hands back the claims of the worker's dead predecessors, and on every broker (re)connection asks
    again for the work that waits to be queued."""

    requires = {"celery.worker.consumer.tasks:Tasks"}  # beat only once the worker consumes tasks

    def __init__(self, parent, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.timer_entry = None
        self.handed_back = False

    def start(self, parent) -> None:
        self._beat(parent.hostname)
        self.timer_entry = parent.timer.call_repeatedly(heartbeat_interval(), self._beat, (parent.hostname,))
        # The consumer starts again after a lost broker connection, but the process (and its pool's claims) lives on.
        if not self.handed_back:
            self.handed_back = True
            _release_lost_claims()
        # Each start is a broker connection made (again): what waited to be queued while it was down goes now.
        _resend_waiting_work()

    def stop(self, parent) -> None:
        if self.timer_entry is not None:
            parent.timer.cancel(self.timer_entry)
            self.timer_entry = None
        try:
            forget_worker(hostname=parent.hostname)  # a worker that stops cleanly leaves the list at once
        except Exception:  # Redis down: the key expires by itself
            logger.warning("could not remove the heartbeat of %s", parent.hostname)

    shutdown = stop

    def _beat(self, hostname: str) -> None:
        try:
            record_worker_heartbeat(hostname=hostname, started=_ThisWorker.started)
        except Exception as exc:  # never let a missed heartbeat stop the worker's timer
            logger.warning("worker heartbeat not written: %s", exc)


def _resend_waiting_work() -> None:
    from django.db import connections

    from console.work_claims import waiting_work_resend

    try:
        resent = waiting_work_resend()
        if resent:
            logger.warning("broker connected: asked again for %d waiting pieces of work", resent)
    except Exception as exc:  # the database may be down too: the beat sweep sends them later
        logger.warning("could not ask again for waiting work: %s: %s", type(exc).__name__, exc)
    finally:
        connections.close_all()


def _release_lost_claims() -> None:
    from django.db import connections

    from console.work_claims import lost_claims_release

    try:
        released = lost_claims_release()
        if released:
            logger.warning("handed back %d claims of workers that are gone", released)
    except Exception as exc:  # the database may be down: the beat sweep hands them back later
        logger.warning("could not hand back the claims of workers that are gone: %s: %s", type(exc).__name__, exc)
    finally:
        connections.close_all()  # the main process runs no task: keep no idle connection
