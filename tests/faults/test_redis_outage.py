"""Redis stops while answers arrive, a curator uploads and reviewers decide: every request that committed is
answered 202/302, synchronous checks get a clear 503, nothing is duplicated, and once Redis is back every answer
is scored, every version indexed and every webhook delivered — found by the sweeps, since the restarted Redis
has lost its queue."""

import json
from collections import Counter

import pytest

from kb.models import Document, DocumentVersion
from review.models import Answer
from tests.faults.conftest import RECOVERY_SECONDS, upload, wait_indexed
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

POLICY = """# Expense policy

## Hotels

The nightly hotel cap is $220 in London and $325 in New York.

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.
"""

TRAVEL = """# Travel

## Booking

Book economy class for flights under 6 hours. Trains are preferred for trips under 4 hours.
"""


def test_requests_during_a_redis_outage_are_accepted_and_finished_after_it(
        stack, web_session, api_client, curator, approver, reviewer, make_answer, receiver, release_at):
    release_at(0.6)  # the supported answer below is released at the band, not held under the shipped threshold
    hook = receiver.url + "/hook"
    curator_web, approver_web, reviewer_web = web_session(curator), web_session(approver), web_session(reviewer)
    assert upload(curator_web, key="expense-policy", text=POLICY, owner=curator, new=True).status_code == 302
    policy = DocumentVersion.objects.get(document__key="expense-policy")
    assert approver_web.post(f"/kb/expense-policy/v{policy.number}/approve/").status_code == 302
    wait_indexed(policy, stack)
    # Its claim is supported: approving needs no claim marked first (flagged ones must be).
    to_approve = make_answer(question="Refund window?", callback_url=hook,
                             claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    to_reject = make_answer(question="Refund amount?", callback_url=hook)

    stack.redis.stop()

    # Answer intake: accepted and stored once; a retry with the same Idempotency-Key is the same answer.
    released = api_client.post("/api/v1/answers", json={
        "question": "What is the hotel cap in London?", "answer": "The nightly hotel cap is $220 in London.",
        "callback_url": hook})
    assert released.status_code == 202, released.text
    keyed = [api_client.post("/api/v1/answers", headers={"Idempotency-Key": "outage-1"}, json={
        "question": "Per diem?", "answer": "The domestic per diem is $90 per day."}) for _ in range(2)]
    assert [r.status_code for r in keyed] == [202, 202]
    assert keyed[0].json()["id"] == keyed[1].json()["id"]
    intake_ids = {released.json()["id"], keyed[0].json()["id"]}
    assert set(Answer.objects.filter(status="scoring").values_list("pk", flat=True)) == intake_ids

    # Synchronous work cannot be done: a clear 503 with Retry-After; search falls back to full text.
    check = api_client.post("/api/v1/check", json={"answer": "The nightly hotel cap is $220 in London."})
    assert check.status_code == 503, check.text
    assert check.json()["error"] == "unavailable"
    assert int(check.headers["Retry-After"]) > 0
    search = api_client.get("/api/v1/search", params={"q": "hotel cap London"})
    assert search.status_code == 200, search.text
    assert any("Vector search unavailable" in w for w in search.json()["warnings"])
    assert search.json()["results"][0]["document_key"] == "expense-policy"

    # Upload and re-index: the version exists, queued; asking again is accepted too.
    assert upload(curator_web, key="travel", text=TRAVEL, owner=curator, new=True).status_code == 302
    travel = DocumentVersion.objects.get(document__key="travel")
    assert travel.index_state == "queued"
    assert curator_web.post(f"/kb/travel/v{travel.number}/reindex/").status_code == 302

    # Decisions: committed, and their webhooks wait as pending.
    assert reviewer_web.post(f"/review/answers/{to_approve.pk}/decide/",
                             {"action": "approve", "reason": "checked against the contract"}).status_code == 302
    assert reviewer_web.post(f"/review/answers/{to_reject.pk}/decide/", {"action": "reject"}).status_code == 302
    decided = {a.pk: (a.status, a.webhook_state) for a in Answer.objects.filter(pk__in=[to_approve.pk, to_reject.pk])}
    assert decided == {to_approve.pk: ("approved", "pending"), to_reject.pk: ("rejected", "pending")}

    stack.redis.start()

    def every_answer_scored():
        return not Answer.objects.filter(status="scoring").exists()

    wait_until(every_answer_scored, timeout=RECOVERY_SECONDS, what=lambda: "answers still scoring\n" + stack.logs())
    released_answer = Answer.objects.get(pk=released.json()["id"])
    assert released_answer.status == "released", released_answer.routing_reasons
    assert Answer.objects.get(pk=keyed[0].json()["id"]).status == "pending_review"  # $90 contradicts $65
    wait_indexed(travel, stack, timeout=RECOVERY_SECONDS)
    expected_hooks = {to_approve.pk, to_reject.pk, released_answer.pk}

    def every_webhook_delivered():
        return set(Answer.objects.filter(webhook_state="delivered").values_list("pk", flat=True)) == expected_hooks

    wait_until(every_webhook_delivered, timeout=RECOVERY_SECONDS,
               what=lambda: f"webhooks: {list(Answer.objects.values_list('pk', 'webhook_state'))}\n{stack.logs()}")

    # Nothing twice: one answer per request (and key), one version per upload, one post per webhook.
    assert Answer.objects.count() == 4
    assert Document.objects.get(key="travel").versions.count() == 1
    travel.refresh_from_db()
    assert travel.chunks.count() == travel.index_total > 0
    posted = Counter(json.loads(r["body"])["id"] for r in receiver.requests)
    assert posted == dict.fromkeys(expected_hooks, 1)
    statuses = {json.loads(r["body"])["id"]: json.loads(r["body"])["status"] for r in receiver.requests}
    assert statuses == {to_approve.pk: "approved", to_reject.pk: "rejected", released_answer.pk: "released"}

    # The web process recovers by itself: synchronous checks work again.
    check = api_client.post("/api/v1/check", json={"answer": "The nightly hotel cap is $220 in London."})
    assert check.status_code == 200, check.text
    assert check.json()["claims"][0]["verdict"] == "supported"
