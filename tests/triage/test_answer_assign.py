"""Assignment: to me or to a reviewer cleared for the answer, filters Mine / Unassigned, audited, the assignee
notified; "next" hands out my answers first and never someone else's; the lease still decides who acts."""

import pytest

from console.models import AuditEvent
from review.models import Answer
from triage.models import Assignment, Notification
from tests.triage.conftest import listed

pytestmark = pytest.mark.django_db


def _assign(client, answer, assignee, **extra):
    return client.post(f"/triage/answers/{answer.pk}/assign/", {"assignee": assignee, **extra})


def test_reviewer_assigns_an_answer_to_themselves_from_the_queue(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)

    response = _assign(client, answer, "me", next="/review/?risk=medium")

    assert response.status_code == 302 and response["Location"] == "/review/?risk=medium"
    assert Assignment.objects.get(answer=answer).assignee == reviewer
    assert not Notification.objects.exists()  # nobody to tell
    page = client.get("/review/").content.decode()
    assert '<span data-assignee>rita</span>' in page


def test_assigning_to_a_colleague_notifies_them_and_is_audited(client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)

    _assign(client, answer, str(second_reviewer.pk))

    assert Assignment.objects.get(answer=answer).assignee == second_reviewer
    notification = Notification.objects.get(recipient=second_reviewer)
    assert (notification.kind, notification.answer, notification.actor) == ("assignment", answer, reviewer)
    event = AuditEvent.objects.get(verb="answer.assign")
    assert (event.before, event.after, event.actor) == ({"assignee": None}, {"assignee": "rob"}, reviewer)

    client.force_login(second_reviewer)
    nav = client.get("/review/").content.decode()
    assert '<span class="badge warn" data-unread>1</span>' in nav
    listing = client.get("/triage/notifications/").content.decode()
    assert "rita assigned answer" in listing and answer.question in listing


def test_the_same_assignment_again_writes_nothing(client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)
    _assign(client, answer, str(second_reviewer.pk))

    _assign(client, answer, str(second_reviewer.pk))

    assert AuditEvent.objects.filter(verb="answer.assign").count() == 1
    assert Notification.objects.count() == 1


def test_unassigning_is_audited(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)
    _assign(client, answer, "me")

    _assign(client, answer, "")

    assert not Assignment.objects.exists()
    assert AuditEvent.objects.get(verb="answer.unassign").before == {"assignee": "rita"}


def test_an_answer_cannot_be_assigned_to_someone_without_clearance_or_the_reviewer_role(
        client, reviewer, make_user, curator, make_answer):
    answer = make_answer(evidence_level="confidential")
    cleared = make_user("cleo", "reviewer", clearance="confidential")
    uncleared = make_user("ivan", "reviewer", clearance="internal")
    client.force_login(cleared)

    page = client.get(answer.get_absolute_url()).content.decode()
    refused_uncleared = _assign(client, answer, str(uncleared.pk))
    refused_curator = _assign(client, answer, str(curator.pk))

    assert "ivan" not in page  # not offered: naming them would tell them nothing, but they could not open it
    assert refused_uncleared.status_code == 400 and refused_curator.status_code == 400
    assert not Assignment.objects.exists() and not Notification.objects.exists()


def test_a_reviewer_cannot_assign_an_answer_above_their_clearance(client, reviewer, make_answer):
    answer = make_answer(evidence_level="confidential")
    client.force_login(reviewer)  # internal clearance

    assert _assign(client, answer, "me").status_code == 404


def test_mine_and_unassigned_filters(client, reviewer, second_reviewer, make_answer):
    mine = make_answer(question="Mine?")
    theirs = make_answer(question="Theirs?")
    nobodys = make_answer(question="Nobody's?")
    client.force_login(reviewer)
    _assign(client, mine, "me")
    _assign(client, theirs, str(second_reviewer.pk))

    assert listed(client.get("/review/?assignee=me")) == [mine.pk]
    assert listed(client.get("/review/?assignee=none")) == [nobodys.pk]


def test_next_hands_out_my_assigned_answer_first_and_never_a_colleagues(
        client, reviewer, second_reviewer, make_answer):
    theirs = make_answer(question="High, theirs?", risk="high")
    mine = make_answer(question="Medium, mine?", risk="medium")
    client.force_login(reviewer)
    _assign(client, theirs, str(second_reviewer.pk))
    _assign(client, mine, "me")

    assert client.post("/review/next/")["Location"] == mine.get_absolute_url()
    Answer.objects.filter(pk=mine.pk).update(status="approved")
    assert client.post("/review/next/")["Location"] == "/review/"  # the high one is rob's


def test_assignment_does_not_let_the_assignee_act_while_someone_else_holds_the_lease(
        client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    client.force_login(second_reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")  # rob holds the lease
    client.force_login(reviewer)
    _assign(client, answer, "me")

    response = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"}, follow=True)

    assert response.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "holds the lease on this answer" in response.content.decode()
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"


def test_bad_assignee_value_is_a_400(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)

    assert _assign(client, answer, "everyone").status_code == 400
    assert _assign(client, answer, "999999").status_code == 400


def test_a_decided_answer_cannot_be_assigned(client, reviewer, make_answer):
    answer = make_answer(status="approved")
    client.force_login(reviewer)

    response = _assign(client, answer, "me")

    assert response.status_code == 400 and "waiting for review" in response.content.decode()
    assert not Assignment.objects.exists()
