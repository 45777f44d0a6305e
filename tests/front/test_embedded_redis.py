"""The embedded Redis: started only by its owner, always on the same port, and its queue survives a crash."""

import os
import signal
import subprocess
import sys
import time

import pytest
import redis
from celery import Celery

from tests.processes import ROOT


def _embedded(var_dir, call: str) -> str:
    """Run `front.embedded.<call>` in a process of its own and leave what it started running (os._exit skips
    the last-user shutdown), as `run_console` does while it lives."""
    script = f"import os\nfrom front import embedded\nprint(embedded.{call}, flush=True)\nos._exit(0)\n"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env={**os.environ, "CONSOLE_VAR_DIR": str(var_dir)},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def _redis_pid(var_dir) -> int:
    return int((var_dir / "redis" / "redis.pid").read_text())


def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


@pytest.fixture
def var_dir(tmp_path):
    yield tmp_path
    pid_file = tmp_path / "redis" / "redis.pid"
    if pid_file.exists():
        try:
            os.kill(int(pid_file.read_text()), signal.SIGTERM)
        except ProcessLookupError:
            pass


def test_a_queued_task_survives_a_crash_of_the_embedded_redis(var_dir):
    url = _embedded(var_dir, "start_redis()")
    broker = redis.Redis.from_url(url)
    assert broker.config_get("appendonly") == {"appendonly": "yes"}
    Celery(broker=url).send_task("review.tasks.answer_score", args=[42])
    assert broker.llen("celery") == 1
    time.sleep(1.5)  # appendfsync everysec

    _kill(_redis_pid(var_dir))
    assert _embedded(var_dir, "start_redis()") == url  # same port: every client finds it again

    assert broker.llen("celery") == 1
    assert b'"review.tasks.answer_score"' in broker.lindex("celery", 0)


def test_other_processes_never_start_the_embedded_redis_nor_move_it(var_dir):
    url = _embedded(var_dir, "start_redis()")
    _kill(_redis_pid(var_dir))

    assert _embedded(var_dir, "redis_url()") == url
    assert _embedded(var_dir, "redis_running()") == "False"
    with pytest.raises(redis.ConnectionError):
        redis.Redis.from_url(url).ping()


def _settings_error(**env) -> str:
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, capture_output=True, text=True,
        env={"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "config.settings",
             "SECRET_KEY": "x" * 40, **env}, timeout=60,
    )
    assert result.returncode != 0
    return result.stderr


def test_a_machine_told_not_to_embed_refuses_to_start_without_urls(tmp_path):
    assert "CONSOLE_EMBEDDED=0: set DATABASE_URL and REDIS_URL" in _settings_error(
        CONSOLE_EMBEDDED="0", CONSOLE_VAR_DIR=str(tmp_path))
    assert not (tmp_path / "pgdata").exists()


def test_half_a_server_configuration_is_refused(tmp_path):
    assert "set both DATABASE_URL and REDIS_URL" in _settings_error(
        DATABASE_URL="postgresql://app@db.internal/console", CONSOLE_VAR_DIR=str(tmp_path))
    assert not (tmp_path / "redis").exists()
