"""An address that keeps sending unknown bearer tokens is slowed: 429 with Retry-After, in the API's error shape."""

import pytest
import redis

from review.token_throttle import KEY_PREFIX

pytestmark = pytest.mark.django_db

GUESSER = "203.0.113.30"  # documentation addresses (RFC 5737): never a real client's
ASSISTANT = "198.51.100.40"
PROXY = "192.0.2.50"


@pytest.fixture(autouse=True)
def fresh_counters(settings):
    settings.API_BAD_TOKEN_LIMIT = 5
    settings.API_BAD_TOKEN_WINDOW_SECONDS = 120
    keys = [KEY_PREFIX + address for address in (GUESSER, ASSISTANT, PROXY)]
    counters = redis.Redis.from_url(settings.REDIS_URL)
    counters.delete(*keys)
    yield
    counters.delete(*keys)


def _get(client, token: str, *, address: str):
    return client.get("/api/v1/answers/1", REMOTE_ADDR=address, headers={"Authorization": f"Bearer {token}"})


def _submit(client, token: str, *, address: str):
    return client.post("/api/v1/answers", data={"question": "Q?", "answer": "Refunds take 14 days."},
                       content_type="application/json", REMOTE_ADDR=address,
                       headers={"Authorization": f"Bearer {token}"})


def test_repeated_bad_tokens_from_one_address_get_429_with_retry_after(client):
    statuses = [_get(client, f"gac_guess_{n}", address=GUESSER).status_code for n in range(4)]
    assert statuses == [401] * 4

    fifth = _get(client, "gac_guess_4", address=GUESSER)

    assert fifth.status_code == 429
    assert fifth.json()["error"] == "too_many_requests"
    assert "invalid bearer tokens" in fifth.json()["detail"]
    assert 1 <= int(fifth["Retry-After"]) <= 120
    later = _get(client, "gac_guess_5", address=GUESSER)
    assert later.status_code == 429 and 1 <= int(later["Retry-After"]) <= 120


def test_a_valid_client_behind_the_guessers_address_keeps_working_while_its_bad_tokens_are_refused(
        client, api_token, settings):
    """A NAT or proxy shares one address between a RAG application and whoever sends it bad tokens: the valid
    token is looked up on every request here (no cache) and served every time; only the bad ones get 429."""
    settings.API_BAD_TOKEN_LIMIT = 20  # as shipped
    settings.API_TOKEN_CACHE_SECONDS = 0
    _, token = api_token

    bad, good = [], []
    for n in range(30):
        bad.append(_get(client, f"gac_guess_{n}", address=GUESSER))
        good.append(_submit(client, token, address=GUESSER))

    assert [r.status_code for r in bad] == [401] * 19 + [429] * 11
    assert all(1 <= int(r["Retry-After"]) <= 300 for r in bad[19:])
    assert [r.status_code for r in good] == [202] * 30
    assert _get(client, "gac_guess_again", address=GUESSER).status_code == 429


def test_valid_tokens_from_other_addresses_are_unaffected(client, api_token):
    for n in range(8):
        _get(client, f"gac_guess_{n}", address=GUESSER)
    _, token = api_token

    response = _submit(client, token, address=ASSISTANT)

    assert response.status_code == 202


def test_missing_tokens_are_not_counted(client):
    for _ in range(8):
        assert client.get("/api/v1/answers/1", REMOTE_ADDR=GUESSER).status_code == 401

    assert _get(client, "gac_guess", address=GUESSER).status_code == 401


def test_the_alignscore_endpoints_share_the_throttle(client, settings):
    settings.API_ALIGNSCORE_ENABLED = True
    for n in range(5):
        _get(client, f"gac_guess_{n}", address=GUESSER)

    response = client.post("/alignscore_large", data={"evidence": "x", "claim": "y"}, content_type="application/json",
                           REMOTE_ADDR=GUESSER, headers={"Authorization": "Bearer gac_guess_again"})

    assert response.status_code == 429
    assert response.json()["error"] == "too_many_requests" and int(response["Retry-After"]) >= 1


def test_behind_a_proxy_the_forwarded_address_is_what_counts(client, settings, api_token):
    """Behind one trusted proxy every request comes from the proxy: the client is X-Forwarded-For's last entry (the
    entries before it are the client's own word)."""
    settings.TRUSTED_PROXY_COUNT = 1
    _, token = api_token

    def via_proxy(token: str, forwarded_for: str):
        return client.post("/api/v1/answers", data={"question": "Q?", "answer": "Refunds take 14 days."},
                           content_type="application/json", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for,
                           headers={"Authorization": f"Bearer {token}"})

    for n in range(5):
        via_proxy(f"gac_guess_{n}", f"{ASSISTANT}, {GUESSER}")  # a forged first entry changes nothing

    assert via_proxy("gac_guess_5", GUESSER).status_code == 429
    assert via_proxy(token, ASSISTANT).status_code == 202


def test_with_redis_unreachable_nothing_is_counted_and_good_tokens_are_served(client, api_token, monkeypatch):
    import socket

    from review import token_throttle

    with socket.socket() as probe:  # a port nothing listens on: a real connection refused
        probe.bind(("127.0.0.1", 0))
        dead_port = probe.getsockname()[1]
    monkeypatch.setattr(token_throttle, "_client", redis.Redis(port=dead_port, socket_connect_timeout=0.5))
    monkeypatch.setattr(token_throttle, "_redis_down_until", 0.0)
    _, token = api_token

    statuses = [_get(client, f"gac_guess_{n}", address=GUESSER).status_code for n in range(8)]

    assert statuses == [401] * 8
    assert _submit(client, token, address=GUESSER).status_code == 202


def test_a_redis_socket_closed_during_its_handshake_serves_without_the_throttle(client, api_token, monkeypatch):
    """redis-py raises ValueError("I/O operation on closed file") when Redis closes the socket while it reads the
    connect handshake (Redis killed at that moment): an outage, not a 500."""
    from review import token_throttle

    class ClosedSocketRedis:
        def pipeline(self, **kwargs):
            raise ValueError("I/O operation on closed file.")

    monkeypatch.setattr(token_throttle, "_client", ClosedSocketRedis())
    monkeypatch.setattr(token_throttle, "_redis_down_until", 0.0)
    _, token = api_token

    assert _get(client, "gac_guess", address=GUESSER).status_code == 401
    assert _submit(client, token, address=GUESSER).status_code == 202
