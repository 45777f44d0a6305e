"""Liveness of the parts the console depends on, and of its queues, for /healthz.

The database, Redis and at least one live worker are needed to serve: without them /healthz answers 503.
Work that is stuck (stalled index jobs, answers waiting to be scored, undelivered webhooks) makes the
status "degraded" but still 200, so a load balancer keeps sending traffic to a web process that can serve.
/healthz is public: it names workers and counts work, never titles or questions.
"""

from __future__ import annotations

from datetime import timedelta

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Case, Q, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from console.workers import worker_liveness
from kb.models import DocumentVersion, IndexState
from review.models import Answer, AnswerStatus, WebhookState

QUEUED_INDEX_JOB_STALLS_AFTER = timedelta(minutes=1)

Part = dict[str, object]


def check_database() -> Part:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"ok": True, "detail": "ok"}
    except Exception as exc:  # any driver error means "down"; the detail goes to the operator
        return {"ok": False, "detail": f"{type(exc).__name__}: {exc}".strip()[:200]}


def check_redis() -> Part:
    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1).ping()
        return {"ok": True, "detail": "ok"}
    except redis.RedisError as exc:
        return {"ok": False, "detail": f"{type(exc).__name__}: {exc}"[:200]}


def check_workers() -> Part:
    """Live workers by name; `gone`: workers whose heartbeat has not expired yet but whose process this machine
    sees dead (console/workers.py), reported at once rather than for the rest of the heartbeat's life."""
    try:
        names, gone = worker_liveness()
    except redis.RedisError:
        return {"ok": False, "detail": "unknown: redis unreachable", "live": [], "gone": []}
    dead = f"; process gone: {', '.join(gone)}" if gone else ""
    if not names:
        detail = f"no live worker{dead}" if gone else "no heartbeat from any worker"
        return {"ok": False, "detail": detail, "live": [], "gone": gone}
    return {"ok": True, "detail": f"{len(names)} live{dead}", "live": names, "gone": gone}


def check_index_jobs() -> Part:
    """Versions indexing without progress for KB_INDEX_STALE_MINUTES, or queued for a minute with no taker."""
    now = timezone.now()
    indexing_cutoff = now - timedelta(minutes=settings.KB_INDEX_STALE_MINUTES)
    stalled = (
        DocumentVersion.objects.annotate(last_sign=Case(
            When(index_state=IndexState.QUEUED, then=Coalesce("index_requested_at", "created_at")),
            default=Coalesce("index_heartbeat_at", "created_at"),
        ))
        .filter(Q(index_state=IndexState.INDEXING, last_sign__lt=indexing_cutoff)
                | Q(index_state=IndexState.QUEUED, last_sign__lt=now - QUEUED_INDEX_JOB_STALLS_AFTER))
        .order_by("last_sign")
        .values_list("pk", "index_state", "last_sign")
    )
    jobs = [{"version": pk, "state": state, "since": since.isoformat()} for pk, state, since in stalled[:20]]
    if not jobs:
        return {"ok": True, "detail": "ok", "stalled": []}
    return {"ok": False, "detail": f"{stalled.count()} stalled", "stalled": jobs}


def _waited_too_long(age: float) -> bool:
    """Work waiting longer than HEALTH_WORK_WAIT_WARN_SECONDS is a backlog worth an operator's look."""
    return age >= settings.HEALTH_WORK_WAIT_WARN_SECONDS


def check_scoring_queue() -> Part:
    waiting = Answer.objects.filter(status=AnswerStatus.SCORING)
    oldest_id, oldest = waiting.order_by("created_at").values_list("pk", "created_at").first() or (None, None)
    age = (timezone.now() - oldest).total_seconds() if oldest else 0.0
    ok = not _waited_too_long(age)
    detail = "ok" if ok else f"answer {oldest_id} waiting {age:.0f}s to be scored"
    return {"ok": ok, "detail": detail, "queued": waiting.count(), "oldest_queued_seconds": round(age),
            "oldest_answer": oldest_id}


def check_webhooks() -> Part:
    """Webhooks waiting to be delivered (Answer.webhook_state), and those given up on after every attempt."""
    pending = Answer.objects.filter(webhook_state=WebhookState.PENDING).annotate(
        due_at=Coalesce("released_at", "decided_at", "created_at"))
    oldest_id, oldest = pending.order_by("due_at").values_list("pk", "due_at").first() or (None, None)
    age = (timezone.now() - oldest).total_seconds() if oldest else 0.0
    ok = not _waited_too_long(age)
    detail = "ok" if ok else f"webhook of answer {oldest_id} undelivered, due {age:.0f}s ago"
    failed = Answer.objects.filter(webhook_state=WebhookState.FAILED).count()
    return {"ok": ok, "detail": detail, "backlog": pending.count(), "oldest_seconds": round(age),
            "oldest_answer": oldest_id, "failed": failed}


def health_report() -> tuple[bool, dict[str, Part]]:
    """(whether the console can serve, every part's report)."""
    report = {"database": check_database(), "redis": check_redis(), "worker": check_workers()}
    serving = all(part["ok"] for part in report.values())
    if report["database"]["ok"]:
        try:
            report |= {"index_jobs": check_index_jobs(), "scoring": check_scoring_queue(),
                       "webhooks": check_webhooks()}
        except DatabaseError as exc:  # e.g. tables not migrated yet
            report["queues"] = {"ok": False, "detail": f"{type(exc).__name__}: {exc}"[:200]}
    return serving, report
