"""Owners and approvers are reminded before a version expires, once per person, kind and expiry date."""

import time
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from kb import reverification
from kb.models import Document
from triage.models import Notification
from triage.reminders import expiry_reminders_send

TEXT = "# Parking\n\nVisitors park in lot P7 for up to 4 hours.\n"


def _reminders(version):
    return sorted(Notification.objects.filter(version=version).values_list("recipient__username", "kind"))


@pytest.mark.django_db
def test_a_version_expiring_within_the_reminder_days_reminds_owner_and_approvers_once(
        publish, settings, curator, approver, reviewer):
    settings.KB_EXPIRY_REMINDER_DAYS = 14
    version = publish(TEXT, key="parking", expires_at=timezone.now() + timedelta(days=10))

    assert expiry_reminders_send() == 2
    assert expiry_reminders_send() == 0  # the next beat reminds nobody again

    assert _reminders(version) == [(approver.username, "expiry_soon"), (curator.username, "expiry_soon")]


@pytest.mark.django_db
def test_nothing_is_said_before_the_documents_own_reminder_days(publish, settings):
    settings.KB_EXPIRY_REMINDER_DAYS = 14
    version = publish(TEXT, key="parking", expires_at=timezone.now() + timedelta(days=10))
    Document.objects.filter(pk=version.document_id).update(reminder_days=7)

    assert expiry_reminders_send() == 0
    assert expiry_reminders_send(now=timezone.now() + timedelta(days=4)) == 2


@pytest.mark.django_db
def test_again_on_the_day_it_expires(publish, settings):
    settings.KB_EXPIRY_REMINDER_DAYS = 14
    version = publish(TEXT, key="parking", expires_at=timezone.now() + timedelta(days=3))
    expiry_reminders_send()

    on_the_day = timezone.localtime(version.expires_at).replace(hour=0, minute=1)
    assert expiry_reminders_send(now=max(on_the_day, timezone.now())) == 2
    assert {kind for _name, kind in _reminders(version)} == {"expiry_soon", "expiry_today"}


@pytest.mark.django_db
def test_a_reverified_version_is_reminded_of_its_new_expiry(publish, settings, curator, approver):
    settings.KB_EXPIRY_REMINDER_DAYS = 14
    version = publish(TEXT, key="parking", expires_at=timezone.now() + timedelta(days=10))
    expiry_reminders_send()
    extension = reverification.version_extension_request(version=version, user=curator,
                                                         expires_at=timezone.now() + timedelta(days=100))
    reverification.version_extension_approve(extension=extension, approver=approver)

    assert expiry_reminders_send() == 0  # 100 days ahead: too early
    assert expiry_reminders_send(now=timezone.now() + timedelta(days=90)) == 2


@pytest.mark.django_db
def test_an_approver_without_clearance_is_not_told(publish, settings, make_user):
    settings.KB_EXPIRY_REMINDER_DAYS = 14
    make_user("pia", "approver", clearance="public")
    version = publish(TEXT, key="parking", expires_at=timezone.now() + timedelta(days=10))

    expiry_reminders_send()

    assert "pia" not in {name for name, _kind in _reminders(version)}


@pytest.mark.django_db(transaction=True)
def test_the_owner_gets_one_email_when_mail_is_configured(publish, celery_worker, settings, curator):
    settings.KB_EXPIRY_REMINDER_DAYS = 14
    settings.NOTIFY_BY_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.CONSOLE_BASE_URL = "https://console.example"
    curator.email = "cora@example.org"
    curator.save(update_fields=["email"])
    version = publish(TEXT, key="parking", title="Parking guide", expires_at=timezone.now() + timedelta(days=10))

    expiry_reminders_send()
    expiry_reminders_send()

    deadline = time.monotonic() + 30
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # a second e-mail, if one were sent, would arrive now
    assert [message.to for message in mail.outbox] == [["cora@example.org"]]
    assert "Parking guide v1 expires on" in mail.outbox[0].subject
    assert f"https://console.example/kb/parking/v{version.number}/" in mail.outbox[0].body


@pytest.mark.django_db
def test_the_notifications_page_lists_the_reminder_for_a_curator(client, publish, settings, curator):
    settings.KB_EXPIRY_REMINDER_DAYS = 14
    version = publish(TEXT, key="parking", title="Parking guide", expires_at=timezone.now() + timedelta(days=10))
    expiry_reminders_send()
    client.force_login(curator)

    page = client.get("/triage/notifications/")

    assert page.status_code == 200
    assert "Parking guide v1 expires on" in page.content.decode()
    assert f"/kb/parking/v{version.number}/#reverify" in page.content.decode()
    assert client.get("/").context["notifications_unread"] == 1
