"""Single sign-on over OpenID Connect, on mozilla-django-oidc (README "Single sign-on").

The provider's endpoints come from the settings or, for those not set, from its discovery document
(`{OIDC_ISSUER}/.well-known/openid-configuration`), fetched when first needed — never at start-up, so a provider that
is down stops only single sign-on — and cached. A person is matched on OIDC_USERNAME_CLAIM and created at their first
login; their roles and clearance follow their provider groups (OIDC_ROLE_MAP, OIDC_CLEARANCE_MAP) at every login.
Lockout is django-axes' as for passwords: a locked account or address is refused, and a refused sign-in counts as a
failed login for the address. A disabled (inactive) account is refused.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group
from django.core import checks
from django.core.cache import cache
from django.core.exceptions import SuspiciousOperation
from django.db import transaction
from django.http import HttpRequest
from django.shortcuts import resolve_url
from django.utils.translation import gettext
from mozilla_django_oidc.auth import OIDCAuthenticationBackend
from mozilla_django_oidc.utils import import_from_settings

from console.audit import audit_record
from console.models import SecurityLevel, User
from console.roles import ALL_ROLES

logger = logging.getLogger(__name__)

# Setting name -> the discovery document's key for it.
DISCOVERED = {
    "OIDC_OP_AUTHORIZATION_ENDPOINT": "authorization_endpoint",
    "OIDC_OP_TOKEN_ENDPOINT": "token_endpoint",
    "OIDC_OP_USER_ENDPOINT": "userinfo_endpoint",
    "OIDC_OP_JWKS_ENDPOINT": "jwks_uri",
    "OIDC_OP_END_SESSION_ENDPOINT": "end_session_endpoint",
}
REQUIRED_ENDPOINTS = ("OIDC_OP_AUTHORIZATION_ENDPOINT", "OIDC_OP_TOKEN_ENDPOINT", "OIDC_OP_USER_ENDPOINT",
                      "OIDC_OP_JWKS_ENDPOINT")


class ProviderUnavailable(Exception):
    """The identity provider could not be reached or answered nonsense; the message says which."""


def _discovery() -> dict[str, Any]:
    issuer = settings.OIDC_ISSUER
    key = f"oidc-discovery:{issuer}"
    document = cache.get(key)
    if document is not None:
        return document
    url = f"{issuer}/.well-known/openid-configuration"
    try:
        response = httpx.get(url, timeout=settings.OIDC_TIMEOUT)
        response.raise_for_status()
        document = response.json()
    except (httpx.HTTPError, ValueError) as error:
        raise ProviderUnavailable(f"discovery at {url} failed: {error}") from error
    if not isinstance(document, dict) or document.get("issuer", "").rstrip("/") != issuer:
        raise ProviderUnavailable(f"{url} names another issuer than OIDC_ISSUER ({issuer})")
    cache.set(key, document, settings.OIDC_DISCOVERY_CACHE_SECONDS)
    return document


def oidc_setting(attr: str, *default: Any) -> Any:
    """A setting for mozilla-django-oidc: an endpoint not configured comes from the provider's discovery."""
    value = import_from_settings(attr, *default)
    if attr in DISCOVERED and not value and settings.OIDC_ISSUER:
        value = _discovery().get(DISCOVERED[attr], "")
        if not value and attr in REQUIRED_ENDPOINTS:
            raise ProviderUnavailable(f"the provider's discovery document names no {DISCOVERED[attr]}")
    return value


def oidc_enabled() -> bool:
    return settings.OIDC_ENABLED


def provider_origins() -> list[str]:
    """The origins of the issuer and of a configured end-session endpoint (a discovered one is on the issuer's)."""
    if not oidc_enabled():
        return []
    origins = []
    for url in (settings.OIDC_ISSUER, settings.OIDC_OP_END_SESSION_ENDPOINT):
        parts = urlsplit(url)
        if parts.scheme in {"http", "https"} and parts.netloc:
            origins.append(f"{parts.scheme}://{parts.netloc}")
    return sorted(set(origins))


def sign_in_label() -> str:
    """The login button's words: the provider by its name (OIDC_PROVIDER_NAME), or single sign-on."""
    if settings.OIDC_PROVIDER_NAME:
        return gettext("Sign in with %(provider)s") % {"provider": settings.OIDC_PROVIDER_NAME}
    return gettext("Sign in with single sign-on")


def sign_in_context() -> dict[str, Any]:
    """What the login page offers: the provider's button, the password form, or both."""
    return {"sso_enabled": oidc_enabled(), "sign_in_label": sign_in_label(),
            "local_login_enabled": settings.LOCAL_LOGIN_ENABLED}


def roles_from_groups(groups: list[str]) -> set[str]:
    return {settings.OIDC_ROLE_MAP[group] for group in groups if group in settings.OIDC_ROLE_MAP}


def clearance_from_groups(groups: list[str]) -> str:
    levels = [settings.OIDC_CLEARANCE_MAP[group] for group in groups if group in settings.OIDC_CLEARANCE_MAP]
    return max(levels, key=SecurityLevel.rank) if levels else settings.OIDC_DEFAULT_CLEARANCE


def _groups_claim(claims: dict[str, Any]) -> list[str]:
    groups = claims.get(settings.OIDC_GROUPS_CLAIM) or []
    return [str(group) for group in (groups if isinstance(groups, list) else [groups])]


def _audit_actor() -> str:
    return f"single sign-on ({settings.OIDC_PROVIDER_NAME or settings.OIDC_ISSUER})"


def _user_state(user: User) -> dict[str, Any]:
    return {"roles": sorted(user.groups.filter(name__in=ALL_ROLES).values_list("name", flat=True)),
            "clearance": user.clearance}


@transaction.atomic
def user_apply_provider_groups(*, user: User, claims: dict[str, Any], created: bool) -> User:
    """Roles and clearance from the provider's groups (roles the maps do not name are not the console's to keep),
    audited when they change."""
    before = None if created else _user_state(user)
    groups = _groups_claim(claims)
    roles = roles_from_groups(groups)
    user.groups.remove(*Group.objects.filter(name__in=set(ALL_ROLES) - roles))
    user.groups.add(*(Group.objects.get_or_create(name=role)[0] for role in roles))
    user.clearance = clearance_from_groups(groups)
    email = claims.get("email") or user.email
    user.email = email
    user.save(update_fields=["clearance", "email"])
    after = _user_state(user)
    if before != after:
        audit_record(verb="user.create" if created else "user.roles", obj=user,
                     actor_label=_audit_actor(), before=before,
                     after=after | {"provider_groups": groups})
    return user


class ConsoleOIDCBackend(OIDCAuthenticationBackend):
    """mozilla-django-oidc's backend with endpoints resolved when a sign-in comes back (not when Django builds its
    backends for a password login), people matched by username, and roles from groups."""

    get_settings = staticmethod(oidc_setting)
    get_user = ModelBackend.get_user  # the library's skips is_active: a disabled person's session must end

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.UserModel = User

    def authenticate(self, request: HttpRequest | None, **kwargs: Any) -> User | None:
        if request is None or not (request.GET.get("code") and request.GET.get("state")):
            return None  # a password login, or not a provider's answer
        for name in ("OIDC_OP_TOKEN_ENDPOINT", "OIDC_OP_USER_ENDPOINT", "OIDC_OP_JWKS_ENDPOINT",
                     "OIDC_RP_CLIENT_ID", "OIDC_RP_CLIENT_SECRET", "OIDC_RP_SIGN_ALGO"):
            setattr(self, name, oidc_setting(name))
        self.OIDC_RP_IDP_SIGN_KEY = None
        user = super().authenticate(request, **kwargs)
        if user is None:
            return None
        if not user.is_active:
            request.oidc_refusal = gettext("This account is disabled. Ask an administrator to enable it.")
            audit_record(verb="login.refused", obj=user, actor_label=_audit_actor(),
                         note="account disabled")
            return None
        if not AxesProxyHandler.is_allowed(request, {"username": user.username}):
            request.axes_locked_out = True  # AxesMiddleware answers with the lockout page, as for passwords
            request.axes_credentials = {"username": user.username}
            return None
        return user

    def verify_token(self, token: str, **kwargs: Any) -> dict[str, Any]:
        """The library checks the signature, expiry and nonce; the token must also be for this console, from this
        issuer."""
        payload = super().verify_token(token, **kwargs)
        audience = payload.get("aud")
        audiences = audience if isinstance(audience, list) else [audience]
        if settings.OIDC_RP_CLIENT_ID not in audiences:
            raise SuspiciousOperation("the id token is for another client")
        if settings.OIDC_ISSUER and str(payload.get("iss", "")).rstrip("/") != settings.OIDC_ISSUER:
            raise SuspiciousOperation("the id token is from another issuer")
        return payload

    def _username(self, claims: dict[str, Any]) -> str:
        return str(claims.get(settings.OIDC_USERNAME_CLAIM) or "").strip()

    def verify_claims(self, claims: dict[str, Any]) -> bool:
        return bool(self._username(claims))

    def describe_user_by_claims(self, claims: dict[str, Any]) -> str:
        return f"username {self._username(claims)}"

    def filter_users_by_claims(self, claims: dict[str, Any]):
        return User.objects.filter(username=self._username(claims))

    def create_user(self, claims: dict[str, Any]) -> User:
        username = self._username(claims)
        if len(username) > User._meta.get_field("username").max_length:
            raise SuspiciousOperation("the provider's username is too long")
        user = User.objects.create_user(username, email=claims.get("email") or "")  # no usable password
        return user_apply_provider_groups(user=user, claims=claims, created=True)

    def update_user(self, user: User, claims: dict[str, Any]) -> User:
        return user_apply_provider_groups(user=user, claims=claims, created=False)


def provider_logout_url(request: HttpRequest) -> str:
    """OIDC_OP_LOGOUT_URL_METHOD: where logging out goes — the provider's end-session endpoint for a person who
    signed in there (it ends their session at the provider too, then sends them back to the login page), the login
    page otherwise."""
    after = resolve_url(settings.LOGOUT_REDIRECT_URL)
    id_token = request.session.get("oidc_id_token")
    if not (oidc_enabled() and id_token):
        return after
    try:
        endpoint = oidc_setting("OIDC_OP_END_SESSION_ENDPOINT")
    except ProviderUnavailable as error:
        logger.warning("logged out here only: %s", error)
        return after
    if not endpoint:
        return after  # the provider has no end-session endpoint: its session stays
    query = urlencode({"id_token_hint": id_token, "client_id": settings.OIDC_RP_CLIENT_ID,
                       "post_logout_redirect_uri": request.build_absolute_uri(after)})
    return f"{endpoint}{'&' if '?' in endpoint else '?'}{query}"


@checks.register(checks.Tags.security)
def oidc_maps_check(**kwargs: Any) -> list[checks.CheckMessage]:
    """Role and clearance maps naming what does not exist would silently grant nothing: say so at start-up."""
    errors = []
    for group, role in settings.OIDC_ROLE_MAP.items():
        if role not in ALL_ROLES:
            errors.append(checks.Error(f"OIDC_ROLE_MAP maps {group!r} to {role!r}, not one of {', '.join(ALL_ROLES)}",
                                       id="console.E101"))
    levels = {**settings.OIDC_CLEARANCE_MAP, "(OIDC_DEFAULT_CLEARANCE)": settings.OIDC_DEFAULT_CLEARANCE}
    for group, level in levels.items():
        if level not in SecurityLevel.values:
            errors.append(checks.Error(f"OIDC_CLEARANCE_MAP maps {group!r} to {level!r}, not one of "
                                       f"{', '.join(SecurityLevel.values)}", id="console.E102"))
    return errors
