"""`manage.py backup DIR` and `manage.py restore DIR`: a round trip into a fresh database on the test server gives
back every row (documents, versions, answers, decisions, audit, reviewed labels and everything else), the secret
key, and a console that answers; a restore over a database holding work refuses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from tests.processes import BIN, ROOT, free_port, own_redis_url, start, stop, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

TARGET = "test_console_restored"
ROLE = "test_console_restorer"
# The tables the issue names; the comparison covers every table, these must not be empty for it to mean much.
NAMED_TABLES = ("kb_document", "kb_documentversion", "review_answer", "review_decision", "console_auditevent",
                "review_reviewlabel")


@pytest.fixture
def target_database():
    """A new database on the test server as on an external one: owned by a role that is no superuser, with pgvector
    installed by a superuser beforehand (README "Moving a single-machine install"). Dropped afterwards."""
    import psycopg

    def drop() -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {TARGET} WITH (FORCE)")
            cursor.execute(f"DROP ROLE IF EXISTS {ROLE}")

    drop()
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {ROLE} LOGIN NOSUPERUSER")
        cursor.execute(f"CREATE DATABASE {TARGET} OWNER {ROLE}")
    with psycopg.connect(**connection.get_connection_params() | {"dbname": TARGET}, autocommit=True) as superuser:
        superuser.execute("CREATE EXTENSION vector")
    host = connection.settings_dict["HOST"]
    yield f"postgresql://{ROLE}@/{TARGET}?host={quote(host)}" if host.startswith("/") else (
        f"postgresql://{ROLE}@{host}:{connection.settings_dict['PORT'] or 5432}/{TARGET}")
    drop()


def _every_row(url_or_name: str) -> dict[str, list]:
    """Every table's rows, as JSON, in primary-key order, read over a connection of its own."""
    import psycopg

    params = connection.get_connection_params() | {"dbname": url_or_name}
    with psycopg.connect(**params) as raw, raw.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
        tables = [row[0] for row in cursor.fetchall()]
        rows = {}
        for table in tables:
            cursor.execute(f'SELECT to_jsonb(t)::text FROM "{table}" t ORDER BY 1')
            rows[table] = [row[0] for row in cursor.fetchall()]
    return rows


def _reviewed_answer(client, reviewer, make_answer, publish):
    version = publish("# Refunds\n\nRefunds are paid within 14 days of the request.\n", key="refunds")
    answer = make_answer(claims=[("Refunds are paid within 14 days.", "uncertain", 0.5)],
                         chunk=version.chunks.first())
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    client.post(f"/review/claims/{answer.claims.get().pk}/review/", {"state": "confirmed"})
    response = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})
    assert response.status_code in (200, 302)
    return answer


def _manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_backup_restored_into_an_empty_database_gives_back_every_row_the_key_and_a_console_that_answers(
        client, reviewer, make_answer, publish, api_token, target_database, tmp_path):
    answer = _reviewed_answer(client, reviewer, make_answer, publish)
    _, token = api_token
    before = _every_row(connection.settings_dict["NAME"])
    assert all(before[table] for table in NAMED_TABLES), {table: len(before[table]) for table in NAMED_TABLES}

    output = StringIO()
    call_command("backup", str(tmp_path / "backup"), stdout=output)

    assert "Dumping table" in output.getvalue() and "kb_documentversion" in output.getvalue()  # progress shown
    assert (tmp_path / "backup").stat().st_mode & 0o777 == 0o700  # everyone's data: for its owner only
    manifest = json.loads((tmp_path / "backup" / "manifest.json").read_text())
    assert manifest["row_counts"]["review_answer"] == len(before["review_answer"])

    # A fresh single-machine install: its own var/ (a key of its own until the restore), the new database.
    var_dir = tmp_path / "var"
    env = {key: value for key, value in os.environ.items() if key != "SECRET_KEY"}
    env.update(DATABASE_URL=target_database, REDIS_URL=own_redis_url(5), CONSOLE_VAR_DIR=str(var_dir), DEBUG="1",
               ALLOWED_HOSTS="127.0.0.1")
    restored = _manage("restore", str(tmp_path / "backup"), env=env)

    assert restored.returncode == 0, restored.stderr
    assert "Restoring table" in restored.stdout and "every row count checked" in restored.stdout
    assert _every_row(TARGET) == before
    assert (var_dir / "secret_key").read_text() == settings.SECRET_KEY

    port = free_port()
    log = tmp_path / "web.log"
    web = start([str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"], env=env,
                log=log)
    try:
        base = f"http://127.0.0.1:{port}"
        response = wait_until(lambda: _answer(f"{base}/api/v1/answers/{answer.pk}", token), timeout=60,
                              what="the restored console", log=log)
    finally:
        stop(web)

    assert response.status_code == 200, response.text  # the API client's token hash came back too
    body = response.json()
    assert (body["status"], body["decided_by"], body["claims"][0]["evidence"][0]["document_key"]) == (
        "approved", reviewer.username, "refunds")


def _answer(url: str, token: str) -> httpx.Response | None:
    """The API's answer once the web process is up (None before)."""
    try:
        return httpx.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=5)
    except httpx.HTTPError:
        return None


def test_a_restore_over_a_database_holding_work_refuses_and_changes_nothing(reviewer, tmp_path):
    call_command("backup", str(tmp_path / "backup"), stdout=StringIO())
    reviewer.username = "rita-renamed"
    reviewer.save(update_fields=["username"])

    with pytest.raises(Exception) as refused:
        call_command("restore", str(tmp_path / "backup"), stdout=StringIO())

    assert "is not empty (rows in console_user" in str(refused.value) and "--overwrite" in str(refused.value)
    reviewer.refresh_from_db()
    assert reviewer.username == "rita-renamed"


def test_a_backup_never_writes_into_a_directory_holding_files(db, tmp_path):
    (tmp_path / "older").mkdir()
    (tmp_path / "older" / "notes.txt").write_text("an older backup")

    with pytest.raises(Exception) as refused:
        call_command("backup", str(tmp_path / "older"), stdout=StringIO())

    assert "is not empty" in str(refused.value)
    assert sorted(path.name for path in (tmp_path / "older").iterdir()) == ["notes.txt"]


def test_an_interrupted_backup_is_refused_by_restore(db, tmp_path: Path):
    call_command("backup", str(tmp_path / "backup"), stdout=StringIO())
    (tmp_path / "backup" / "manifest.json").unlink()  # what a backup stopped before its last step looks like

    with pytest.raises(Exception) as refused:
        call_command("restore", str(tmp_path / "backup"), "--overwrite", stdout=StringIO())

    assert "interrupted" in str(refused.value)
