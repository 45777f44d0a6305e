"""Slows an address that keeps sending unknown bearer tokens: after API_BAD_TOKEN_LIMIT of them within
API_BAD_TOKEN_WINDOW_SECONDS its unknown tokens get 429 with Retry-After until the window ends.

Only unknown tokens are refused: a valid token is always served, whatever its address sent (the callers look the
token up first), so nobody behind the same NAT or proxy as a RAG application can lock it out. One counter per
address in Redis (shared by every web process, a fixed window that starts with the first bad token). Tokens are
never counted, only addresses; a missing token is no guess and is not counted. With Redis down (or its socket
closed mid-handshake) nothing is counted or refused: the API keeps taking answers (README "When a part fails").
"""

from __future__ import annotations

import logging
import time

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

KEY_PREFIX = "console:api-bad-tokens:"
# After a Redis error the counters are left alone this long: during an outage a good token's first request in each
# process should not wait for a connect timeout every time, nor the log fill with the same warning.
REDIS_RETRY_AFTER_ERROR_SECONDS = 10.0

# What a Redis call raises when Redis is down or goes away under it: redis-py's errors, the socket's own, and its
# ValueError "I/O operation on closed file" when Redis closes the socket during the connect handshake.
REDIS_FAILURES = (redis.RedisError, OSError, ValueError)

_client: redis.Redis | None = None
_redis_down_until = 0.0


class TooManyBadTokens(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many invalid bearer tokens from this address; retry in {retry_after} s")
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
    logger.warning("%s (Redis unreachable; not counting bad tokens for %.0f s): %s: %s", what,
                   REDIS_RETRY_AFTER_ERROR_SECONDS, type(exc).__name__, exc)


def bad_tokens_refusal_check(*, address: str) -> None:
    """Raises TooManyBadTokens while `address` is over the limit. Ask only for a token that is not valid."""
    if time.monotonic() < _redis_down_until:
        return
    try:
        pipe = _redis().pipeline(transaction=False)
        pipe.get(KEY_PREFIX + address)
        pipe.ttl(KEY_PREFIX + address)
        count, ttl = pipe.execute()
    except REDIS_FAILURES as exc:
        _redis_failed(exc, "bad-token throttle not checked")
        return
    if count is not None and int(count) >= settings.API_BAD_TOKEN_LIMIT:
        raise TooManyBadTokens(max(int(ttl), 1))


def bad_token_record(*, address: str) -> None:
    """Counts one unknown token from `address`; raises TooManyBadTokens when that one reached the limit."""
    if time.monotonic() < _redis_down_until:
        return
    key = KEY_PREFIX + address
    try:
        pipe = _redis().pipeline(transaction=True)
        pipe.incr(key)
        pipe.ttl(key)
        count, ttl = pipe.execute()
        if ttl < 0:  # the first bad token of a window (or a key left without expiry): the window starts now
            _redis().expire(key, settings.API_BAD_TOKEN_WINDOW_SECONDS)
            ttl = settings.API_BAD_TOKEN_WINDOW_SECONDS
    except REDIS_FAILURES as exc:
        _redis_failed(exc, f"bad bearer token from {address} not counted")
        return
    if count >= settings.API_BAD_TOKEN_LIMIT:
        logger.warning("address %s sent %d invalid bearer tokens: refused for %d s", address, count, ttl)
        raise TooManyBadTokens(max(int(ttl), 1))
