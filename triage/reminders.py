"""Expiry reminders: a knowledge-base version's owner and the approvers cleared for it are told N days before it
expires (the document's own number, or KB_EXPIRY_REMINDER_DAYS), and again on the day — in the app, and by e-mail
when mail is configured. Once per person, kind and expiry: a re-verified version is reminded of its new date."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from console import roles
from console.dispatch import enqueue_on_commit
from console.models import SecurityLevel
from kb.models import DocumentVersion, VersionStatus
from triage.models import Notification
from triage.selectors import cleared_for, people_with_role

LONGEST_REMINDER_DAYS = 366  # a document's reminder_days beyond a year would remind of nothing sooner


def reminded_people(*, version: DocumentVersion) -> list:
    """The owner (when still active) and every approver cleared for the document."""
    people = {person.pk: person for person in people_with_role(roles.APPROVER).filter(
        clearance__in=cleared_for(version.document.security_level))}
    owner = version.document.owner
    if owner.is_active:
        people[owner.pk] = owner
    return sorted(people.values(), key=lambda person: person.username)


def _reminder_kind(*, version: DocumentVersion, now: datetime) -> str | None:
    if timezone.localdate(version.expires_at) == timezone.localdate(now):
        return Notification.Kind.EXPIRY_TODAY
    days = version.document.reminder_days
    if days is None:
        days = settings.KB_EXPIRY_REMINDER_DAYS
    return Notification.Kind.EXPIRY_SOON if version.expires_at <= now + timedelta(days=days) else None


def expiry_reminders_send(*, now: datetime | None = None) -> int:
    """Remind of every approved version coming up to its expiry (beat task); returns the reminders made."""
    now = now or timezone.now()
    due = DocumentVersion.objects.filter(
        status=VersionStatus.APPROVED, expires_at__gt=now, expires_at__lte=now + timedelta(days=LONGEST_REMINDER_DAYS),
        document__retired_at__isnull=True,
    ).select_related("document__owner")
    made = 0
    for version in due:
        kind = _reminder_kind(version=version, now=now)
        if kind is None:
            continue
        for person in reminded_people(version=version):
            made += _remind(recipient=person, kind=kind, version=version)
    return made


def _remind(*, recipient, kind: str, version: DocumentVersion) -> int:
    try:
        with transaction.atomic():  # two beats at once: the unique constraint keeps one
            notification, created = Notification.objects.get_or_create(
                recipient=recipient, kind=kind, version=version, about_expiry=version.expires_at)
    except IntegrityError:
        return 0
    if created and settings.NOTIFY_BY_EMAIL and recipient.email:
        from triage.tasks import notification_email

        enqueue_on_commit(notification_email, notification.pk)
    return int(created)


def expiry_reminder_email_send(*, notification: Notification) -> None:
    """One plain e-mail: which version expires when, and the link to re-verify it or upload a new version."""
    recipient, version = notification.recipient, notification.version
    if version.document.security_level not in SecurityLevel.up_to(recipient.clearance) or not recipient.is_active:
        return  # their clearance changed since: the document is no longer theirs to read about
    url = settings.CONSOLE_BASE_URL.rstrip("/") + version.get_absolute_url()
    with translation.override(recipient.language or settings.LANGUAGE_CODE):
        values = {"title": version.document.title, "number": version.number,
                  "date": timezone.localtime(notification.about_expiry).strftime("%Y-%m-%d %H:%M")}
        if notification.kind == Notification.Kind.EXPIRY_TODAY:
            subject = _("%(title)s v%(number)s expires today (%(date)s)") % values
        else:
            subject = _("%(title)s v%(number)s expires on %(date)s") % values
        body = _("Once it expires it is no longer evidence, and answers citing it go to review. If it is still "
                 "correct, re-verify it on its page; otherwise upload a new version.")
    send_mail(subject, f"{subject}\n\n{body}\n\n{url}\n", None, [recipient.email])
