"""The question set pages: upload (and its 4xx), replace, deactivate, run now; who sees sets and runs (roles and
clearance); the dashboard's latest runs; the version page's block."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from ask.models import QuestionRun, QuestionSet, RunState, RunTrigger
from ask.regression import question_set_save
from console.models import AuditEvent
from tests.ask.question_sets import QUESTIONS, jsonl

pytestmark = pytest.mark.django_db


def _upload(client, content: bytes | str, *, name="Workspace questions", filename="workspace.jsonl",
            clearance="internal"):
    raw = content.encode() if isinstance(content, str) else content
    return client.post("/ask/sets/", {"name": name, "clearance": clearance,
                                      "file": SimpleUploadedFile(filename, raw, content_type="application/x-ndjson")})


def _done_run(question_set, *, regressions=()) -> QuestionRun:
    summary = {"all": {"questions": 2, "status_correct": 1, "refusals_correct": 1, "refusals_expected": 1,
                       "recall_at_k": 0.5, "claims_supported": 0, "checked": 1, "held": 0, "released": 1,
                       "not_applicable": 1}}
    results = [{"id": "support-hours", "kind": "direct", "question": "When?", "expected_status": "answered",
                "not_applicable": True, "missing_documents": ["x"]}]
    return QuestionRun.objects.create(question_set=question_set, clearance=question_set.clearance,
                                      state=RunState.DONE, trigger=RunTrigger.MANUAL, summary=summary,
                                      results=results, regressions=list(regressions))


def test_a_curator_saves_a_set_and_a_run_is_queued(client, curator):
    client.force_login(curator)

    response = _upload(client, jsonl(QUESTIONS))

    question_set = QuestionSet.objects.get()
    assert response.status_code == 302 and response["Location"] == "/ask/sets/workspace-questions/"
    assert (question_set.slug, question_set.clearance, question_set.created_by) == (
        "workspace-questions", "internal", curator)
    assert [q["id"] for q in question_set.questions] == ["support-hours", "download", "refund-conflict"]
    assert question_set.runs.get().state == RunState.QUEUED
    assert AuditEvent.objects.filter(verb="question_set.create").exists()
    page = client.get(response["Location"]).content.decode()
    assert "3 from <span class=\"mono\">workspace.jsonl</span>" in page and 'data-run-state="queued"' in page


def test_uploading_under_the_same_name_replaces_the_questions_and_keeps_the_runs(client, curator):
    client.force_login(curator)
    _upload(client, jsonl(QUESTIONS))
    question_set = QuestionSet.objects.get()
    _done_run(question_set)

    response = _upload(client, jsonl(QUESTIONS[:1]), filename="smaller.jsonl")

    question_set.refresh_from_db()
    assert response.status_code == 302
    assert (len(question_set.questions), question_set.source_filename) == (1, "smaller.jsonl")
    assert question_set.runs.count() == 2  # the finished run stays; one queued (the first queued one takes it in)


@pytest.mark.parametrize(("content", "filename", "message"), [
    (b"\xff\xfe{}", "q.jsonl", "is not valid UTF-8 (byte 0xff at position 0)"),
    (b'{"id": "a"}\x00', "q.jsonl", "looks like a binary file"),
    ('{"id": "a", "question": ', "q.jsonl", "q.jsonl:1: not JSON"),
    ('{"id": "a", "question": "Why?"}\n', "q.jsonl", "q.jsonl:1: needs &#x27;kind&#x27;, &#x27;expected_status&#x27;"),
    ('{"id": "a", "question": "Why?", "kind": "direct", "expected_status": "maybe"}', "q.jsonl", "expected_status in"),
    ('{"id": "a", "question": "Why?", "kind": "d", "expected_status": "answered", "colour": "red"}', "q.jsonl",
     "unknown field &#x27;colour&#x27;"),
    ('{"id": "a", "question": "Why?", "kind": "d", "expected_status": "answered", "fixtures": "x.md"}', "q.jsonl",
     "&#x27;fixtures&#x27; must be a list of strings"),
    ('{"id": "a", "question": "Why\\u0000?", "kind": "d", "expected_status": "answered"}', "q.jsonl",
     "a control character (U+0000)"),
    ("[1, 2]", "q.jsonl", "each line must be a JSON object"),
    ("\n\n", "q.jsonl", "q.jsonl holds no questions"),
    (jsonl(QUESTIONS), "questions.csv", "is not a JSON-lines file"),
])
def test_a_bad_question_file_is_a_400_saying_what_is_wrong(client, curator, content, filename, message):
    client.force_login(curator)

    response = _upload(client, content, filename=filename)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not QuestionSet.objects.exists()


def test_a_file_past_the_upload_limit_is_refused(client, curator, settings):
    settings.KB_MAX_UPLOAD_BYTES = 200
    client.force_login(curator)

    response = _upload(client, jsonl(QUESTIONS))

    assert response.status_code == 400 and "the limit is 0.0 MB" in response.content.decode()
    assert not QuestionSet.objects.exists()


def test_a_set_cannot_run_above_the_uploaders_clearance(client, curator):
    client.force_login(curator)  # internal clearance

    response = _upload(client, jsonl(QUESTIONS), clearance="restricted")

    assert response.status_code == 400 and not QuestionSet.objects.exists()


def test_uploading_needs_the_csrf_token(curator):
    client = Client(enforce_csrf_checks=True)
    client.force_login(curator)

    response = _upload(client, jsonl(QUESTIONS))

    assert response.status_code == 403 and not QuestionSet.objects.exists()


@pytest.mark.parametrize("who", ["reviewer", "viewer_user", "outsider"])
def test_only_curators_approvers_and_admins_keep_sets(client, request, who):
    question_set, _ = question_set_save(name="Set", text=jsonl(QUESTIONS), source_filename="s.jsonl",
                                        clearance="public", user=None)
    client.force_login(request.getfixturevalue(who))

    assert client.get("/ask/sets/").status_code == 403
    assert _upload(client, jsonl(QUESTIONS)).status_code == 403
    assert client.post(f"/ask/sets/{question_set.slug}/active/", {"active": "0"}).status_code == 403
    assert client.post(f"/ask/sets/{question_set.slug}/run/").status_code == 403


def test_runs_need_a_role_and_the_sets_clearance(client, reviewer, viewer_user, curator, admin_user):
    secret, _ = question_set_save(name="Merger questions", text=jsonl(QUESTIONS), source_filename="m.jsonl",
                                  clearance="restricted", user=None)
    run = _done_run(secret)

    client.force_login(viewer_user)  # no role that reads runs
    assert client.get(f"/ask/runs/{run.pk}/").status_code == 403
    for user in (reviewer, curator):  # internal clearance
        client.force_login(user)
        assert client.get(f"/ask/runs/{run.pk}/").status_code == 404
    assert client.get(f"/ask/sets/{secret.slug}/").status_code == 404
    assert client.post(f"/ask/sets/{secret.slug}/run/").status_code == 404
    assert "Merger questions" not in client.get("/ask/sets/").content.decode()
    assert "Merger questions" not in client.get("/").content.decode()
    client.force_login(admin_user)
    assert client.get(f"/ask/runs/{run.pk}/").status_code == 200
    assert "Merger questions" in client.get("/ask/sets/").content.decode()


def test_deactivating_stops_the_runs_and_activating_queues_one(client, curator):
    question_set, queued = question_set_save(name="Set", text=jsonl(QUESTIONS), source_filename="s.jsonl",
                                             clearance="internal", user=None)
    queued.delete()
    client.force_login(curator)

    client.post(f"/ask/sets/{question_set.slug}/active/", {"active": "0"})
    question_set.refresh_from_db()
    assert not question_set.active
    assert client.post(f"/ask/sets/{question_set.slug}/run/").status_code == 302
    assert not question_set.runs.exists()  # an inactive set does not run

    client.post(f"/ask/sets/{question_set.slug}/active/", {"active": "1"})
    question_set.refresh_from_db()
    assert question_set.active and question_set.runs.get().trigger == RunTrigger.MANUAL
    client.post(f"/ask/sets/{question_set.slug}/run/")
    assert question_set.runs.count() == 1  # a run already waits: the request joins it


def test_the_dashboard_shows_each_sets_latest_run_and_what_got_worse(client, reviewer):
    question_set, queued = question_set_save(name="Workspace questions", text=jsonl(QUESTIONS),
                                             source_filename="w.jsonl", clearance="internal", user=None)
    queued.delete()
    run = _done_run(question_set, regressions=[{"question_id": "support-hours", "what": "point lost: 'Monday'"}])
    client.force_login(reviewer)

    page = client.get("/").content.decode()

    assert 'id="question-set-workspace-questions"' in page and f"run {run.pk}</a>" in page
    assert "status right <strong>1/2</strong>" in page and "1 not applicable" in page
    assert "1 got worse" in page and f'href="/ask/runs/{run.pk}/#q-support-hours"' in page


def test_the_run_page_lists_every_question_with_an_anchor(client, reviewer):
    question_set, queued = question_set_save(name="Workspace questions", text=jsonl(QUESTIONS),
                                             source_filename="w.jsonl", clearance="internal", user=None)
    run = _done_run(question_set)
    client.force_login(reviewer)

    page = client.get(f"/ask/runs/{run.pk}/").content.decode()

    assert 'id="q-support-hours"' in page and "not applicable" in page
    assert "First run of this set" in page
    assert client.get(f"/ask/runs/{queued.pk}/").status_code == 200  # not run yet: says so
    assert client.get("/ask/runs/999999/").status_code == 404


def test_a_cli_run_without_a_set_is_no_page(client, admin_user):
    run = QuestionRun.objects.create(questions_file="eval/x.jsonl", clearance="public", results=[], summary={})
    client.force_login(admin_user)

    assert client.get(f"/ask/runs/{run.pk}/").status_code == 404
