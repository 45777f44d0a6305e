"""`run_console` keeps the console up when its worker dies: the web keeps answering and a new worker starts."""

import os
import signal
import sys

import httpx

from tests.processes import ROOT, free_port, own_redis_url, process_environment, start, stop, wait_until, \
    worker_heartbeats


def test_a_killed_worker_is_restarted_while_the_web_keeps_serving(transactional_db, tmp_path):
    redis_url = own_redis_url(2)
    port = free_port()
    log = tmp_path / "run_console.log"
    env = process_environment(redis_url=redis_url, var_dir=tmp_path, WORKER_HEARTBEAT_MAX_AGE="6")
    console = start([sys.executable, str(ROOT / "manage.py"), "run_console", "--no-demo", "--port", str(port)],
                    env=env, log=log)
    try:
        first = wait_until(lambda: worker_heartbeats(redis_url), timeout=60, what="the first worker", log=log)
        (name, first_pid), = first.items()

        os.kill(first_pid, signal.SIGKILL)

        answered = []

        def restarted() -> bool:
            response = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)  # a refused connection fails
            answered.append(response.json()["database"]["ok"])
            return worker_heartbeats(redis_url).get(name, first_pid) != first_pid

        wait_until(restarted, timeout=45, what="a new worker", log=log)
        wait_until(lambda: httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200,
                   timeout=15, what="healthz to be ok again", log=log)
    finally:
        stop(console)

    assert answered and all(answered)
    output = log.read_text()
    assert f"worker (pid {first_pid}) exited with code -9; restarting it" in output
    assert "restarting worker (restart #1)" in output
    assert "Stopped web, worker and beat." in output  # and it still stops cleanly on SIGTERM
