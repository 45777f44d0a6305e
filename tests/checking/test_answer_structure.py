"""How assistants write: framing, passage references, the assistant's own meta-text, quotes and claims about the
sources, in English and Chinese (checking.claims, checking.quantities, checking.builtin, checking.structure)."""

import pytest

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.claims import split_claims
from checking.findings import FindingKind
from checking.quantities import find_quantities
from checking.sources import named_sources, source_sections
from checking.structure import answer_structure
from checking.text import absence_stated, tokenize
from checking.verdicts import supported_at, uncertain_at

pytestmark = pytest.mark.django_db(databases=[])  # pure functions: no database

LEAVE = ("Marriage leave is 3 days. Annual leave is 10 days a year and may be carried over to the next year. "
         "Employees must apply for leave in the HR portal at least 5 days in advance.")
LEAVE_ZH = "婚假为3天。年假每年10天，可以结转到下一年。员工须至少提前5天在人事系统中申请休假。"


def _claims(text: str) -> list[str]:
    return [claim.text for claim in split_claims(text)]


def _values(text: str) -> list[str]:
    return [q.surface for q in find_quantities(text, tokenize(text, 0, len(text), table=False))]


@pytest.mark.parametrize(("answer", "claim"), [
    ("Based on the given passages, marriage leave is 3 days.", "marriage leave is 3 days."),
    ("Passage 1 states that marriage leave is 3 days.", "marriage leave is 3 days."),
    ("According to passage 2, annual leave is 10 days a year.", "annual leave is 10 days a year."),
    ("Therefore, based on the provided passages, we can see that marriage leave is 3 days.",
     "marriage leave is 3 days."),
    ("It's important to note that leave must be requested 5 days in advance.",
     "leave must be requested 5 days in advance."),
    ("Therefore, the answer to the question is: 3 days of marriage leave.", "3 days of marriage leave."),
    ("Leave must be requested 5 days in advance, as mentioned in passage 3.", "Leave must be requested 5 days in advance"),
    ("Leave must be requested 5 days in advance (Passage 2).", "Leave must be requested 5 days in advance"),
    ("The passages emphasize that leave must be requested 5 days in advance.",
     "leave must be requested 5 days in advance."),
    ("根据以上段落，婚假为3天。", "婚假为3天。"),
    ("段落二指出，年假每年10天。", "年假每年10天。"),
    # what a source covers: the rest is what is checked
    ("Passage 1 provides instructions on how to apply for leave in the HR portal.",
     "how to apply for leave in the HR portal."),
    ("The passages are mainly focused on marriage leave.", "marriage leave."),
    ("段落一主要介绍了婚假。", "婚假。"),
    # a knowledge base's own documents named as the source
    ("According to the travel policy, first class is never reimbursed.", "first class is never reimbursed."),
    ("Per the FAQ, refunds take 5 days.", "refunds take 5 days."),
    ("The security handbook states that passwords expire after 90 days.", "passwords expire after 90 days."),
    ("根据制度，国际出差必须经总经理审批。", "国际出差必须经总经理审批。"),
    ("根据公司规定，婚假为3天。", "婚假为3天。"),
    ("根据信息安全管理规范，密码必须至少12位。", "密码必须至少12位。"),
])
def test_framing_is_not_part_of_the_claim(answer, claim):
    assert _claims(answer) == [claim]


@pytest.mark.parametrize("answer", [
    "Passage 2 describes annual leave, but it does not cover paternity leave.",
    "The passages provide information on annual leave and never mention paternity leave.",
])
def test_what_a_source_covers_and_lacks_stays_one_claim_about_the_sources(answer):
    assert _claims(answer) == [answer]
    assert absence_stated(answer) is not None


@pytest.mark.parametrize(("answer", "claims"), [
    ("Marriage leave is 3 days. (Passage 1)\n2. Annual leave is 10 days a year. (According to passage 2)",
     ["Marriage leave is 3 days.", "Annual leave is 10 days a year."]),
    ("Marriage leave is 3 days (according to passage 1).", ["Marriage leave is 3 days"]),
    ("Marriage leave is 3 days. (Passage 1) Annual leave is 10 days a year.",
     ["Marriage leave is 3 days.", "Annual leave is 10 days a year."]),
    ("婚假为3天。（段落1）年假每年10天（见段落二）。", ["婚假为3天。", "年假每年10天"]),
])
def test_an_attribution_after_the_full_stop_is_no_claim_of_its_own(answer, claims):
    assert _claims(answer) == claims


@pytest.mark.parametrize("answer", [
    "Unable to answer based on given passages.",
    'Therefore, I must reply with: "Unable to answer based on given passages."',
    "Therefore, I cannot provide an answer to the question based on the given passages.",
    "Here's my answer based on the provided passages:",
    "Based on the given passages, here's the difference between the two kinds of leave:",
    "无法根据所给段落回答。",
    "Let me know if you have any other questions or if there's anything else I can help with.",
    "If you have any further questions, feel free to ask!",
    "I hope this helps.",
    'The question is asking for information about the "core" cast members who are still alive.',
    "如果您还有其他问题，请随时告诉我。",
    "希望以上信息对您有帮助。",
])
def test_the_assistants_words_about_itself_are_no_claims(answer):
    assert _claims(answer) == []


@pytest.mark.parametrize(("answer", "claims"), [
    # a closing courtesy leaves the facts before it as they were
    ("The London cap is £220 a night. Let me know if you have any further questions.",
     ["The London cap is £220 a night."]),
    ("伦敦的住宿上限为每晚220英镑。希望以上信息对您有帮助。", ["伦敦的住宿上限为每晚220英镑。"]),
    # what follows a "but" about the question is a claim about the sources, and stays one
    ("The question asks for the Tokyo cap, but the passages only give the London cap.",
     ["The question asks for the Tokyo cap, but the passages only give the London cap."]),
    # a way to ask the company is a fact, not the assistant's courtesy
    ("If you have any questions about expenses, contact HR at extension 4400.",
     ["If you have any questions about expenses, contact HR at extension 4400."]),
])
def test_the_assistants_courtesy_is_no_claim_and_leaves_the_rest(answer, claims):
    assert _claims(answer) == claims


@pytest.mark.parametrize(("text", "values"), [
    ("According to passages 1 and 3, the fee is $20.", ["$20"]),
    ("As passage 2 says, leave is 10 days.", ["10 days"]),
    ("根据段落2，婚假为三天。", ["三天"]),
    ("段落二指出，婚假为3天。", ["3天"]),
])
def test_a_passage_number_names_a_source_and_is_no_quantity(text, values):
    assert _values(text) == values


def test_a_passage_reference_is_never_read_as_a_contradicting_number():
    outcome = check_claim(claim="Passage 1 states that marriage leave is 3 days.",
                          candidates=[EvidenceCandidate(LEAVE)], embed=None)
    assert not any(f.kind is FindingKind.QUANTITY_MISMATCH for f in outcome.findings), outcome.reasons


def test_connectives_are_no_words_a_source_must_state():
    outcome = check_claim(claim="Therefore, marriage leave is 3 days. Additionally, it's paid.",
                          candidates=[EvidenceCandidate(LEAVE + " Marriage leave is paid.")], embed=None)
    assert not any(f.kind is FindingKind.UNSUPPORTED_TERM and f.subject.lower() in {"therefore", "additionally", "it's"}
                   for f in outcome.findings), outcome.reasons


def test_a_quotation_is_one_claim_with_the_sentence_quoting_it():
    answer = 'Passage 3 gives the rule: "Apply in the HR portal. Do it at least 5 days in advance." Leave is paid.'
    quoting = 'Passage 3 gives the rule: "Apply in the HR portal. Do it at least 5 days in advance."'
    assert _claims(answer) == [quoting, "Leave is paid."]


def test_a_stray_quotation_mark_does_not_swallow_the_paragraph():
    assert len(_claims('Leave is 3 days, said the "manager. ' + "Annual leave is 10 days. " * 40)) > 30


@pytest.mark.parametrize(("claim", "evidence"), [
    ("The passages do not mention paternity leave.", LEAVE),
    ("However, there is no mention of sick pay in the given passages.", LEAVE),
    ("段落中没有提到陪产假。", LEAVE_ZH),
    # the same said in other ways: passive, unsettled, and leaning on a sentence about the passages
    ("The length of paternity leave is not explicitly stated in the passages.", LEAVE),
    ("It is unclear whether paternity leave is paid.", LEAVE),
    ("However, they do not provide any information on paternity leave.", LEAVE),
    ("It does not specifically mention paternity leave.", LEAVE),
    ("Passage 2 describes annual leave, but it does not cover paternity leave.", LEAVE),
    ("However, there is no clear answer on how long paternity leave is.", LEAVE),
    ("陪产假的天数在段落中并未说明。", LEAVE_ZH),
    ("目前尚不清楚陪产假是否带薪。", LEAVE_ZH),
])
def test_a_claim_that_the_sources_lack_something_they_lack_is_supported(claim, evidence):
    outcome = check_claim(claim=claim, candidates=[EvidenceCandidate(evidence)], embed=None)
    assert outcome.score >= supported_at()
    assert [f.kind for f in outcome.findings] == [FindingKind.ABSENT_FROM_SOURCES]


@pytest.mark.parametrize(("claim", "evidence"), [
    ("The passages do not say that annual leave is 10 days a year and may be carried over to the next year.", LEAVE),
    ("材料并未说明年假每年10天，可以结转到下一年。", LEAVE_ZH),
    ("That annual leave is 10 days a year and may be carried over to the next year is not mentioned.", LEAVE),
])
def test_a_claim_that_the_sources_lack_what_they_state_is_contradicted(claim, evidence):
    outcome = check_claim(claim=claim, candidates=[EvidenceCandidate(evidence)], embed=None)
    assert outcome.score < uncertain_at()
    assert [f.kind for f in outcome.findings] == [FindingKind.STATED_IN_SOURCES]


LABELLED = ("passage 1:Annual leave is 10 days a year and may be carried over to the next year.\n\n"
            "passage 2:Marriage leave is 3 days.\n\npassage 3:Employees must apply for leave in the HR portal.")
LABELLED_ZH = "段落一：年假每年10天，可以结转到下一年。\n\n段落二：婚假为3天。\n\n段落三：员工须在人事系统中申请休假。"


@pytest.mark.parametrize(("text", "numbers"), [
    ("Passages 1 and 3 do not mention it.", {1, 3}),
    ("The third passage does not say so.", {3}),
    ("段落十二没有提到陪产假。", {12}),
    ("The passages do not mention it.", set()),
])
def test_the_sources_a_claim_names_are_read_by_number(text, numbers):
    assert named_sources(text) == numbers


def test_a_context_is_cut_at_its_source_labels():
    sections = source_sections(LABELLED)
    assert sorted(sections) == [1, 2, 3]
    label, start, end = sections[2]
    assert (label, LABELLED[start:end].strip()) == ("passage 2", "passage 2:Marriage leave is 3 days.")
    assert [label for label, _, _ in source_sections(LABELLED_ZH).values()] == ["段落一", "段落二", "段落三"]


@pytest.mark.parametrize(("claim", "evidence", "kind", "named"), [
    # the named source lacks it, though another states it: supported, and the reason names that source
    ("Passage 2 discusses marriage leave, but does not mention annual leave carried over to the next year.", LABELLED,
     FindingKind.ABSENT_FROM_SOURCES, "passage 2"),
    ("The third passage does not say that annual leave may be carried over to the next year.", LABELLED,
     FindingKind.ABSENT_FROM_SOURCES, "passage 3"),
    ("段落二没有提到年假结转到下一年。", LABELLED_ZH, FindingKind.ABSENT_FROM_SOURCES, "段落二"),
    # a named source states it: contradicted, quoting that source
    ("Passage 1 discusses marriage leave, but does not mention annual leave carried over to the next year.", LABELLED,
     FindingKind.STATED_IN_SOURCES, "passage 1"),
    ("Passages 2 and 1 do not say that annual leave may be carried over to the next year.", LABELLED,
     FindingKind.STATED_IN_SOURCES, "passage 1"),
    ("段落一没有提到年假结转到下一年。", LABELLED_ZH, FindingKind.STATED_IN_SOURCES, "段落一"),
    # a thing named in a word or two is mentioned where a sentence holds it, though one word scores low
    ("Passage 3 does not mention the HR portal.", LABELLED, FindingKind.STATED_IN_SOURCES, "passage 3"),
    ("段落二没有提到婚假。", LABELLED_ZH, FindingKind.STATED_IN_SOURCES, "段落二"),
    # a source the context does not label: which one is meant is unknown, so every source counts
    ("Passage 4 does not say that annual leave may be carried over to the next year.", LABELLED,
     FindingKind.STATED_IN_SOURCES, None),
])
def test_a_claim_that_a_named_source_lacks_something_is_checked_against_that_source(claim, evidence, kind, named):
    outcome = check_claim(claim=claim, candidates=[EvidenceCandidate(evidence)], embed=None)
    assert [f.kind for f in outcome.findings] == [kind]
    message = outcome.findings[0].message
    if kind == FindingKind.ABSENT_FROM_SOURCES:
        assert outcome.score >= supported_at()
    else:
        assert outcome.score < uncertain_at()
        quoted = evidence[outcome.quote_start:outcome.quote_end]
        assert any(words in quoted for words in ("Annual leave", "年假", "HR portal", "婚假"))
    assert (named in message) if named else ("passage" not in message)


def test_an_ordinary_negated_claim_is_still_a_claim_about_the_world():
    outcome = check_claim(claim="Annual leave may not be carried over to the next year.",
                          candidates=[EvidenceCandidate(LEAVE)], embed=None)
    assert [f.kind for f in outcome.findings] == [FindingKind.NEGATION], outcome.reasons


@pytest.mark.parametrize(("answer", "kinds"), [
    ("Based on the given passages, marriage leave is 3 days. It cannot be split.", {"framing", "pronoun"}),
    ('According to passage 2, "apply in the HR portal at least 5 days ahead".',
     {"framing", "passage_reference", "quote"}),
    ("Leave rules:\n\n- Marriage leave is 3 days.\n- Annual leave is 10 days.", {"list"}),
    ("The passages do not mention paternity leave. Unable to answer based on given passages.", {"absence", "meta"}),
    ("根据以上段落，婚假为3天。它不能拆分。段落二指出，年假为10天。", {"framing", "pronoun", "passage_reference"}),
    ("Marriage leave is 3 days.", set()),
])
def test_an_answer_is_read_for_the_structure_it_is_written_in(answer, kinds):
    assert answer_structure(answer) == kinds


@pytest.mark.parametrize("claim", [
    "There is no data cap on the Pro plan.",  # a fact of the world, not of the passages
    "未说明理由的，不予报销。",  # a rule about claims without a reason
    "Refunds are not available after 30 days.",
    "Meals are not provided on short flights.",  # provided, given: only with the sources named
    "It does not expire.",
    "They do not cover dental care.",
    "The Pro plan includes SSO but does not include audit logs.",  # a plan, not a passage
    "There is no straightforward way to recover a deleted note.",
    "报销单未说明理由的，不予报销。",
])
def test_a_rule_that_something_is_not_so_is_no_claim_about_the_sources(claim):
    assert absence_stated(claim) is None


def test_a_word_that_only_looks_like_a_source_does_not_frame():
    assert _claims("从信息安全角度看，密码必须至少12位。") == ["从信息安全角度看，密码必须至少12位。"]
