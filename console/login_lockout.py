"""Login lockout on top of django-axes: the message a locked-out person reads, the audit events, and the unlock.

django-axes counts failed logins in PostgreSQL (per account and per address, LOGIN_LOCKOUT_PARAMETERS) and refuses
a login once a counter reaches LOGIN_FAILURE_LIMIT, the right password included, until LOGIN_LOCKOUT_MINUTES have
passed since the last failure or an administrator unlocks. API bearer tokens are separate credentials and never
go through it (review/token_throttle.py slows bad tokens instead).
"""

from __future__ import annotations

import logging

from axes.models import AccessAttempt
from axes.signals import user_locked_out
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db import models
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext

from console.audit import audit_record
from console.models import User
from console.oidc import sign_in_context

logger = logging.getLogger(__name__)


def login_lockout_message() -> str:
    minutes = settings.LOGIN_LOCKOUT_MINUTES
    if not minutes:
        return gettext("Too many failed logins: logging in to this account or from this address is blocked until an "
                       "administrator unlocks it.")
    return ngettext(
        "Too many failed logins: logging in to this account or from this address is blocked for %(minutes)d minute "
        "after the last attempt. An administrator can unlock it sooner.",
        "Too many failed logins: logging in to this account or from this address is blocked for %(minutes)d minutes "
        "after the last attempt. An administrator can unlock it sooner.",
        minutes,
    ) % {"minutes": minutes}


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
