"""A sentence of the evidence said of another subject (checking/rules/moved.py), and rewordings that are not."""

from functools import partial

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import FindingKind

rules_check = partial(check_claim, fitted=False, embed=None)


def _moved(claim: str, evidence: str) -> list[str]:
    outcome = rules_check(claim=claim, candidates=[EvidenceCandidate(evidence)])
    return [f.message for f in outcome.findings if f.kind is FindingKind.MISSING_SUBJECT]


def test_a_sentence_said_of_another_subject_is_caught():
    [message] = _moved("婚假最长为六个月，到期未续期的自动停用。", "外包人员账号的有效期最长为六个月，到期未续期的自动停用。")

    assert message.startswith("论断说的是“婚假”")


def test_the_sentence_itself_is_no_moved_subject():
    assert not _moved("外包人员账号的有效期最长为六个月，到期未续期的自动停用。",
                      "外包人员账号的有效期最长为六个月，到期未续期的自动停用。")


def test_a_subject_sharing_a_character_is_a_rewording():
    """差旅 / 出差: the same thing worded otherwise; the soft measures judge it."""
    assert not _moved("出差费用须在返回后两周内报销。", "差旅费用须在返回后两周内报销。")


def test_a_reply_opening_is_no_subject():
    assert not _moved("不能，交通违章罚款不予报销。", "过路费和停车费凭票据报销；交通违章罚款不予报销。")


def test_english_subjects_keep_their_own_reading():
    """An English reply's opening is no subject ("yes, they ..."): English is read by its clause verbs."""
    assert not _moved("They've 7000 candies from around the world.", "Stocks 7000 candies from around the world.")
    assert _moved("Support must lock after 5 minutes.", "Laptops must lock after 5 minutes.")
