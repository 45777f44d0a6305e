"""Generation through an OpenAI-compatible endpoint, faked at the httpx transport: a valid reply is used; bad
JSON, a schema violation, a quote outside its chunk and a timeout are rejected, recorded, and answered by the
extractive composer instead; the API key never reaches the logs."""

import json
import logging

import httpx
import pytest

from ask import llm
from ask.models import Ask
from console.models import AuditEvent
from kb.models import Chunk
from tests.ask.conftest import KB

pytestmark = pytest.mark.django_db(transaction=True)
API_KEY = "sk-test-secret-key-0123456789"
QUESTION = "When does the support team answer email?"


@pytest.fixture
def model(monkeypatch, settings):
    """The model endpoint: replies queued by the test, requests recorded."""
    settings.ASK_LLM_URL = "https://llm.example/v1"
    settings.ASK_LLM_API_KEY = API_KEY
    sent: list[httpx.Request] = []
    replies: list = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        reply = replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        content = reply if isinstance(reply, str) else json.dumps(reply)
        return httpx.Response(200, json={"choices": [{"message": {"content": content}}]})

    def post(url, **kwargs):
        with httpx.Client(transport=httpx.MockTransport(handler)) as client:
            return client.post(url, **kwargs)

    monkeypatch.setattr(llm.httpx, "post", post)
    return sent, replies


def _support_claim() -> dict:
    chunk = Chunk.objects.get(heading_path__endswith="Support")
    start = chunk.version.text.index("Our support team")
    end = chunk.version.text.index("6:00 p.m.") + len("6:00 p.m.")
    return {"source_id": {"document_key": "workspace-faq", "version": 1, "chunk_id": chunk.pk},
            "quote_start": start, "quote_end": end, "text": chunk.version.text[start:end]}


def test_a_valid_model_reply_is_the_answer(api, celery_worker, publish, model):
    sent, replies = model
    publish(KB, key="workspace-faq")
    claim = _support_claim()
    replies.append({"status": "answered", "answer": claim["text"], "claims": [claim]})

    body = api.post("/api/v1/ask", {"question": QUESTION}).json()

    assert body["generator"] == "llm" and body["status"] == "answered"
    assert body["claims"][0]["quote_start"] == claim["quote_start"]
    request = json.loads(sent[0].content)
    assert request["response_format"]["type"] == "json_schema"
    assert sent[0].headers["Authorization"] == f"Bearer {API_KEY}"
    assert Ask.objects.get().generation_error == ""


@pytest.mark.parametrize("reply, reason", [
    ("this is not JSON", "not JSON"),
    ({"status": "answered", "answer": "Email is answered on weekdays."}, "claims is missing"),
    ("moved-quote", "outside chunk"),
    (httpx.ReadTimeout("slow"), "did not answer within"),
])
def test_an_unusable_model_reply_is_rejected_recorded_and_answered_extractively(
        api, celery_worker, publish, model, caplog, reply, reason):
    _, replies = model
    publish(KB, key="workspace-faq")
    if reply == "moved-quote":
        claim = _support_claim()
        reply = {"status": "answered", "answer": "x", "claims": [{**claim, "quote_start": 0, "quote_end": 5}]}
    replies.append(reply)

    with caplog.at_level(logging.DEBUG):
        response = api.post("/api/v1/ask", {"question": QUESTION})

    assert response.status_code == 200
    body = response.json()
    assert body["generator"] == "extractive" and body["status"] == "answered"
    assert any("rejected" in warning and reason in warning for warning in body["warnings"])
    ask = Ask.objects.get()
    assert reason in ask.generation_error
    event = AuditEvent.objects.get(verb="ask.generation_rejected")
    assert reason in event.after["error"]
    assert API_KEY not in caplog.text and API_KEY not in ask.generation_error
