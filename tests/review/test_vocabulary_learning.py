"""Words learned from reviews (review/vocabulary_learning.py): deciding an answer records, for each held claim a
reviewer marked correct, the claim words the checker found in the place of other evidence words, as candidate
synonyms with the claim and its quote; nothing for claims the checker supported or the reviewer marked wrong; an
undone reject takes them back; and with KB_SYNONYM_AUTO_ACCEPT two reviewers' confirmations accept a pair."""

import pytest

from kb.models import Synonym
from review import services
from review.leases import answer_lease_take
from review.models import Answer
from review.undo import answer_reject_undo
from review.vocabulary_learning import claim_word_pairs
from tests.review.conftest import scored

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("vocabulary_forgotten")]

POLICY = """# Leave policy

## Absence

Bring a medical certificate after three days off. Staff report an absence to their manager on the first day.

## Abroad

Staff abroad send a medical certificate by email.
"""
ZH_POLICY = """# 差旅规定

## 交通

员工出差可以乘坐出租车，费用凭发票报销。
"""
SICK_NOTE = "Bring a sick note after three days off."


def decide(answer: Answer, reviewer, *, state: str = "confirmed", action: str = "approve") -> Answer:
    answer = answer_lease_take(answer=answer, reviewer=reviewer)
    for claim in answer.claims.all():
        services.claim_review(claim=claim, reviewer=reviewer, state=state, note="the policy means the same")
    return services.answer_decide(answer=answer, reviewer=reviewer, action=action,
                                  reason="" if action == "approve" else "another claim is wrong")


def test_a_confirmed_held_claim_records_its_pair_with_the_claim_and_quote(publish, api_token, reviewer, quiet):
    publish(POLICY, key="leave", title="Leave policy")
    client, _ = api_token
    answer = scored(client, SICK_NOTE)
    claim = answer.claims.get()
    assert claim.verdict == "contradicted" and claim_word_pairs(claim) == [("sick note", "medical certificate")]

    decide(answer, reviewer)

    synonym = Synonym.objects.get()
    assert (synonym.language, synonym.words, synonym.other_words, synonym.state, synonym.source) == (
        "en", "sick note", "medical certificate", "candidate", "review")
    example = synonym.confirmations.get()
    assert (example.reviewer, example.answer_id, example.claim_id, example.claim_text) == (
        reviewer, answer.pk, claim.pk, SICK_NOTE)
    assert "medical certificate" in example.evidence_text and example.security_level == "internal"


def test_a_chinese_claim_records_the_words_the_evidence_puts_in_their_place(publish, api_token, reviewer, quiet):
    publish(ZH_POLICY, key="travel-zh", title="差旅规定")
    client, _ = api_token

    decide(scored(client, "员工出差可以打车，费用凭发票报销。"), reviewer)

    synonym = Synonym.objects.get()
    assert (synonym.language, synonym.words, synonym.other_words) == ("zh", "打车", "乘坐 出租车")


def test_supported_claims_and_claims_marked_wrong_teach_nothing(publish, api_token, reviewer, quiet):
    publish(POLICY, key="leave", title="Leave policy")
    client, _ = api_token

    decide(scored(client, "Bring a medical certificate after three days off."), reviewer)
    decide(scored(client, SICK_NOTE), reviewer, state="rejected", action="reject")

    assert not Synonym.objects.exists()


def test_an_undone_reject_takes_back_what_its_confirmed_claims_showed(publish, api_token, reviewer, quiet):
    publish(POLICY, key="leave", title="Leave policy")
    client, _ = api_token
    answer = scored(client, f"{SICK_NOTE} Staff report an absence to their manager within a week.")
    answer = answer_lease_take(answer=answer, reviewer=reviewer)
    first, second = answer.claims.order_by("ordinal")
    services.claim_review(claim=first, reviewer=reviewer, state="confirmed", note="the same")
    services.claim_review(claim=second, reviewer=reviewer, state="rejected")
    services.answer_decide(answer=answer, reviewer=reviewer, action="reject", reason="the second is wrong")
    synonym = Synonym.objects.get()
    assert synonym.confirmations.count() == 1

    answer_reject_undo(answer=answer, reviewer=reviewer)

    assert synonym.confirmations.count() == 0


def test_two_reviewers_confirming_accept_a_pair_when_the_setting_says_so(publish, api_token, reviewer,
                                                                        second_reviewer, quiet, settings):
    settings.KB_SYNONYM_AUTO_ACCEPT = 2
    publish(POLICY, key="leave", title="Leave policy")
    client, _ = api_token

    decide(scored(client, SICK_NOTE), reviewer)
    assert Synonym.objects.get().state == "candidate"
    decide(scored(client, "Staff abroad send a sick note by email."), second_reviewer)

    synonym = Synonym.objects.get()
    assert (synonym.state, synonym.confirmations.count(), synonym.decided_by) == ("accepted", 2, None)
