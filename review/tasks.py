"""Thin tasks: take ids, claim the work, call services."""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from review import services

logger = logging.getLogger(__name__)


@shared_task(acks_late=True)
def answer_score(answer_id: int) -> None:
    if not services.answer_score_claim(answer_id=answer_id):
        return  # scored already, or another worker is on it
    try:
        services.answer_score_run(answer_id=answer_id)
    except Exception as exc:
        logger.exception("scoring answer %s failed", answer_id)
        services.answer_scoring_failed(answer_id=answer_id, error=f"{type(exc).__name__}: {exc}")


@shared_task
def answer_check_sync(payload: dict) -> dict:
    """/api/v1/check and /alignscore_*: checked on a worker, where the embedding model lives."""
    from review.api_schemas import report_to_dict
    from review.pipeline import answer_check

    report = answer_check(question=payload["question"], answer_text=payload["answer"],
                          clearance=payload["clearance"], contexts=payload["contexts"], retrieve=payload["retrieve"])
    return report_to_dict(report)


@shared_task(bind=True, acks_late=True, max_retries=None)
def webhook_deliver(self, answer_id: int) -> None:
    attempt = self.request.retries + 1
    if services.webhook_attempt(answer_id=answer_id, attempt=attempt):
        return
    if attempt < settings.WEBHOOK_MAX_ATTEMPTS:
        raise self.retry(countdown=min(2 ** attempt, 300))  # 2, 4, 8, ... seconds, at most 5 minutes
    logger.error("webhook for answer %s failed after %s attempts", answer_id, attempt)


@shared_task(ignore_result=True)
def answers_housekeeping() -> None:
    services.answers_requeue_stale()
