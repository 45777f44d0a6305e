"""The one way other apps write to the audit log."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import translation

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
        object_repr=audit_text(obj)[:255],
        # Documents, versions, answers and claims say which level may read about them; anything else
        # (users, API clients) is for admins only.
        security_level=getattr(obj, "audit_security_level", None),
        before=before,
        after=after,
        note=note,
    )


def audit_text(value: Any) -> str:
    """`value` as text in the default language: the log reads the same whatever language the actor's console was in
    (choice labels and __str__ go through gettext)."""
    with translation.override(settings.LANGUAGE_CODE):
        return str(value)


def audit_label(obj: models.Model, field: str) -> str:
    """A choice field's label in the default language, for before/after states."""
    with translation.override(settings.LANGUAGE_CODE):
        return getattr(obj, f"get_{field}_display")()
