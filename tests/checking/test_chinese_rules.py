"""The rule families on Chinese text: the language layer's tokens run through the same rules as English."""

from functools import partial

import pytest

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import FindingKind
from checking.languages import reasons_in
from checking.text import word_pieces

# The rules' own score and findings, as tests/checking/test_builtin_checker.py pins them for English.
rules_check = partial(check_claim, fitted=False, embed=None)

POLICY = "员工出差住宿标准为每晚五百元，超过标准需部门经理审批。头等舱机票一律不予报销。国内出差的伙食补助为每天一百元。"


def _check(claim: str):
    outcome = rules_check(claim=claim, candidates=[EvidenceCandidate(POLICY)])
    return outcome, {f.kind for f in outcome.findings}


def test_a_number_written_another_way_matches():
    outcome, kinds = _check("住宿标准为每晚500元。")

    assert FindingKind.QUANTITY_MATCH in kinds and not any(f.is_contradiction for f in outcome.findings)


def test_a_changed_number_is_contradicted_naming_both_values():
    outcome, kinds = _check("住宿标准为每晚六百元。")

    assert FindingKind.QUANTITY_MISMATCH in kinds and outcome.score <= 0.2
    [mismatch] = [f for f in outcome.findings if f.kind is FindingKind.QUANTITY_MISMATCH]
    assert mismatch.message == "论断为六百元；证据为五百元"  # a Chinese claim's reasons are written in Chinese


def test_a_negation_the_claim_drops_is_contradicted():
    outcome, kinds = _check("头等舱机票可以报销。")

    assert FindingKind.NEGATION in kinds and outcome.score <= 0.2


def test_an_opposite_in_the_same_place_is_contradicted():
    outcome, kinds = _check("国际出差的伙食补助为每天一百元。")

    assert FindingKind.NEGATION in kinds  # antonyms report as negation findings, as in English
    assert any("国际" in f.message and "国内" in f.message for f in outcome.findings)


def test_the_same_number_in_another_unit_is_no_support():
    outcome, kinds = _check("住宿标准为每晚五百美元。")

    assert FindingKind.MISSING_QUANTITY in kinds and outcome.score <= 0.3  # as "$500" against "500 euros"


def test_a_rate_written_before_the_number_is_read_as_a_rate():
    outcome, kinds = _check("国内出差的伙食补助为每周一百元。")

    assert FindingKind.QUANTITY_MISMATCH in kinds or FindingKind.MISSING_QUANTITY in kinds
    assert outcome.score <= 0.3
    same, same_kinds = _check("国内出差的伙食补助为每天一百元。")
    assert FindingKind.QUANTITY_MATCH in same_kinds and not any(f.is_contradiction for f in same.findings)


def _against(claim: str, evidence: str) -> list[str]:
    outcome = rules_check(claim=claim, candidates=[EvidenceCandidate(evidence)])
    return [f.message for f in outcome.findings if f.kind is FindingKind.DIRECTION]


def test_a_bound_turned_around_is_a_direction_without_a_number():
    """不少于 / 不超过 are single words to the segmenter, whose dictionary cuts 不少于 into 不少 + 于."""
    assert _against("年假可以分次休，每次不超过半天。", "年假可以分次休，每次不少于半天。") == [
        "论断说“不超过”；证据说“不少于”"]


def test_before_and_after_a_word_are_opposite():
    assert _against("员工离职的，全部权限须在最后工作日下班后收回。", "员工离职的，全部权限须在最后工作日下班前收回。")


def test_lengthened_against_a_stated_reduction_is_contradicted():
    assert _against("与2023年版相比，2025年版延长了自动锁屏时间。",
                    "与2023年版相比，2025年版将自动锁屏时间由十分钟减少为五分钟。")


def test_the_same_direction_is_no_finding():
    assert not _against("年假可以分次休，每次不少于半天。", "年假可以分次休，每次不少于半天。")


def test_a_negated_comparison_is_one_bound_not_a_negation():
    """不得少于 reads as 不少于 (at least): the claim "至少" agrees with it, and nothing is negated."""
    outcome = rules_check(claim="公司账号的密码至少要有12位。",
                          candidates=[EvidenceCandidate("公司账号的密码长度不得少于十二位。")])

    assert not any(f.is_contradiction for f in outcome.findings)
    assert any(f.kind is FindingKind.QUANTITY_MATCH for f in outcome.findings)


def test_under_an_age_is_a_bound_however_it_is_written():
    """不满 / 未满 (under) bind the number as 不足 does: the same bound reworded is no finding, its opposite is."""
    evidence = "子女未满三周岁的，父母双方每年各享受育儿假十天。"
    agreeing = rules_check(claim="孩子不满3周岁的，父母每年各享受育儿假10天。",
                           candidates=[EvidenceCandidate(evidence)])
    assert not any(f.is_contradiction for f in agreeing.findings)
    assert _against("子女超过三周岁的，父母双方每年各享受育儿假十天。", evidence)


def test_a_number_stated_twice_in_a_sentence_binds_where_its_bound_agrees():
    """The sentence states 十五天 twice, bounded both ways: the claim's own bound says which it means."""
    evidence = "事假为无薪假，按日扣除工资。每年累计事假原则上不超过十五天；超过十五天的，须经人力资源总监批准。"
    agreeing = rules_check(claim="每年事假累计超过15天的，需要人力资源总监批准。",
                           candidates=[EvidenceCandidate(evidence)])
    assert not any(f.is_contradiction for f in agreeing.findings)
    assert any(f.kind is FindingKind.QUANTITY_MATCH for f in agreeing.findings)
    # stated once, with the other bound: still a contradiction, by the quantity rule and the direction rule
    once = "每年累计事假原则上不超过十五天，须经人力资源总监批准。"
    assert _against("每年事假累计超过15天的，需要人力资源总监批准。", once) == [
        "论断为超过15天；证据为至多十五天", "论断说“超过”；证据说“不超过”"]


def test_a_verbatim_sentence_beside_the_same_number_unbounded_is_supported():
    evidence = "员工累计工作满一年后，享受带薪年休假；累计工作不满一年的员工没有带薪年休假。"
    outcome = rules_check(claim="累计工作不满一年的员工没有带薪年休假。", candidates=[EvidenceCandidate(evidence)])
    assert not any(f.is_contradiction for f in outcome.findings)


def test_a_negation_of_the_same_words_in_another_clause_is_about_something_else():
    """调休 is asserted as the claim asserts it ("调休须在……使用") and denied of unapproved overtime: no contradiction.
    Where no clause asserts what the negated one shares with the claim, the negation still holds."""
    items = ("- 休息日加班的，优先安排调休，调休须在加班之日起三个月内使用。\n"
             "- 加班须事先经部门经理批准，未经批准的加班不计入调休。")
    claim = "休息日加班换来的调休，要在加班之日起3个月内使用。"
    outcome = rules_check(claim=claim, candidates=[EvidenceCandidate(items)])
    assert not any(f.kind is FindingKind.NEGATION for f in outcome.findings)
    denied = rules_check(claim="节假日加班计入调休。", candidates=[EvidenceCandidate("节假日加班不计入调休。")])
    assert any(f.kind is FindingKind.NEGATION for f in denied.findings)


def test_a_bound_word_before_a_number_is_no_invented_superlative():
    """最多 of "最多3天" bounds the number (as 不得超过 does), however 最多 alone would be a superlative."""
    outcome = rules_check(claim="试用期员工每次请事假最多3天。",
                          candidates=[EvidenceCandidate("试用期员工申请事假，单次不得超过三天。")])
    assert not any(f.kind is FindingKind.UNSUPPORTED_ADDITION for f in outcome.findings)
    assert any(f.kind is FindingKind.QUANTITY_MATCH for f in outcome.findings)


def test_a_quoted_term_is_a_name_the_evidence_must_have():
    """Quotation marks name a thing whatever the segmenter's tags say: an invented system is a missing name, shown
    as written (钉钉, though the segmenter cuts it 钉 + 钉)."""
    evidence = [EvidenceCandidate("所有出差必须在出发前通过“云途”办公系统提交出差申请。")]
    invented = rules_check(claim="所有出差必须在出发前通过“钉钉”办公系统提交出差申请。", candidates=evidence)
    assert [f.message for f in invented.findings if f.kind is FindingKind.MISSING_ENTITY] == ["证据中没有“钉钉”"]
    stated = rules_check(claim="出差申请须在出发前通过“云途”办公系统提交。", candidates=evidence)
    assert not any(f.kind is FindingKind.MISSING_ENTITY for f in stated.findings)


def test_an_opposite_in_the_sentence_the_claim_restates_is_contradicted_though_named_elsewhere():
    """The sentence the claim restates says 申请人 where the claim says 审批人; the next paragraph names 审批人, which
    does not make the restated sentence say it."""
    evidence = ("申请人应当在申请中写明出差事由、行程安排、预计费用和同行人员。\n\n"
                "审批人根据出差的预计总费用确定。")
    swapped = rules_check(claim="审批人应当在出差申请中写明出差事由、行程安排、预计费用和同行人员。",
                          candidates=[EvidenceCandidate(evidence)])
    assert [f.message for f in swapped.findings if f.kind is FindingKind.NEGATION] == ["论断说“审批人”；证据说“申请人”"]
    kept = rules_check(claim="申请人应当在出差申请中写明出差事由、行程安排、预计费用和同行人员。",
                       candidates=[EvidenceCandidate(evidence)])
    assert not any(f.is_contradiction for f in kept.findings)


def test_names_paired_otherwise_in_parallel_clauses_are_a_role_swap():
    """No function word links "Mac" and "BitLocker" as "on" would in English: the clauses pair them."""
    evidence = [EvidenceCandidate("必须开启全盘加密：Windows电脑使用BitLocker，Mac电脑使用FileVault。")]
    swapped = rules_check(claim="Mac电脑使用BitLocker进行全盘加密。", candidates=evidence)
    assert [f.kind for f in swapped.findings if f.kind is FindingKind.ROLE_SWAP] == [FindingKind.ROLE_SWAP]
    paired = rules_check(claim="Mac电脑使用FileVault进行全盘加密。", candidates=evidence)
    assert not any(f.kind is FindingKind.ROLE_SWAP for f in paired.findings)


def test_one_written_as_an_article_is_no_missing_fact():
    """一次出差 is "a trip": when the evidence lacks it, it is weak doubt, as English "a year" is."""
    outcome = rules_check(claim="一次出差报销总额超过15000元时，财务部进行专项复核。",
                          candidates=[EvidenceCandidate("单次出差报销总额超过一万五千元的，由财务部进行专项复核。")])

    kinds = {f.kind for f in outcome.findings}
    assert FindingKind.WEAK_MISSING_QUANTITY in kinds and FindingKind.MISSING_QUANTITY not in kinds
    assert FindingKind.QUANTITY_MATCH in kinds


def test_a_clause_appended_to_a_stated_sentence_is_an_addition():
    """"，且……" adds a fact: its words are in the evidence, but in other sentences about other things."""
    evidence = "权限分配遵循最小权限原则。外包人员须签署保密协议。违规行为按制度执行处罚。"
    outcome = rules_check(claim="权限分配遵循最小权限原则，且按各自的协议执行。",
                          candidates=[EvidenceCandidate(evidence)])

    assert [f.message for f in outcome.findings if f.kind is FindingKind.UNSUPPORTED_ADDITION] == [
        "证据中没有“且按各自的协议执行”"]


def test_two_stated_sentences_joined_are_no_addition():
    evidence = "权限分配遵循最小权限原则。部门经理每季度复核一次本部门人员的权限。"
    outcome = rules_check(claim="权限分配遵循最小权限原则，并且部门经理每季度复核一次本部门人员的权限。",
                          candidates=[EvidenceCandidate(evidence)])

    assert not any(f.kind is FindingKind.UNSUPPORTED_ADDITION for f in outcome.findings)


def test_an_english_claim_keeps_english_reasons_whatever_the_active_language():
    from django.utils import translation

    with translation.override("zh-hans"):
        outcome = rules_check(claim="The hotel cap is 600 yuan per night.",
                              candidates=[EvidenceCandidate("The hotel cap is 500 yuan per night.")])

    assert "claim says 600 yuan; evidence says 500 yuan" in [f.message for f in outcome.findings]


def test_a_one_character_verb_is_found_in_the_word_it_heads():
    outcome = rules_check(claim="副总裁可以坐公务舱。", candidates=[EvidenceCandidate("副总裁可以乘坐公务舱。")])

    kinds = {f.kind for f in outcome.findings}
    assert not kinds & {FindingKind.UNSUPPORTED_TERM, FindingKind.SUBSTITUTION, FindingKind.SLOT_SWAP}
    assert outcome.score >= 0.6


def test_an_opposite_inside_a_compound_word_is_contradicted():
    evidence = "出差期间的市内交通实行定额补助，国内出差每人每天八十元，包干使用。"
    outcome = rules_check(claim="国际出差的市内交通补助为每人每天八十元。", candidates=[EvidenceCandidate(evidence)])

    assert any(f.kind == FindingKind.NEGATION and "国内" in f.message and "国际" in f.message for f in outcome.findings)


def test_a_compound_words_pieces_are_words_of_it():
    assert word_pieces("国际出差") == ("国际出差", "国际", "出差")
    assert word_pieces("passport") == ("passport",)


def test_an_opposite_the_evidence_says_instead_in_another_place_is_contradicted():
    evidence = "访问公司邮箱、代码仓库和VPN必须启用多因素认证。"
    outcome = rules_check(claim="访问公司邮箱时，多因素认证是可选的。", candidates=[EvidenceCandidate(evidence)])

    assert FindingKind.NEGATION in {f.kind for f in outcome.findings}


def test_a_word_the_evidence_says_beside_its_opposite_is_no_finding():
    evidence = "国内出差由部门经理审批，国际出差由总经理审批。"
    outcome = rules_check(claim="国际出差由总经理审批。", candidates=[EvidenceCandidate(evidence)])

    assert FindingKind.NEGATION not in {f.kind for f in outcome.findings}


def test_another_quarter_of_the_year_is_contradicted():
    evidence = "自2025年第一季度起，报销一律使用电子发票。"
    wrong = rules_check(claim="自2025年第二季度起，报销一律使用电子发票。", candidates=[EvidenceCandidate(evidence)])
    right = rules_check(claim="从2025年一季度开始，报销一律使用电子发票。", candidates=[EvidenceCandidate(evidence)])

    assert FindingKind.QUANTITY_MISMATCH in {f.kind for f in wrong.findings}
    assert FindingKind.QUANTITY_MISMATCH not in {f.kind for f in right.findings}


def test_reasons_quote_chinese_words_as_chinese_writes_them():
    """Chinese puts no spaces between words: a reason quoting several of them must not either."""
    evidence = [EvidenceCandidate("加班的员工可以安排调休。")]
    outcome = rules_check(claim="加班的员工可以换来调休。", candidates=evidence)

    assert "论断说“可以换来”；证据说“可以安排”" in [f.message for f in outcome.findings]
    with reasons_in("zh"):  # as the pipeline reads them: words found nowhere listed with Chinese's 、
        assert "证据中未找到：可以、换来" in rules_check(claim="加班的员工可以换来调休。",
                                                    candidates=[EvidenceCandidate("加班的员工安排调休。")]).reasons


@pytest.mark.parametrize(("claim", "stated"), [("出发和返回当天按全天标准的四分之三发放。", True),
                                               ("出发和返回当天按全天标准的一半发放。", False),
                                               ("出发和返回当天按全天标准的三分之二发放。", False)])
def test_a_share_written_as_a_fraction_is_the_percentage_it_is(claim, stated):
    outcome = rules_check(claim=claim, candidates=[EvidenceCandidate("出发当天和返回当天按全天标准的百分之七十五发放。")])

    kinds = {f.kind for f in outcome.findings}
    assert (FindingKind.QUANTITY_MATCH in kinds) is stated
    assert (FindingKind.QUANTITY_MISMATCH in kinds) is not stated


@pytest.mark.parametrize("cue", ["不会", "不再", "无法", "不要"])
def test_a_negation_written_as_a_word_of_its_own_is_a_negation(cue):
    outcome = rules_check(claim=f"公司{cue}报销员工的健身房会员费。",
                          candidates=[EvidenceCandidate("公司报销员工的健身房会员费，每年最多两千元。")])

    assert FindingKind.NEGATION in {f.kind for f in outcome.findings} and outcome.score <= 0.2
