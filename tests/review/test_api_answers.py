"""POST/GET /api/v1/answers: status codes, idempotency, isolation between clients."""

import json

import pytest

from review.models import Answer
from review.services import api_client_create

pytestmark = pytest.mark.django_db

BODY = {"question": "How long do refunds take?", "answer": "Refunds are paid within 14 days.",
        "external_id": "conv-1"}


def test_submit_returns_202_and_queues_scoring_once(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        response = api.post("/api/v1/answers", BODY)

    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "scoring"
    assert body["url"].endswith(f"/api/v1/answers/{body['id']}")
    assert len(callbacks) == 1  # the scoring task, sent on commit
    assert Answer.objects.get().external_id == "conv-1"


def test_same_idempotency_key_returns_the_same_answer(api, django_capture_on_commit_callbacks):
    first = api.post("/api/v1/answers", BODY, **{"Idempotency-Key": "abc-1"})
    with django_capture_on_commit_callbacks() as callbacks:
        second = api.post("/api/v1/answers", BODY, **{"Idempotency-Key": "abc-1"})

    assert second.status_code == 202
    assert second.json()["id"] == first.json()["id"]
    assert Answer.objects.count() == 1
    assert callbacks == []  # no second scoring task


def test_reused_idempotency_key_with_other_body_is_409(api):
    api.post("/api/v1/answers", BODY, **{"Idempotency-Key": "abc-1"})

    response = api.post("/api/v1/answers", {**BODY, "answer": "Something else."}, **{"Idempotency-Key": "abc-1"})

    assert response.status_code == 409
    assert response.json()["error"] == "conflict"
    assert Answer.objects.count() == 1


def test_missing_token_is_401(client):
    response = client.post("/api/v1/answers", data=json.dumps(BODY), content_type="application/json")

    assert response.status_code == 401
    assert response.json() == {"error": "unauthorized", "detail": "missing or invalid bearer token"}


def test_wrong_token_is_401(client, api_token):
    response = client.get("/api/v1/answers/1", headers={"Authorization": "Bearer gac_wrong"})

    assert response.status_code == 401


def test_malformed_json_is_400_and_stores_nothing(api):
    response = api.post("/api/v1/answers", raw=b'{"question": "x", "answer": ')

    assert response.status_code == 400
    assert response.json()["error"] == "bad_request"
    assert not Answer.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"question": "q"}, "answer"),
        ({"answer": "a"}, "question"),
        ({"question": "q", "answer": ""}, "answer"),
        ({**BODY, "callback_url": "not a url"}, "callback_url"),
        ({**BODY, "contexts": "not a list"}, "contexts"),
    ],
)
def test_invalid_fields_are_400_naming_the_field(api, body, field):
    response = api.post("/api/v1/answers", body)

    assert response.status_code == 400
    assert field in response.json()["detail"]
    assert not Answer.objects.exists()


def test_unknown_cited_chunk_is_400(api):
    response = api.post("/api/v1/answers", {**BODY, "citations": [{"chunk_id": 999999}]})

    assert response.status_code == 400
    assert response.json()["detail"] == "unknown chunk_id: 999999"


def test_oversized_body_is_413(api, settings):
    settings.API_MAX_BODY_BYTES = 2048

    response = api.post("/api/v1/answers", {**BODY, "answer": "word " * 1000})

    assert response.status_code == 413
    assert response.json()["error"] == "too_large"
    assert not Answer.objects.exists()


def test_unknown_answer_is_404(api):
    response = api.get("/api/v1/answers/424242")

    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_another_clients_answer_is_never_shown(api, client):
    answer_id = api.post("/api/v1/answers", BODY).json()["id"]
    _, other_token = api_client_create(name="other-bot", clearance="restricted")

    response = client.get(f"/api/v1/answers/{answer_id}", headers={"Authorization": f"Bearer {other_token}"})

    assert response.status_code == 404
    assert "Refunds" not in response.content.decode()


def test_get_returns_the_answer_while_scoring(api):
    answer_id = api.post("/api/v1/answers", BODY).json()["id"]

    body = api.get(f"/api/v1/answers/{answer_id}").json()

    assert (body["id"], body["status"], body["external_id"], body["claims"]) == (answer_id, "scoring", "conv-1", [])
    assert body["released_text"] is None


def test_openapi_document_and_docs_are_served(client):
    schema = client.get("/api/openapi.json").json()

    assert "/api/v1/answers" in schema["paths"]
    assert "/api/v1/check" in schema["paths"]
    assert client.get("/api/docs").status_code == 200


def test_api_docs_load_no_assets_from_a_cdn(client):
    page = client.get("/api/docs").content.decode()

    assert "cdn." not in page
    assert "/static/ninja/swagger-ui-bundle.js" in page


def test_submit_query_count_with_the_token_cached(api, settings, django_assert_num_queries):
    """Intake stays cheap: once the token is cached, an answer is its insert and its audit event in one
    transaction (savepoint and release here, inside the test's transaction); a key adds one lookup."""
    settings.API_TOKEN_CACHE_SECONDS = 60
    api.post("/api/v1/answers", BODY)  # caches the token

    with django_assert_num_queries(4):
        assert api.post("/api/v1/answers", BODY).status_code == 202
    with django_assert_num_queries(5):
        assert api.post("/api/v1/answers", BODY, **{"Idempotency-Key": "count-1"}).status_code == 202


def test_an_answers_language_is_detected_or_taken_from_the_request(api):
    chinese = api.post("/api/v1/answers", {"question": "住宿标准是多少？", "answer": "每晚五百元。"})
    english = api.post("/api/v1/answers", BODY)
    told = api.post("/api/v1/answers", {**BODY, "external_id": "conv-2", "language": "zh"})
    unknown = api.post("/api/v1/answers", {**BODY, "external_id": "conv-3", "language": "fr"})

    languages = {r.json()["id"]: api.get(f"/api/v1/answers/{r.json()['id']}").json()["language"]
                 for r in (chinese, english, told)}
    assert list(languages.values()) == ["zh", "en", "zh"]
    assert unknown.status_code == 400 and Answer.objects.count() == 3
