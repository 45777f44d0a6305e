"""Liveness of the parts the console depends on, for /healthz and the dashboard."""

from __future__ import annotations

import time

import redis
from django.conf import settings
from django.db import connection

HEARTBEAT_KEY = "console:worker-heartbeat"


def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)


def record_worker_heartbeat() -> None:
    _redis().set(HEARTBEAT_KEY, str(time.time()), ex=settings.WORKER_HEARTBEAT_MAX_AGE * 10)


def check_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True, "ok"
    except Exception as exc:  # any driver error means "down"; the detail goes to the operator
        return False, f"{type(exc).__name__}: {exc}".strip()[:200]


def check_redis() -> tuple[bool, str]:
    try:
        _redis().ping()
        return True, "ok"
    except redis.RedisError as exc:
        return False, f"{type(exc).__name__}: {exc}"[:200]


def check_worker() -> tuple[bool, str]:
    try:
        raw = _redis().get(HEARTBEAT_KEY)
    except redis.RedisError:
        return False, "unknown: redis unreachable"
    if raw is None:
        return False, "no heartbeat from any worker"
    age = time.time() - float(raw)
    if age > settings.WORKER_HEARTBEAT_MAX_AGE:
        return False, f"last heartbeat {age:.0f}s ago"
    return True, "ok"


def health_report() -> tuple[bool, dict[str, dict[str, str | bool]]]:
    checks = {"database": check_database(), "redis": check_redis(), "worker": check_worker()}
    report = {name: {"ok": ok, "detail": detail} for name, (ok, detail) in checks.items()}
    return all(ok for ok, _ in checks.values()), report
