"""POST /api/v1/ask on the real worker: refusal, extractive answer through scoring, conflict held for review,
clearance, bad input."""

import pytest

from ask.models import Ask
from review.models import Answer
from tests.ask.conftest import KB, REFUND_POLICY, VAULT

pytestmark = pytest.mark.django_db(transaction=True)


def ask(api, question: str, **extra) -> dict:
    response = api.post("/api/v1/ask", {"question": question, **extra})
    assert response.status_code == 200, response.content
    return response.json()


def test_a_question_the_sources_do_not_cover_is_refused_with_its_missing_terms(api, celery_worker, publish):
    publish(KB, key="workspace-faq")

    body = ask(api, "Can the knowledge base be downloaded publicly?")

    assert body["status"] == "insufficient_evidence"
    assert body["missing_terms"] == ["downloaded"]
    assert body["answer"] is None and body["claims"] == [] and body["answer_id"] is None
    assert not Answer.objects.exists()  # nothing is sent for review
    assert Ask.objects.get().status == "insufficient_evidence"  # the refusal is counted


def test_an_answer_quotes_its_sources_and_goes_through_scoring(api, celery_worker, publish, quiet_topics):
    version = publish(KB, key="workspace-faq")

    body = ask(api, "When does the support team answer email?")

    assert body["status"] == "answered" and body["generator"] == "extractive"
    assert body["claims"]
    for claim in body["claims"]:
        assert claim["source_id"]["document_key"] == "workspace-faq" and claim["source_id"]["version"] == 1
        assert version.text[claim["quote_start"]:claim["quote_end"]] == claim["text"]
    assert "Monday through Friday" in body["answer"]
    answer = Answer.objects.get(pk=body["answer_id"])
    assert answer.citations == [c["source_id"]["chunk_id"] for c in body["claims"]]
    assert body["risk"] in {"low", "medium", "high"} and body["answer_status"] in {"released", "pending_review"}
    assert body["risk"] == answer.risk
    assert body["answer_url"].endswith(f"/api/v1/answers/{answer.pk}")
    assert body["routing"] == ("auto-released" if answer.risk == "low" else "waits for review")


def test_conflicting_sources_are_named_and_held_for_review(api, celery_worker, publish, curator, quiet_topics):
    publish(KB, key="workspace-faq", title="Workspace FAQ")
    publish(REFUND_POLICY, key="refund-policy", title="Refund policy")

    body = ask(api, "Within how many days can annual subscriptions be refunded?")

    assert body["status"] == "conflict"
    sources = body["conflicts"][0]["sources"]
    assert {s["document_key"] for s in sources} == {"workspace-faq", "refund-policy"}
    assert {s["owner"] for s in sources} == {curator.username}
    assert {"30 days" in s["text"] or "45 days" in s["text"] for s in sources} == {True}
    answer = Answer.objects.get(pk=body["answer_id"])
    assert (answer.status, answer.risk) == ("pending_review", "high")
    assert any("approved sources conflict" in reason for reason in answer.routing_reasons)
    assert body["routing"] == "waits for review"


def test_a_document_above_the_clients_clearance_is_not_used(api, celery_worker, publish):
    publish(VAULT, key="vault-codes", security_level="restricted")

    body = ask(api, "How often is the server room door code changed?")

    assert body["status"] == "insufficient_evidence"  # the internal client cannot see the restricted document
    assert "door" in body["missing_terms"]


@pytest.mark.parametrize("payload", [
    {"question": ""}, {"question": "What\x00 is it?"}, {"question": "Refunds?", "k": 0},
    {"question": "Refunds?", "k": 21}, {"k": 5}, {"question": "x" * 2001},
])
def test_bad_input_is_a_400(api, payload):
    response = api.post("/api/v1/ask", payload)
    assert response.status_code == 400
    assert response.json()["error"] == "bad_request"


def test_without_a_token_it_is_a_401(client):
    response = client.post("/api/v1/ask", {"question": "Refunds?"}, content_type="application/json")
    assert response.status_code == 401


def test_a_question_is_checked_once_and_routed_as_it_is_answered(api, celery_worker, publish, quiet_topics,
                                                                 monkeypatch):
    from review import pipeline
    from tests.conftest import worker_idle_wait

    publish(KB, key="workspace-faq")
    checked: list[str] = []
    check = pipeline._answer_check

    def counted(**kwargs):
        checked.append(kwargs["answer_text"])
        return check(**kwargs)

    monkeypatch.setattr(pipeline, "_answer_check", counted)  # the web request's and the worker threads' checks

    body = ask(api, "When does the support team answer email?")

    answer = Answer.objects.get(pk=body["answer_id"])
    assert answer.status in {"released", "pending_review"} and answer.claims.exists()  # stored with its check
    assert answer.scoring_started_at is None  # no worker took it up
    worker_idle_wait()  # nothing left for a worker either
    assert checked == [body["answer"]]
