"""The pool process indexing a new version is killed: Celery redelivers the same message, its task takes its own
claim back and finishes — within the 2-minute promise, long before the stalled-job sweep (10 minutes) would — and
the approved previous version answers searches all along."""

import os
import signal
import time

import pytest

from kb.models import DocumentVersion
from tests.faults.conftest import RECOVERY_SECONDS, upload, wait_indexed
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = "# Handbook\n\n## Leave\n\nAnnual leave is 25 days a year for every employee.\n"


def _long_second_version(sections: int = 400) -> str:
    filler = " ".join(f"Clause {{i}} covers topic {word} in the staff rules of the company." for word in
                      ("arrival", "badges", "canteen", "desks", "equipment", "facilities", "guests"))
    body = "\n\n".join(f"## Rule {i}\n\n{filler.format(i=i)}" for i in range(sections))
    return f"# Handbook\n\n## Leave\n\nAnnual leave is 28 days a year for every employee.\n\n{body}\n"


def test_indexing_finishes_after_its_pool_process_is_killed_and_the_old_version_answers_throughout(
        stack, web_session, api_client, curator, approver, settings):
    curator_web, approver_web = web_session(curator), web_session(approver)
    assert upload(curator_web, key="handbook", text=FIRST, owner=curator, new=True).status_code == 302
    first = DocumentVersion.objects.get(document__key="handbook", number=1)
    assert approver_web.post("/kb/handbook/v1/approve/").status_code == 302
    wait_indexed(first, stack)

    assert upload(curator_web, key="handbook", text=_long_second_version(), owner=curator, new=False).status_code == 302
    second = DocumentVersion.objects.get(document__key="handbook", number=2)
    assert approver_web.post("/kb/handbook/v2/approve/").status_code == 302

    def indexing_under_way():
        second.refresh_from_db()
        return second.index_state == "indexing" and 0 < second.index_done < second.index_total and second.index_task_id

    wait_until(indexing_under_way, timeout=60, what=lambda: f"indexing never got under way\n{stack.logs()}")
    running = wait_until(lambda: stack.running_task("kb.tasks.version_index"), timeout=15,
                         what="the worker does not report the indexing task as running")
    task_id, pool_pid = running
    assert task_id == second.index_task_id
    os.kill(pool_pid, signal.SIGKILL)
    killed_at = time.monotonic()

    searches = 0
    while True:
        response = api_client.get("/api/v1/search", params={"q": "annual leave days"})
        second.refresh_from_db()  # read after the search: if not ready now, it was not ready during it
        assert response.status_code == 200, response.text
        versions = {(hit["document_key"], hit["version"]) for hit in response.json()["results"]}
        searches += 1
        if second.index_state == "ready":
            break
        assert versions == {("handbook", 1)}, f"search {searches}: {versions}"
        assert second.index_state in {"queued", "indexing"}, second.index_error
        assert time.monotonic() - killed_at < RECOVERY_SECONDS, f"not indexed in time\n{stack.logs()}"
        time.sleep(0.5)

    assert second.index_task_id == task_id  # finished by the redelivered message, not by a sweep's new one
    assert second.chunks.count() == second.index_done == second.index_total
    first.refresh_from_db()
    assert first.status == "superseded"
    hits = api_client.get("/api/v1/search", params={"q": "annual leave days"}).json()["results"]
    assert hits[0]["version"] == 2 and "28 days" in hits[0]["text"]
    assert "WorkerLostError" in (stack.directory / "worker.log").read_text()
