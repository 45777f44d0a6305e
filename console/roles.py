"""Roles are Django groups. `admin` (or a superuser) holds every role.

Views declare the roles they need with `@role_required(...)`; anything else is a 403.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

CURATOR = "curator"
APPROVER = "approver"
REVIEWER = "reviewer"
ADMIN = "admin"
VIEWER = "viewer"
ALL_ROLES = (CURATOR, APPROVER, REVIEWER, ADMIN, VIEWER)
# Who gets in-app notifications: reviewers (mentions, assignments), curators and approvers (expiry reminders).
NOTIFIED = (REVIEWER, CURATOR, APPROVER)
# The group names stay English (they are data); people read them in their language.
ROLE_LABELS = {
    CURATOR: pgettext_lazy("role", "curator"),
    APPROVER: pgettext_lazy("role", "approver"),
    REVIEWER: pgettext_lazy("role", "reviewer"),
    ADMIN: pgettext_lazy("role", "admin"),
    VIEWER: pgettext_lazy("role", "viewer"),
}


class RoleRequired(PermissionDenied):
    """A page or action for other roles: the 403 page names them and who grants them (console.views)."""

    def __init__(self, needed: tuple[str, ...]) -> None:
        self.needed = needed
        super().__init__(_("This page needs one of these roles: %(roles)s.") % {
            "roles": ", ".join(str(ROLE_LABELS[role]) for role in needed)})


def user_roles(user: Any) -> frozenset[str]:
    if not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_role_cache", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        if user.is_superuser:
            cached |= {ADMIN}
        if ADMIN in cached:
            cached = frozenset(ALL_ROLES)
        user._role_cache = cached
    return cached


def user_has_role(user: Any, *roles: str) -> bool:
    return bool(user_roles(user) & set(roles))


def role_required(*roles: str) -> Callable:
    """Deny (403) users holding none of `roles`. Login itself is enforced by middleware."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not user_has_role(request.user, *roles):
                raise RoleRequired(roles)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


def roles_context(request: HttpRequest) -> dict[str, Any]:
    roles = user_roles(request.user) if hasattr(request, "user") else frozenset()
    return {"roles": {role: role in roles for role in ALL_ROLES}}
