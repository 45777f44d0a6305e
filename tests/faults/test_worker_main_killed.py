"""The worker's main process is SIGKILLed while it scores a small load of answers, and started again under the
same name, as run_console's supervisor does. Redis would give the messages it had taken back only after the
visibility timeout (an hour), and the stale sweep would ask again after 5 minutes: instead the new worker hands
back its predecessor's claims when it starts, so every accepted answer is final within 90 s of the restart and
every webhook arrives once, signed."""

import hashlib
import hmac
import json
import os
import signal
import time
from collections import Counter

import pytest

from kb.models import DocumentVersion
from review.models import Answer
from tests.faults.conftest import upload, wait_indexed
from tests.processes import stop, wait_until, worker_heartbeats

pytestmark = pytest.mark.django_db(transaction=True)

FINAL_WITHIN = 90  # seconds from the restart: the promise
ANSWERS = 12

POLICY = """# Expense policy

## Hotels

The nightly hotel cap is $220 in London and $325 in New York.

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.
"""

SUPPORTED = ["The nightly hotel cap is $220 in London.", "The nightly hotel cap is $325 in New York.",
             "The domestic per diem is $65 per day."]


def _frozen_with_claims(worker, claimed, *, timeout: float = 60.0) -> set[int]:
    """Stop (SIGSTOP) the worker's whole process group at a moment it holds claims, so none of them can finish
    between being seen and the kill; the claims it holds then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if claimed():
            os.killpg(worker.pid, signal.SIGSTOP)
            held = set(claimed())
            if held:
                return held
            os.killpg(worker.pid, signal.SIGCONT)  # it finished them in between: let it take the next ones
        time.sleep(0.05)
    return set()


def test_answers_claimed_by_a_killed_worker_are_finished_by_its_restart_and_each_webhook_arrives_once(
        stack, web_session, api_client, api_token, curator, approver, receiver, release_at):
    release_at(0.6)  # supported answers are released (and their webhooks sent), not held under the shipped threshold
    client, _ = api_token
    curator_web, approver_web = web_session(curator), web_session(approver)
    assert upload(curator_web, key="expense-policy", text=POLICY, owner=curator, new=True).status_code == 302
    policy = DocumentVersion.objects.get(document__key="expense-policy")
    assert approver_web.post(f"/kb/expense-policy/v{policy.number}/approve/").status_code == 302
    wait_indexed(policy, stack)

    accepted = []
    for number in range(ANSWERS):
        response = api_client.post("/api/v1/answers", json={
            "question": "What does the expense policy say?", "answer": SUPPORTED[number % len(SUPPORTED)],
            "callback_url": receiver.url + "/hook", "external_id": f"load-{number}"})
        assert response.status_code == 202, response.text
        accepted.append(response.json()["id"])

    def claimed_by_the_worker():
        return list(Answer.objects.filter(pk__in=accepted, status="scoring", scoring_worker=stack.worker_name)
                    .values_list("pk", flat=True))

    worker = stack.processes["worker"]
    main_pid = worker_heartbeats(stack.redis.url)[stack.worker_name]
    try:
        still_claimed = _frozen_with_claims(worker, claimed_by_the_worker)
        os.kill(main_pid, signal.SIGKILL)
        stop(worker, grace=0)  # what the supervisor does: its pool processes die with it
    finally:
        stack.start_process("worker")  # the next test of the stack needs a worker, whatever happened here
    assert still_claimed, "every answer finished before the worker could be caught scoring one"

    def every_answer_final():
        return not Answer.objects.filter(pk__in=accepted, status="scoring").exists()

    wait_until(every_answer_final, timeout=FINAL_WITHIN, what=lambda: "answers still scoring\n" + stack.logs())
    worker_log = (stack.directory / "worker.log").read_text()
    assert "handed back" in worker_log and "claims of workers that are gone" in worker_log

    released = set(Answer.objects.filter(pk__in=accepted, status="released").values_list("pk", flat=True))
    assert still_claimed & released, "an answer claimed by the killed worker was not released"

    def every_webhook_delivered():
        return set(Answer.objects.filter(pk__in=released, webhook_state="delivered")
                   .values_list("pk", flat=True)) == released

    wait_until(every_webhook_delivered, timeout=FINAL_WITHIN, what=lambda: "webhooks pending\n" + stack.logs())
    posted = Counter(json.loads(request["body"])["id"] for request in receiver.requests)
    assert posted == dict.fromkeys(released, 1)
    for request in receiver.requests:
        expected = "sha256=" + hmac.new(client.webhook_secret.encode(), request["body"], hashlib.sha256).hexdigest()
        assert request["headers"]["X-Signature"] == expected
