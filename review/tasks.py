"""Thin tasks: take ids, claim the work, call services."""

from __future__ import annotations

import logging

from celery import shared_task

from console.dispatch import enqueue
from console.outage import OUTAGE_RETRY, is_outage
from console.work_claims import work_claim_take
from console.workers import this_worker_name
from review import services, webhooks

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, ignore_result=True, **OUTAGE_RETRY)
def answer_score(self, answer_id: int) -> None:
    if not work_claim_take(kind=services.ANSWER_SCORING, pk=answer_id, task_id=self.request.id or "",
                           worker=this_worker_name()):
        return  # scored already, or another worker is on it
    try:
        services.answer_score_run(answer_id=answer_id)
    except Exception as exc:
        if is_outage(exc):
            raise  # sent again (OUTAGE_RETRY): the answer is not at fault
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


# OUTAGE_RETRY: an attempt the database cut short (even after the POST, its outcome lost) is sent again under the
# same task id, which takes the attempt back as soon as the database answers. Asked again at most every 10 s (for
# the same 20 minutes): a receiver waiting on a release hears of it within seconds of the database's return.
WEBHOOK_OUTAGE_RETRY = {**OUTAGE_RETRY, "retry_backoff_max": 10, "max_retries": 120}


@shared_task(bind=True, acks_late=True, ignore_result=True, **WEBHOOK_OUTAGE_RETRY)
def webhook_deliver(self, answer_id: int) -> None:
    attempt = webhooks.webhook_attempt_take(answer_id=answer_id, worker=this_worker_name(),
                                            task_id=self.request.id or "")
    if attempt is None:
        return  # delivered, given up, not due yet, or another task is sending it
    delivered = webhooks.webhook_attempt(answer_id=answer_id, attempt=attempt)
    retry_in = webhooks.webhook_settle(answer_id=answer_id, attempt=attempt, delivered=delivered)
    if retry_in is not None:
        enqueue(webhook_deliver, answer_id, countdown=retry_in)  # if this is lost, the sweep sends it


@shared_task(ignore_result=True)
def checker_learning_tick() -> None:
    from review.learning.services import checker_learning_tick as tick

    tick()
