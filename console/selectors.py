from __future__ import annotations

from datetime import date

from django.db.models import Q, QuerySet

from console import roles
from console.models import AuditEvent, SecurityLevel, User


def audit_events_visible_to(user: User) -> QuerySet[AuditEvent]:
    """Rows about objects at or below the user's clearance; rows about users and API clients for admins only."""
    visible = Q(security_level__in=SecurityLevel.up_to(user.clearance))
    if user.has_role(roles.ADMIN):
        visible |= Q(security_level__isnull=True)
    return AuditEvent.objects.filter(visible)


def audit_events_filtered(
    *, viewer: User, actor: str = "", verb: str = "", object_type: str = "", object_id: str = "",
    since: date | None = None, until: date | None = None,
) -> QuerySet[AuditEvent]:
    events = audit_events_visible_to(viewer).select_related("actor")
    if actor:
        events = events.filter(Q(actor__username=actor) | Q(actor_label=actor))
    if verb:
        events = events.filter(verb__startswith=verb)
    if object_type:
        events = events.filter(object_type=object_type)
    if object_id:
        events = events.filter(object_id=object_id)
    if since:
        events = events.filter(created_at__date__gte=since)
    if until:
        events = events.filter(created_at__date__lte=until)
    return events.order_by("-created_at", "-id")
