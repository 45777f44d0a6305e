"""A small saved question set over tests/ask/conftest.py's KB, and waiting for a worker's run."""

from __future__ import annotations

import json
import time

SUPPORT = {"id": "support-hours", "kind": "direct", "question": "When does the support team answer email?",
           "expected_status": "answered", "required_sources": ["workspace-faq"], "required_points": ["Monday"]}
DOWNLOAD = {"id": "download", "kind": "unanswerable", "question": "Can the knowledge base be downloaded publicly?",
            "expected_status": "insufficient_evidence"}
REFUND_CONFLICT = {"id": "refund-conflict", "kind": "conflict",
                   "question": "How long is the refund window for annual subscriptions?",
                   "expected_status": "conflict", "required_sources": ["workspace-faq", "refund-policy"],
                   "fixtures": ["extra/refund-policy.md"]}
QUESTIONS = [SUPPORT, DOWNLOAD, REFUND_CONFLICT]


def jsonl(rows: list[dict]) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)


def wait_finished(run_id: int, timeout: float = 90.0):
    """The run once a worker has finished it (done or failed)."""
    from ask.models import QuestionRun

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = QuestionRun.objects.get(pk=run_id)
        if run.state in {"done", "failed"}:
            assert run.state == "done", run.error
            return run
        time.sleep(0.1)
    raise AssertionError(f"question run {run_id} did not finish within {timeout}s")


def save_and_run(*, name: str = "Workspace questions", rows: list[dict] = QUESTIONS, clearance: str = "internal"):
    """Save the set (queues its first run) and wait until a worker has run it."""
    from ask.regression import question_set_save

    question_set, run = question_set_save(name=name, text=jsonl(rows), source_filename="workspace.jsonl",
                                          clearance=clearance, user=None)
    return question_set, wait_finished(run.pk)
