"""Worker identity and heartbeats: which Celery workers are alive, and since when their processes run.

Each worker writes its own heartbeat key (with an expiry) from its event loop, so /healthz can name every live
worker (a task sent by beat would reach only one of them), and the work-claim sweep (console/work_claims.py) can
tell a claim of a dead worker from one of a live one. The heartbeat says when this worker process started:
claims made under its name before then belong to a dead predecessor, and the worker hands them back itself when
it starts, before it takes any task.
"""

from __future__ import annotations

import json
import logging
import os
import time

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


def record_worker_heartbeat(*, hostname: str, started: float = 0.0) -> None:
    """`started`: when this worker process started (epoch seconds). Claims its name holds from before then were
    made by a previous process of the same name, which died with them (console/work_claims.py)."""
    value = json.dumps({"at": time.time(), "pid": os.getpid(), "started": started})
    _redis().set(HEARTBEAT_PREFIX + hostname, value, ex=settings.WORKER_HEARTBEAT_MAX_AGE)


def forget_worker(*, hostname: str) -> None:
    _redis().delete(HEARTBEAT_PREFIX + hostname)


def live_workers() -> list[str]:
    """Names of the workers whose heartbeat has not expired."""
    keys = _redis().scan_iter(match=HEARTBEAT_PREFIX + "*", count=100)
    return sorted(key.decode().removeprefix(HEARTBEAT_PREFIX) for key in keys)


def worker_start_times() -> dict[str, float]:
    """{name: when its running process started} for every worker whose heartbeat has not expired. Raises
    redis.RedisError when Redis cannot be reached: then nobody can tell which worker is dead."""
    client = _redis()
    keys = sorted(client.scan_iter(match=HEARTBEAT_PREFIX + "*", count=100))
    started = {}
    for key, value in zip(keys, client.mget(keys) if keys else [], strict=True):
        if value is not None:  # expired between the scan and the read
            started[key.decode().removeprefix(HEARTBEAT_PREFIX)] = float(json.loads(value).get("started", 0.0))
    return started


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
