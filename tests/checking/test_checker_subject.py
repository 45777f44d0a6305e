"""The subject rule: a statement moved onto another subject is not supported by the passage it came from."""

from functools import partial

import pytest

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import FindingKind
from checking.verdicts import supported_at, verdict_for
from tests.checking.checker_inputs import bag_of_words_embed

rules_check = partial(check_claim, fitted=False, embed=bag_of_words_embed)

SECURITY = (
    "Laptops must lock after 5 minutes without activity. Shared accounts are not allowed, except for "
    "break-glass admin accounts kept in a sealed vault. An account is locked for 15 minutes after 10 failed "
    "sign-in attempts."
)


def kinds(claim: str, evidence: str = SECURITY) -> set[FindingKind]:
    return {f.kind for f in rules_check(claim=claim, candidates=[EvidenceCandidate(evidence)]).findings}


@pytest.mark.parametrize(
    ("claim", "named"),
    [
        ("Support must lock after 5 minutes without activity.", "Support"),
        ("Principles are not allowed, except for break-glass admin accounts kept in a sealed vault.", "Principles"),
        ("Phishing and training is locked for 15 minutes after 10 failed sign-in attempts.", "Phishing and training"),
    ],
)
def test_a_statement_moved_onto_another_subject_is_held(claim, named):
    outcome = rules_check(claim=claim, candidates=[EvidenceCandidate(SECURITY)])
    finding = next(f for f in outcome.findings if f.kind is FindingKind.MISSING_SUBJECT)
    assert outcome.score < supported_at()
    assert claim[finding.claim_span[0] : finding.claim_span[1]] == named
    start, end = finding.evidence_span
    assert SECURITY[start:end] in {"Laptops", "accounts", "account"}


@pytest.mark.parametrize(
    "claim",
    [
        "Laptops must lock after 5 minutes without activity.",  # the subject itself
        "Each laptop must lock after 5 minutes without activity.",  # the subject in another form
        "After 5 minutes without activity laptops must lock.",  # a fronted phrase: no subject at the start
        "It must lock after 5 minutes without activity.",  # a pronoun: left to the other measures
    ],
)
def test_the_same_or_an_unreadable_subject_is_no_finding(claim):
    assert FindingKind.MISSING_SUBJECT not in kinds(claim)


def test_a_subject_the_evidence_never_uses_with_that_predicate_is_only_soft_doubt():
    """Another word for the subject ("the expedition" for "the mission") is a paraphrase as often as not: without
    the same predicate said of a rival subject, the rule stays silent."""
    evidence = "Juan de Salas and Juan de Ortega led an expedition to the region in 1629."
    assert FindingKind.MISSING_SUBJECT not in kinds("The mission was led by Juan de Salas and Juan de Ortega.",
                                                    evidence)


def test_what_a_passage_about_another_subject_says_is_no_contradiction():
    """"Taxis are allowed" does not contradict "Shared accounts are not allowed": the claim is not found, not
    contradicted, and a reviewer is not told the source says otherwise."""
    travel = "Taxis and ride-share services are allowed between airports, hotels and client sites."
    outcome = rules_check(claim="Shared accounts are not allowed, except for break-glass admin accounts.",
                          candidates=[EvidenceCandidate(travel)])
    found = {f.kind for f in outcome.findings}
    assert {FindingKind.NEGATION, FindingKind.MISSING_SUBJECT} <= found
    assert verdict_for(score=outcome.score, findings=outcome.findings, has_evidence=True) == "not_found"
    negation_only = [f for f in outcome.findings if f.kind is FindingKind.NEGATION]
    assert verdict_for(score=outcome.score, findings=negation_only, has_evidence=True) == "contradicted"
