"""Paraphrase credit with the real word vectors (the packaged all-MiniLM-L6-v2, no database): what the stand-in
embedder of tests/checking/test_builtin_checker.py cannot show."""

from functools import cache

import numpy as np
import pytest

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.verdicts import uncertain_at, verdict_for
from kb.embeddings import Role

# The BLS release of March 2023 (shared corpus), its opening and the household survey's first paragraph: two
# chunks, so the checker must pick the one that says what the claim says.
OPENING = (
    "Total nonfarm payroll employment rose by 236,000 in March, and the unemployment rate\n"
    "changed little at 3.5 percent, the U.S. Bureau of Labor Statistics reported today.\n"
    "Employment continued to trend up in leisure and hospitality, government, professional\n"
    "and business services, and health care."
)
HOUSEHOLD = (
    "Both the unemployment rate, at 3.5 percent, and the number of unemployed persons, at\n"
    "5.8 million, changed little in March. These measures have shown little net movement\n"
    "since early 2022. (See table A-1.)"
)


@cache
def _provider():
    from kb.embeddings import local_provider

    return local_provider()


def embed(queries: list[str], passages: list[str]) -> tuple[np.ndarray, np.ndarray]:
    return (np.asarray(_provider().embed(queries, role=Role.QUERY), dtype=np.float32),
            np.asarray(_provider().embed(passages, role=Role.PASSAGE), dtype=np.float32))


@pytest.fixture(autouse=True)
def _local_model(settings):
    settings.KB_EMBEDDING_RUNTIME = "onnx"


def check(claim: str, *evidence: str):
    outcome = check_claim(claim=claim, candidates=[EvidenceCandidate(text) for text in evidence], embed=embed)
    return outcome, verdict_for(score=outcome.score, findings=outcome.findings, has_evidence=True)


def test_a_common_paraphrase_of_the_evidence_is_credited():
    """"jobless rate" stands where the evidence has "unemployment rate", "employers added ... jobs" where it has
    "payroll employment rose": the words are close in meaning (word vectors), the first also in the same place."""
    outcome, verdict = check("Employers added 236,000 jobs while the jobless rate held at 3.5 percent.",
                             HOUSEHOLD, OPENING)
    assert outcome.score >= uncertain_at(), outcome.reasons
    assert verdict in ("supported", "uncertain")
    assert not any(f.is_contradiction for f in outcome.findings), outcome.reasons
    assert outcome.candidate_index == 1  # the opening, which has both figures
    # still shown to a person: a word in another word's place may be a rival rather than a synonym
    assert "claim says 'jobless rate'; evidence says 'unemployment rate'" in outcome.reasons


def test_a_rival_word_in_the_same_place_stays_a_reason():
    outcome, _ = check("The mobile app supports offline editing.", "The desktop app supports offline editing.")
    assert "claim says 'mobile app'; evidence says 'desktop app'" in outcome.reasons
