"""Synthesis across passages (issue #36 item 2): a claim whose facts stand in two passages of different documents is
supported when both speak of its subject, and the second passage is cited beside the part of the claim it
supplies; a fact borrowed from a passage about something else, or a value the sources state otherwise, is not."""

import re

import pytest

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.verdicts import supported_at

pytestmark = pytest.mark.django_db(databases=[])  # pure functions: no database

LONDON = EvidenceCandidate("The London hotel cap is £220 a night.", heading="Travel policy > Hotels")
PARIS = EvidenceCandidate("Employees in Paris may book hotels up to €250 a night.", heading="Paris office > Travel")
MEALS = EvidenceCandidate("The meal allowance is €70 a day.", heading="Expenses > Meals")
LONDON_ZH = EvidenceCandidate("伦敦的酒店住宿上限为每晚220英镑。")
PARIS_ZH = EvidenceCandidate("巴黎的酒店住宿上限为每晚250欧元。")
MEALS_ZH = EvidenceCandidate("员工餐补每天七十元。")


def _check(claim: str, candidates: list[EvidenceCandidate]):
    return check_claim(claim=claim, candidates=candidates, embed=None)


@pytest.mark.parametrize(("claim", "candidates", "sources"), [
    ("The London hotel cap is £220 a night and €250 in Paris.", [LONDON, MEALS, PARIS], {0, 2}),
    ("伦敦的酒店上限为每晚220英镑，巴黎为250欧元。", [MEALS_ZH, LONDON_ZH, PARIS_ZH], {1, 2}),
])
def test_a_claim_put_together_from_two_documents_is_supported_citing_both(claim, candidates, sources):
    outcome = _check(claim, candidates)

    assert outcome.score >= supported_at()
    assert len(outcome.parts) == 1
    part = outcome.parts[0]
    assert {part.candidate_index, outcome.candidate_index} == sources  # never the passage about meals
    cited = candidates[part.candidate_index].text
    assert cited[part.quote_start:part.quote_end].strip() == cited.strip()
    supplied = claim[part.claim_start:part.claim_end]
    values = re.findall(r"\d+", supplied)
    assert values and all(value in cited for value in values)  # the part it supplies is the value it states
    assert not any(value in candidates[outcome.candidate_index].text for value in values)


@pytest.mark.parametrize(("claim", "candidates"), [
    ("The London hotel cap is £220 a night and €250 in Paris.", [LONDON, MEALS]),  # no passage states €250 for Paris
    ("The London hotel cap is £220 a night and €70 in Paris.", [LONDON, MEALS, PARIS]),  # €70 is the meal allowance
    ("The London hotel cap is £250 a night.", [LONDON, PARIS]),  # Paris' value is not London's
    ("伦敦的酒店上限为每晚250英镑。", [LONDON_ZH, PARIS_ZH]),
])
def test_a_fact_from_a_passage_about_something_else_is_not_joined(claim, candidates):
    outcome = _check(claim, candidates)

    assert outcome.score < supported_at()
    assert outcome.parts == []


def test_a_claim_one_passage_supports_cites_no_parts():
    outcome = _check("The London hotel cap is £220 a night.", [LONDON, PARIS])

    assert outcome.score >= supported_at() and outcome.parts == []
