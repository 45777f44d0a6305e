from __future__ import annotations

from datetime import date

from django.db.models import QuerySet

from console.models import AuditEvent


def audit_events_filtered(
    *, actor: str = "", verb: str = "", object_type: str = "", object_id: str = "",
    since: date | None = None, until: date | None = None,
) -> QuerySet[AuditEvent]:
    events = AuditEvent.objects.select_related("actor")
    if actor:
        events = events.filter(actor__username=actor) | events.filter(actor_label=actor)
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
