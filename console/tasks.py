"""Thin tasks: call services."""

from __future__ import annotations

from celery import shared_task

from console import claims


@shared_task(ignore_result=True)
def lost_claims_release() -> None:
    claims.lost_claims_release()
