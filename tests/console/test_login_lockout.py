"""Login lockout (django-axes): per account and per address, with a clear message, an audit event and an unlock."""

import pytest
from django.core.management import call_command
from django.test import Client

from console.models import AuditEvent
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.10"  # documentation addresses (RFC 5737): never a real client's
OFFICE = "198.51.100.20"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hundreds of password checks here: Django's real hasher takes ~0.3 s each, and lockout does not depend on it
    (set before the users are made, so their passwords are hashed with it too)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _log_in(client: Client, username: str, password: str, *, address: str, **headers):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def _lock_out(client: Client, username: str, *, address: str, attempts: int = 10) -> None:
    for _ in range(attempts):
        _log_in(client, username, "wrong-password", address=address)


def test_fifty_wrong_passwords_lock_the_account_and_the_right_one_is_refused(client, reviewer):
    responses = [_log_in(client, reviewer.username, f"guess-{n}", address=ATTACKER) for n in range(50)]

    assert [r.status_code for r in responses[:9]] == [200] * 9  # "didn't match": the form again
    assert {r.status_code for r in responses[9:]} == {429}  # the 10th failure locks

    right = _log_in(client, reviewer.username, PASSWORD, address=ATTACKER)

    assert right.status_code == 429
    assert not _logged_in(client)
    text = right.content.decode()
    assert "Too many failed logins" in text and "15 minutes" in text and "An administrator can unlock it" in text
    assert "didn&#x27;t match" not in text


def test_a_lockout_writes_one_audit_event_naming_the_account_and_address(client, reviewer):
    _lock_out(client, reviewer.username, address=ATTACKER, attempts=30)

    events = list(AuditEvent.objects.filter(verb="login.lockout"))
    assert len(events) == 1
    event = events[0]
    assert (event.object_type, event.object_id) == ("console.user", str(reviewer.pk))
    assert event.after["username"] == reviewer.username and event.after["ip_address"] == ATTACKER
    assert event.after["failures"] == 10
    assert event.security_level is None  # about a user: admins only


def test_the_same_account_is_locked_from_every_address(client, reviewer):
    _lock_out(client, reviewer.username, address=ATTACKER)

    response = _log_in(client, reviewer.username, PASSWORD, address=OFFICE)

    assert response.status_code == 429 and not _logged_in(client)


def test_an_address_with_ten_failures_is_locked_for_every_account(client, reviewer, curator):
    for n in range(10):  # a password spray: a few guesses at each account
        _log_in(client, reviewer.username if n % 2 else curator.username, "spring2026", address=ATTACKER)

    response = _log_in(client, curator.username, PASSWORD, address=ATTACKER)

    assert response.status_code == 429 and not _logged_in(client)
    assert AuditEvent.objects.filter(verb="login.lockout").count() == 1


def test_admins_read_the_lockout_in_the_audit_log_and_others_do_not(client, reviewer, admin_user, approver):
    _lock_out(client, reviewer.username, address=ATTACKER)
    reader = Client()

    reader.force_login(admin_user)
    page = reader.get("/audit/?verb=login.lockout").content.decode()
    assert "login.lockout" in page and f"login from {ATTACKER}" in page and f"console.user#{reviewer.pk}" in page

    reader.force_login(approver)  # may read the audit log, but not about users
    assert f"login from {ATTACKER}" not in reader.get("/audit/?verb=login.lockout").content.decode()


def test_another_account_from_another_address_is_unaffected(client, reviewer, curator):
    _lock_out(client, reviewer.username, address=ATTACKER)

    response = _log_in(client, curator.username, PASSWORD, address=OFFICE)

    assert response.status_code == 302 and _logged_in(client)


def test_an_unknown_username_locks_its_address_and_is_audited(client, curator):
    _lock_out(client, "no-such-person", address=ATTACKER)

    assert _log_in(client, curator.username, PASSWORD, address=ATTACKER).status_code == 429
    event = AuditEvent.objects.get(verb="login.lockout")
    assert event.object_type == "axes.accessattempt" and event.after["username"] == "no-such-person"


def test_admin_unlock_action_lets_the_user_in_and_is_audited(client, reviewer, make_user):
    _lock_out(client, reviewer.username, address=OFFICE)
    superuser = make_user("root")
    superuser.is_staff = superuser.is_superuser = True
    superuser.save(update_fields=["is_staff", "is_superuser"])
    admin_client = Client()
    admin_client.force_login(superuser)

    response = admin_client.post("/admin/console/user/", {"action": "unlock_login", "_selected_action": [reviewer.pk]},
                                 follow=True)

    assert response.status_code == 200
    assert f"Unlocked 1 account: {reviewer.username}." in response.content.decode()
    event = AuditEvent.objects.get(verb="login.unlock")
    assert event.actor == superuser and event.object_id == str(reviewer.pk)
    assert event.before == {"failures": 10} and event.after == {"failures": 0}
    assert _log_in(client, reviewer.username, PASSWORD, address=OFFICE).status_code == 302
    assert _logged_in(client)


def test_admin_unlocks_an_address_from_the_failed_login_records_and_cannot_delete_them(client, curator, make_user):
    from axes.models import AccessAttempt

    _lock_out(client, "no-such-person", address=ATTACKER)
    superuser = make_user("root")
    superuser.is_staff = superuser.is_superuser = True
    superuser.save(update_fields=["is_staff", "is_superuser"])
    admin_client = Client()
    admin_client.force_login(superuser)
    listing = admin_client.get("/admin/axes/accessattempt/").content.decode()
    assert "unlock_attempts" in listing and "delete_selected" not in listing
    attempt = AccessAttempt.objects.get(ip_address=ATTACKER)

    response = admin_client.post("/admin/axes/accessattempt/",
                                 {"action": "unlock_attempts", "_selected_action": [attempt.pk]}, follow=True)

    assert "Cleared 1 failed login record." in response.content.decode()
    event = AuditEvent.objects.get(verb="login.unlock")
    assert event.actor == superuser and event.note == f"account no-such-person, address {ATTACKER}"
    assert _log_in(client, curator.username, PASSWORD, address=ATTACKER).status_code == 302


def test_unlock_login_command_unlocks_an_address_and_is_audited(client, curator):
    _lock_out(client, "no-such-person", address=ATTACKER)

    call_command("unlock_login", "--ip-address", ATTACKER)

    assert _log_in(client, curator.username, PASSWORD, address=ATTACKER).status_code == 302
    event = AuditEvent.objects.get(verb="login.unlock")
    assert event.actor_label == f"manage.py unlock_login --ip-address {ATTACKER}"
    assert event.note == f"address {ATTACKER}"


def test_without_a_lockout_time_the_message_says_an_administrator_must_unlock(client, reviewer, settings):
    settings.LOGIN_LOCKOUT_MINUTES = 0
    settings.AXES_COOLOFF_TIME = None
    _lock_out(client, reviewer.username, address=ATTACKER)

    response = _log_in(client, reviewer.username, PASSWORD, address=ATTACKER)

    assert response.status_code == 429
    assert "blocked until an administrator unlocks it" in response.content.decode()


def test_lockout_message_is_in_the_browsers_language(client, reviewer):
    _lock_out(client, reviewer.username, address=ATTACKER)

    response = _log_in(client, reviewer.username, PASSWORD, address=ATTACKER, HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed logins" not in text
    assert "15" in text and "管理员" in text  # "how long" and "whom to ask", in Chinese


def test_api_tokens_keep_working_from_a_locked_out_address(client, reviewer, api_token):
    """API tokens belong to API clients, not to people, and never go through the login: a person's lockout
    (by account or by the address they share with the assistant) leaves the API alone."""
    _lock_out(client, reviewer.username, address=ATTACKER)
    _, token = api_token

    response = client.post("/api/v1/answers", data={"question": "Q?", "answer": "Refunds take 14 days."},
                           content_type="application/json", REMOTE_ADDR=ATTACKER,
                           headers={"Authorization": f"Bearer {token}"})

    assert response.status_code == 202
