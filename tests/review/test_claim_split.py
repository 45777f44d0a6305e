import pytest

from checking.claims import ClaimSpan, split_claims


def texts(answer: str) -> list[str]:
    return [claim.text for claim in split_claims(answer)]


def assert_exact_offsets(answer: str, claims: list[ClaimSpan]) -> None:
    for claim in claims:
        assert answer[claim.start : claim.end] == claim.text
        assert claim.text == claim.text.strip()


def test_sentences_keep_exact_offsets():
    answer = "  The Pro plan costs $12 per month.   Deleted notes stay in the trash for 30 days!\n\nBackups are daily. "
    claims = split_claims(answer)
    assert [c.text for c in claims] == [
        "The Pro plan costs $12 per month.",
        "Deleted notes stay in the trash for 30 days!",
        "Backups are daily.",
    ]
    assert_exact_offsets(answer, claims)
    assert claims[0].start == 2


def test_compound_sentence_with_independent_facts_is_split():
    answer = "X costs $10 per month, and Y includes 5 GB of storage."
    assert texts(answer) == ["X costs $10 per month", "Y includes 5 GB of storage."]
    assert_exact_offsets(answer, split_claims(answer))


def test_semicolon_and_while_join_independent_clauses():
    answer = (
        "The unemployment rate was 3.5 percent; employment rose by 236,000. "
        "Warehousing lost 12,000 jobs, while couriers added 7,000 jobs."
    )
    assert texts(answer) == [
        "The unemployment rate was 3.5 percent",
        "employment rose by 236,000.",
        "Warehousing lost 12,000 jobs",
        "couriers added 7,000 jobs.",
    ]


def test_a_chinese_semicolon_joins_provisions_that_are_claims_of_their_own():
    answer = "年假须至少提前三个工作日申请；一次连续休年假超过五天的，须至少提前两周申请。"
    assert texts(answer) == ["年假须至少提前三个工作日申请", "一次连续休年假超过五天的，须至少提前两周申请。"]
    assert_exact_offsets(answer, split_claims(answer))
    # a clause leaning on the one before (但, 其, 也 ...) or too short to stand alone stays with it
    for sentence in ("出差须经部门经理审批；但国际出差须经总经理审批。", "病假不超过两天的；无需证明。"):
        assert texts(sentence) == [sentence]
    # two provisions stating like quantities are checked together: which gets which is part of the claim
    paired = "员工的祖父母去世的，给予丧假三天；父母、配偶、子女去世的，给予丧假一天。"
    assert texts(paired) == [paired]


def test_no_fragments_that_are_meaningless_alone():
    kept_whole = [
        "Single sign-on is included on Team, but it is not available on Plus.",  # "it" leans back
        "Pluto has five known moons: Charon, the largest; Styx; Nix; Kerberos; and Hydra.",  # a list
        "Employees may keep airline miles, and hotel points.",  # no verb on the right
        "The plan costs $12 per month, and includes 50 GB.",  # no subject on the right
        "Taxis are allowed (between airports, and hotels are fine too) on trips.",  # inside brackets
    ]
    for sentence in kept_whole:
        assert texts(sentence) == [sentence]


def test_abbreviations_do_not_end_sentences():
    answer = (
        "The U.S. Bureau of Labor Statistics published the report. Dr. Okafor founded the company in 2019. "
        "Plans include extras, e.g. offline mode, and more. It was signed by Lumen Labs Inc. The company agreed."
    )
    assert texts(answer) == [
        "The U.S. Bureau of Labor Statistics published the report.",
        "Dr. Okafor founded the company in 2019.",
        "Plans include extras, e.g. offline mode, and more.",
        "It was signed by Lumen Labs Inc.",
        "The company agreed.",
    ]


def test_decimals_times_and_versions_stay_inside_a_sentence():
    answer = "The rate was 3.5 percent in March. Version 2.0 ships at 8:30 a.m. on Friday. It costs $33.18."
    assert texts(answer) == [
        "The rate was 3.5 percent in March.",
        "Version 2.0 ships at 8:30 a.m. on Friday.",
        "It costs $33.18.",
    ]


def test_list_items_are_claims_without_their_markers():
    answer = "Time off:\n\n- Vacation: 20 days per year.\n* Sick leave: 15 days per year\n2. Personal days: 5 days"
    claims = split_claims(answer)
    assert [c.text for c in claims] == [  # "Time off:" leads in to the list and states nothing itself
        "Vacation: 20 days per year.",
        "Sick leave: 15 days per year",
        "Personal days: 5 days",
    ]
    assert_exact_offsets(answer, claims)


def test_soft_wrapped_lines_belong_to_one_sentence():
    answer = "Total nonfarm payroll employment rose by 236,000\nin March, the bureau reported.\nIt was expected."
    assert texts(answer) == [
        "Total nonfarm payroll employment rose by 236,000\nin March, the bureau reported.",
        "It was expected.",
    ]


def test_markdown_headings_table_headers_and_separators_are_not_claims():
    answer = "## Prices\n\n| Plan | Price |\n|---|---|\n| Pro | $12 per month |\n\nPrices exclude **VAT**."
    claims = split_claims(answer)
    assert [c.text for c in claims] == ["| Pro | $12 per month |", "Prices exclude **VAT**."]
    assert_exact_offsets(answer, claims)


def test_pleasantries_and_questions_are_skipped():
    answer = (
        "Hi there! The refund window is 14 days. Do you want the annual plan? "
        "Hope this helps! Let me know if you have other questions."
    )
    assert texts(answer) == ["The refund window is 14 days."]


@pytest.mark.parametrize("reply", ["Yes.", "No.", "Sure!", "Hello!", "Good morning!", "Exactly.", "Yes, it is.",
                                   "Nope", "Thanks!", "Unfortunately not.", "Sadly, no."])
def test_a_reply_without_checkable_content_is_not_a_claim(reply):
    assert split_claims(reply) == []


@pytest.mark.parametrize("reply", ["是的。", "好的。", "好的！", "对。", "当然。", "您好！", "谢谢！", "没问题！", "不客气。",
                                   "早上好！", "希望对您有帮助！", "如有其他问题，欢迎随时咨询。"])
def test_a_chinese_reply_or_pleasantry_without_checkable_content_is_not_a_claim(reply):
    assert split_claims(reply) == []


def test_a_chinese_fact_after_a_reply_word_or_pleasantry_is_still_a_claim():
    assert texts("是的。年度订阅可在30天内退款。") == ["年度订阅可在30天内退款。"]
    assert texts("没问题，年度订阅可在30天内退款。") == ["没问题，年度订阅可在30天内退款。"]
    long_sentence = "如有疑问，请在三十天内联系财务部的王经理办理退款手续。"  # a pleasantry's opening, then a fact
    assert texts(long_sentence) == [long_sentence]


def test_a_one_word_answer_with_a_fact_is_a_claim():
    """A number, an amount or a name can be looked up; a reply opening a fact ("Yes, …") is no part of the claim:
    no source confirms the reply, the fact after it is what is checked."""
    for answer in ("42.", "$750.", "London."):
        assert texts(answer) == [answer]
    assert texts("Yes, refunds are available within 14 days.") == ["refunds are available within 14 days."]
    assert texts("Yes. The Pro plan costs $12 per month.") == ["The Pro plan costs $12 per month."]
    assert texts("Unfortunately, SAML is not available on Pro.") == ["SAML is not available on Pro."]
    assert texts("Paris, the capital, is large.") == ["Paris, the capital, is large."]


def test_a_chinese_reply_opening_a_fact_or_standing_alone_is_no_claim():
    assert texts("不可以，公司禁止将公司账号借给他人使用。") == ["公司禁止将公司账号借给他人使用。"]
    assert texts("很遗憾，不能。公司福利年假部分未休的不予补偿。") == ["公司福利年假部分未休的不予补偿。"]
    assert texts("不适用。实习生不适用本制度。") == ["实习生不适用本制度。"]


def test_an_answer_with_no_checkable_claims_waits_for_a_person():
    from review.models import Risk
    from review.policy import risk_assess

    assessment = risk_assess(question="Is there a free plan?", answer_text="Yes.", claims=[], release_threshold=0.6)

    assert assessment.risk == Risk.MEDIUM
    assert assessment.reasons == ["no checkable claims: nothing in the answer can be checked against a source"]


def test_empty_and_blank_answers_have_no_claims():
    assert split_claims("") == []
    assert split_claims(" \n\n  \n") == []
    assert split_claims("---") == []


def test_a_long_line_that_starts_with_a_hash_is_text_not_a_heading():
    page = "### Annual Meeting 2012 ### Archive " + "Francis picked up a cello and never put it down. " * 6
    claims = split_claims(page)
    assert any("picked up a cello" in claim.text for claim in claims)
    assert [claim.text for claim in split_claims("## Refunds\n\nRefunds take 5 days.")] == ["Refunds take 5 days."]
