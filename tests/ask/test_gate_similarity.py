"""The evidence gate's word similarity (ASK_GATE_TERM_SIMILARITY, on by default) with the packaged model: a key
term the passage has only as a synonym or an inflection is covered; the phrase rule and opposites still hold."""

import pytest

from ask.gate import gate_decide
from kb import embeddings
from kb.models import Chunk
from kb.search import SearchHit

pytestmark = pytest.mark.django_db  # indexed word vectors are looked up first


@pytest.fixture(autouse=True)
def _model_in_process(monkeypatch):
    monkeypatch.setattr(embeddings, "_local_model_allowed", True)  # as a batch command does: no worker needed


def hit(text: str, heading: str = "Policy") -> SearchHit:
    return SearchHit(chunk=Chunk(text=text, heading_path=heading), score=0.03, fulltext_rank=1, similarity=0.6,
                     vector_rank=1)


def decide(question: str, *texts: str):
    return gate_decide(question=question, hits=[hit(text) for text in texts], min_similarity=0.3, min_coverage=1.0)


def test_a_key_term_the_passage_has_only_as_a_synonym_or_inflection_is_covered(settings):
    assert settings.ASK_GATE_TERM_SIMILARITY > 0  # the default
    upload = "Free accounts can attach files of up to 25 MB each; larger files need a paid plan."
    decision = decide("What is the biggest file a Free account can attach?", upload)
    assert decision.status == "answered" and decision.missing_terms == []  # "biggest": "larger"
    driving = "Employees who drive their own car on company business are reimbursed at $0.62 per mile."
    decision = decide("How much is the mileage reimbursement?", driving)
    assert decision.status == "answered" and decision.missing_terms == []  # "mileage": "mile"; "reimbursed"

    settings.ASK_GATE_TERM_SIMILARITY = 0  # by word family alone the same questions are refused
    assert decide("What is the biggest file a Free account can attach?", upload).missing_terms == ["biggest"]
    assert decide("How much is the mileage reimbursement?", driving).missing_terms == ["mileage"]


def test_a_similar_word_must_stand_where_the_rest_of_its_phrase_does():
    """"executives" is close to "executive", but in a passage that has nothing else of "chief executive officer"."""
    decision = decide("Who is the chief executive officer?",
                      "It is owned by the Chief Information Security Officer, Priya Natarajan.",
                      "A status update is sent to executives every 2 hours.")
    assert decision.status == "insufficient_evidence"
    assert decision.missing_terms == ["executive"]


def test_an_opposite_never_covers_a_key_term():
    """"junior" and "senior" are close word vectors (0.76) and opposites."""
    decision = decide("Which junior managers approve travel expenses?", "Senior managers approve travel expenses.")
    assert decision.missing_terms == ["junior"]
