"""Thin tasks: take ids, claim the work, call services."""

from __future__ import annotations

from celery import shared_task

from triage import reminders, services


@shared_task(acks_late=True, ignore_result=True)
def notification_email(notification_id: int) -> None:
    notification = services.notification_email_take(notification_id=notification_id)
    if notification is None:
        return  # sent already, or another worker is sending it
    if notification.version_id is not None:
        reminders.expiry_reminder_email_send(notification=notification)
    else:
        services.notification_email_send(notification=notification)


@shared_task(ignore_result=True)
def expiry_reminders_send_task() -> None:
    reminders.expiry_reminders_send()
