"""Two terms of one sentence put in each other's places (checking/rules/exchange.py), in Chinese and English,
and the reorderings that are no exchange."""

from functools import partial

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import FindingKind

rules_check = partial(check_claim, fitted=False, embed=None)


def _exchanges(claim: str, evidence: str) -> list[str]:
    outcome = rules_check(claim=claim, candidates=[EvidenceCandidate(evidence)])
    return [f.message for f in outcome.findings if f.kind is FindingKind.ROLE_SWAP]


def test_two_roles_in_each_others_places_are_contradicted():
    evidence = "部门经理本人出差且预计总费用不足五千元的，由其分管副总裁审批。"

    [message] = _exchanges("分管副总裁本人出差且预计总费用不足五千元的，由部门经理审批。", evidence)

    assert "部门经理" in message and "副总裁" in message


def test_an_exchange_around_a_longer_term_is_found():
    """The alignment keeps the longer term in place and moves the rest around it."""
    evidence = "发生一级事件时，必须立即通知首席信息安全官，并且每两小时向管理层通报一次处置进展。"

    [message] = _exchanges("发生一级事件时，必须立即通知管理层，并且每两小时向首席信息安全官通报一次处置进展。", evidence)

    assert "管理层" in message


def test_swapped_degrees_are_contradicted():
    assert _exchanges("安全事件分为四级，一级最轻、四级最严重。", "安全事件按严重程度分为四级，一级最严重、四级最轻。")


def test_an_english_exchange_is_contradicted():
    assert _exchanges("The tenant must pay the landlord within ten days.",
                      "The landlord must pay the tenant within ten days.")


def test_the_same_order_is_no_exchange():
    assert not _exchanges("The landlord must pay the tenant within ten days.",
                          "The landlord must pay the tenant within ten days.")


def test_a_passive_rewording_is_no_exchange():
    assert not _exchanges("The landlord is paid by the tenant within ten days.",
                          "The tenant must pay the landlord within ten days.")


def test_a_list_in_another_order_is_no_exchange():
    assert not _exchanges("出差期间的个人消费，包括酒水、洗衣、娱乐、健身和酒店迷你吧，不予报销。",
                          "出差期间的个人消费，包括洗衣、酒水、娱乐、健身和酒店迷你吧，不予报销。")


def test_an_exchange_with_a_word_more_between_is_found():
    """The evidence may hold a word more between the exchanged terms (高铁、动车 / 高铁)."""
    assert _exchanges("部门经理及以上人员乘坐高铁购买二等座，普通员工可以乘坐一等座。",
                      "普通员工乘坐高铁、动车购买二等座，部门经理及以上人员可以乘坐一等座。")


def test_one_sentence_refuting_outweighs_words_gathered_from_several():
    """A list names each role apart (so the words are all there, spread out); the one sentence that has them all
    puts them the other way round: that sentence decides."""
    evidence = ("所有出差必须在出发前通过办公系统提交出差申请，审批通过后方可预订机票和酒店。"
                "申请人应当在申请中写明出差事由、行程安排、预计费用和同行人员。\n\n审批人根据出差的预计总费用确定：\n\n"
                "- 预计总费用不足五千元的，由申请人所在部门的部门经理审批；\n"
                "- 预计总费用在五千元（含）至两万元（含）之间的，由分管副总裁审批；\n"
                "- 预计总费用超过两万元的，由财务总监审批。\n\n"
                "申请人不得审批本人的出差申请。部门经理本人出差且预计总费用不足五千元的，由其分管副总裁审批。")
    outcome = rules_check(claim="分管副总裁本人出差且预计总费用不足五千元的，由部门经理审批。",
                          candidates=[EvidenceCandidate(evidence)])

    assert any(f.kind is FindingKind.ROLE_SWAP for f in outcome.findings) and outcome.score <= 0.2


def test_two_clauses_in_the_other_order_are_no_exchange():
    """Each clause carries its number along: a reordering, not an exchange of terms."""
    assert not _exchanges("公司为每位出差员工购买意外险，意外医疗保额最高十万元，意外身故及伤残保额最高一百万元。",
                          "公司为每位出差员工购买意外险，意外身故及伤残保额最高一百万元，意外医疗保额最高十万元。")
