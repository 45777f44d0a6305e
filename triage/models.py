"""Team work on the review queue: saved views, assignment, comments with mentions, in-app notifications.

Kept apart from `review` (answers, claims and decisions): none of this changes what an answer says or how it is
decided; a lease, not an assignment, still decides who may act on an answer."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from kb.models import DocumentVersion
from review.models import Answer


class QueueView(models.Model):
    """A named queue as a reviewer set it up: filters, sort and columns, kept as the queue's own query string
    (so a view is also just a URL). A shared view is offered to every reviewer; only its owner changes it."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_views")
    name = models.CharField(max_length=80)
    query = models.CharField(max_length=2000, blank=True)
    shared = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="unique_queue_view_name_per_owner")]

    def __str__(self) -> str:
        return self.name


class Assignment(models.Model):
    """Who is meant to review an answer. It orders the work; it does not lock it (the lease does)."""

    answer = models.OneToOneField(Answer, on_delete=models.CASCADE, primary_key=True, related_name="assignment")
    assignee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments")
    assigned_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    assigned_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["assignee"], name="assignment_assignee")]

    def __str__(self) -> str:
        return f"answer {self.answer_id} → {self.assignee}"

    @property
    def audit_security_level(self) -> str:
        return self.answer.audit_security_level


class Comment(models.Model):
    """A note between reviewers on an answer; `mentioned` are the people it notified (cleared for the answer)."""

    answer = models.ForeignKey(Answer, on_delete=models.PROTECT, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    mentioned = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"comment {self.pk} on answer {self.answer_id}"

    @property
    def audit_security_level(self) -> str:
        return self.answer.audit_security_level


class Notification(models.Model):
    """Something a person should look at: they were mentioned in a comment, an answer was assigned to them, or a
    knowledge-base version they own or approve is about to expire (about a version, with no answer)."""

    class Kind(models.TextChoices):
        MENTION = "mention", _("Mentioned you")
        ASSIGNMENT = "assignment", _("Assigned to you")
        EXPIRY_SOON = "expiry_soon", _("Expires soon")
        EXPIRY_TODAY = "expiry_today", _("Expires today")

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    answer = models.ForeignKey(Answer, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    comment = models.ForeignKey(Comment, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey(DocumentVersion, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # The expiry an expiry reminder was about: a re-verified version (a later expiry) is reminded of again.
    about_expiry = models.DateTimeField(null=True, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="+")  # none for the console's own reminders
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # Set when the e-mail was handed to the mail server (or claimed for it): a redelivered task sends nothing.
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["recipient", "read_at"], name="notification_unread")]
        constraints = [
            models.UniqueConstraint(fields=["recipient", "kind", "version", "about_expiry"],
                                    condition=models.Q(version__isnull=False), name="one_reminder_per_expiry"),
            models.CheckConstraint(condition=models.Q(answer__isnull=False) | models.Q(version__isnull=False),
                                   name="notification_is_about_something"),
        ]

    def __str__(self) -> str:
        about = f"answer {self.answer_id}" if self.answer_id else f"version {self.version_id}"
        return f"{self.get_kind_display()}: {about} for {self.recipient}"


class ViewGuideline(models.Model):
    """One version of a saved view's guidelines: Markdown telling reviewers how to judge what the view lists. Never
    changed: each edit is a new version (number 1, 2, ...) with its author and time; the newest is in force."""

    view = models.ForeignKey(QueueView, on_delete=models.CASCADE, related_name="guidelines")
    number = models.PositiveIntegerField()
    text = models.TextField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["view", "number"], name="unique_guideline_version_per_view")]

    def __str__(self) -> str:
        return f"{self.view} guidelines v{self.number}"


class Draft(models.Model):
    """Text a reviewer typed on an answer's page and has not sent yet (a claim's note, the decision's reason, an
    edit), kept on the server so it comes back on another tab or device. `field` names the box: "reason", "edit",
    or "note-<claim id>". Settled by what it was for: a draft older than the answer's decision, or than its claim's
    mark, is no longer shown and is removed on the reviewer's next save (triage/services.py)."""

    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    field = models.CharField(max_length=40)
    text = models.TextField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["answer", "author", "field"], name="unique_draft_per_box")]

    def __str__(self) -> str:
        return f"draft {self.field} of {self.author} on answer {self.answer_id}"
