"""A killed PostgreSQL's lock files are cleared before it is started again, but only when no process holds them:
never the running server's, never while a backend of the dead server still holds its shared memory."""

import os
from pathlib import Path

import pytest

from front import embedded


def _lock_lines(*, pid: int, socket_dir: Path, shared_memory: str) -> str:
    return "\n".join([str(pid), str(embedded.PGDATA), "1796280703", "5432", str(socket_dir), "", shared_memory,
                      "ready"]) + "\n"


def _running_server_lines() -> list[str]:
    assert embedded.postgres_running(), "the test session's embedded PostgreSQL should be running"
    return (embedded.PGDATA / "postmaster.pid").read_text().splitlines()


@pytest.fixture
def dead_server_directory(tmp_path, monkeypatch):
    """A data directory of a server that is gone; the running server's shared memory id, read before the switch."""
    running_shared_memory = _running_server_lines()[6]
    monkeypatch.setattr(embedded, "PGDATA", tmp_path)
    return tmp_path, running_shared_memory


def test_the_running_servers_lock_files_are_kept():
    before = (embedded.PGDATA / "postmaster.pid").read_text()

    embedded._clear_stale_postmaster_pid()

    assert (embedded.PGDATA / "postmaster.pid").read_text() == before
    assert embedded.postgres_running()


def test_lock_files_naming_a_live_process_that_is_no_postgres_server_are_removed(dead_server_directory):
    pgdata, _ = dead_server_directory
    # This test's own pid stands for the number the dead server's was given since (or its unreaped zombie).
    (pgdata / "postmaster.pid").write_text(_lock_lines(pid=os.getpid(), socket_dir=pgdata,
                                                       shared_memory="  999999  2147483000"))
    (pgdata / ".s.PGSQL.5432.lock").write_text(f"{os.getpid()}\n")

    embedded._clear_stale_postmaster_pid()

    assert not (pgdata / "postmaster.pid").exists()
    assert not (pgdata / ".s.PGSQL.5432.lock").exists()


def test_lock_files_are_kept_while_processes_still_hold_the_shared_memory_they_name(dead_server_directory):
    pgdata, attached_shared_memory = dead_server_directory  # the running server's backends hold this segment
    (pgdata / "postmaster.pid").write_text(_lock_lines(pid=os.getpid(), socket_dir=pgdata,
                                                       shared_memory=attached_shared_memory))
    (pgdata / ".s.PGSQL.5432.lock").write_text(f"{os.getpid()}\n")

    embedded._clear_stale_postmaster_pid()

    assert (pgdata / "postmaster.pid").exists() and (pgdata / ".s.PGSQL.5432.lock").exists()
