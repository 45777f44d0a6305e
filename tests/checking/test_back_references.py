"""A claim opening with a back-reference ("It", "These", 它, 这些) is checked with the previous claim's subject in
its place, and only its subject: never the previous claim's numbers or negation (checking.references,
checking.claims, review.pipeline)."""

import pytest

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.claims import split_claims
from checking.findings import FindingKind
from checking.verdicts import supported_at
from review.pipeline import Candidate, claim_check

pytestmark = pytest.mark.django_db(databases=[])  # pure functions: no database

PLANS = "The Pro plan costs $40 a month. The Basic plan costs $20 a month."
HOTELS = "国内出差的住宿标准为每晚五百元。国际出差的住宿标准为每晚八百元。"


def _last_claim(answer: str):
    return split_claims(answer)[-1]


@pytest.mark.parametrize(("answer", "checked"), [
    ("Morning sickness is nausea in pregnancy. These symptoms usually start around six weeks after the last period.",
     "Morning sickness symptoms usually start around six weeks after the last period."),
    ("The Basic plan is meant for individuals. It costs $20 a month.", "The Basic plan costs $20 a month."),
    ("孕吐是怀孕期间常见的恶心症状。这些症状通常在末次月经后六周左右出现。", "孕吐症状通常在末次月经后六周左右出现。"),
    ("国际出差的住宿标准由财务部制定。它为每晚八百元。", "国际出差的住宿标准为每晚八百元。"),
])
def test_a_back_reference_is_checked_with_the_previous_claims_subject(answer, checked):
    claim = _last_claim(answer)
    assert claim.checked_text == checked
    assert answer[claim.start:claim.end] == claim.text  # what a person reads stays the claim's own


@pytest.mark.parametrize(("answer", "checked"), [
    ("The Basic plan costs $20 a month. It includes 5 users.", "The Basic plan includes 5 users."),
    ("In 2020, the company did not raise its prices. It earned more.", "the company earned more."),
    ("每月的话费补贴为两百元。它不包括流量费。", "话费补贴不包括流量费。"),
    ("话费补贴不得超过两百元。它按月发放。", "话费补贴按月发放。"),
])
def test_no_number_date_or_negation_of_the_previous_claim_is_carried(answer, checked):
    assert _last_claim(answer).checked_text == checked


@pytest.mark.parametrize("answer", [
    "Tier 4 emission standards apply from 2008. These changes are aimed at reducing emissions.",  # "Tier" alone
    "Arthritis is common. This is because people live longer.",  # "This" points at the statement, not "Arthritis"
    "婚假是带薪假期。这是因为公司重视员工的家庭。",
])
def test_no_subject_is_carried_where_it_would_name_something_else(answer):
    claim = _last_claim(answer)
    assert claim.reference is None and claim.checked_text == claim.text


def test_a_subject_ends_before_a_relative_clause():
    answer = "The card number for people who retire is their Social Security number. It is marked with the letter A."
    assert _last_claim(answer).checked_text == "The card number for people is marked with the letter A."


def test_a_subject_carried_on_passes_to_the_next_back_reference():
    claims = split_claims("The Basic plan is meant for individuals. It costs $20 a month. It includes 5 users.")
    assert [c.checked_text for c in claims[1:]] == ["The Basic plan costs $20 a month.",
                                                    "The Basic plan includes 5 users."]


@pytest.mark.parametrize(("answer", "evidence", "quoted"), [
    ("The Basic plan is meant for individuals. It costs $20 a month.", PLANS, "The Basic plan costs $20 a month."),
    ("国际出差的住宿标准由财务部制定。它为每晚八百元。", HOTELS, "国际出差的住宿标准为每晚八百元。"),
])
def test_a_back_reference_is_supported_by_the_passage_naming_its_subject(answer, evidence, quoted):
    claim = _last_claim(answer)
    result = claim_check(span=claim, candidates=[Candidate(text=evidence)], embed=None, warnings=[])
    assert result.verdict == "supported", result.reasons
    assert result.evidence[0].quote == quoted
    assert (result.text, result.start, result.end) == (claim.text, claim.start, claim.end)


@pytest.mark.parametrize(("answer", "evidence", "value"), [
    # Read alone, "It costs $40 a month." is the Pro plan's sentence word for word.
    ("The Basic plan is meant for individuals. It costs $40 a month.", PLANS, "$40 a month"),
    ("国际出差的住宿标准由财务部制定。它为每晚五百元。", HOTELS, "五百元"),
])
def test_a_back_reference_with_another_subjects_number_is_contradicted(answer, evidence, value):
    claim = _last_claim(answer)
    alone = check_claim(claim=claim.text, candidates=[EvidenceCandidate(evidence)], embed=None)
    assert alone.score >= supported_at()  # what the subject changes
    result = claim_check(span=claim, candidates=[Candidate(text=evidence)], embed=None, warnings=[])
    assert result.verdict == "contradicted", result.reasons
    mismatch = next(f for f in result.findings if f.kind is FindingKind.QUANTITY_MISMATCH)
    start, end = mismatch.claim_span  # in the claim's own text, not in the text checked for it
    assert claim.text[start:end] == value


@pytest.mark.parametrize(("answer", "evidence"), [
    ("Morning sickness is nausea in pregnancy. These symptoms usually start around nine weeks after the last period.",
     "Morning sickness symptoms usually start around six weeks after the last period."),
    ("孕吐是怀孕期间常见的恶心症状。这些症状通常在末次月经后九周左右出现。", "孕吐症状通常在末次月经后六周左右出现。"),
])
def test_a_back_reference_with_a_wrong_number_is_still_not_supported(answer, evidence):
    result = claim_check(span=_last_claim(answer), candidates=[Candidate(text=evidence)], embed=None, warnings=[])
    assert result.verdict == "contradicted", result.reasons


@pytest.mark.parametrize("answer", [
    "Morning sickness is nausea in pregnancy. Symptoms usually start around six weeks after the last period.",
    "The Basic plan is meant for individuals. The Pro plan costs $40 a month.",
    "孕吐是怀孕期间常见的恶心症状。症状通常在末次月经后六周左右出现。",
    "It's worth noting that the Basic plan costs $20 a month.",
])
def test_a_claim_without_a_back_reference_is_checked_as_written(answer):
    for claim in split_claims(answer):
        assert claim.reference is None and claim.checked_text == claim.text
        own = check_claim(claim=claim.text, candidates=[EvidenceCandidate(PLANS)], embed=None)
        result = claim_check(span=claim, candidates=[Candidate(text=PLANS)], embed=None, warnings=[])
        assert result.score == own.score


def test_a_back_reference_opening_the_answer_has_no_subject_to_take():
    claim = split_claims("It costs $20 a month.")[0]
    assert claim.reference is None and claim.checked_text == claim.text


def test_a_claim_about_the_sources_takes_no_subject_from_the_claim_before():
    claims = split_claims("The cap for Reykjavik is not stated. It is unclear whether breakfast is included.")
    assert claims[1].reference is None and claims[1].checked_text == "It is unclear whether breakfast is included."
