"""The one way other apps write to the audit log."""

from __future__ import annotations

from typing import Any

from django.db import models

from console.models import AuditEvent, User


def audit_record(
    *,
    verb: str,
    obj: models.Model,
    actor: User | None = None,
    actor_label: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    note: str = "",
) -> AuditEvent:
    return AuditEvent.objects.create(
        actor=actor,
        actor_label=actor_label,
        verb=verb,
        object_type=obj._meta.label_lower,
        object_id=str(obj.pk),
        object_repr=str(obj)[:255],
        # Documents, versions, answers and claims say which level may read about them; anything else
        # (users, API clients) is for admins only.
        security_level=getattr(obj, "audit_security_level", None),
        before=before,
        after=after,
        note=note,
    )
