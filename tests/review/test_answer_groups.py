"""Groups in the queue: pending answers stating the same facts are decided once, each member still decided on its
own (lease, decision, audit, webhook); and one key agrees with every claim the checker supports."""

import pytest

from console.models import AuditEvent
from review.models import Decision
from tests.review.conftest import scored
from tests.review.test_reviewed_facts import POLICY

pytestmark = pytest.mark.django_db

SAME = "International trips must be booked at least 21 days before departure. The nightly hotel cap in London is £220."


def test_answers_stating_the_same_facts_are_one_group_decided_once(client, publish, api_token, reviewer, quiet):
    publish(POLICY, key="travel", title="Travel policy")
    api_client, _ = api_token
    members = [scored(api_client, SAME) for _ in range(3)]
    alone = scored(api_client, "Domestic trips must be booked at least 14 days before departure.")
    client.force_login(reviewer)

    queue = client.get("/review/").content.decode()
    assert "Decide 3 answers once" in queue
    key = queue.split('data-answer-group="')[1].split('"')[0]
    page = client.get(f"/review/groups/{key}/").content.decode()
    fact_keys = [c.fact_key for c in members[0].claims.order_by("ordinal")]
    assert all(f'data-group-claim="{fact_key}"' in page for fact_key in fact_keys)
    assert all(f'data-group-member="{m.pk}"' in page for m in members) and f'data-group-member="{alone.pk}"' not in page

    response = client.post(f"/review/groups/{key}/decide/", {
        "fact_key": fact_keys, **{f"state-{k}": "confirmed" for k in fact_keys}, "action": "approve"})

    assert response.status_code == 302
    for member in members:
        member.refresh_from_db()
        assert (member.status, member.decided_by) == ("approved", reviewer)
        assert list(member.claims.values_list("review_state", flat=True)) == ["confirmed", "confirmed"]
    assert Decision.objects.filter(answer__in=members, action="approve").count() == 3
    assert AuditEvent.objects.filter(verb="answer.approve").count() == 3
    alone.refresh_from_db()
    assert alone.status == "pending_review"
    assert client.get(f"/review/groups/{key}/").status_code == 404  # decided: no group any more


def test_a_member_another_reviewer_holds_is_left_and_said_so(client, publish, api_token, reviewer, second_reviewer,
                                                            quiet):
    from review.leases import answer_lease_take

    publish(POLICY, key="travel", title="Travel policy")
    api_client, _ = api_token
    first, held = scored(api_client, SAME), scored(api_client, SAME)
    answer_lease_take(answer=held, reviewer=second_reviewer)
    client.force_login(reviewer)
    key = client.get("/review/").content.decode().split('data-answer-group="')[1].split('"')[0]
    fact_keys = [c.fact_key for c in first.claims.order_by("ordinal")]

    response = client.post(f"/review/groups/{key}/decide/", {
        "fact_key": fact_keys, **{f"state-{k}": "confirmed" for k in fact_keys}, "action": "approve"}, follow=True)

    first.refresh_from_db()
    held.refresh_from_db()
    assert (first.status, held.status) == ("approved", "pending_review")
    assert f"Answer {held.pk} left as it was" in response.content.decode()


def test_one_key_agrees_with_every_supported_claim_and_leaves_the_flagged(client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=[("Refunds are paid within 14 days.", "supported", 0.9),
                                             ("Refunds take 30 days.", "not_found", 0.2),
                                             ("Support answers within a day.", "supported", 0.8)])
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    page = client.get(answer.get_absolute_url()).content.decode()
    assert "Agree with the 2 claims the checker supports" in page

    response = client.post(f"/review/answers/{answer.pk}/confirm-supported/")

    assert response.status_code == 302
    states = list(answer.claims.order_by("ordinal").values_list("review_state", flat=True))
    assert states == ["confirmed", "open", "confirmed"]
    assert "Agree with the" not in client.get(answer.get_absolute_url()).content.decode()


def test_agreeing_is_refused_while_another_reviewer_holds_the_answer(client, reviewer, second_reviewer, make_answer):
    from review.leases import answer_lease_take

    answer = make_answer(risk="medium", claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    answer_lease_take(answer=answer, reviewer=second_reviewer)
    client.force_login(reviewer)

    response = client.post(f"/review/answers/{answer.pk}/confirm-supported/", follow=True)

    assert answer.claims.get().review_state == "open"
    assert "holds the lease on this answer" in response.content.decode()
