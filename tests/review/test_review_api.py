"""The review API's queue and answer (GET /api/v1/review/...), and who gets in: personal tokens only, reviewers
only, within their clearance."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from kb.models import Chunk
from review.models import Answer
from triage.models import Assignment, Comment, QueueView

pytestmark = pytest.mark.django_db

POLICY = """# Expense policy

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""


@pytest.fixture
def chunk(publish):
    version = publish(POLICY, key="expense-policy")
    return Chunk.objects.get(version=version, heading_path="Expense policy > Submission")


def _ids(response) -> list[int]:
    return [item["id"] for item in response.json()["results"]]


def test_queue_lists_waiting_answers_in_the_pages_order_with_claims_and_evidence(people_api, reviewer, make_answer,
                                                                                  chunk, second_reviewer):
    medium = make_answer(question="Medium?", risk="medium")
    high = make_answer(question="High?", risk="high", chunk=chunk,
                       claims=[("Expense reports are due within 45 days.", "contradicted", 0.2)])
    make_answer(question="Released?", risk="low", status="released")
    Assignment.objects.create(answer=high, assignee=second_reviewer, assigned_by=reviewer)
    Answer.objects.filter(pk=high.pk).update(lease_holder=second_reviewer,
                                             lease_expires_at=timezone.now() + timedelta(minutes=5))

    response = people_api(reviewer).get("/api/v1/review/queue")

    assert response.status_code == 200
    body = response.json()
    assert (body["count"], body["page"], body["pages"], body["page_size"]) == (2, 1, 1, 25)
    assert _ids(response) == [high.pk, medium.pk]
    first = body["results"][0]
    assert (first["risk"], first["status"], first["question"], first["client"]) == (
        "high", "pending_review", "High?", "assistant")
    assert (first["assignee"], first["lease_holder"]) == ("rob", "rob")
    assert first["age_seconds"] >= 0 and first["sla_deadline"] and first["url"] == f"/review/answers/{high.pk}/"
    claim = first["claims"][0]
    assert (claim["index"], claim["text"], claim["verdict"], claim["score"]) == (
        0, "Expense reports are due within 45 days.", "contradicted", 0.2)
    assert claim["reasons"] == ["contradicted (test)"] and claim["review"]["state"] == "open"
    evidence = claim["evidence"][0]
    assert (evidence["document_key"], evidence["version"], evidence["heading"]) == (
        "expense-policy", 1, "Expense policy > Submission")
    assert evidence["quote"] == "Expense reports must be submitted within 30 days after the trip ends."
    assert (evidence["quote_start"], evidence["quote_end"]) == (chunk.char_start, chunk.char_end)
    assert evidence["chunk_id"] == chunk.pk


def test_queue_takes_the_pages_filters_and_sort(people_api, reviewer, make_answer):
    make_answer(question="Refund window?", risk="medium")
    high = make_answer(question="Refund amount?", risk="high")
    released = make_answer(question="Hotel cap?", risk="low", status="released")
    mine = make_answer(question="Mine?", risk="medium")
    Assignment.objects.create(answer=mine, assignee=reviewer, assigned_by=reviewer)
    api = people_api(reviewer)

    assert _ids(api.get("/api/v1/review/queue", {"risk": "high"})) == [high.pk]
    assert _ids(api.get("/api/v1/review/queue", {"status": "released"})) == [released.pk]
    assert _ids(api.get("/api/v1/review/queue", {"q": "amount"})) == [high.pk]
    assert _ids(api.get("/api/v1/review/queue", {"assignee": "me"})) == [mine.pk]
    assert _ids(api.get("/api/v1/review/queue", {"sort": "newest"}))[0] == mine.pk
    assert _ids(api.get("/api/v1/review/queue", {"client": high.client_id, "risk": "high"})) == [high.pk]


def test_queue_filters_by_document(people_api, reviewer, make_answer, chunk):
    resting = make_answer(question="Resting on the policy?", chunk=chunk)
    make_answer(question="Resting on nothing?")

    response = people_api(reviewer).get("/api/v1/review/queue", {"document": "expense-policy"})

    assert _ids(response) == [resting.pk]


def test_queue_opens_a_saved_view_and_a_filter_beside_it_wins(people_api, reviewer, second_reviewer, make_answer):
    medium = make_answer(question="Medium?", risk="medium")
    high = make_answer(question="High?", risk="high")
    view = QueueView.objects.create(owner=second_reviewer, name="Highs", query="risk=high&cols=client", shared=True)
    private = QueueView.objects.create(owner=second_reviewer, name="Mine", query="risk=medium")
    api = people_api(reviewer)

    assert _ids(api.get("/api/v1/review/queue", {"view": view.pk})) == [high.pk]
    assert _ids(api.get("/api/v1/review/queue", {"view": view.pk, "risk": "medium"})) == [medium.pk]
    hidden = api.get("/api/v1/review/queue", {"view": private.pk})
    assert hidden.status_code == 404 and hidden.json()["error"] == "not_found"
    assert api.get("/api/v1/review/queue", {"view": 999999}).status_code == 404


def test_queue_pages(people_api, reviewer, make_answer):
    answers = [make_answer(question=f"Question {i}?") for i in range(5)]
    api = people_api(reviewer)

    second = api.get("/api/v1/review/queue", {"page": 2, "page_size": 2})
    beyond = api.get("/api/v1/review/queue", {"page": 4, "page_size": 2})

    assert second.json()["pages"] == 3 and _ids(second) == [answers[2].pk, answers[3].pk]
    assert beyond.status_code == 404 and "no page 4" in beyond.json()["detail"]
    assert api.get("/api/v1/review/queue", {"page_size": 101}).status_code == 400


@pytest.mark.parametrize("params", [{"risk": "extreme"}, {"sort": "random"}, {"document": "no-such-document"},
                                    {"client": 999999}, {"page": 0}, {"received_from": "yesterday"}])
def test_bad_queue_filters_are_400_naming_the_filter(people_api, reviewer, params):
    response = people_api(reviewer).get("/api/v1/review/queue", params)

    assert response.status_code == 400
    assert response.json()["error"] == "bad_request"
    assert next(iter(params)) in response.json()["detail"]


def test_queue_keeps_to_the_reviewers_clearance(people_api, reviewer, make_answer):
    public = make_answer(question="Public matter?", evidence_level="public")
    confidential = make_answer(question="Confidential matter?", evidence_level="confidential")
    api = people_api(reviewer)  # internal clearance

    assert _ids(api.get("/api/v1/review/queue")) == [public.pk]
    above = api.get(f"/api/v1/review/answers/{confidential.pk}")
    assert above.status_code == 404 and above.json() == {"error": "not_found", "detail": f"no answer {confidential.pk}"}


def test_queue_queries_stay_within_ten_percent_of_the_queue_page(client, people_api, reviewer, make_answer, chunk):
    """The same 25 answers, each with claims and evidence: the API makes no more queries than the page (plus
    10 %), however many claims and answers there are."""
    for i in range(30):
        make_answer(question=f"Question {i}?", chunk=chunk,
                    claims=[("A is so.", "uncertain", 0.5), ("B is so.", "contradicted", 0.2)])
    client.force_login(reviewer)
    api = people_api(reviewer)
    client.get("/review/")  # steady work is compared: the first request of a session and of a token write to them
    api.get("/api/v1/review/queue")

    with CaptureQueriesContext(connection) as page:
        assert client.get("/review/").status_code == 200
    with CaptureQueriesContext(connection) as queue:
        response = api.get("/api/v1/review/queue")

    assert len(response.json()["results"]) == 25
    assert len(queue.captured_queries) <= len(page.captured_queries) * 1.1, (
        len(queue.captured_queries), len(page.captured_queries))
    for i in range(10):
        make_answer(question=f"More {i}?", chunk=chunk, claims=[(f"C{n} is so.", "uncertain", 0.5) for n in range(4)])
    with CaptureQueriesContext(connection) as more:
        api.get("/api/v1/review/queue", {"sort": "newest"})
    assert len(more.captured_queries) == len(queue.captured_queries)


def test_answer_detail_has_claims_decisions_and_the_comment_count(people_api, reviewer, make_answer, chunk):
    answer = make_answer(chunk=chunk, claims=[("Expense reports are due within 30 days.", "supported", 0.9)])
    Comment.objects.create(answer=answer, author=reviewer, text="Looks right.")

    response = people_api(reviewer).get(f"/api/v1/review/answers/{answer.pk}")

    body = response.json()
    assert response.status_code == 200
    assert (body["id"], body["comments"], body["decisions"], body["lease_holder"]) == (answer.pk, 1, [], None)
    assert body["claims"][0]["evidence"][0]["document_key"] == "expense-policy"
    assert body["released_text"] is None and body["sent_claims"] == []
    queued = people_api(reviewer).get("/api/v1/review/queue").json()["results"][0]
    assert body["sla_deadline"] == queued["sla_deadline"] is not None


def test_a_client_token_on_a_review_route_is_403(client, api_token, make_answer):
    _, token = api_token

    response = client.get("/api/v1/review/queue", headers={"Authorization": f"Bearer {token}"})

    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"
    assert "person's token" in response.json()["detail"]


def test_a_personal_token_on_a_client_route_is_403(client, people_api, reviewer):
    token = people_api(reviewer).token

    answers = client.post("/api/v1/answers", data={"question": "Q?", "answer": "A."}, content_type="application/json",
                          headers={"Authorization": f"Bearer {token}"})
    search = client.get("/api/v1/search", {"q": "refund"}, headers={"Authorization": f"Bearer {token}"})

    assert answers.status_code == 403 and answers.json()["error"] == "forbidden"
    assert "API client's token" in answers.json()["detail"]
    assert search.status_code == 403
    assert not Answer.objects.exists()


def test_a_personal_token_on_the_alignscore_endpoint_is_403(client, people_api, reviewer, settings):
    settings.API_ALIGNSCORE_ENABLED = True

    body = {"evidence": "Refunds take 14 days.", "claim": "Refunds take 14 days."}

    response = client.post("/alignscore_base", data=body, content_type="application/json",
                           headers={"Authorization": f"Bearer {people_api(reviewer).token}"})

    assert response.status_code == 403 and response.json()["error"] == "forbidden"


def test_a_curators_token_is_403_on_every_review_route(people_api, curator, make_answer):
    answer = make_answer()
    api = people_api(curator)

    responses = [api.get("/api/v1/review/queue"), api.get(f"/api/v1/review/answers/{answer.pk}"),
                 api.post(f"/api/v1/review/answers/{answer.pk}/lease"),
                 api.post(f"/api/v1/review/answers/{answer.pk}/decision", {"action": "approve"}),
                 api.get(f"/api/v1/review/answers/{answer.pk}/comments")]

    assert [r.status_code for r in responses] == [403] * 5
    assert responses[0].json() == {"error": "forbidden",
                                   "detail": "this route needs the reviewer role; cora does not hold it"}
    answer.refresh_from_db()
    assert answer.lease_holder is None


def test_revoked_tokens_and_deactivated_users_get_401(client, people_api, reviewer, second_reviewer):
    from console.models import PersonalToken
    from console.personal_tokens import personal_token_revoke

    revoked, deactivated = people_api(reviewer), people_api(second_reviewer)
    assert revoked.get("/api/v1/review/queue").status_code == 200
    personal_token_revoke(personal_token=PersonalToken.objects.get(user=reviewer), actor=reviewer)
    second_reviewer.is_active = False
    second_reviewer.save(update_fields=["is_active"])

    for api in (revoked, deactivated):
        response = api.get("/api/v1/review/queue")
        assert response.status_code == 401
        assert response.json() == {"error": "unauthorized", "detail": "missing or invalid bearer token"}
    assert client.get("/api/v1/review/queue").status_code == 401  # no token at all


def test_bad_personal_tokens_are_throttled_like_client_tokens(client, settings):
    import redis

    from review.token_throttle import KEY_PREFIX

    settings.API_BAD_TOKEN_LIMIT = 3
    address = "203.0.113.77"
    redis.Redis.from_url(settings.REDIS_URL).delete(KEY_PREFIX + address)

    statuses = [client.get("/api/v1/review/queue", REMOTE_ADDR=address,
                           headers={"Authorization": f"Bearer gap_guess_{n}"}).status_code for n in range(4)]

    assert statuses == [401, 401, 429, 429]
    redis.Redis.from_url(settings.REDIS_URL).delete(KEY_PREFIX + address)


def test_using_a_token_notes_when_it_was_last_used(people_api, reviewer):
    from console.models import PersonalToken

    api = people_api(reviewer)
    assert PersonalToken.objects.get(user=reviewer).last_used_at is None

    api.get("/api/v1/review/queue")

    assert PersonalToken.objects.get(user=reviewer).last_used_at is not None
