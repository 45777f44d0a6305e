"""Slows an address that keeps sending unknown bearer tokens: after API_BAD_TOKEN_LIMIT of them within
API_BAD_TOKEN_WINDOW_SECONDS it gets 429 with Retry-After until the window ends, without its tokens being looked up.

One counter per address in Redis (shared by every web process, a fixed window that starts with the first bad
token). Tokens are never counted, only addresses; a missing token is no guess and is not counted. With Redis down
nothing is counted or refused: the API keeps taking answers (README "When a part fails").
"""

from __future__ import annotations

import logging

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

KEY_PREFIX = "console:api-bad-tokens:"

_client: redis.Redis | None = None


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


def bad_tokens_refusal_check(*, address: str) -> None:
    """Raises TooManyBadTokens while `address` is over the limit."""
    try:
        pipe = _redis().pipeline(transaction=False)
        pipe.get(KEY_PREFIX + address)
        pipe.ttl(KEY_PREFIX + address)
        count, ttl = pipe.execute()
    except redis.RedisError as exc:
        logger.warning("bad-token throttle not checked (Redis unreachable): %s", exc)
        return
    if count is not None and int(count) >= settings.API_BAD_TOKEN_LIMIT:
        raise TooManyBadTokens(max(int(ttl), 1))


def bad_token_record(*, address: str) -> None:
    """Counts one unknown token from `address`; raises TooManyBadTokens when that one reached the limit."""
    key = KEY_PREFIX + address
    try:
        pipe = _redis().pipeline(transaction=True)
        pipe.incr(key)
        pipe.ttl(key)
        count, ttl = pipe.execute()
        if ttl < 0:  # the first bad token of a window (or a key left without expiry): the window starts now
            _redis().expire(key, settings.API_BAD_TOKEN_WINDOW_SECONDS)
            ttl = settings.API_BAD_TOKEN_WINDOW_SECONDS
    except redis.RedisError as exc:
        logger.warning("bad bearer token from %s not counted (Redis unreachable): %s", address, exc)
        return
    if count >= settings.API_BAD_TOKEN_LIMIT:
        logger.warning("address %s sent %d invalid bearer tokens: refused for %d s", address, count, ttl)
        raise TooManyBadTokens(max(int(ttl), 1))
