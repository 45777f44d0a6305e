"""Thin tasks: take ids, claim the work, call services."""

from __future__ import annotations

from celery import shared_task

from triage import services


@shared_task(acks_late=True, ignore_result=True)
def notification_email(notification_id: int) -> None:
    notification = services.notification_email_take(notification_id=notification_id)
    if notification is None:
        return  # sent already, or another worker is sending it
    services.notification_email_send(notification=notification)
