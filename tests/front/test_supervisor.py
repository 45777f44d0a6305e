"""The supervisor behind `run_console`: a child that dies is started again, later each time it keeps dying."""

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

from front.supervisor import Supervisor


def _poll_until(supervisor: Supervisor, condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        supervisor.poll()
        time.sleep(0.05)


def _exits(caplog, name: str) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.getMessage().startswith(f"{name} (pid")]


def test_a_dying_child_is_restarted_with_growing_delays_and_its_sibling_is_left_alone(caplog):
    supervisor = Supervisor({
        "steady": [sys.executable, "-c", "import time; time.sleep(60)"],
        "crashing": [sys.executable, "-c", "raise SystemExit(3)"],
    }, env={})
    caplog.set_level(logging.INFO, logger="front.supervisor")
    supervisor.start()
    steady, crashing = supervisor.children
    steady_pid = steady.process.pid
    try:
        _poll_until(supervisor, lambda: len(_exits(caplog, "crashing")) >= 3)
    finally:
        supervisor.stop(grace=5)

    exits = _exits(caplog, "crashing")
    assert all("exited with code 3" in message for message in exits)
    assert [message.rsplit(" ", 1)[1] for message in exits] == ["1s", "2s", "4s"]
    assert crashing.restarts == 2
    assert steady.process.pid == steady_pid and steady.restarts == 0
    assert steady.process.returncode is not None  # stop() ended it


SUPERVISOR_THAT_PRINTS_ITS_CHILD = """
import sys, time
from front.supervisor import Supervisor
supervisor = Supervisor({"sleeper": [sys.executable, "-c", "import time; time.sleep(120)"]}, env={})
supervisor.start()
print(supervisor.children[0].process.pid, flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waiting for its (new) parent has ended too
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_children_end_when_the_supervisor_is_killed_outright():
    supervisor = subprocess.Popen([sys.executable, "-c", SUPERVISOR_THAT_PRINTS_ITS_CHILD],
                                  stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
    child_pid = int(supervisor.stdout.readline())
    assert _alive(child_pid)
    supervisor.kill()
    supervisor.wait()
    deadline = time.monotonic() + 10
    while _alive(child_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child_pid)
