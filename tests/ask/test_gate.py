"""The evidence gate on hand-made hits: no database, no model (similarities are given, key terms matched by word
family only; word similarity is tested with the model in test_gate_similarity.py)."""

import pytest

from ask.gate import gate_decide, key_terms
from kb.models import Chunk
from kb.search import SearchHit


@pytest.fixture(autouse=True)
def _word_families_only(settings):
    settings.ASK_GATE_TERM_SIMILARITY = 0


def hit(text: str, similarity: float | None = 0.6, heading: str = "FAQ") -> SearchHit:
    return SearchHit(chunk=Chunk(text=text, heading_path=heading), score=0.03, fulltext_rank=1,
                     similarity=similarity, vector_rank=1)


def test_key_terms_leave_out_question_words_stop_words_and_degree_words():
    assert [t.word for t in key_terms("How long can the knowledge base be downloaded publicly?")] == [
        "knowledge", "base", "downloaded", "publicly"]
    assert [t.word for t in key_terms("How quickly must a lost laptop be reported?")] == ["lost", "laptop", "reported"]


def test_the_issue_example_is_refused_with_the_missing_term():
    decision = gate_decide(question="Can the knowledge base be downloaded publicly?",
                           hits=[hit("The knowledge base is only for the current workspace, not public.")],
                           min_similarity=0.3, min_coverage=1.0)
    assert decision.status == "insufficient_evidence"
    assert decision.missing_terms == ["downloaded"]


def test_covered_by_word_family_is_answered():
    decision = gate_decide(question="Is the knowledge base public?",
                           hits=[hit("The knowledge base is only for the current workspace, not public.")],
                           min_similarity=0.3, min_coverage=1.0)
    assert decision.status == "answered" and decision.missing_terms == []


def test_hits_below_the_similarity_threshold_are_no_evidence():
    decision = gate_decide(question="Is the knowledge base public?",
                           hits=[hit("The knowledge base is not public.", similarity=0.2)],
                           min_similarity=0.3, min_coverage=1.0)
    assert decision.status == "insufficient_evidence" and decision.qualified == []
    assert decision.missing_terms == ["knowledge", "base", "public"]


def test_a_phrase_must_be_covered_in_one_passage():
    hits = [hit("It is owned by the Chief Information Security Officer, Priya Natarajan."),
            hit("A status update is sent to executives every 2 hours.")]
    decision = gate_decide(question="Who is the chief executive officer?", hits=hits, min_similarity=0.3,
                           min_coverage=1.0)
    assert decision.missing_terms == ["executive"]
    assert gate_decide(question="Who is the chief executive officer?", hits=hits, min_similarity=0.3,
                       min_coverage=0.6).status == "answered"


def test_without_vectors_full_text_matches_qualify():
    decision = gate_decide(question="Is the knowledge base public?",
                           hits=[hit("The knowledge base is not public.", similarity=None)],
                           min_similarity=0.3, min_coverage=1.0)
    assert decision.status == "answered"
