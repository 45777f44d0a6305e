"""POST /api/v1/answers takes the assistant's own context (model, trace link, retrieved passages); GET returns it;
the OpenAPI document describes it; a trace link that is not http(s) and passages beyond the bounds are refused."""

import pytest

from review.models import Answer

pytestmark = pytest.mark.django_db

BODY = {"question": "How long do refunds take?", "answer": "Refunds are paid within 14 days."}
CONTEXT = {"model": "gpt-4o-mini-2024-07-18", "trace_url": "https://cloud.langfuse.com/trace/abc-123",
           "retrieved": [{"text": "Refunds are paid within 14 days of the request.", "source": "refunds.md",
                          "score": 0.82}, {"text": "Shipping takes 3 days."}]}


def test_assistant_context_is_stored_and_returned(api):
    created = api.post("/api/v1/answers", {**BODY, **CONTEXT})

    assert created.status_code == 202
    body = api.get(f"/api/v1/answers/{created.json()['id']}").json()
    assert body["model"] == "gpt-4o-mini-2024-07-18"
    assert body["trace_url"] == "https://cloud.langfuse.com/trace/abc-123"
    assert body["retrieved"] == [
        {"text": "Refunds are paid within 14 days of the request.", "source": "refunds.md", "score": 0.82},
        {"text": "Shipping takes 3 days.", "source": "", "score": None}]


def test_answer_without_context_reads_empty(api):
    created = api.post("/api/v1/answers", BODY)

    body = api.get(f"/api/v1/answers/{created.json()['id']}").json()
    assert (body["model"], body["trace_url"], body["retrieved"]) == ("", None, [])


@pytest.mark.parametrize("url", ["javascript:alert(1)", "data:text/html,hi", "ftp://example.com/trace",
                                 "not a url"])
def test_trace_link_that_is_not_http_is_400(api, url):
    response = api.post("/api/v1/answers", {**BODY, "trace_url": url})

    assert response.status_code == 400
    assert "trace_url" in response.json()["detail"]
    assert not Answer.objects.exists()


def test_too_many_retrieved_passages_is_400(api):
    response = api.post("/api/v1/answers", {**BODY, "retrieved": [{"text": f"passage {i}"} for i in range(51)]})

    assert response.status_code == 400
    assert not Answer.objects.exists()


def test_retrieved_passage_too_long_is_400(api):
    response = api.post("/api/v1/answers", {**BODY, "retrieved": [{"text": "x" * 20_001}]})

    assert response.status_code == 400
    assert "retrieved" in response.json()["detail"]


def test_body_beyond_the_request_limit_is_413(api, settings):
    passages = [{"text": "y" * 20_000} for _ in range(50)]  # a megabyte of passages

    response = api.post("/api/v1/answers", {**BODY, "retrieved": passages})

    assert response.status_code == 413
    assert not Answer.objects.exists()


def test_same_idempotency_key_with_other_context_is_409(api):
    api.post("/api/v1/answers", {**BODY, **CONTEXT}, **{"Idempotency-Key": "ctx-1"})

    response = api.post("/api/v1/answers", {**BODY, **CONTEXT, "model": "other"}, **{"Idempotency-Key": "ctx-1"})

    assert response.status_code == 409


def test_openapi_describes_the_context_fields(client):
    schemas = client.get("/api/openapi.json").json()["components"]["schemas"]

    assert {"model", "trace_url", "retrieved"} <= set(schemas["AnswerIn"]["properties"])
    assert {"model", "trace_url", "retrieved"} <= set(schemas["AnswerOut"]["properties"])
    assert set(schemas["RetrievedIn"]["properties"]) == {"text", "source", "score"}
