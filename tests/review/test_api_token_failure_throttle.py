"""A valid token refused (401, 403) API_TOKEN_FAILURE_LIMIT times within the window gets 429 with Retry-After for
all its requests until the window ends; every other token, from the same address too, is still served."""

import time

import pytest
import redis

from review.token_throttle import TOKEN_FAILURES_KEY_PREFIX

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.60"  # documentation addresses (RFC 5737): never a real client's


@pytest.fixture
def counters(settings):
    """The token-failure counters, none left by an earlier test or run (token ids restart with each database)."""
    counters = redis.Redis.from_url(settings.REDIS_URL)

    def clear() -> None:
        keys = list(counters.scan_iter(match=TOKEN_FAILURES_KEY_PREFIX + "*"))
        if keys:
            counters.delete(*keys)

    clear()
    yield counters
    clear()


@pytest.fixture(autouse=True)
def as_shipped(settings, counters):
    settings.API_TOKEN_FAILURE_LIMIT = 30
    settings.API_TOKEN_FAILURE_WINDOW_SECONDS = 60


def _call(client, method: str, path: str, token: str, *, address: str = ADDRESS):
    if method == "post":
        return client.post(path, data={"question": "Q?", "answer": "Refunds take 14 days."},
                           content_type="application/json", REMOTE_ADDR=address,
                           headers={"Authorization": f"Bearer {token}"})
    return client.get(path, REMOTE_ADDR=address, headers={"Authorization": f"Bearer {token}"})


def _refused(client, token: str):
    """A client's token on a review route: a real credential in the wrong place, 403."""
    return _call(client, "get", "/api/v1/review/queue", token)


def _submit(client, token: str, *, address: str = ADDRESS):
    return _call(client, "post", "/api/v1/answers", token, address=address)


def test_a_client_token_refused_30_times_gets_429_with_retry_after_even_where_it_is_allowed(client, api_token,
                                                                                            counters):
    api_client, token = api_token

    statuses = [_refused(client, token).status_code for _ in range(30)]
    allowed = _submit(client, token)

    assert statuses == [403] * 30
    assert allowed.status_code == 429
    assert allowed.json()["error"] == "too_many_requests"
    assert "too many refused requests with this token" in allowed.json()["detail"]
    assert 1 <= int(allowed["Retry-After"]) <= 60
    refused_again = _refused(client, token)
    assert refused_again.status_code == 429 and 1 <= int(refused_again["Retry-After"]) <= 60
    assert int(counters.get(f"{TOKEN_FAILURES_KEY_PREFIX}client:{api_client.pk}")) == 30  # 429s are not counted


def test_another_valid_token_from_the_same_address_is_still_served(client, api_token):
    from review.services import api_client_create

    _, token = api_token
    _, other_token = api_client_create(name="other assistant", clearance="internal")
    for _ in range(30):
        _refused(client, token)

    assert _submit(client, token).status_code == 429
    assert _submit(client, other_token).status_code == 202
    assert _refused(client, other_token).status_code == 403  # its own first failure, not the other's


def test_the_failures_expire_with_their_window(client, api_token, counters, settings):
    settings.API_TOKEN_FAILURE_LIMIT = 3
    api_client, token = api_token
    for _ in range(3):
        _refused(client, token)
    assert _submit(client, token).status_code == 429

    counters.pexpire(f"{TOKEN_FAILURES_KEY_PREFIX}client:{api_client.pk}", 50)  # the window ends now
    time.sleep(0.2)

    assert _submit(client, token).status_code == 202
    assert _refused(client, token).status_code == 403


def test_a_new_window_starts_with_the_first_failure_after_the_last_one(client, api_token, counters):
    api_client, token = api_token

    _refused(client, token)

    assert 55 <= counters.ttl(f"{TOKEN_FAILURES_KEY_PREFIX}client:{api_client.pk}") <= 60


def test_a_personal_token_refused_30_times_gets_429_and_other_reviewers_are_served(client, reviewer,
                                                                                   second_reviewer, person_token):
    token, other_token = person_token(reviewer), person_token(second_reviewer)

    statuses = [_call(client, "get", "/api/v1/answers/1", token).status_code for _ in range(30)]  # a client route
    allowed = _call(client, "get", "/api/v1/review/queue", token)

    assert statuses == [403] * 30
    assert allowed.status_code == 429 and 1 <= int(allowed["Retry-After"]) <= 60
    assert "too many refused requests with this token" in allowed.json()["detail"]
    assert _call(client, "get", "/api/v1/review/queue", other_token).status_code == 200


def test_a_personal_token_lacking_the_role_is_throttled_by_its_own_refusals(client, curator, person_token,
                                                                            counters, settings):
    settings.API_TOKEN_FAILURE_LIMIT = 3
    token = person_token(curator)

    statuses = [_call(client, "get", "/api/v1/review/queue", token).status_code for _ in range(4)]

    assert statuses == [403, 403, 403, 429]
    assert int(counters.get(f"{TOKEN_FAILURES_KEY_PREFIX}personal:{curator.personal_tokens.get().pk}")) == 3


def test_a_throttled_client_token_gets_429_from_the_alignscore_endpoints_too(client, api_token, settings):
    settings.API_ALIGNSCORE_ENABLED = True
    settings.API_TOKEN_FAILURE_LIMIT = 3
    _, token = api_token
    for _ in range(3):
        _refused(client, token)

    response = client.post("/alignscore_large", data={"evidence": "x", "claim": "y"},
                           content_type="application/json", REMOTE_ADDR=ADDRESS,
                           headers={"Authorization": f"Bearer {token}"})

    assert response.status_code == 429
    assert response.json()["error"] == "too_many_requests" and int(response["Retry-After"]) >= 1


def test_refusals_outside_the_ninja_api_count_too(client, reviewer, person_token, settings):
    """The AlignScore endpoints answer a personal token 403 themselves: those refusals are the token's too."""
    settings.API_ALIGNSCORE_ENABLED = True
    settings.API_TOKEN_FAILURE_LIMIT = 3
    token = person_token(reviewer)

    statuses = [client.post("/alignscore_base", data={"evidence": "x", "claim": "y"},
                            content_type="application/json", REMOTE_ADDR=ADDRESS,
                            headers={"Authorization": f"Bearer {token}"}).status_code for _ in range(3)]

    assert statuses == [403] * 3
    assert _call(client, "get", "/api/v1/review/queue", token).status_code == 429


def _dead_redis() -> redis.Redis:
    import socket

    with socket.socket() as probe:  # a port nothing listens on: a real connection refused
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]
    return redis.Redis(port=dead_port, socket_connect_timeout=0.5)


class ClosedSocketRedis:
    """redis-py's ValueError("I/O operation on closed file") when Redis closes the socket mid-handshake."""

    def pipeline(self, **kwargs):
        raise ValueError("I/O operation on closed file.")


@pytest.mark.parametrize("broken", [_dead_redis, ClosedSocketRedis], ids=["unreachable", "closed-socket"])
def test_with_redis_down_a_refused_token_is_neither_counted_nor_refused(client, api_token, counters, monkeypatch,
                                                                        broken):
    from review import token_throttle

    monkeypatch.setattr(token_throttle, "_client", broken())
    monkeypatch.setattr(token_throttle, "_redis_down_until", 0.0)
    api_client, token = api_token

    statuses = [_refused(client, token).status_code for _ in range(35)]

    assert statuses == [403] * 35
    assert _submit(client, token).status_code == 202
    monkeypatch.setattr(token_throttle, "_client", None)  # Redis back
    monkeypatch.setattr(token_throttle, "_redis_down_until", 0.0)
    assert counters.get(f"{TOKEN_FAILURES_KEY_PREFIX}client:{api_client.pk}") is None
    assert _submit(client, token).status_code == 202


def test_the_openapi_document_says_why_a_token_route_answers_429(client):
    paths = client.get("/api/openapi.json").json()["paths"]

    for path, method in (("/api/v1/answers", "post"), ("/api/v1/search", "get"), ("/api/v1/review/queue", "get")):
        description = paths[path][method]["responses"]["429"]["description"]
        assert "unknown bearer tokens" in description and "this token was refused" in description, path
