"""Tables and changes: a cell's bare number is in its column header's unit and is about its section and caption;
the value a change started from is not what holds now; opposite directions in two clauses of one sentence bind by
each clause's own subject."""

from functools import partial

import pytest

from checking.analysis import analyze_candidate
from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import FindingKind

rules_check = partial(check_claim, fitted=False, embed=None)

HOTEL_TABLE = """## 住宿

住宿费在下表标准以内凭发票据实报销，超出部分由个人承担。

| 城市类别 | 包括的城市 | 普通员工（元/间·晚） | 部门经理及以上（元/间·晚） |
|---|---|---|---|
| 一类城市 | 北京、上海、广州、深圳 | 600 | 800 |
| 二类城市 | 杭州、南京、成都、武汉等省会城市 | 450 | 600 |
| 三类城市 | 其他国内城市 | 350 | 450 |

自2025年1月1日起，一类城市普通员工的住宿标准由五百元上调至六百元，三类城市普通员工的住宿标准由四百元下调至三百五十元。
"""


def _findings(claim: str, evidence: str):
    return rules_check(claim=claim, candidates=[EvidenceCandidate(evidence)]).findings


def _kinds(claim: str, evidence: str) -> list[FindingKind]:
    return [f.kind for f in _findings(claim, evidence)]


@pytest.mark.parametrize(("header", "kind", "value"), [
    ("普通员工（元/间·晚）", "money:CNY", 350.0),
    ("Price ($/month)", "money:USD", 350.0),
    ("Storage (GB)", "data", 350e9),
    ("Trial (days)", "duration:s", 350 * 86400.0),
    ("Share (%)", "percent", 350.0),
])
def test_a_bare_number_in_a_cell_takes_its_column_headers_unit(header, kind, value):
    table = f"| Name | {header} |\n|---|---|\n| Pro | 350 |\n"

    (row,) = analyze_candidate(table).units
    (quantity,) = row.quantities

    assert (quantity.kind, quantity.value) == (kind, value)


def test_a_cell_without_a_unit_in_its_header_stays_a_count():
    (row,) = analyze_candidate("| Name | Seats |\n|---|---|\n| Pro | 350 |\n").units

    assert row.quantities[0].kind == "count"


def test_a_claim_stating_a_table_cell_matches_it():
    kinds = _kinds("在杭州出差，普通员工每晚的住宿标准是四百五十元。", HOTEL_TABLE)

    assert FindingKind.QUANTITY_MATCH in kinds and FindingKind.QUANTITY_MISMATCH not in kinds


def test_a_claim_stating_another_rows_value_is_a_mismatch():
    findings = _findings("在杭州出差，普通员工每晚的住宿标准是三百五十元。", HOTEL_TABLE)

    assert FindingKind.QUANTITY_MISMATCH in [f.kind for f in findings]


@pytest.mark.parametrize(("text", "superseded"), [
    ("三类城市的住宿标准由四百元下调至三百五十元。", "四百元"),
    ("住宿标准从400元提高到450元。", "400元"),
    ("The fee rose from $20 to $25.", "$20"),
    ("The fee rose to $25 from $20.", "$20"),
])
def test_the_value_a_change_started_from_is_superseded(text, superseded):
    quantities = [q for unit in analyze_candidate(text).units for q in unit.quantities]

    assert [q.surface for q in quantities if q.superseded] == [superseded]


def test_a_range_is_no_change():
    quantities = [q for unit in analyze_candidate("Offices are open from 9 to 5.").units for q in unit.quantities]

    assert not any(q.superseded for q in quantities)


def test_the_current_value_of_a_change_supports_a_claim_and_the_old_one_does_not():
    evidence = "自2025年1月1日起，三类城市普通员工的住宿标准由四百元下调至三百五十元。"

    assert FindingKind.QUANTITY_MISMATCH not in _kinds("三类城市普通员工的住宿标准为三百五十元。", evidence)
    assert FindingKind.QUANTITY_MISMATCH in _kinds("三类城市普通员工的住宿标准为四百元。", evidence)


@pytest.mark.parametrize("claim", [
    "自2025年1月1日起，一类城市普通员工的住宿标准下调了。",
    "2025年起，三类城市普通员工的住宿标准有所上调。",
])
def test_a_direction_said_of_the_other_clauses_subject_is_caught(claim):
    assert FindingKind.DIRECTION in _kinds(claim, HOTEL_TABLE)


@pytest.mark.parametrize("claim", [
    "自2025年1月1日起，一类城市普通员工的住宿标准上调了。",
    "自2025年1月1日起，三类城市普通员工的住宿标准下调了。",
])
def test_each_clauses_own_direction_is_no_conflict(claim):
    assert FindingKind.DIRECTION not in _kinds(claim, HOTEL_TABLE)


def test_a_claim_with_both_directions_binds_each_by_its_clause():
    evidence = "突发疾病的，须在当天上午10:00前电话告知直属主管，并在返岗后两个工作日内补办请假手续。"
    claim = "突发疾病时在当天上午10:00前打电话告诉直属主管，返岗后两个工作日内补办请假手续。"

    assert FindingKind.DIRECTION not in _kinds(claim, evidence)


def test_english_clauses_with_opposite_directions_bind_by_subject():
    evidence = "In March, prices of fuel rose sharply, while wages of clerks fell slightly."

    assert FindingKind.DIRECTION in _kinds("Wages of clerks rose in March.", evidence)
    assert FindingKind.DIRECTION not in _kinds("Prices of fuel rose in March.", evidence)


def test_a_multiple_written_in_chinese_numerals_is_a_number():
    quantities = [q for unit in analyze_candidate("住宿费按单人标准的一点五倍报销。").units for q in unit.quantities]

    assert [(q.kind, q.value) for q in quantities] == [("count", 1.5)]


LEAVE_APPROVAL = """| 请假天数 | 审批流程 |
|---|---|
| 一天以内 | 直属主管审批 |
| 超过五天 | 部门经理审核后，报人力资源总监审批 |
"""


def test_roles_exchanged_within_a_table_cell_are_caught():
    assert FindingKind.ROLE_SWAP in _kinds("请假超过五天的，由人力资源总监审核后，报部门经理审批。", LEAVE_APPROVAL)


def test_a_table_cell_said_in_its_own_order_is_no_exchange():
    assert FindingKind.ROLE_SWAP not in _kinds("请假超过五天的，由部门经理审核后，报人力资源总监审批。", LEAVE_APPROVAL)


LEAVE_DAYS = """| 累计工龄 | 法定年假 | 公司福利年假 | 合计 |
|---|---|---|---|
| 满1年不满10年 | 5天 | 2天 | 7天 |
| 满10年不满20年 | 10天 | 3天 | 13天 |
| 满20年及以上 | 15天 | 5天 | 20天 |
"""


def test_any_cell_of_the_row_a_claim_names_may_hold_its_value():
    """A row is one record: the total in its last column is as near the label as the first column's value."""
    assert FindingKind.QUANTITY_MISMATCH not in _kinds("累计工龄满10年不满20年的员工，每年一共有13天年假。", LEAVE_DAYS)
    wrong = _kinds("累计工龄满10年不满20年的员工，每年一共有12天年假。", LEAVE_DAYS)
    assert {FindingKind.QUANTITY_MISMATCH, FindingKind.MISSING_QUANTITY} & set(wrong)


def test_a_bounded_value_names_the_row_whose_label_states_it():
    claim = "请假一天以内由直属主管审批，超过一天、不超过五天的由部门经理审批。"
    findings = _findings(claim, LEAVE_APPROVAL)

    assert not [f for f in findings if f.kind in (FindingKind.QUANTITY_MISMATCH, FindingKind.MISSING_SUBJECT)]


@pytest.mark.parametrize(("claim", "moved"), [
    ("成都属于一类城市，普通员工住宿标准为每晚600元。", "成都"),
    ("请假超过一天的由直属主管审批。", "主管"),
])
def test_a_claim_joining_two_rows_of_a_table_is_caught(claim, moved):
    evidence = HOTEL_TABLE if "城市" in claim else LEAVE_APPROVAL
    findings = [f for f in _findings(claim, evidence) if f.kind == FindingKind.MISSING_SUBJECT]

    assert findings and moved in findings[0].message


@pytest.mark.parametrize("claim", [
    "成都属于二类城市，普通员工住宿标准为每晚450元。",
    "北京和杭州的部门经理住宿标准都是每晚600元以上。",  # a list may name several rows on purpose
])
def test_a_claim_naming_one_row_or_a_list_of_rows_is_no_join(claim):
    assert FindingKind.MISSING_SUBJECT not in _kinds(claim, HOTEL_TABLE)


def test_english_rows_are_joined_alike():
    table = """| Version | Released | Highlights |
|---|---|---|
| 1.0 | March 3, 2021 | Web app and desktop apps for Windows and macOS |
| 1.5 | February 8, 2022 | Android app and shared notebooks |
"""
    assert FindingKind.MISSING_SUBJECT not in _kinds("The Android app arrived with version 1.5.", table)
    assert FindingKind.MISSING_SUBJECT in _kinds("Windows support arrived with version 1.5.", table)
