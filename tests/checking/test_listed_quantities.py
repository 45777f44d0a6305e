"""A claim that lists like quantities binds each to a quantity of its own in the evidence: the same value said
twice at different rates ("once a day … once a quarter") is two statements, each with its own match. A list run into
one paragraph ("1  A new lump. 2  Frequent fevers.") numbers its items: those numbers are no quantities."""

from functools import partial

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import FindingKind

rules_check = partial(check_claim, fitted=False, embed=None)


def _kinds(claim: str, evidence: str) -> list[FindingKind]:
    return [f.kind for f in rules_check(claim=claim, candidates=[EvidenceCandidate(evidence)]).findings]


def test_the_same_count_at_two_rates_matches_each_rate():
    kinds = _kinds("Backups run once a day, and a restore drill once a quarter.",
                   "Backups run once a day, and a restore drill is held once a quarter.")

    assert kinds.count(FindingKind.QUANTITY_MATCH) == 2 and FindingKind.QUANTITY_MISMATCH not in kinds


def test_a_verbatim_chinese_sentence_with_two_rates_is_not_a_mismatch():
    sentence = "备份每天进行一次，每季度进行一次恢复演练。"
    kinds = _kinds(sentence, sentence + "超过保存期限的数据须在三十天内删除。")

    assert kinds.count(FindingKind.QUANTITY_MATCH) == 2 and FindingKind.QUANTITY_MISMATCH not in kinds


def test_rates_exchanged_between_the_two_statements_are_still_caught():
    kinds = _kinds("Backups run once a quarter, and a restore drill once a day.",
                   "Backups run once a day, and a restore drill is held once a quarter.")

    assert {FindingKind.QUANTITY_MISMATCH, FindingKind.ROLE_SWAP} & set(kinds)


FLATTENED_LIST = "Symptoms may include: 1  A new lump in your neck. 2  Frequent fevers. 3  Night sweats. 4  Chills."


def test_an_item_of_a_list_run_into_a_paragraph_is_found_without_its_number():
    kinds = _kinds("Night sweats", FLATTENED_LIST)

    assert FindingKind.UNSUPPORTED_TERM not in kinds and FindingKind.QUANTITY_MISMATCH not in kinds


def test_quantities_beside_an_item_number_are_still_quantities():
    evidence = "Dosage: 1. Adults take 2 tablets. 2. Children take 1 tablet."

    assert FindingKind.QUANTITY_MISMATCH in _kinds("Adults take 3 tablets.", evidence)
    assert FindingKind.QUANTITY_MATCH in _kinds("Adults take 2 tablets.", evidence)
    later = "Fees rose. 3 days later they fell."
    assert FindingKind.QUANTITY_MATCH in _kinds(later, later)
