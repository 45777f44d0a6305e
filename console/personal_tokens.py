"""People's bearer tokens for the review API: created (shown once), looked up, revoked.

A personal token acts as its user, with their roles and clearance as they are at each request: a revoked token,
or one of a deactivated user, stops working at once (nothing is cached). Which routes take one, and how bad
tokens are slowed, is the review API's business (review/people_bearer.py); this module knows no app.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from console.audit import audit_record
from console.input_text import text_problem
from console.models import PersonalToken, User

# API clients' tokens start "gac_": the two kinds are told apart before any lookup.
PERSONAL_TOKEN_PREFIX = "gap_"
NAME_MAX_CHARS = PersonalToken._meta.get_field("name").max_length
LIVE_TOKENS_MAX = 20  # per person: a list nobody can keep track of is a list of forgotten credentials
# last_used_at is written at most this often per token: a write on every request would cost more than the read.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class PersonalTokenInvalid(ValueError):
    """The token cannot be created as asked: the message says why, in the person's words."""


def personal_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def personal_token_create(*, user: User, name: str, actor: User | None = None,
                          actor_label: str = "") -> tuple[PersonalToken, str]:
    """A new token for `user` and the token itself, which is never stored and cannot be shown again.
    `actor`: who created it (the user on their own page); `actor_label` when no user did (a command)."""
    name = name.strip()
    if not name:
        raise PersonalTokenInvalid(_("Give the token a name, so you know later what uses it."))
    if len(name) > NAME_MAX_CHARS:
        raise PersonalTokenInvalid(_("A token's name is at most %(limit)s characters.") % {"limit": NAME_MAX_CHARS})
    if problem := text_problem(name):
        raise PersonalTokenInvalid(_("The name %(problem)s.") % {"problem": problem})
    if personal_tokens_live(user=user).count() >= LIVE_TOKENS_MAX:
        raise PersonalTokenInvalid(_("You have %(limit)s tokens in use: revoke one you no longer need first.")
                                   % {"limit": LIVE_TOKENS_MAX})
    token = PERSONAL_TOKEN_PREFIX + secrets.token_urlsafe(32)
    personal_token = PersonalToken.objects.create(user=user, name=name, prefix=token[:10],
                                                  token_hash=personal_token_hash(token))
    audit_record(verb="personal_token.create", obj=personal_token, actor=actor, actor_label=actor_label,
                 after={"user": user.username, "name": name, "prefix": personal_token.prefix})
    return personal_token, token


def personal_token_revoke(*, personal_token: PersonalToken, actor: User) -> PersonalToken:
    """Revoke a token (its row stays, so the list shows when it was revoked); revoking twice changes nothing."""
    if personal_token.revoked_at is not None:
        return personal_token
    personal_token.revoked_at = timezone.now()
    personal_token.save(update_fields=["revoked_at"])
    audit_record(verb="personal_token.revoke", obj=personal_token, actor=actor,
                 before={"revoked": False}, after={"revoked": True, "user": personal_token.user.username,
                                                   "name": personal_token.name})
    return personal_token


def personal_tokens_for(*, user: User) -> QuerySet[PersonalToken]:
    """The person's tokens, newest first, revoked ones too (they say when)."""
    return PersonalToken.objects.filter(user=user)


def personal_tokens_live(*, user: User) -> QuerySet[PersonalToken]:
    return personal_tokens_for(user=user).filter(revoked_at__isnull=True)


def personal_token_find(*, token: str) -> PersonalToken | None:
    """The live token `token` is, with its user (active), or None: unknown, revoked, or its user deactivated."""
    if not token.startswith(PERSONAL_TOKEN_PREFIX):
        return None
    return (PersonalToken.objects.select_related("user")
            .filter(token_hash=personal_token_hash(token), revoked_at__isnull=True, user__is_active=True).first())


def personal_token_use(*, personal_token: PersonalToken) -> None:
    """Note that the token was used now (at most once per LAST_USED_RESOLUTION: the list shows "last used")."""
    now = timezone.now()
    if personal_token.last_used_at is not None and now - personal_token.last_used_at < LAST_USED_RESOLUTION:
        return
    PersonalToken.objects.filter(pk=personal_token.pk).update(last_used_at=now)
    personal_token.last_used_at = now
