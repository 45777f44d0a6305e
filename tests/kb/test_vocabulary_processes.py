"""A pair accepted in one process counts in another at its next check, and a removed one stops counting there: a
process of its own (standing for a Celery worker or another web process) on the test database keeps checking
the same claim and question while this one changes the vocabulary, with no restart."""

import json
import subprocess
import sys

import pytest

from kb import vocabulary
from tests.processes import ROOT, own_redis_url, process_environment

pytestmark = pytest.mark.usefixtures("vocabulary_forgotten")

CLAIM = "Bring a sick note after three days off."
EVIDENCE = "Bring a medical certificate after three days off."
QUESTION = "Do I need a sick note after three days off?"
# Reads one line per check from stdin; says the claim's verdict and the gate's status. No embeddings: the checker
# and the gate judge by words (no worker answers on this Redis database, and the gate's word vectors are off).
CHECKER = f"""
import json, sys
import django
django.setup()
from ask.gate import gate_decide
from kb.models import Chunk
from kb.search import SearchHit
from checking.vocabulary import vocabulary_refresh
from review.pipeline import answer_check

hit = SearchHit(chunk=Chunk(text={EVIDENCE!r}, heading_path="Absence"), score=0.03, fulltext_rank=1, similarity=0.6,
                vector_rank=1)
for _line in sys.stdin:
    report = answer_check(question="", answer_text={CLAIM!r}, clearance="internal", contexts=[{EVIDENCE!r}],
                          retrieve=False, language="en", reviewed_facts=False)
    vocabulary_refresh()  # as ask_draft does before the gate
    gate = gate_decide(question={QUESTION!r}, hits=[hit], min_similarity=0.3, min_coverage=1.0)
    print(json.dumps([report.claims[0].verdict, gate.status]), flush=True)
"""


def test_another_process_sees_an_accepted_pair_at_its_next_check(transactional_db, curator, tmp_path):
    env = process_environment(redis_url=own_redis_url(5), var_dir=tmp_path, KB_QUERY_EMBED_TIMEOUT="0.2",
                              ASK_GATE_TERM_SIMILARITY="0")
    log = tmp_path / "checker.log"
    with log.open("w") as errors:
        other = subprocess.Popen([sys.executable, "-c", CHECKER], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=errors, text=True)

    def checked() -> list[str]:
        other.stdin.write("check\n")
        other.stdin.flush()
        line = other.stdout.readline()
        assert line, f"the other process ended: {log.read_text()[-3000:]}"
        return json.loads(line)

    try:
        assert checked() == ["contradicted", "insufficient_evidence"]

        synonym = vocabulary.synonym_add(language="en", words="sick note", other_words="medical certificate",
                                         curator=curator)
        assert checked() == ["supported", "answered"]

        vocabulary.synonym_remove(synonym=synonym, curator=curator)
        assert checked() == ["contradicted", "insufficient_evidence"]
    finally:
        other.stdin.close()
        other.wait(timeout=30)
