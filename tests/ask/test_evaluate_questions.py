"""`evaluate --questions FILE` on a tiny question set: the three layers, the sweep, the stored run, and the
regression report of the next run."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ask.question_evaluation import regressions
from ask.models import QuestionRun
from review.models import Answer
from tests.ask.conftest import KB

pytestmark = pytest.mark.django_db(transaction=True)


def write(path, rows) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


QUESTIONS = [
    {"id": "q1", "kind": "direct", "question": "When does the support team answer email?",
     "expected_status": "answered", "required_sources": ["workspace-faq"], "required_points": ["Monday"],
     "forbidden_points": ["Sunday"]},
    {"id": "q2", "kind": "unanswerable", "question": "Can the knowledge base be downloaded publicly?",
     "expected_status": "insufficient_evidence", "required_sources": [], "required_points": [],
     "forbidden_points": []},
]


def test_the_question_set_is_reported_in_three_layers_and_stored(tmp_path, celery_worker, publish):
    publish(KB, key="workspace-faq")
    path = write(tmp_path / "questions.jsonl", QUESTIONS)

    out = StringIO()
    call_command("evaluate", "--questions", path, stdout=out)

    printed = out.getvalue()
    assert "retrieval (top 5)" in printed and "generation" in printed and "business" in printed
    rows: dict[str, list[list[str]]] = {}  # per kind: its row in retrieval, generation and business
    for line in printed.splitlines():
        if line.startswith("  ") and line.split():
            rows.setdefault(line.split()[0], []).append(line.split()[1:])
    assert rows["direct"][0][:2] == ["1", "1.00"]  # one question, its source recalled
    assert rows["direct"][1][:1] == ["1/1"] and rows["direct"][1][2] == "1/1"  # right status, claims supported
    assert rows["unanswerable"][1][:2] == ["1/1", "1/1"]  # refused as it should be
    assert "gate sweep" in printed and "<- current" in printed
    assert "every question as expected" in printed
    assert "first run of this file" in printed
    run = QuestionRun.objects.get()
    assert [r["status"] for r in run.results] == ["answered", "insufficient_evidence"]
    assert run.results[0]["claims_supported"] is True and run.results[0]["required_ranks"] == {"workspace-faq": 1}
    assert not Answer.objects.exists()  # evaluating sends nothing to review

    out = StringIO()
    call_command("evaluate", "--questions", path, "--no-sweep", stdout=out)
    assert f"regressions since run {run.pk}" in out.getvalue() and "none" in out.getvalue()


def test_regressions_name_what_got_worse():
    before = [{"id": "q", "status": "insufficient_evidence", "status_correct": True, "required_ranks": {"a": 2},
               "points_present": {"x": True}, "claims_supported": None, "forbidden_present": []}]
    after = [{"id": "q", "status": "answered", "status_correct": False, "required_ranks": {"a": None},
              "points_present": {"x": False}, "claims_supported": False, "forbidden_present": ["y"]}]
    found = [r.what for r in regressions(previous=before, current=after)]
    assert found == ["required source a no longer recalled (was rank 2)", "refusal became answered",
                     "point lost: 'x'", "forbidden point appeared: 'y'"]


def test_an_answer_become_a_refusal_and_a_release_instead_of_a_hold_are_regressions():
    base = {"required_ranks": {}, "points_present": {}, "claims_supported": True, "forbidden_present": []}
    before = [{**base, "id": "a", "status": "answered", "status_correct": True, "held": False},
              {**base, "id": "b", "status": "conflict", "status_correct": True, "held": True},
              {"id": "c", "not_applicable": True}]
    after = [{**base, "id": "a", "status": "insufficient_evidence", "status_correct": False, "held": None,
              "claims_supported": None},
             {**base, "id": "b", "status": "conflict", "status_correct": True, "held": False},
             {**base, "id": "c", "status": "answered", "status_correct": False, "held": False}]
    found = [(r.question_id, r.what) for r in regressions(previous=before, current=after)]
    assert found == [("a", "answered became a refusal"),
                     ("b", "routing changed: held for a person before, released automatically now")]


def test_a_bad_question_file_is_a_command_error(tmp_path, db):
    with pytest.raises(CommandError, match="no question file"):
        call_command("evaluate", "--questions", str(tmp_path / "missing.jsonl"), stdout=StringIO())
    path = write(tmp_path / "bad.jsonl", [{"id": "q", "question": "Why?", "kind": "direct",
                                           "expected_status": "maybe"}])
    with pytest.raises(CommandError, match="expected_status"):
        call_command("evaluate", "--questions", path, stdout=StringIO())


def test_fixtures_are_imported_only_when_asked(tmp_path, celery_worker, publish):
    from kb.models import Document
    from tests.ask.conftest import REFUND_POLICY

    publish(KB, key="workspace-faq")
    (tmp_path / "extra").mkdir()
    (tmp_path / "extra" / "refund-policy.md").write_text(REFUND_POLICY)
    conflict = {"id": "q3", "kind": "conflict", "question": "How long is the refund window for annual subscriptions?",
                "expected_status": "conflict", "required_sources": ["workspace-faq", "refund-policy"],
                "fixtures": ["extra/refund-policy.md"]}
    path = write(tmp_path / "questions.jsonl", [*QUESTIONS, conflict])

    out = StringIO()
    call_command("evaluate", "--questions", path, "--no-sweep", stdout=out)
    assert not Document.objects.filter(key="refund-policy").exists()
    assert "not applicable (1;" in out.getvalue() and "[q3] needs refund-policy" in out.getvalue()
    assert QuestionRun.objects.get().summary["all"]["questions"] == 2

    out = StringIO()
    call_command("evaluate", "--questions", path, "--no-sweep", "--load-fixtures", stdout=out)
    assert Document.objects.filter(key="refund-policy").exists()
    assert "not applicable" not in out.getvalue()
    latest = QuestionRun.objects.order_by("-pk").first()
    assert latest.summary["all"]["questions"] == 3 and latest.summary["all"]["not_applicable"] == 0


def test_save_keeps_the_set_and_compares_with_its_previous_run(tmp_path, celery_worker, publish):
    from ask.models import QuestionSet

    publish(KB, key="workspace-faq")
    path = write(tmp_path / "questions.jsonl", QUESTIONS)

    call_command("evaluate", "--questions", path, "--no-sweep", "--save", "Workspace", stdout=StringIO())
    out = StringIO()
    call_command("evaluate", "--questions", path, "--no-sweep", "--save", "Workspace", stdout=out)

    question_set = QuestionSet.objects.get()
    assert (question_set.name, question_set.clearance, len(question_set.questions)) == ("Workspace", "restricted", 2)
    first, second = question_set.runs.order_by("pk")
    assert (first.state, first.trigger, second.compared_with) == ("done", "manual", first)
    assert first.fingerprint and first.fingerprint == second.fingerprint
    assert f"regressions since run {first.pk}" in out.getvalue() and "saved as the question set" in out.getvalue()
    assert not question_set.runs.filter(state="queued").exists()  # the command ran it itself
