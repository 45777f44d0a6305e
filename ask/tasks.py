"""Thin tasks: take ids, claim the work, call services (ask/regression.py)."""

from __future__ import annotations

import logging

from celery import shared_task

from ask import regression
from console.dispatch import enqueue
from console.outage import OUTAGE_RETRY, is_outage
from console.workers import this_worker_name

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, ignore_result=True, **OUTAGE_RETRY)
def question_set_run(self, run_id: int) -> None:
    if regression.knowledge_settling(run_id=run_id):
        # Ask again shortly rather than run against a version not indexed yet (lost: the sweep sends it again).
        enqueue(question_set_run, run_id, countdown=regression.SETTLE_RECHECK_SECONDS)
        return
    task_id = self.request.id or ""
    if not regression.question_run_take(run_id=run_id, task_id=task_id, worker=this_worker_name()):
        return  # done already, or another task runs it
    try:
        regression.question_run_execute(run_id=run_id, task_id=task_id)
    except Exception as exc:
        if is_outage(exc):
            raise  # sent again (OUTAGE_RETRY): the run is not at fault
        logger.exception("question run %s failed", run_id)
        regression.question_run_fail(run_id=run_id, task_id=task_id, error=f"{type(exc).__name__}: {exc}")


@shared_task(ignore_result=True)
def question_runs_for_changed_settings() -> None:
    regression.question_runs_for_changed_settings()
