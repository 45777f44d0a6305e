"""Binding a claim's values to one table row or list item, a quantity to its own clause, and comparisons between two
values (issue #36 item 3, issue #37 item 2): cards that never argue with themselves, in English and Chinese."""

from functools import partial

import pytest

from checking.base import CheckOutcome, EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import FindingKind
from checking.scoring import reasons_for
from checking.verdicts import verdict_for
from tests.checking.checker_inputs import bag_of_words_embed

rules_check = partial(check_claim, fitted=False)

APPROVERS_TABLE = """## Approval rules

The approver depends on the estimated total cost of the trip:

| Estimated cost | Approver |
|---|---|
| Under $2,000 | The employee's direct manager |
| $2,000 to $10,000 | A department director |
| Over $10,000 | The Chief Financial Officer |
"""
APPROVERS_LIST = """## Approval rules

Every trip needs approval before anything is booked. The approver depends on the estimated total cost of the trip:

- Trips under $2,000 are approved by the employee's direct manager.
- Trips from $2,000 to $10,000 are approved by a department director.
- Trips over $10,000 are approved by the Chief Financial Officer.
"""
APPROVERS_ZH = """## 审批权限

| 预计费用 | 审批人 |
|---|---|
| 两千元以下 | 直属主管 |
| 两千元至一万元 | 部门总监 |
| 一万元以上 | 财务总监 |
"""
SERVICE = ("Lumen Notes is a note-taking service made by Lumen Labs Inc. Lumen Notes runs in two regions: the US "
           "region is hosted in Virginia and the EU region is hosted in Frankfurt, Germany. The Team plan requires a "
           "minimum of 3 users.")
MEALS_ZH = ("| 出差类型 | 每人每天 |\n|---|---|\n| 国内出差 | 100元 |\n| 国际出差 | 300元 |\n\n"
            "自2025年1月1日起，国内出差伙食补助标准由每天七十元上调至一百元。\n\n"
            "出差期间的个人消费，包括洗衣、酒水、娱乐、健身和酒店迷你吧，一律不予报销。")
LONG_TERM = ("The number of long-term unemployed (those jobless for 27 weeks or more) was little changed at 1.1 "
             "million in March. These individuals accounted for 18.9 percent of all unemployed. The number of "
             "unemployed persons, at 5.8 million, was little changed.")
REVENUE_ZH = "2024年公司营收为五千万元。2023年公司营收为四千万元。"


def check(claim: str, evidence: str) -> CheckOutcome:
    return rules_check(claim=claim, candidates=[EvidenceCandidate(evidence)], embed=bag_of_words_embed)


def verdict(outcome: CheckOutcome) -> str:
    return verdict_for(score=outcome.score, findings=outcome.findings, has_evidence=outcome.candidate_index is not None)


def quoted(outcome: CheckOutcome, evidence: str) -> str:
    return evidence[outcome.quote_start : outcome.quote_end]


@pytest.mark.parametrize(("claim", "evidence", "bound_row", "role"), [
    ("Trips from $2,000 to $10,000 are approved by the employee's direct manager.", APPROVERS_TABLE,
     "| $2,000 to $10,000 | A department director |", "department director"),
    ("Trips from $2,000 to $10,000 are approved by the employee's direct manager.", APPROVERS_LIST,
     "Trips from $2,000 to $10,000 are approved by a department director.", "department director"),
    ("两千元至一万元的出差由直属主管审批。", APPROVERS_ZH, "| 两千元至一万元 | 部门总监 |", "部门总监"),
    ("一万元以上的出差由部门总监审批。", APPROVERS_ZH, "| 一万元以上 | 财务总监 |", "财务总监"),
])
def test_a_role_of_another_row_than_the_values_is_contradicted_naming_the_rows_role(claim, evidence, bound_row, role):
    outcome = check(claim, evidence)
    assert verdict(outcome) == "contradicted", reasons_for(outcome)
    swaps = [f for f in outcome.findings if f.kind is FindingKind.ENTITY_SWAP]
    assert swaps and role in swaps[0].message, reasons_for(outcome)
    assert evidence[slice(*swaps[0].evidence_span)].strip("| ") == bound_row.strip("| ")
    assert quoted(outcome, evidence) == bound_row  # the highlight is the bound row, not its neighbours


@pytest.mark.parametrize(("claim", "evidence", "bound_row"), [
    ("Trips from $2,000 to $10,000 are approved by a department director.", APPROVERS_TABLE,
     "| $2,000 to $10,000 | A department director |"),
    ("Trips from $2,000 to $10,000 are approved by a department director.", APPROVERS_LIST,
     "Trips from $2,000 to $10,000 are approved by a department director."),
    ("两千元至一万元的出差由部门总监审批。", APPROVERS_ZH, "| 两千元至一万元 | 部门总监 |"),
])
def test_the_rows_own_role_is_no_contradiction_and_its_row_alone_is_quoted(claim, evidence, bound_row):
    outcome = check(claim, evidence)
    assert not any(f.is_contradiction for f in outcome.findings), reasons_for(outcome)
    assert quoted(outcome, evidence) == bound_row


@pytest.mark.parametrize(("claim", "evidence", "value"), [
    ("Lumen Notes has more than 4 million users.", SERVICE, "4 million"),  # "two regions" counts regions
    ("出差期间酒店健身房费用每天可报销五十元。", MEALS_ZH, "五十元"),  # 七十元 is the meal allowance
])
def test_a_quantity_about_another_subject_is_not_found_with_no_evidence_says(claim, evidence, value):
    outcome = check(claim, evidence)
    assert verdict(outcome) == "not_found", reasons_for(outcome)
    assert not any(f.kind is FindingKind.QUANTITY_MISMATCH for f in outcome.findings), reasons_for(outcome)
    missing = [f for f in outcome.findings if f.kind is FindingKind.MISSING_QUANTITY]
    assert [claim[slice(*f.claim_span)] for f in missing] == [value]
    assert not any("evidence says" in r or "证据为" in r for r in reasons_for(outcome)), reasons_for(outcome)


@pytest.mark.parametrize(("claim", "evidence", "said"), [
    ("Lumen Notes runs in three regions.", SERVICE, "claim says three; evidence says two"),
    ("The Team plan requires a minimum of 5 users.", SERVICE, "evidence says at least 3 users"),
    ("国内出差伙食补助标准为每天八十元。", MEALS_ZH, "论断为八十元"),
])
def test_a_different_value_about_the_same_subject_is_still_contradicted(claim, evidence, said):
    outcome = check(claim, evidence)
    assert verdict(outcome) == "contradicted", reasons_for(outcome)
    assert any(said in r for r in reasons_for(outcome)), reasons_for(outcome)


def test_a_quantity_binds_to_the_sentence_stating_its_own_clause_before_another_sentences_value():
    right = check("About 1.1 million people had been jobless for 27 weeks or more, 18.9 percent of all unemployed.",
                  LONG_TERM)
    assert not any(f.is_contradiction for f in right.findings), reasons_for(right)
    assert "1.1 million people matches evidence" in reasons_for(right)
    wrong = check("About 1.2 million people had been jobless for 27 weeks or more.", LONG_TERM)
    assert "claim says 1.2 million people; evidence says 1.1 million" in reasons_for(wrong)  # not 5.8 million


def test_a_chinese_quantity_binds_to_the_sentence_stating_its_own_clause():
    outcome = check("2024年公司营收为五千万元，高于2023年的四千万元。", REVENUE_ZH)
    assert not any(f.kind in (FindingKind.MISSING_QUANTITY, FindingKind.QUANTITY_MISMATCH) for f in outcome.findings)
    assert verdict(outcome) == "supported", reasons_for(outcome)


@pytest.mark.parametrize(("claim", "evidence", "wrong"), [
    ("Health care added 34,000 jobs, higher than its average monthly gain of 54,000.",
     "Health care added 34,000 jobs in March. Its average monthly gain over the prior 12 months was 54,000.", True),
    ("Health care added 34,000 jobs, lower than its average monthly gain of 54,000.",
     "Health care added 34,000 jobs in March. Its average monthly gain over the prior 12 months was 54,000.", False),
    ("The unemployment rate was 3.5 percent in March, up from 3.6 percent in February.",
     "The unemployment rate was 3.5 percent in March and 3.6 percent in February.", True),
    ("The unemployment rate was 3.5 percent in March, down from 3.6 percent in February.",
     "The unemployment rate was 3.5 percent in March and 3.6 percent in February.", False),
    ("2024年公司营收为五千万元，低于2023年的四千万元。", REVENUE_ZH, True),
    ("2024年公司营收为五千万元，高于2023年的四千万元。", REVENUE_ZH, False),
    ("2024年公司营收为五千万元，比2023年的四千万元少。", REVENUE_ZH, True),
    ("2024年公司营收为五千万元，比2023年的四千万元多。", REVENUE_ZH, False),
])
def test_a_comparison_between_two_values_is_the_direction_of_their_bound_values(claim, evidence, wrong):
    outcome = check(claim, evidence)
    compared = [f for f in outcome.findings if f.kind is FindingKind.DIRECTION]
    assert bool(compared) is wrong, reasons_for(outcome)
    assert (verdict(outcome) == "contradicted") is wrong, reasons_for(outcome)


def test_a_bound_compares_nothing():
    outcome = check("The Team plan requires more than 2 users.", SERVICE)
    assert not any(f.kind is FindingKind.DIRECTION for f in outcome.findings), reasons_for(outcome)


def test_the_heading_a_sentence_stands_under_names_what_its_value_is_about():
    evidence = ("本制度适用于全体员工因公出差所发生的费用。本制度由财务部负责制定和解释，自2025年1月1日起施行。")
    outcome = rules_check(claim="现行的差旅费报销制度自2024年1月1日起施行。",
                          candidates=[EvidenceCandidate(evidence, "差旅费报销制度")], embed=bag_of_words_embed)
    assert verdict(outcome) == "contradicted", reasons_for(outcome)
    assert reasons_for(outcome)[0] == "论断为2024年1月1日；证据为2025年1月1日"
