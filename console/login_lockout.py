"""Login lockout on top of django-axes: the message a locked-out person reads, the audit events, and the unlock.

django-axes counts failed logins in PostgreSQL (per account and per address, LOGIN_LOCKOUT_PARAMETERS) and refuses
a login once a counter reaches LOGIN_FAILURE_LIMIT, the right password included, until LOGIN_LOCKOUT_MINUTES have
passed since the last failure or an administrator unlocks. API bearer tokens are separate credentials and never
go through it (review/token_throttle.py slows bad tokens instead).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from axes.models import AccessAttempt
from axes.signals import user_locked_out
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db import models
from django.db.models import Max, Sum
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from console.audit import audit_record
from console.models import User
from console.oidc import sign_in_context
from console.selectors import role_granters

logger = logging.getLogger(__name__)


def login_lockout_message() -> str:
    """What a locked-out person reads, naming the admins who can unlock them (the active ones, by username)."""
    minutes = settings.LOGIN_LOCKOUT_MINUTES
    admins = ", ".join(role_granters())
    if not minutes:
        if admins:
            return gettext("Too many failed logins: logging in to this account or from this address is blocked until "
                           "an administrator unlocks it: ask %(admins)s.") % {"admins": admins}
        return gettext("Too many failed logins: logging in to this account or from this address is blocked until an "
                       "administrator unlocks it.")
    if admins:
        return ngettext(
            "Too many failed logins: logging in to this account or from this address is blocked for %(minutes)d "
            "minute after the last attempt. An administrator can unlock it sooner: ask %(admins)s.",
            "Too many failed logins: logging in to this account or from this address is blocked for %(minutes)d "
            "minutes after the last attempt. An administrator can unlock it sooner: ask %(admins)s.",
            minutes,
        ) % {"minutes": minutes, "admins": admins}
    return ngettext(
        "Too many failed logins: logging in to this account or from this address is blocked for %(minutes)d minute "
        "after the last attempt. An administrator can unlock it sooner.",
        "Too many failed logins: logging in to this account or from this address is blocked for %(minutes)d minutes "
        "after the last attempt. An administrator can unlock it sooner.",
        minutes,
    ) % {"minutes": minutes}


@dataclass(frozen=True)
class LoginLock:
    """Failed logins counted against an account or an address, as django-axes counts them now."""

    key: str  # the username or the address
    failures: int
    last_failure: datetime
    locked: bool
    until: datetime | None  # when a lock ends by itself; None: it lasts until an admin unlocks

    @property
    def minutes_left(self) -> int:
        return max(1, round((self.until - timezone.now()).total_seconds() / 60)) if self.until else 0


def _counted_attempts(field: str):
    """Failure counts per value of `field` ("username" or "ip_address"), over the attempts axes still counts."""
    attempts = AccessAttempt.objects.filter(**{f"{field}__isnull": False})
    if settings.AXES_COOLOFF_TIME:
        attempts = attempts.filter(attempt_time__gte=timezone.now() - settings.AXES_COOLOFF_TIME)
    return attempts.values(field).annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))


def _lock(*, key: str, failures: int, last: datetime, counts: bool) -> LoginLock:
    """`counts`: whether LOGIN_LOCKOUT_PARAMETERS locks by this kind of key on its own."""
    cool_off = settings.AXES_COOLOFF_TIME
    return LoginLock(key=key, failures=failures, last_failure=last,
                     locked=counts and failures >= settings.AXES_FAILURE_LIMIT,
                     until=last + cool_off if cool_off else None)


def login_locks_for(*, usernames: list[str]) -> dict[str, LoginLock]:
    """{username: its failure count and lock} for those of `usernames` with failed logins counted."""
    counts = "username" in settings.LOGIN_LOCKOUT_PARAMETERS
    rows = _counted_attempts("username").filter(username__in=usernames)
    return {row["username"]: _lock(key=row["username"], failures=row["failures"], last=row["last"], counts=counts)
            for row in rows}


def login_locked_addresses() -> list[LoginLock]:
    """Addresses logins are refused from now (when LOGIN_LOCKOUT_PARAMETERS locks by address), worst first."""
    if "ip_address" not in settings.LOGIN_LOCKOUT_PARAMETERS:
        return []
    rows = _counted_attempts("ip_address").filter(failures__gte=settings.AXES_FAILURE_LIMIT).order_by("-failures")
    return [_lock(key=row["ip_address"], failures=row["failures"], last=row["last"], counts=True) for row in rows]


def login_locked_out_response(request: HttpRequest, original_response: HttpResponse | None,
                              credentials: dict | None) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the login page again, with the lockout message instead of "didn't match"."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    form = AuthenticationForm(request, initial={"username": username})
    return render(request, "registration/login.html",
                  {"form": form, "lockout_message": login_lockout_message(), **sign_in_context()}, status=429)


def _audit_subject(*, username: str, ip_address: str) -> models.Model | None:
    """The account the lockout names, or (an unknown name: someone guessing) the failure counter itself."""
    user = User.objects.filter(username=username).first() if username else None
    if user is not None:
        return user
    return AccessAttempt.objects.filter(username=username, ip_address=ip_address).order_by("-attempt_time").first()


@receiver(user_locked_out)
def login_lockout_audit(sender: object, request: HttpRequest, username: str | None, ip_address: str | None,
                        **kwargs: object) -> None:
    """One audit event when a counter reaches the limit. Axes signals every refused attempt after that too (each
    pushes the lock's end further); the count says which attempt crossed the line: each failure adds exactly one
    to every counter it belongs to."""
    failures = getattr(request, "axes_failures_since_start", None)
    if failures != settings.AXES_FAILURE_LIMIT:
        return
    subject = _audit_subject(username=username or "", ip_address=ip_address or "")
    if subject is None:
        logger.warning("login lockout for %r from %s left no record to audit", username, ip_address)
        return
    audit_record(
        verb="login.lockout", obj=subject, actor_label=f"login from {ip_address or 'unknown address'}",
        after={"username": username or "", "ip_address": ip_address or "", "failures": failures,
               "lockout_minutes": settings.LOGIN_LOCKOUT_MINUTES or None},
        note=f"{failures} failed logins in a row",
    )


def login_unlock(*, username: str = "", ip_address: str = "", actor: User | None = None,
                 actor_label: str = "") -> int:
    """Clear the failure counters of an account, an address, or both (each given one narrows the other) and audit
    it; returns how many counters were cleared (0: nothing was locked, nothing audited)."""
    if not username and not ip_address:
        raise ValueError("name an account or an address to unlock")
    attempts = AccessAttempt.objects.all()
    if username:
        attempts = attempts.filter(username=username)
    if ip_address:
        attempts = attempts.filter(ip_address=ip_address)
    failures = sum(attempts.values_list("failures_since_start", flat=True))
    subject = User.objects.filter(username=username).first() if username else None
    subject = subject or attempts.order_by("-attempt_time").first()
    cleared = axes_reset(username=username or None, ip=ip_address or None)
    if cleared and subject is not None:
        audit_record(verb="login.unlock", obj=subject, actor=actor, actor_label=actor_label,
                     before={"failures": failures}, after={"failures": 0},
                     note=", ".join(part for part in (f"account {username}" if username else "",
                                                      f"address {ip_address}" if ip_address else "") if part))
    return cleared
