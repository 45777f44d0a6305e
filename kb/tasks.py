"""Thin tasks: take ids, claim the work, call services."""

from __future__ import annotations

import logging

from celery import shared_task

from console.outage import OUTAGE_RETRY, is_outage
from console.work_claims import work_claim_take
from console.workers import this_worker_name
from kb import reembedding, services, sources
from kb.embeddings import EmbeddingError, Role, get_provider

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, max_retries=4, ignore_result=True)
def version_index(self, version_id: int) -> None:
    task_id = self.request.id or ""
    if not work_claim_take(kind=services.VERSION_INDEXING, pk=version_id, task_id=task_id, worker=this_worker_name()):
        return  # already indexed, or being indexed by another task
    try:
        services.version_index_run(version_id=version_id, task_id=task_id)
    except services.IndexClaimLost as exc:
        logger.info("stopped indexing version %s: %s", version_id, exc)
    except EmbeddingError as exc:
        if self.request.retries < self.max_retries:
            services.version_index_release(version_id=version_id, task_id=task_id)
            raise self.retry(exc=exc, countdown=2 ** (self.request.retries + 1)) from exc
        services.version_index_fail(version_id=version_id, task_id=task_id, error=str(exc))
    except Exception as exc:
        if is_outage(exc):  # the version is not at fault: the same task (and claim) tries again shortly
            raise self.retry(exc=exc, countdown=OUTAGE_RETRY["retry_backoff_max"],
                             max_retries=OUTAGE_RETRY["max_retries"]) from exc
        logger.exception("indexing version %s failed", version_id)
        services.version_index_fail(version_id=version_id, task_id=task_id, error=f"{type(exc).__name__}: {exc}")


@shared_task
def embed_texts_task(texts: list[str], role: str, language: str) -> list[list[float]]:
    """Query embeddings for processes that must not load the model themselves (the web server)."""
    return get_provider(language).embed(texts, role=Role(role))


@shared_task(ignore_result=True)
def versions_housekeeping() -> None:
    services.versions_activate_due()
    services.versions_expire_due()
    reembedding.versions_reembed_due()


@shared_task(acks_late=True, ignore_result=True)
def source_sync_task(source_id: int) -> None:
    if not sources.source_sync_claim(source_id=source_id):
        return  # synced already, or another task is syncing it
    sources.source_sync_run(source_id=source_id)


@shared_task(ignore_result=True)
def sources_sync_due_task() -> None:
    sources.sources_sync_due()
