"""Thin tasks: call services."""

from __future__ import annotations

from celery import shared_task

from console import work_claims


@shared_task(ignore_result=True)
def lost_claims_release() -> None:
    work_claims.lost_claims_release()


@shared_task(ignore_result=True)
def work_claims_sweep() -> None:
    work_claims.work_claims_sweep()
