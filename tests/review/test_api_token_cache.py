"""The bearer token's client is cached per process for API_TOKEN_CACHE_SECONDS: a deactivated client is refused
once that time has passed, and at once with the cache off."""

import pytest

from review import api as review_api

pytestmark = pytest.mark.django_db

BODY = {"question": "How long do refunds take?", "answer": "Refunds are paid within 14 days."}


@pytest.fixture
def clock(monkeypatch):
    """review.api's monotonic clock, moved by hand."""

    class Clock:
        now = 1000.0

    monkeypatch.setattr(review_api.time, "monotonic", lambda: Clock.now)
    return Clock


def _deactivate_after_one_answer(api, client) -> None:
    """The client's token is in the cache (or not, with the cache off) when it is deactivated."""
    assert api.post("/api/v1/answers", BODY).status_code == 202
    client.is_active = False
    client.save(update_fields=["is_active"])


def test_deactivated_client_is_refused_after_the_cache_time(api, api_token, clock, settings):
    settings.API_TOKEN_CACHE_SECONDS = 5
    _deactivate_after_one_answer(api, api_token[0])

    clock.now += 4
    within = api.post("/api/v1/answers", BODY)
    clock.now += 2
    after = api.post("/api/v1/answers", BODY)

    assert within.status_code == 202  # still trusted: the documented window
    assert after.status_code == 401
    assert after.json()["error"] == "unauthorized"


def test_deactivated_client_is_refused_at_once_without_the_cache(api, api_token, clock, settings):
    settings.API_TOKEN_CACHE_SECONDS = 0
    _deactivate_after_one_answer(api, api_token[0])

    assert api.post("/api/v1/answers", BODY).status_code == 401


def test_a_refused_token_is_looked_up_again(client, api_token, clock, settings, django_assert_num_queries):
    """An unknown token is never cached: each attempt asks the database (and a client created later works)."""
    settings.API_TOKEN_CACHE_SECONDS = 5
    for _ in range(2):
        with django_assert_num_queries(1):
            response = client.get("/api/v1/answers/1", headers={"Authorization": "Bearer gac_not_a_token"})
        assert response.status_code == 401
