"""Reviewed facts: a reviewer's decision counts for the same fact in later answers, never for a changed one, and
ends with its version, an undo or a revocation."""

import pytest

from console.models import AuditEvent
from review import reviewed_facts, services
from review.leases import answer_lease_take
from review.models import Answer, ReviewedFact
from review.undo import answer_reject_undo
from tests.review.conftest import scored

pytestmark = pytest.mark.django_db

POLICY = """# Travel policy

## Booking

International trips must be booked at least 21 days before departure. Domestic trips must be booked at least 14 days before departure.

## Hotels

The nightly hotel cap in London is £220. The nightly hotel cap in Paris is €230.
"""

ZH_POLICY = """# 差旅费用规定

## 住宿

在北京出差，住宿费每晚最高报销六百元。在上海出差，住宿费每晚最高报销五百元。

## 餐饮

酒水费用不予报销。
"""


def decide(answer: Answer, reviewer, *, state: str = "confirmed", action: str = "approve") -> Answer:
    answer = answer_lease_take(answer=answer, reviewer=reviewer)
    for claim in answer.claims.all():
        services.claim_review(claim=claim, reviewer=reviewer, state=state, note="checked against the policy")
    return services.answer_decide(answer=answer, reviewer=reviewer, action=action,
                                  reason="" if action == "approve" else "wrong cap")


def test_an_approved_fact_releases_the_same_fact_in_other_words(publish, api_token, reviewer, quiet):
    publish(POLICY, key="travel", title="Travel policy")
    client, _ = api_token
    first = scored(client, "International trips must be booked at least 21 days before departure.")
    assert first.status == "pending_review"
    decide(first, reviewer)

    again = scored(client, "You'll need to book international trips 21 days or more before departure.")

    assert again.status == "released"
    claim = again.claims.get()
    assert claim.reviewed_fact.answer == first and claim.reviewed_fact.decided_by == reviewer
    assert claim.reasons[0].startswith("supported by review: rita confirmed the same fact on")
    score = AuditEvent.objects.get(verb="answer.score", object_id=str(again.pk))
    assert score.after["reviewed_facts"] == [claim.reviewed_fact_id]


@pytest.mark.parametrize("changed", [
    "International trips must be booked at least 14 days before departure.",  # number
    "International trips must be booked at least 21 days after departure.",  # direction
    "Domestic trips must be booked at least 21 days before departure.",  # a word in another's place
    "International trips must not be booked at least 21 days before departure.",  # negation
])
def test_the_same_answer_with_one_fact_changed_waits(publish, api_token, reviewer, quiet, changed):
    publish(POLICY, key="travel", title="Travel policy")
    client, _ = api_token
    decide(scored(client, "International trips must be booked at least 21 days before departure."), reviewer)

    later = scored(client, changed)

    assert later.status == "pending_review"
    assert not later.claims.filter(reviewed_fact__outcome="confirmed").exists()


def test_a_rejected_fact_in_other_words_is_held_as_wrong_before(publish, api_token, reviewer, quiet):
    publish(POLICY, key="travel", title="Travel policy")
    client, _ = api_token
    wrong = scored(client, "The nightly hotel cap in London is £250.")
    decide(wrong, reviewer, state="rejected", action="reject")

    again = scored(client, "In London, the hotel cap is £250 per night.")

    assert (again.status, again.risk) == ("pending_review", "high")
    assert any(r.startswith("rejected before: claim 1") for r in again.routing_reasons)
    assert again.claims.get().reviewed_fact.outcome == "rejected"


def test_a_chinese_fact_counts_for_the_same_words_and_never_for_another_city(publish, api_token, reviewer, quiet):
    publish(ZH_POLICY, key="travel-zh", title="差旅费用规定")
    client, _ = api_token
    decide(scored(client, "在北京出差，住宿费每晚最高报销六百元。"), reviewer)

    same = scored(client, "在北京出差时，住宿费每晚最高可报销六百元。")
    other_city = scored(client, "在上海出差，住宿费每晚最高报销六百元。")

    assert same.status == "released" and same.claims.get().reviewed_fact is not None
    assert other_city.status == "pending_review" and other_city.claims.get().reviewed_fact is None


def test_a_superseded_version_ends_its_reviewed_facts(publish, api_token, reviewer, quiet):
    publish(POLICY, key="travel", title="Travel policy")
    client, _ = api_token
    decide(scored(client, "International trips must be booked at least 21 days before departure."), reviewer)
    fact = ReviewedFact.objects.get()

    publish(POLICY.replace("21 days", "28 days"), key="travel")  # v2 approved and indexed: v1 superseded
    later = scored(client, "International trips must be booked at least 21 days before departure.")

    fact.refresh_from_db()
    assert (fact.ended_reason, later.status) == ("superseded", "pending_review")
    assert later.claims.get().reviewed_fact is None


def test_an_undone_reject_takes_its_facts_back(publish, api_token, reviewer, quiet):
    publish(POLICY, key="travel", title="Travel policy")
    client, _ = api_token
    wrong = scored(client, "The nightly hotel cap in London is £250.")
    decide(wrong, reviewer, state="rejected", action="reject")

    answer_reject_undo(answer=Answer.objects.get(pk=wrong.pk), reviewer=reviewer)

    assert ReviewedFact.objects.get().ended_reason == "undone"
    assert scored(client, "The nightly hotel cap in London is £250.").claims.get().reviewed_fact is None


def test_an_approver_revokes_a_fact_from_the_version_page(client, publish, api_token, reviewer, approver, quiet):
    version = publish(POLICY, key="travel", title="Travel policy")
    api_client, _ = api_token
    decide(scored(api_client, "International trips must be booked at least 21 days before departure."), reviewer)
    fact = ReviewedFact.objects.get()
    client.force_login(approver)

    page = client.get(version.get_absolute_url()).content.decode()
    assert f'data-reviewed-fact="{fact.pk}"' in page and "Revoke" in page
    client.force_login(reviewer)
    assert client.post(f"/review/facts/{fact.pk}/revoke/").status_code == 403  # reviewers may not
    client.force_login(approver)
    response = client.post(f"/review/facts/{fact.pk}/revoke/")

    fact.refresh_from_db()
    assert response.status_code == 302 and (fact.ended_reason, fact.ended_by) == ("revoked", approver)
    assert AuditEvent.objects.filter(verb="reviewed_fact.revoke", object_id=str(fact.pk)).exists()
    later = scored(api_client, "International trips must be booked at least 21 days before departure.")
    assert later.status == "pending_review" and later.claims.get().reviewed_fact is None
    assert reviewed_facts.reviewed_fact_revoke(fact=fact, approver=approver).ended_reason == "revoked"  # once


def test_a_claim_leaning_on_the_one_before_is_neither_remembered_nor_released_on_memory(publish, api_token, reviewer,
                                                                                       quiet):
    """"It is £220" is true of what "it" was in its answer: confirmed there, it says nothing of Paris' cap."""
    publish(POLICY, key="travel", title="Travel policy")
    client, _ = api_token
    first = scored(client, "The nightly hotel cap in London is £220. It applies to every night of the trip.")
    assert first.claims.count() == 2 and first.claims.get(ordinal=1).fact_key == ""
    decide(first, reviewer)

    assert list(ReviewedFact.objects.values_list("claim_text", flat=True)) == [
        "The nightly hotel cap in London is £220."]
    again = scored(client, "The nightly hotel cap in Paris is €230. It applies to every night of the trip.")
    assert again.claims.get(ordinal=1).reviewed_fact is None


@pytest.mark.parametrize(("policy", "reviewed", "within", "changed"), [
    (POLICY, "International trips must be booked at least 21 days before departure.",
     "You have to book international trips at least 21 days before you leave.",
     "You have to book domestic trips at least 21 days before you leave."),
    (ZH_POLICY, "在北京出差，住宿费每晚最高报销六百元。", "北京出差的住宿费，每晚最多可以报六百元。",
     "上海出差的住宿费，每晚最多可以报六百元。"),
])
def test_a_supported_claim_within_a_reviewed_fact_goes_out_on_it(publish, api_token, reviewer, quiet, policy,
                                                                  reviewed, within, changed):
    """The checker finds it supported by the quote a reviewer confirmed the fact against, and it says no more than
    that fact in words the source does not offer: the review lets it out, as no score would (quiet)."""
    publish(policy, key="travel", title="Travel policy")
    client, _ = api_token
    first = scored(client, reviewed)
    decide(first, reviewer)

    later = scored(client, within)
    other = scored(client, changed)

    claim = later.claims.get()
    assert (later.status, claim.verdict, claim.reviewed_fact.answer) == ("released", "supported", first)
    said = ("supported by review: its source states it, where rita confirmed", "经审核支持：其来源如此陈述")
    assert any(reason.startswith(said) for reason in claim.reasons)
    assert later.routing_reasons[0].endswith(("or by review", "或经审核支持"))  # not "above the threshold" alone
    assert other.status == "pending_review" and other.claims.get().reviewed_fact is None


def test_a_claim_joining_two_reviewed_facts_goes_out_part_by_part(publish, api_token, reviewer, quiet):
    """Two confirmed facts of one passage said in one sentence of other words: each part within its fact."""
    publish(POLICY, key="travel", title="Travel policy")
    client, _ = api_token
    decide(scored(client, "International trips must be booked at least 21 days before departure. Domestic trips "
                          "must be booked at least 14 days before departure."), reviewer)

    later = scored(client, "Book international trips at least 21 days before you leave and domestic trips at least "
                           "14 days before you leave.")
    swapped = scored(client, "Book international trips at least 14 days before you leave and domestic trips at least "
                             "21 days before you leave.")

    claim = later.claims.get()  # one claim: neither fact alone holds both its numbers, nor restates its "leave"
    assert later.status == "released", claim.reasons
    assert claim.reasons[0].startswith("supported by review, part by part: its source states each of its 2 parts")
    assert swapped.status == "pending_review"
    assert not swapped.claims.filter(reviewed_fact__outcome="confirmed").exists()
