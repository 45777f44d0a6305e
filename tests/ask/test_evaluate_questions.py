"""`evaluate --questions FILE` on a tiny question set: the three layers, the sweep, the stored run, and the
regression report of the next run."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ask.evaluation import regressions
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


def test_a_bad_question_file_is_a_command_error(tmp_path, db):
    with pytest.raises(CommandError, match="no question file"):
        call_command("evaluate", "--questions", str(tmp_path / "missing.jsonl"), stdout=StringIO())
    path = write(tmp_path / "bad.jsonl", [{"id": "q", "question": "Why?", "kind": "direct",
                                           "expected_status": "maybe"}])
    with pytest.raises(CommandError, match="expected_status"):
        call_command("evaluate", "--questions", path, stdout=StringIO())
