"""Who has an answer's page open right now ("rob is looking at this"), for the live review page and the queue.

One sorted set per answer in Redis: member the user's id and name, score when their page last asked. A page asks
every REVIEW_LIVE_POLL_SECONDS while its tab is visible; a name older than REVIEW_PRESENCE_SECONDS is gone (a
closed tab leaves by itself, no goodbye needed). Presence is a courtesy: with Redis down nobody is shown and
nothing else on the page fails.
"""

from __future__ import annotations

import logging
import time

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

KEY_PREFIX = "console:presence:answer:"
REDIS_RETRY_AFTER_ERROR_SECONDS = 10.0  # after an error, leave Redis alone this long (no connect wait per page)

_client: redis.Redis | None = None
_redis_down_until = 0.0


def _redis() -> redis.Redis:
    global _client
    if _client is None:
        _client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5)
    return _client


def _member(user) -> str:
    return f"{user.pk}:{user.username}"


def _redis_failed(exc: redis.RedisError) -> None:
    global _redis_down_until
    _redis_down_until = time.monotonic() + REDIS_RETRY_AFTER_ERROR_SECONDS
    logger.warning("presence not kept (Redis unreachable; trying again in %.0f s): %s",
                   REDIS_RETRY_AFTER_ERROR_SECONDS, exc)


def answer_presence_touch(*, answer_id: int, viewer) -> list[str]:
    """The viewer is looking at this answer now; returns the names of the others looking at it, sorted."""
    if time.monotonic() < _redis_down_until:
        return []
    key, now = f"{KEY_PREFIX}{answer_id}", time.time()
    try:
        pipe = _redis().pipeline(transaction=True)
        pipe.zadd(key, {_member(viewer): now})
        pipe.zremrangebyscore(key, "-inf", now - settings.REVIEW_PRESENCE_SECONDS)
        pipe.zrange(key, 0, -1)
        pipe.expire(key, int(settings.REVIEW_PRESENCE_SECONDS) + 1)
        _added, _removed, members, _expiry = pipe.execute()
    except redis.RedisError as exc:
        _redis_failed(exc)
        return []
    return _others(members, viewer)


def answers_presence(*, answer_ids: list[int], viewer) -> dict[int, list[str]]:
    """For the queue: who (other than the viewer) is looking at each of these answers; answers nobody else is
    looking at are left out."""
    if not answer_ids or time.monotonic() < _redis_down_until:
        return {}
    since = time.time() - settings.REVIEW_PRESENCE_SECONDS
    try:
        pipe = _redis().pipeline(transaction=False)
        for answer_id in answer_ids:
            pipe.zrangebyscore(f"{KEY_PREFIX}{answer_id}", since, "+inf")
        found = pipe.execute()
    except redis.RedisError as exc:
        _redis_failed(exc)
        return {}
    return {answer_id: names for answer_id, members in zip(answer_ids, found, strict=True)
            if (names := _others(members, viewer))}


def _others(members: list[bytes], viewer) -> list[str]:
    mine = _member(viewer)
    return sorted({m.decode().split(":", 1)[1] for m in members if m.decode() != mine})
