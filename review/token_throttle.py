"""Throttles bearer tokens in two ways, each a fixed window in Redis (shared by every web process) that starts with
its first count, and each answered 429 with Retry-After until its window ends:

- an address that sent API_BAD_TOKEN_LIMIT unknown tokens within API_BAD_TOKEN_WINDOW_SECONDS gets 429 for its
  further unknown tokens. Only unknown tokens are refused: a valid token is served whatever its address sent (the
  callers look the token up first), so nobody behind the same NAT or proxy as a guesser is locked out. Tokens are
  never counted here, only addresses; a missing token is no guess and is not counted.
- a valid token (an API client's, "client:<id>", or a person's, "personal:<id>") that was answered 401 or 403
  API_TOKEN_FAILURE_LIMIT times within API_TOKEN_FAILURE_WINDOW_SECONDS gets 429 for all its requests: a client
  stuck in a loop, or a leaked token probing what it may do, slows down alone. Other tokens, from the same address
  too, are untouched.

With Redis down (or its socket closed mid-handshake) nothing is counted or refused: the API keeps taking answers
(README "When a part fails").
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import redis
from django.conf import settings
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

KEY_PREFIX = "console:api-bad-tokens:"
TOKEN_FAILURES_KEY_PREFIX = "console:api-token-failures:"
# The answers that count as a valid token's failures: refused authorisation, whatever the route or its reason.
FAILURE_STATUSES = frozenset({401, 403})
# After a Redis error the counters are left alone this long: during an outage a good token's first request in each
# process should not wait for a connect timeout every time, nor the log fill with the same warning.
REDIS_RETRY_AFTER_ERROR_SECONDS = 10.0

# What a Redis call raises when Redis is down or goes away under it: redis-py's errors, the socket's own, and its
# ValueError "I/O operation on closed file" when Redis closes the socket during the connect handshake.
REDIS_FAILURES = (redis.RedisError, OSError, ValueError)

Handler = Callable[[HttpRequest], HttpResponse]

_client: redis.Redis | None = None
_redis_down_until = 0.0


class Throttled(Exception):
    """Answered 429 with Retry-After (config/api.py, and the AlignScore endpoint in review/api.py)."""

    def __init__(self, reason: str, *, retry_after: int) -> None:
        super().__init__(f"{reason}; retry in {retry_after} s")
        self.retry_after = retry_after


def _redis() -> redis.Redis:
    global _client
    if _client is None:
        # Short timeouts: a lost Redis must not hold up API requests that carry a good token.
        _client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5)
    return _client


def _redis_failed(exc: Exception, what: str) -> None:
    global _redis_down_until
    _redis_down_until = time.monotonic() + REDIS_RETRY_AFTER_ERROR_SECONDS
    logger.warning("%s (Redis unreachable; not throttling tokens for %.0f s): %s: %s", what,
                   REDIS_RETRY_AFTER_ERROR_SECONDS, type(exc).__name__, exc)


def _seconds_refused(*, key: str, limit: int, what: str) -> int | None:
    """The seconds left in `key`'s window once its count reached `limit`; None below it, or with Redis down."""
    if time.monotonic() < _redis_down_until:
        return None
    try:
        pipe = _redis().pipeline(transaction=False)
        pipe.get(key)
        pipe.ttl(key)
        count, ttl = pipe.execute()
    except REDIS_FAILURES as exc:
        _redis_failed(exc, f"{what} not checked")
        return None
    if count is None or int(count) < limit:
        return None
    return max(int(ttl), 1)


def _count(*, key: str, window: int, what: str) -> tuple[int, int] | None:
    """Counts one at `key`: (the count, seconds left in its window), or None with Redis down."""
    if time.monotonic() < _redis_down_until:
        return None
    try:
        pipe = _redis().pipeline(transaction=True)
        pipe.incr(key)
        pipe.ttl(key)
        count, ttl = pipe.execute()
        if ttl < 0:  # the first count of a window (or a key left without expiry): the window starts now
            _redis().expire(key, window)
            ttl = window
    except REDIS_FAILURES as exc:
        _redis_failed(exc, f"{what} not counted")
        return None
    return count, max(int(ttl), 1)


def bad_tokens_refusal_check(*, address: str) -> None:
    """Raises Throttled while `address` is over the limit. Ask only for a token that is not valid."""
    retry_after = _seconds_refused(key=KEY_PREFIX + address, limit=settings.API_BAD_TOKEN_LIMIT,
                                   what="bad-token throttle")
    if retry_after is not None:
        raise Throttled("too many invalid bearer tokens from this address", retry_after=retry_after)


def bad_token_record(*, address: str) -> None:
    """Counts one unknown token from `address`; raises Throttled when that one reached the limit."""
    counted = _count(key=KEY_PREFIX + address, window=settings.API_BAD_TOKEN_WINDOW_SECONDS,
                     what=f"bad bearer token from {address}")
    if counted is None:
        return
    count, retry_after = counted
    if count >= settings.API_BAD_TOKEN_LIMIT:
        logger.warning("address %s sent %d invalid bearer tokens: refused for %d s", address, count, retry_after)
        raise Throttled("too many invalid bearer tokens from this address", retry_after=retry_after)


def valid_token_admit(*, request: HttpRequest, token_id: str) -> None:
    """Notes that `request` carries the valid token `token_id` ("client:<id>" or "personal:<id>"), so that a 401 or
    403 answer to it counts against the token (token_failures_middleware), and raises Throttled while the token is
    over API_TOKEN_FAILURE_LIMIT. Call it before refusing a valid token for any reason: a throttled one gets 429."""
    request.api_token_id = token_id
    retry_after = _seconds_refused(key=TOKEN_FAILURES_KEY_PREFIX + token_id, limit=settings.API_TOKEN_FAILURE_LIMIT,
                                   what=f"refusals of token {token_id}")
    if retry_after is not None:
        raise Throttled("too many refused requests with this token", retry_after=retry_after)


def token_failures_middleware(get_response: Handler) -> Handler:
    """Counts each 401 and 403 answered to a valid token. Here, rather than where refusals are raised, so that every
    refusal counts: the API's error handlers, the AlignScore endpoint's own answers, a route's own 403."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        token_id = getattr(request, "api_token_id", None)
        if token_id is not None and response.status_code in FAILURE_STATUSES:
            counted = _count(key=TOKEN_FAILURES_KEY_PREFIX + token_id,
                             window=settings.API_TOKEN_FAILURE_WINDOW_SECONDS, what=f"refusal of token {token_id}")
            if counted is not None and counted[0] == settings.API_TOKEN_FAILURE_LIMIT:  # logged once per window
                logger.warning("token %s was refused %d times: throttled for %d s", token_id, *counted)
        return response

    return middleware
