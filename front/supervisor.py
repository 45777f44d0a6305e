"""Keeps `run_console`'s children (web, worker, beat) running: a child that dies is started again, with backoff.

Each child leads its own process group, so stopping or replacing it also ends what it forked (gunicorn
workers, the Celery pool) — a pool process orphaned by a killed worker would otherwise keep its task. Each child
also asks the kernel for SIGTERM when the supervisor dies, even by SIGKILL: an orphaned web server would keep the
port and make the next `make run` fail.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import subprocess
import time
from contextlib import suppress
from dataclasses import dataclass

logger = logging.getLogger(__name__)

FIRST_DELAY = 1.0
MAX_DELAY = 30.0
STABLE_AFTER = 60.0  # a child that ran this long before dying starts again after FIRST_DELAY


@dataclass
class Child:
    name: str
    command: list[str]
    process: subprocess.Popen | None = None
    started_at: float = 0.0
    failures: int = 0  # deaths in a row, each within STABLE_AFTER of its start
    restart_at: float | None = None
    restarts: int = 0


class Supervisor:
    def __init__(self, commands: dict[str, list[str]], *, env: dict[str, str]) -> None:
        self.children = [Child(name=name, command=command) for name, command in commands.items()]
        self.env = env

    def start(self) -> None:
        for child in self.children:
            self._spawn(child)

    def poll(self) -> None:
        """Notice dead children and start them again when their backoff has passed. Call it often."""
        now = time.monotonic()
        for child in self.children:
            if child.restart_at is None and child.process.poll() is not None:
                self._schedule_restart(child, now)
            elif child.restart_at is not None and now >= child.restart_at:
                child.restarts += 1
                logger.warning("restarting %s (restart #%d)", child.name, child.restarts)
                self._spawn(child)

    def stop(self, *, grace: float = 15.0) -> None:
        running = [child.process for child in self.children if child.process is not None]
        for process in running:
            # The leader only: a Celery worker or gunicorn master stops its own children, where SIGTERM to the
            # whole group had Celery log an ERROR for each pool child the signal reached first.
            with suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for process in running:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _signal_group(process, signal.SIGKILL)  # whatever of the group is left after the grace period
            process.wait()

    def _spawn(self, child: Child) -> None:
        child.process = subprocess.Popen(child.command, env=self.env, start_new_session=True,
                                         preexec_fn=_terminate_with(os.getpid()))
        child.started_at = time.monotonic()
        child.restart_at = None

    def _schedule_restart(self, child: Child, now: float) -> None:
        _signal_group(child.process, signal.SIGKILL)  # what it forked dies with it
        child.failures = 1 if now - child.started_at >= STABLE_AFTER else child.failures + 1
        delay = min(MAX_DELAY, FIRST_DELAY * 2 ** (child.failures - 1))
        child.restart_at = now + delay
        logger.error("%s (pid %s) exited with code %s; restarting it in %.0fs",
                     child.name, child.process.pid, child.process.returncode, delay)


PR_SET_PDEATHSIG = 1


def _terminate_with(parent_pid: int):
    """Runs in the child between fork and exec: SIGTERM when the parent dies, or at once if it already has."""
    def set_death_signal() -> None:
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):  # not Linux: children outlive a killed supervisor, as before
            return
        if os.getppid() != parent_pid:
            os.kill(os.getpid(), signal.SIGTERM)
    return set_death_signal


def _signal_group(process: subprocess.Popen, signum: int) -> None:
    try:
        os.killpg(process.pid, signum)
    except (ProcessLookupError, PermissionError):
        pass
