"""Comments and assignment on the review API: the answer page's rules (mentions notify cleared reviewers only;
only a cleared reviewer can be assigned), with a person's token."""

import pytest

from console.models import AuditEvent
from triage.models import Assignment, Comment, Notification

pytestmark = pytest.mark.django_db


def _path(answer, tail: str) -> str:
    return f"/api/v1/review/answers/{answer.pk}{tail}"


def test_a_comment_with_a_mention_notifies_the_colleague(people_api, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    api = people_api(reviewer)

    added = api.post(_path(answer, "/comments"), {"text": "@rob, is 14 days right? @nobody"})
    listed = api.get(_path(answer, "/comments"))

    assert added.status_code == 201
    comment = Comment.objects.get()
    assert added.json()["id"] == comment.pk
    assert (added.json()["mentioned"], added.json()["not_notified"]) == (["rob"], ["nobody"])
    assert Notification.objects.get().recipient == second_reviewer
    assert AuditEvent.objects.filter(verb="answer.comment").count() == 1
    assert listed.status_code == 200
    assert [(c["author"], c["text"]) for c in listed.json()] == [("rita", "@rob, is 14 days right? @nobody")]
    assert api.get(f"/api/v1/review/answers/{answer.pk}").json()["comments"] == 1


def test_a_mention_of_someone_without_clearance_notifies_nobody(people_api, make_user, make_answer):
    author = make_user("cleo", "reviewer", clearance="confidential")
    make_user("ivan", "reviewer", clearance="internal")
    answer = make_answer(evidence_level="confidential")

    response = people_api(author).post(_path(answer, "/comments"), {"text": "@ivan look"})

    assert response.status_code == 201 and response.json()["not_notified"] == ["ivan"]
    assert not Notification.objects.exists()


@pytest.mark.parametrize(("body", "words"), [({"text": ""}, "text"), ({"text": "x" * 4001}, "text"),
                                             ({"text": "bad\x07bell"}, "text"), ({"body": "hi"}, "body")])
def test_bad_comments_are_400_and_store_nothing(people_api, reviewer, make_answer, body, words):
    answer = make_answer()

    response = people_api(reviewer).post(_path(answer, "/comments"), body)

    assert response.status_code == 400 and words in response.json()["detail"]
    assert not Comment.objects.exists()


def test_comments_on_an_answer_above_clearance_are_404(people_api, reviewer, make_answer):
    answer = make_answer(evidence_level="confidential")
    api = people_api(reviewer)

    assert api.get(_path(answer, "/comments")).status_code == 404
    assert api.post(_path(answer, "/comments"), {"text": "hello"}).status_code == 404
    assert not Comment.objects.exists()


def test_assign_to_me_to_a_colleague_and_unassign(people_api, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    api = people_api(reviewer)

    mine = api.post(_path(answer, "/assignment"), {"assignee": "me"})
    theirs = api.post(_path(answer, "/assignment"), {"assignee": second_reviewer.pk})
    queue = api.get("/api/v1/review/queue").json()["results"][0]
    nobody = api.post(_path(answer, "/assignment"), {"assignee": None})

    assert (mine.status_code, mine.json()) == (200, {"id": answer.pk, "assignee": "rita"})
    assert theirs.json()["assignee"] == "rob"
    assert Notification.objects.get().recipient == second_reviewer  # assigned by someone else: told
    assert queue["assignee"] == "rob"
    assert nobody.json() == {"id": answer.pk, "assignee": None}
    assert not Assignment.objects.exists()
    assert [e.verb for e in AuditEvent.objects.filter(verb__startswith="answer.").order_by("pk")] == [
        "answer.assign", "answer.assign", "answer.unassign"]


@pytest.mark.parametrize("assignee", ["everyone", True, 999999, "curator"])
def test_assigning_to_no_cleared_reviewer_is_400(people_api, reviewer, curator, make_answer, assignee):
    answer = make_answer()
    if assignee == "curator":
        assignee = curator.pk

    response = people_api(reviewer).post(_path(answer, "/assignment"), {"assignee": assignee})

    assert response.status_code == 400 and "assignee" in response.json()["detail"]
    assert not Assignment.objects.exists()


def test_a_decided_answer_cannot_be_assigned(people_api, reviewer, make_answer):
    answer = make_answer(status="approved")

    response = people_api(reviewer).post(_path(answer, "/assignment"), {"assignee": "me"})

    assert response.status_code == 400
    assert response.json()["detail"] == "Only an answer waiting for review can be assigned."


def test_a_client_token_and_a_curators_token_are_refused(client, api_token, people_api, curator, make_answer):
    answer = make_answer()
    _, token = api_token

    by_client = client.post(_path(answer, "/comments"), data={"text": "hi"}, content_type="application/json",
                            headers={"Authorization": f"Bearer {token}"})
    by_curator = people_api(curator).post(_path(answer, "/assignment"), {"assignee": "me"})

    assert by_client.status_code == 403 and by_curator.status_code == 403
    assert not Comment.objects.exists() and not Assignment.objects.exists()
