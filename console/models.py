from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from console.roles import user_has_role


class SecurityLevel(models.TextChoices):
    PUBLIC = "public", _("Public")
    INTERNAL = "internal", _("Internal")
    CONFIDENTIAL = "confidential", _("Confidential")
    RESTRICTED = "restricted", _("Restricted")

    @classmethod
    def rank(cls, level: str) -> int:
        return list(cls.values).index(level)

    @classmethod
    def up_to(cls, clearance: str) -> list[str]:
        """Levels a holder of `clearance` may read (public < internal < confidential < restricted)."""
        return list(cls.values)[: cls.rank(clearance) + 1]


class User(AbstractUser):
    clearance = models.CharField(
        max_length=16,
        choices=SecurityLevel.choices,
        default=SecurityLevel.INTERNAL,
        help_text=_("Highest security level of sources this person may see."),
    )
    # A code from settings.LANGUAGES; blank follows the browser (Accept-Language). Applied by UserLanguageMiddleware.
    language = models.CharField(_("language"), max_length=16, blank=True, default="")

    def has_role(self, *roles: str) -> bool:
        return user_has_role(self, *roles)


class AuditEventQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> int:
        raise TypeError("audit events are append-only")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise TypeError("audit events are append-only")


class AuditEvent(models.Model):
    """Append-only record of who did what to which object, with before/after state."""

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(User, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # Who acted when no user did: an API client, the system, a management command.
    actor_label = models.CharField(max_length=150, blank=True)
    verb = models.CharField(max_length=64, db_index=True)
    object_type = models.CharField(max_length=64)
    object_id = models.CharField(max_length=64)
    object_repr = models.CharField(max_length=255, blank=True)
    # The object's security level when the row was written: who may read the row. Null for objects no
    # clearance covers (users, API clients): those rows are for admins only.
    security_level = models.CharField(max_length=16, choices=SecurityLevel.choices, null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    note = models.TextField(blank=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["object_type", "object_id"]),
            models.Index(fields=["security_level", "-created_at"], name="audit_level_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.actor_display} {self.verb} {self.object_type}#{self.object_id}"

    @property
    def actor_display(self) -> str:
        return self.actor.username if self.actor_id else (self.actor_label or "system")

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise TypeError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise TypeError("audit events are append-only")


class PersonalToken(models.Model):
    """A person's bearer token for the review API (README "Review API"): it acts as its user, with their roles and
    clearance. Only the token's sha256 is stored; the token itself is shown once, when it is created."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="personal_tokens")
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(max_length=12, help_text=_("First characters of the token, to recognise it."))
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
