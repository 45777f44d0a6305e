"""POST /api/v1/check, GET /api/v1/search and the NeMo-compatible /alignscore_* endpoints."""

import json
import uuid

import pytest

from review.models import Answer

pytestmark = pytest.mark.django_db(transaction=True)

HANDBOOK = """# Security handbook

## Passwords

Passwords must be at least 14 characters long and are rotated every 180 days.
"""
SECRET = """# Merger plan

## Target

The board plans to acquire Globex for 40 million euros in May.
"""


@pytest.fixture
def sources(publish):
    publish(HANDBOOK, key="security-handbook")
    publish(SECRET, key="merger-plan", security_level="restricted")


def test_check_scores_claims_synchronously_and_stores_nothing(api, celery_worker, sources):
    response = api.post("/api/v1/check", {
        "question": "How long must passwords be?",
        "answer": "Passwords must be at least 12 characters long. They are rotated every 180 days.",
    })

    assert response.status_code == 200
    body = response.json()
    assert body["risk"] == "high"
    verdicts = {c["text"]: c["verdict"] for c in body["claims"]}
    assert verdicts == {"Passwords must be at least 12 characters long.": "contradicted",
                        "They are rotated every 180 days.": verdicts["They are rotated every 180 days."]}
    assert body["claims"][0]["evidence"][0]["document_key"] == "security-handbook"
    assert not Answer.objects.exists()


def test_check_with_raw_contexts_uses_them_as_unpinned_evidence(api, celery_worker):
    response = api.post("/api/v1/check", {
        "answer": "The launch is planned for March 3.",
        "contexts": ["The launch is planned for March 3, weather permitting."],
    })

    claim = response.json()["claims"][0]
    assert claim["verdict"] == "supported"
    assert claim["evidence"][0]["chunk_id"] is None
    assert claim["evidence"][0]["flags"] == ["unpinned context"]


def test_search_respects_the_clients_clearance(api, celery_worker, sources):
    response = api.get("/api/v1/search?q=acquire+Globex&k=5")

    assert response.status_code == 200
    keys = {hit["document_key"] for hit in response.json()["results"]}
    assert "merger-plan" not in keys


def test_search_returns_offsets_into_the_source(api, celery_worker, sources):
    hit = api.get("/api/v1/search?q=password+length").json()["results"][0]

    assert hit["document_key"] == "security-handbook"
    assert HANDBOOK[hit["char_start"]:hit["char_end"]] == hit["text"]
    assert (hit["title"], hit["owner"]) == ("Security Handbook", "cora")


@pytest.mark.parametrize("query", ["?q=", "?q=x&k=0", "?q=x&k=51", "?k=3"])
def test_search_rejects_bad_parameters(api, query):
    assert api.get(f"/api/v1/search{query}").status_code == 400


def test_check_answers_503_when_no_worker_responds_in_time(api, celery_worker, settings):
    """No worker takes the check (the workers stop consuming the checks queue): the client gets a 503 with
    Retry-After, not a hung request. Celery's result wait polls in one-second steps, so a check merely slower
    than a sub-second timeout is no reliable stand-in for a worker that does not answer."""
    settings.API_CHECK_TIMEOUT = 0.01
    celery_worker.consumer.cancel_task_queue("checks")
    try:
        response = api.post("/api/v1/check", {"answer": f"Fact {uuid.uuid4().hex} says the value is 7 units."})
    finally:
        celery_worker.consumer.add_task_queue("checks")

    assert response.status_code == 503
    assert response.json()["error"] == "unavailable"
    assert response["Retry-After"] == str(settings.API_RETRY_AFTER_SECONDS)


def test_alignscore_endpoint_is_off_by_default(client):
    response = client.post("/alignscore_large", data=json.dumps({"evidence": "a", "claim": "b"}),
                           content_type="application/json")

    assert response.status_code == 404


def test_alignscore_endpoint_speaks_nemos_contract(client, celery_worker, settings):
    settings.API_ALIGNSCORE_ENABLED = True
    evidence = "Passwords must be at least 14 characters long."

    good = client.post("/alignscore_base", data=json.dumps({"evidence": evidence, "claim": "Passwords need 14 or more characters."}),
                       content_type="application/json").json()
    bad = client.post("/alignscore_large", data=json.dumps({"evidence": evidence, "claim": "Passwords need 8 characters."}),
                      content_type="application/json").json()

    assert set(good) == {"alignscore"}
    assert good["alignscore"] >= 0.6 > 0.4 > bad["alignscore"]


def test_alignscore_endpoint_rejects_malformed_json(client, settings):
    settings.API_ALIGNSCORE_ENABLED = True

    response = client.post("/alignscore_base", data=b"{nope", content_type="application/json")

    assert response.status_code == 400


def test_alignscore_takes_a_list_of_evidence_each_member_one_context(client, celery_worker, settings):
    """NeMo's retrieval hands over its chunks as a list: the claim is checked against each, as `contexts` are."""
    settings.API_ALIGNSCORE_ENABLED = True
    evidence = ["Shipping is free for orders over 50 euros.", "Passwords must be at least 14 characters long."]

    def score(claim: str, given) -> float:
        response = client.post("/alignscore_large", data=json.dumps({"evidence": given, "claim": claim}),
                               content_type="application/json")
        assert response.status_code == 200, response.content
        return response.json()["alignscore"]

    assert score("Passwords need 14 or more characters.", evidence) >= 0.6
    assert score("Passwords need 8 characters.", evidence) < 0.4
    assert score("Passwords need 14 or more characters.", evidence[:1]) < 0.6  # the one context that says it


@pytest.mark.parametrize(("evidence", "detail"), [
    (5, "evidence: Input should be a string or a list of strings"),
    (["a", 3], "evidence: Input should be a string or a list of strings"),
    ([], "evidence: List should have 1 to 50 items"),
    (["a"] * 51, "evidence: List should have 1 to 50 items"),
    (["fine", "x\u0000"], "evidence: Value error, item 1 contains a control character (U+0000) at position 1"),
])
def test_alignscore_names_what_is_wrong_with_the_evidence(client, settings, evidence, detail):
    settings.API_ALIGNSCORE_ENABLED = True

    response = client.post("/alignscore_base", data=json.dumps({"evidence": evidence, "claim": "A is 1."}),
                           content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {"error": "bad_request", "detail": detail}


def test_alignscore_without_a_token_serves_only_this_machine_by_default(client, settings):
    settings.API_ALIGNSCORE_ENABLED = True
    body = json.dumps({"evidence": "x\u0000", "claim": "A is 1."})  # invalid: a 400 proves the request got through

    local = client.post("/alignscore_base", data=body, content_type="application/json")
    remote = client.post("/alignscore_base", data=body, content_type="application/json", REMOTE_ADDR="203.0.113.9")

    assert local.status_code == 400
    assert remote.status_code == 403
    assert remote.json()["detail"] == ("without a bearer token only callers on this machine are served "
                                       "(API_ALIGNSCORE_ACCESS=loopback)")


def test_alignscore_with_a_valid_token_serves_any_address(client, settings, api_token):
    settings.API_ALIGNSCORE_ENABLED = True
    settings.API_ALIGNSCORE_ACCESS = "token"
    _, token = api_token
    body = json.dumps({"evidence": "x\u0000", "claim": "A is 1."})

    def post(**headers):
        return client.post("/alignscore_base", data=body, content_type="application/json", headers=headers,
                           REMOTE_ADDR="203.0.113.9")

    assert post(Authorization=f"Bearer {token}").status_code == 400
    assert post().json() == {"error": "unauthorized",
                             "detail": "a bearer token is required (API_ALIGNSCORE_ACCESS=token)"}
    assert post(Authorization="Bearer not-a-token").status_code == 401


def test_alignscore_open_to_anyone_when_so_configured(client, settings):
    settings.API_ALIGNSCORE_ENABLED = True
    settings.API_ALIGNSCORE_ACCESS = "open"

    response = client.post("/alignscore_base", data=json.dumps({"evidence": "x\u0000", "claim": "A is 1."}),
                           content_type="application/json", REMOTE_ADDR="203.0.113.9")

    assert response.status_code == 400


def test_alignscore_answers_a_wrong_method_in_json(client, settings):
    settings.API_ALIGNSCORE_ENABLED = True

    response = client.get("/alignscore_large")

    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert response.json() == {"error": "method_not_allowed", "detail": "use POST"}
