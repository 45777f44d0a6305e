"""Two people for what matters: with REVIEW_SECOND_REVIEW_TIERS / _TOPICS, the first approval leaves the answer
pending and unreleased, the first approver cannot give the second (page, next and API alike), the second reviewer
marks the claims without seeing the first's marks, and their approval releases it."""

import pytest

from console.models import AuditEvent
from review.models import Answer, ReviewerMark

pytestmark = pytest.mark.django_db


def _path(answer, tail: str = "") -> str:
    return f"/api/v1/review/answers/{answer.pk}{tail}"


APPROVE_ALL = {"action": "approve", "claims": [{"index": 0, "state": "confirmed"}]}


def test_a_high_risk_answer_needs_a_second_reviewer_through_the_api(settings, people_api, reviewer, second_reviewer,
                                                                    make_answer):
    settings.REVIEW_SECOND_REVIEW_TIERS = ["high"]
    answer = make_answer(risk="high", claims=[("Refunds take 14 days.", "supported", 0.9)],
                         callback_url="https://assistant.example/hook")
    rita, rob = people_api(reviewer), people_api(second_reviewer)
    rita.post(_path(answer, "/lease"))

    first = rita.post(_path(answer, "/decision"), APPROVE_ALL)
    held = Answer.objects.get(pk=answer.pk)
    again = rita.post(_path(answer, "/lease"))
    queue = rob.get("/api/v1/review/queue").json()["results"]
    rita_next = rita.post("/api/v1/review/next")
    blind = rob.get(_path(answer)).json()["claims"][0]["review"]["state"]
    rob.post(_path(answer, "/lease"))
    second = rob.post(_path(answer, "/decision"), APPROVE_ALL)

    assert first.status_code == 200, first.content
    assert (first.json()["status"], first.json()["needs_second_reviewer"], first.json()["released_text"]) == (
        "pending_review", True, None)
    assert again.status_code == 409 and "needs a second reviewer" in again.json()["detail"]
    assert [(row["id"], row["needs_second_reviewer"], row["first_approved_by"]) for row in queue] == [
        (answer.pk, True, "rita")]
    assert rita_next.status_code == 404  # "next" never hands the first approver the second approval
    assert blind == "open"  # the second reviewer marks it without the first one's marks
    assert second.status_code == 200, second.content
    assert (second.json()["status"], second.json()["decided_by"], second.json()["needs_second_reviewer"]) == (
        "approved", "rob", False)
    # Released, its webhook due, on the second approval only.
    assert (held.released_at, held.webhook_state) == (None, "")
    released = Answer.objects.get(pk=answer.pk)
    assert released.released_at is not None and released.webhook_state == "pending"
    assert sorted(ReviewerMark.objects.filter(claim__answer=answer).values_list("reviewer__username", "state")) == [
        ("rita", "confirmed"), ("rob", "confirmed")]
    assert AuditEvent.objects.filter(verb="answer.first_approval", object_id=str(answer.pk)).count() == 1


def test_until_the_second_approval_nothing_is_released_to_the_client(settings, people_api, reviewer, make_answer,
                                                                     api):
    settings.REVIEW_SECOND_REVIEW_TIERS = ["high"]
    answer = make_answer(risk="high", claims=[("Refunds take 14 days.", "supported", 0.9)])
    rita = people_api(reviewer)
    rita.post(_path(answer, "/lease"))
    rita.post(_path(answer, "/decision"), APPROVE_ALL)

    seen = api.get(f"/api/v1/answers/{answer.pk}").json()

    assert (seen["status"], seen["released_text"]) == ("pending_review", None)
    assert Answer.objects.get(pk=answer.pk).released_at is None


def test_the_first_approver_cannot_give_the_second_on_the_page(settings, client, reviewer, make_answer):
    settings.REVIEW_SECOND_REVIEW_TIERS = ["medium"]
    answer = make_answer(risk="medium", claims=[("Refunds take 14 days.", "supported", 0.9)])
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    start = client.post(f"/review/answers/{answer.pk}/start/", follow=True).content.decode()
    decide = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"}, follow=True)
    queue = client.get("/review/").content.decode()

    assert "You gave this answer its first approval" in start
    assert 'id="start-review"' not in start
    assert decide.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "Your decision was not recorded: You gave this answer its first approval" in decide.content.decode()
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"
    assert "needs a second reviewer" in queue


def test_a_listed_topic_needs_two_people_in_any_tier_and_other_answers_one(settings, people_api, reviewer,
                                                                          make_answer):
    settings.REVIEW_SECOND_REVIEW_TIERS = []
    settings.REVIEW_SECOND_REVIEW_TOPICS = ["refund"]
    topical = make_answer(question="What is the refund window?", risk="medium",
                          claims=[("Answers come in 14 days.", "supported", 0.9)])
    other = make_answer(question="How fast is delivery?", risk="medium",
                        claims=[("Parcels come in 3 days.", "supported", 0.9)])
    rita = people_api(reviewer)
    statuses = []
    for answer in (topical, other):
        rita.post(_path(answer, "/lease"))
        statuses.append(rita.post(_path(answer, "/decision"), APPROVE_ALL).json()["status"])

    assert statuses == ["pending_review", "approved"]


def test_one_person_cannot_send_an_edit_of_an_answer_that_needs_two(settings, people_api, reviewer, make_answer):
    settings.REVIEW_SECOND_REVIEW_TIERS = ["high"]
    answer = make_answer(risk="high", claims=[("Refunds take 14 days.", "supported", 0.9)])
    rita = people_api(reviewer)
    rita.post(_path(answer, "/lease"))

    edit = rita.post(_path(answer, "/decision"), {"action": "edit", "text": "Refunds take 30 days.",
                                                   "claims": [{"index": 0, "state": "confirmed"}]})

    assert edit.status_code == 400 and "needs two people" in edit.json()["detail"]
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"


def test_a_group_member_that_needs_two_people_is_named_as_waiting_for_a_second_reviewer(settings, reviewer,
                                                                                       make_answer):
    from review import groups
    from review.selectors import answers_visible_to

    settings.REVIEW_SECOND_REVIEW_TOPICS = ["refund"]
    needs_two = make_answer(question="What is the refund window?", claims=[("It is 14 days.", "supported", 0.9)])
    one = make_answer(question="How long is the window?", claims=[("It is 14 days.", "supported", 0.9)])
    Answer.objects.filter(pk__in=[needs_two.pk, one.pk]).update(risk="medium")
    for answer in (needs_two, one):
        answer.claims.update(fact_key="window-14")
    group = groups.answer_groups(pending=answers_visible_to(reviewer))[0]

    outcome = groups.answer_group_decide(group=group, reviewer=reviewer, marks={}, action="approve")

    assert [a.pk for a in outcome.decided] == [one.pk]
    assert [(a.pk, why) for a, why in outcome.left] == [
        (needs_two.pk, "first approval given; it needs a second reviewer")]
    assert Answer.objects.get(pk=needs_two.pk).first_approved_by == reviewer
