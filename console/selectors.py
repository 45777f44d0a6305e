from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import F, Q, QuerySet

from console import roles
from console.models import AuditEvent, SecurityLevel, User

# Events that repeat as a matter of course and drown the rest: shown only when asked for.
ROUTINE_VERB_PREFIXES = ("answer.lease",)
CHANGE_VALUE_CHARS = 160


def audit_events_visible_to(user: User) -> QuerySet[AuditEvent]:
    """Rows about objects at or below the user's clearance; rows about users and API clients for admins only."""
    visible = Q(security_level__in=SecurityLevel.up_to(user.clearance))
    if user.has_role(roles.ADMIN):
        visible |= Q(security_level__isnull=True)
    return AuditEvent.objects.filter(visible)


def audit_filter_choices(*, viewer: User) -> tuple[list[str], list[str]]:
    """The verbs and object types among the rows this viewer may read, for the audit log's dropdowns."""
    visible = audit_events_visible_to(viewer).order_by()
    verbs = list(visible.values_list("verb", flat=True).distinct().order_by("verb"))
    object_types = list(visible.values_list("object_type", flat=True).distinct().order_by("object_type"))
    return verbs, object_types


def audit_events_filtered(
    *, viewer: User, actor: str = "", verb: str = "", object_type: str = "", object_id: str = "",
    since: date | None = None, until: date | None = None, include_routine: bool = False,
) -> QuerySet[AuditEvent]:
    events = audit_events_visible_to(viewer).select_related("actor")
    if actor:
        events = events.filter(Q(actor__username=actor) | Q(actor_label=actor))
    if verb:
        # "answer." is a group (every answer action); anything else is one exact action.
        events = events.filter(verb__startswith=verb) if verb.endswith(".") else events.filter(verb=verb)
    if object_type:
        events = events.filter(object_type=object_type)
    if object_id:
        events = events.filter(object_id=object_id)
    if since:
        events = events.filter(created_at__date__gte=since)
    if until:
        events = events.filter(created_at__date__lte=until)
    if not include_routine:
        for prefix in ROUTINE_VERB_PREFIXES:
            events = events.exclude(verb__startswith=prefix)
        # A no-op: the state written is the state that was there (e.g. a claim marked correct twice).
        events = events.exclude(before__isnull=False, before=F("after"), note="")
    return events.order_by("-created_at", "-id")


@dataclass(frozen=True)
class AuditChange:
    field: str
    before: str | None  # None: the field was not recorded before (only its new value is known)
    after: str | None  # None: the field was dropped


def _readable(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= CHANGE_VALUE_CHARS else text[: CHANGE_VALUE_CHARS - 1].rstrip() + "…"


def audit_event_changes(event: AuditEvent) -> list[AuditChange]:
    """before/after as one line per field ("risk: high → medium"); fields that did not change are left out
    when something else did, and so is a field only the "before" side recorded beside an "after" (older rows
    wrote the old value of a field whose new one another row records: it was never removed)."""
    before = event.before if isinstance(event.before, dict) else {}
    after = event.after if isinstance(event.after, dict) else {}
    changes = []
    for field in [*before, *(key for key in after if key not in before)]:
        old, new = before.get(field), after.get(field)
        if field in before and field in after and old == new and before != after:
            continue
        if field not in after and after:
            continue
        changes.append(AuditChange(
            field=field.replace("_", " "),
            before=_readable(old) if field in before else None,
            after=_readable(new) if field in after else None,
        ))
    return changes


def role_granters(*, limit: int = 5) -> list[str]:
    """Who can grant roles and unlock logins (active admins, on the Users page): the names a refused or locked-out
    person can ask."""
    return list(
        User.objects.filter(Q(is_superuser=True) | Q(groups__name=roles.ADMIN), is_active=True).distinct()
        .order_by("username").values_list("username", flat=True)[:limit]
    )


def users_for_admin(*, query: str = "") -> QuerySet[User]:
    """People for the Users page, by username, with their groups and live tokens (no query per row)."""
    from django.db.models import Prefetch

    from console.models import PersonalToken

    users = User.objects.prefetch_related(
        "groups", Prefetch("personal_tokens", queryset=PersonalToken.objects.filter(revoked_at__isnull=True),
                           to_attr="live_tokens"))
    if query:
        users = users.filter(Q(username__icontains=query) | Q(email__icontains=query)
                             | Q(first_name__icontains=query) | Q(last_name__icontains=query))
    return users.order_by("username")
