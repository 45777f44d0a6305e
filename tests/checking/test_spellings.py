"""British and American spellings are one word: a UK policy and an answer written in US English state the same
thing, and neither is a word the other lacks."""

import pytest

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.languages.en import american_spelling
from checking.text import stem_of
from checking.verdicts import supported_at


@pytest.mark.parametrize(("british", "american"), [
    ("colour", "color"), ("behavioural", "behavioral"), ("neighbourhood", "neighborhood"),
    ("organised", "organized"), ("organisation", "organization"), ("analysed", "analyzed"), ("centres", "centers"),
    ("litre", "liter"), ("travelled", "traveled"), ("cancelling", "canceling"), ("licence", "license"),
    ("paediatric", "pediatric"), ("grey", "gray"), ("programme", "program"),
])
def test_a_british_spelling_stems_as_the_american_one(british, american):
    assert stem_of(british) == stem_of(american)


@pytest.mark.parametrize("word", ["hour", "four", "flour", "tour", "called", "installed", "raise", "noise", "rise",
                                  "genre", "acre", "this", "basis", "crisis"])
def test_words_that_only_look_british_keep_their_spelling(word):
    assert american_spelling(word) == word


@pytest.mark.parametrize(("claim", "evidence"), [
    ("Gold has a yellow colour when in a mass.", "Gold has a yellow color when in a mass."),
    ("The company organised the travel centre.", "The company organized the travel center."),
    ("Employees travelling abroad are reimbursed in full.", "Employees traveling abroad are reimbursed in full."),
])
def test_a_claim_spelled_the_other_way_is_supported_without_a_substitution(claim, evidence):
    outcome = check_claim(claim=claim, candidates=[EvidenceCandidate(evidence)], embed=None)
    assert outcome.score >= supported_at(), outcome.reasons
    assert not any(reason.startswith(("claim says", "not found in evidence")) for reason in outcome.reasons)


def test_a_different_word_spelled_either_way_is_still_a_substitution():
    outcome = check_claim(claim="Gold has a yellow colour when in a mass.",
                          candidates=[EvidenceCandidate("Gold has a red color when in a mass.")], embed=None)
    assert outcome.score < supported_at()
