"""End to end with the real worker: API in, claims scored against the KB, routed, released by webhook."""

import hashlib
import hmac
import json
import time

import pytest

from tests.conftest import wait_scored

POLICY = """# Expense policy

## Hotels

The nightly hotel cap is $220 in London and $325 in New York.

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""

pytestmark = pytest.mark.django_db(transaction=True)



@pytest.fixture
def policy(publish):
    return publish(POLICY, key="expense-policy")


def test_wrong_number_goes_to_review_with_both_numbers_and_exact_offsets(api, celery_worker, policy, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    response = api.post("/api/v1/answers", {
        "question": "How long do I have to submit expenses?",
        "answer": "The domestic per diem is $65 per day. Expense reports must be submitted within 45 days after the trip ends.",
    })
    answer = wait_scored(response.json()["id"])

    body = api.get(f"/api/v1/answers/{answer.pk}").json()
    assert (body["status"], body["risk"]) == ("pending_review", "high")
    wrong = next(c for c in body["claims"] if "45 days" in c["text"])
    assert wrong["verdict"] == "contradicted"
    assert any("45" in reason and "30" in reason for reason in wrong["reasons"]), wrong["reasons"]
    evidence = wrong["evidence"][0]
    assert (evidence["document_key"], evidence["version"]) == ("expense-policy", policy.number)
    assert POLICY[evidence["quote_start"]:evidence["quote_end"]] == evidence["quote"]
    assert "30 days" in evidence["quote"]
    right = next(c for c in body["claims"] if "per diem" in c["text"])
    assert right["verdict"] == "supported"
    assert body["score"] == min(c["score"] for c in body["claims"])
    assert body["released_text"] is None


def test_supported_answer_is_released_and_the_webhook_arrives_once_signed(
    api, api_token, celery_worker, policy, receiver, settings, release_at
):
    release_at(0.6)
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0
    settings.REVIEW_HIGH_RISK_TOPICS = []
    client, _ = api_token
    response = api.post("/api/v1/answers", {
        "question": "What is the hotel cap in London?", "external_id": "chat-7",
        "answer": "The nightly hotel cap is $220 in London.", "callback_url": receiver.url + "/hook",
    })
    answer = wait_scored(response.json()["id"])
    assert (answer.status, answer.risk) == ("released", "low"), answer.routing_reasons

    requests = receiver.wait_for(1)
    time.sleep(1)  # a duplicate delivery would arrive by now
    assert len(receiver.requests) == 1
    delivered = requests[0]
    expected = "sha256=" + hmac.new(client.webhook_secret.encode(), delivered["body"], hashlib.sha256).hexdigest()
    assert delivered["headers"]["X-Signature"] == expected
    payload = json.loads(delivered["body"])
    assert payload == {"id": answer.pk, "external_id": "chat-7", "status": "released",
                       "released_text": "The nightly hotel cap is $220 in London.",
                       "decided_at": payload["decided_at"]}
    assert answer.deliveries.get().delivered


def test_failed_webhook_is_retried_until_accepted(api, celery_worker, policy, receiver, settings, release_at):
    release_at(0.6)
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0
    settings.REVIEW_HIGH_RISK_TOPICS = []
    receiver.respond(503, b"busy")
    receiver.respond(200)
    response = api.post("/api/v1/answers", {
        "question": "Per diem?", "answer": "The domestic per diem is $65 per day.",
        "callback_url": receiver.url + "/hook",
    })
    answer = wait_scored(response.json()["id"])

    receiver.wait_for(2, timeout=30)
    deadline = time.monotonic() + 10
    while not answer.deliveries.filter(delivered=True).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    attempts = list(answer.deliveries.order_by("attempt").values_list("attempt", "status_code", "delivered"))
    assert attempts == [(1, 503, False), (2, 200, True)]


def test_a_high_risk_topic_puts_even_an_unfound_claim_at_high_risk(api, celery_worker, policy):
    response = api.post("/api/v1/answers", {
        "question": "Can I get a refund on my contract?",
        "answer": "Our quantum teleportation service launches on Mars next spring.",
    })
    answer = wait_scored(response.json()["id"])

    assert (answer.status, answer.risk) == ("pending_review", "high")
    assert any("high-risk topic: contract, refund" in r for r in answer.routing_reasons), answer.routing_reasons


def test_timed_out_and_failing_checkers_are_skipped_and_recorded(api, celery_worker, policy, receiver, settings,
                                                                release_at):
    release_at(0.6)
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_CHECKER_TIMEOUT = 0.5
    settings.REVIEW_CHECKERS = ["builtin", "alignscore", "llm"]
    settings.REVIEW_ALIGNSCORE_URL = receiver.url + "/alignscore_large"
    settings.REVIEW_LLM_URL = "http://127.0.0.1:9/v1"  # nothing listens: connection refused
    receiver.respond(200, {"alignscore": 0.9}, delay=2.0)  # slower than the timeout

    response = api.post("/api/v1/answers", {"question": "Hotel cap?",
                                            "answer": "The nightly hotel cap is $325 in New York."})
    answer = wait_scored(response.json()["id"])

    assert answer.status == "released"  # scored by the built-in checker alone
    assert any(w.startswith("alignscore checker skipped: timed out") for w in answer.checker_warnings)
    assert any(w.startswith("llm checker skipped: ConnectError") for w in answer.checker_warnings)
    claim = answer.claims.get()
    assert claim.verdict == "supported"
    assert not any(r.startswith("alignscore score") for r in claim.reasons)


def test_a_low_alignscore_holds_a_claim_back(api, celery_worker, policy, receiver, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_CHECKERS = ["builtin", "alignscore"]
    settings.REVIEW_ALIGNSCORE_URL = receiver.url + "/alignscore_large"
    receiver.respond(200, {"alignscore": 0.1})

    response = api.post("/api/v1/answers", {"question": "Hotel cap?",
                                            "answer": "The nightly hotel cap is $325 in New York."})
    answer = wait_scored(response.json()["id"])

    # An outside checker's doubt is no contradiction: the claim could not be confirmed, medium risk.
    assert (answer.status, answer.risk) == ("pending_review", "medium")
    request = json.loads(receiver.requests[0]["body"])
    assert request["claim"] == "The nightly hotel cap is $325 in New York."
    assert "$325 in New York" in request["evidence"]
    assert "alignscore score 0.10" in answer.claims.get().reasons


def _check(api, answer: str) -> dict:
    response = api.post("/api/v1/check", {"question": "Hotel cap?", "answer": answer})
    assert response.status_code == 200, response.content
    return response.json()["claims"][0]


def test_a_supporting_alignscore_outweighs_words_the_builtin_checker_did_not_find(
        api, celery_worker, policy, receiver, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    answer = "The nightly hotel cap is $325 in New York, which covers a standard room with breakfast."
    alone = _check(api, answer)
    assert alone["verdict"] != "supported" and any(f["kind"] == "unsupported_addition" for f in alone["findings"])

    settings.REVIEW_CHECKERS = ["builtin", "alignscore"]
    settings.REVIEW_ALIGNSCORE_URL = receiver.url + "/alignscore_large"
    receiver.respond(200, {"alignscore": 0.95})
    chained = _check(api, answer)

    assert (chained["verdict"], chained["score"]) == ("supported", 0.95)
    assert any(f["kind"] == "external_support" for f in chained["findings"])


def test_a_builtin_contradiction_holds_even_when_alignscore_supports(api, celery_worker, policy, receiver, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_CHECKERS = ["builtin", "alignscore"]
    settings.REVIEW_ALIGNSCORE_URL = receiver.url + "/alignscore_large"
    receiver.respond(200, {"alignscore": 0.95})

    claim = _check(api, "The nightly hotel cap is $425 in New York.")

    assert claim["verdict"] == "contradicted" and claim["score"] <= 0.2
    assert any(f["kind"] == "quantity_mismatch" and f["effect"] == "contradicts" for f in claim["findings"])
