"""A worker killed under run_console keeps its name when started again, so its heartbeat key outlives it: /healthz
must still say at once that its process is gone, not count it live for WORKER_HEARTBEAT_MAX_AGE."""

import os
import signal
import time

import httpx
import pytest

from console.workers import heartbeat_interval
from tests.processes import stop, wait_until, worker_heartbeats

pytestmark = pytest.mark.django_db(transaction=True)


def test_healthz_reports_a_killed_worker_within_one_heartbeat(stack):
    wait_until(lambda: httpx.get(stack.web_url + "/healthz", timeout=10).status_code == 200, timeout=60,
               what=lambda: "a healthy console first\n" + stack.logs())
    main_pid = worker_heartbeats(stack.redis.url)[stack.worker_name]
    worker = stack.processes["worker"]
    try:
        os.kill(main_pid, signal.SIGKILL)
        killed_at = time.monotonic()
        stop(worker, grace=0)  # what run_console's supervisor does: its pool processes die with it

        def reported_dead():
            health = httpx.get(stack.web_url + "/healthz", timeout=10)
            return health if health.status_code == 503 else None

        health = wait_until(reported_dead, timeout=heartbeat_interval(), what="/healthz to report the dead worker")
        reported_after = time.monotonic() - killed_at
        # Its key has not expired: the heartbeat is still there, naming the dead process.
        assert worker_heartbeats(stack.redis.url)[stack.worker_name] == main_pid
    finally:
        stack.start_process("worker")  # the next test of the stack needs a worker
    body = health.json()
    assert body["worker"]["ok"] is False
    assert body["worker"]["gone"] == [stack.worker_name] and body["worker"]["live"] == []
    assert reported_after < heartbeat_interval()
    wait_until(lambda: httpx.get(stack.web_url + "/healthz", timeout=10).status_code == 200, timeout=90,
               what=lambda: "the restarted worker to count as live\n" + stack.logs())
