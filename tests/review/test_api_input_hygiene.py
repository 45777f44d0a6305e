"""Hostile input at the API edge: control characters, caps, oversized and chunked bodies, wrong content types.
Each is a clear 4xx JSON error naming what is wrong, and nothing is stored."""

import json

import pytest

from review.models import Answer

pytestmark = pytest.mark.django_db

BODY = {"question": "How long do refunds take?", "answer": "Refunds are paid within 14 days.",
        "external_id": "conv-1", "contexts": ["Refunds are paid within 14 days of the request."]}


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x1b", "\x0b", "\ud800"])
@pytest.mark.parametrize(("field", "path"), [
    ("question", "question"), ("answer", "answer"), ("external_id", "external_id"), ("contexts", "contexts.0"),
])
def test_unstorable_characters_are_400_naming_the_field(api, field, path, char):
    value = [f"Refunds{char} take 14 days."] if field == "contexts" else f"Refunds{char} take 14 days."

    response = api.post("/api/v1/answers", raw=json.dumps({**BODY, field: value}).encode())

    assert response.status_code == 400
    assert response.json()["error"] == "bad_request"
    assert response.json()["detail"].startswith(f"body.{path}: ")
    if char != "\ud800":  # pydantic refuses a lone surrogate itself: "unable to parse raw data as a unicode string"
        assert f"U+{ord(char):04X}" in response.json()["detail"]
    assert not Answer.objects.exists()


def test_tabs_and_newlines_are_ordinary_text(api):
    response = api.post("/api/v1/answers", {**BODY, "answer": "Refunds are paid\twithin 14 days.\r\nThat is all."})

    assert response.status_code == 202
    assert Answer.objects.get().text == "Refunds are paid\twithin 14 days.\r\nThat is all."


def test_nul_in_check_is_400(api):
    response = api.post("/api/v1/check", {"answer": "Refunds take\x00 14 days."})

    assert response.status_code == 400
    assert response.json()["detail"].startswith("body.answer: ")


def test_control_character_in_idempotency_key_is_400(api):
    response = api.post("/api/v1/answers", BODY, **{"Idempotency-Key": "key\x01one"})

    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["detail"]
    assert not Answer.objects.exists()


def test_nul_in_search_query_is_400(api):
    response = api.get("/api/v1/search?q=refund%00s")

    assert response.status_code == 400
    assert response.json()["detail"].startswith("q: ")


def test_too_many_claims_is_400_naming_the_limit(api, settings):
    settings.API_MAX_CLAIMS = 5
    answer = " ".join(f"Refund rule {n} applies to orders over {n} euros." for n in range(6))

    response = api.post("/api/v1/answers", {**BODY, "answer": answer})

    assert response.status_code == 400
    assert response.json()["detail"] == "body.answer: Value error, has 6 claims; the limit is 5 per answer (API_MAX_CLAIMS)"
    assert not Answer.objects.exists()


def test_answer_at_the_claim_limit_is_taken(api, settings):
    settings.API_MAX_CLAIMS = 5
    answer = " ".join(f"Refund rule {n} applies to orders over {n} euros." for n in range(5))

    assert api.post("/api/v1/answers", {**BODY, "answer": answer}).status_code == 202


def test_too_many_claims_is_400_on_check_without_a_worker(api, settings):
    settings.API_MAX_CLAIMS = 2
    answer = "Refunds take 14 days. Shipping is free. Returns need a receipt."

    response = api.post("/api/v1/check", {"answer": answer})

    assert response.status_code == 400
    assert "API_MAX_CLAIMS" in response.json()["detail"]


def test_too_many_claims_on_alignscore_is_400(client, settings):
    settings.API_ALIGNSCORE_ENABLED = True
    settings.API_MAX_CLAIMS = 1

    response = client.post("/alignscore_base", data=json.dumps({"evidence": "x", "claim": "A is 1. B is 2."}),
                           content_type="application/json")

    assert response.status_code == 400
    assert response.json()["detail"] == "claim: Value error, has 2 claims; the limit is 1 per answer (API_MAX_CLAIMS)"


def test_nul_in_alignscore_evidence_is_400_naming_it(client, settings):
    settings.API_ALIGNSCORE_ENABLED = True

    response = client.post("/alignscore_large", data=json.dumps({"evidence": "x\u0000", "claim": "A is 1."}),
                           content_type="application/json")

    assert response.status_code == 400
    assert response.json()["detail"].startswith("evidence: Value error, contains a control character (U+0000)")


def test_answer_longer_than_the_limit_is_400_naming_it(api, settings):
    answer = "a" * (settings.API_MAX_ANSWER_CHARS + 1)

    response = api.post("/api/v1/answers", {**BODY, "answer": answer})

    assert response.status_code == 400
    assert response.json()["detail"] == f"body.answer: String should have at most {settings.API_MAX_ANSWER_CHARS} characters"


@pytest.mark.parametrize("path", ["/api/v1/answers", "/api/v1/check"])
def test_the_answer_length_limit_is_read_when_the_request_comes(api, client, settings, path):
    settings.API_MAX_ANSWER_CHARS = 100

    response = api.post(path, {**BODY, "answer": "Refunds are paid within 14 days. " * 4})

    assert response.status_code == 400
    assert response.json()["detail"] == "body.answer: String should have at most 100 characters"
    schema = client.get("/api/openapi.json").json()["components"]["schemas"]
    assert schema["AnswerIn"]["properties"]["answer"]["maxLength"] == 100
    assert not Answer.objects.exists()


def test_many_short_sentences_within_the_length_limit_are_refused_at_intake(api, settings):
    answer = " ".join(f"Fee {n} is {n} euros." for n in range(900))
    assert len(answer) < settings.API_MAX_ANSWER_CHARS

    response = api.post("/api/v1/answers", {**BODY, "answer": answer})

    assert response.status_code == 400
    assert "has 900 claims; the limit is 50" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/api/v1/answers", "/api/v1/check", "/alignscore_base"])
def test_body_over_django_upload_limit_is_json_413(api, path, settings):
    settings.API_ALIGNSCORE_ENABLED = True
    raw = json.dumps({**BODY, "answer": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)}).encode()

    response = api.post(path, raw=raw)

    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": "too_large",
                               "detail": f"request body is larger than {settings.API_MAX_BODY_BYTES} bytes"}
    assert not Answer.objects.exists()


def test_body_read_past_django_limit_is_json_413(api, settings):
    """With API_MAX_BODY_BYTES above DATA_UPLOAD_MAX_MEMORY_SIZE, Django itself refuses while ninja reads."""
    settings.API_MAX_BODY_BYTES = 4 * 1024 * 1024
    raw = json.dumps({**BODY, "answer": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)}).encode()

    response = api.post("/api/v1/answers", raw=raw)

    assert response.status_code == 413
    assert response.json()["error"] == "too_large"


def test_chunked_body_without_length_is_411(client, api_token):
    _, token = api_token

    response = client.generic("POST", "/api/v1/answers", b"", content_type="application/json",
                              headers={"Authorization": f"Bearer {token}", "Transfer-Encoding": "chunked"})

    assert response.status_code == 411
    assert response.json()["error"] == "length_required"
    assert not Answer.objects.exists()


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"])
def test_wrong_content_type_is_a_json_4xx(client, api_token, content_type):
    _, token = api_token

    response = client.post("/api/v1/answers", data="question=q&answer=a", content_type=content_type,
                           headers={"Authorization": f"Bearer {token}"})

    assert 400 <= response.status_code < 500
    assert response.json()["error"] in {"bad_request", "unsupported_media_type"}
    assert not Answer.objects.exists()


@pytest.mark.parametrize("raw", [b"", b"[]", b'"text"', b"null", b"\xff\xfe", b'{"question": 1, "answer": {}}'])
def test_malformed_bodies_are_400(api, raw):
    response = api.post("/api/v1/answers", raw=raw)

    assert response.status_code == 400
    assert response.json()["error"] == "bad_request"
    assert not Answer.objects.exists()


@pytest.mark.parametrize("path", ["/api/v1/answers/0", "/api/v1/answers/99999999999999999999999",
                                  "/api/v1/answers/abc"])
def test_unknown_or_malformed_ids_are_a_json_4xx(api, path):
    response = api.get(path)

    assert response.status_code in {400, 404}
    assert response.json()["error"] in {"bad_request", "not_found"}



def test_chunked_body_through_a_real_http_server_is_411(live_server, api_token, transactional_db):
    """Over the wire: the server passes Transfer-Encoding on and no Content-Length, as gunicorn does."""
    import httpx

    _, token = api_token

    def chunks():
        yield json.dumps(BODY).encode()

    response = httpx.post(f"{live_server.url}/api/v1/answers", content=chunks(),
                          headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})

    assert response.request.headers["Transfer-Encoding"] == "chunked"
    assert response.status_code == 411
    assert response.json()["error"] == "length_required"
    assert not Answer.objects.exists()


def test_openapi_lists_the_refusals_the_middleware_gives_before_a_route_runs(client):
    responses = client.get("/api/openapi.json").json()["paths"]["/api/v1/answers"]["post"]["responses"]

    assert {"411", "413"} <= set(responses)
