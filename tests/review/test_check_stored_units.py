"""A check reads its evidence units' vectors from the index and embeds its claims (and windows joining several
units); verdicts are the same as when the evidence is embedded at check time.

The embedder is an OpenAI-compatible endpoint on this machine (KB_EMBEDDING_PROVIDER=openai) that computes real
MiniLM vectors and records every text it is sent."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kb import services
from kb.embeddings import Role, get_provider, local_provider
from kb.models import ChunkUnit
from kb.vectors import recent_vectors_forget
from checking.analysis import analyze_claim
from checking.claims import split_claims
from review.pipeline import answer_check

pytestmark = pytest.mark.django_db(transaction=True)

POLICY = """# Travel policy

## Flights

Book economy class for flights under 6 hours. Business class is allowed on flights of more than 9 hours.
Flights must be booked at least 14 days before departure.

## Meals

- Breakfast: 15 euros per day
- Dinner: 40 euros per day

## Hotels

| City | Nightly cap |
|---|---|
| Paris | 180 euros |
| Berlin | 140 euros |
"""
ANSWER = ("Economy class is booked for flights under 6 hours. Flights must be booked at least 10 days before "
          "departure. The dinner allowance is 40 euros per day. The nightly hotel cap in Berlin is 140 euros.")


class _EmbeddingEndpoint:
    """/v1/embeddings answered with the local model's vectors; `texts` is everything it was asked to embed."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        model = local_provider()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                endpoint.texts += body["input"]
                vectors = model.embed(body["input"], role=Role.PASSAGE)  # the API has no roles
                payload = json.dumps({"data": [{"index": k, "embedding": v} for k, v in enumerate(vectors)]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def embedder(settings):
    endpoint = _EmbeddingEndpoint()
    settings.KB_EMBEDDING_PROVIDER = "openai"
    settings.KB_EMBEDDING_URL = endpoint.url
    get_provider.cache_clear()
    recent_vectors_forget()  # what earlier tests left in this process's cache would hide embedding calls
    yield endpoint
    endpoint.server.shutdown()
    get_provider.cache_clear()
    recent_vectors_forget()


def _claim_texts() -> set[str]:
    """The claims of ANSWER, and each of their words (embedded alone for paraphrase credit)."""
    texts = set()
    for span in split_claims(ANSWER):
        texts.add(span.text)
        texts |= set(analyze_claim(span.text, names=set()).words)
    return texts


def test_a_check_embeds_its_claims_and_nothing_of_the_evidence(publish, embedder):
    version = publish(POLICY, key="travel")
    unit_texts = set(ChunkUnit.objects.filter(chunk__version=version).values_list("text", flat=True))
    assert unit_texts
    embedder.texts.clear()

    report = answer_check(question="", answer_text=ANSWER, clearance="internal")

    assert len(report.claims) == 4 and all(c.evidence for c in report.claims)
    sent = set(embedder.texts)
    assert sent & _claim_texts(), "the claims are embedded"
    # Nothing of the evidence: not its units, nor windows joining several of them (composed from the units).
    assert sent <= _claim_texts(), sent - _claim_texts()


def test_without_stored_units_the_evidence_is_embedded_at_check_time(publish, embedder):
    version = publish(POLICY, key="travel")
    services.chunk_units_drop(version=version)  # as for a chunk of a version that can no longer be evidence
    embedder.texts.clear()

    answer_check(question="", answer_text=ANSWER, clearance="internal")

    evidence_texts = set(embedder.texts) - _claim_texts()
    assert any("Berlin" in text for text in evidence_texts)


def test_verdicts_are_the_same_with_and_without_stored_units(publish, embedder):
    version = publish(POLICY, key="travel")

    with_units = answer_check(question="", answer_text=ANSWER, clearance="internal")
    services.chunk_units_drop(version=version)
    recent_vectors_forget()
    without_units = answer_check(question="", answer_text=ANSWER, clearance="internal")

    assert [c.verdict for c in with_units.claims] == [c.verdict for c in without_units.claims]
    assert [c.verdict for c in with_units.claims][1] != "supported"  # 10 days against the policy's 14
    for stored, embedded in zip(with_units.claims, without_units.claims, strict=True):
        assert stored.score == pytest.approx(embedded.score, abs=1e-3)
        assert (stored.evidence[0].quote_start, stored.evidence[0].quote_end) == (
            embedded.evidence[0].quote_start, embedded.evidence[0].quote_end)
