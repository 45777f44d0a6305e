"""What the ask endpoint and the playground answered (refusals included, so they can be counted), and the
question-set evaluation runs (ask/evaluation.py) compared run to run."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from console.models import SecurityLevel


class AskStatus(models.TextChoices):
    ANSWERED = "answered", "Answered"
    INSUFFICIENT_EVIDENCE = "insufficient_evidence", "Insufficient evidence"
    CONFLICT = "conflict", "Conflicting sources"


class Ask(models.Model):
    """One question asked through POST /api/v1/ask or the Ask page."""

    question = models.TextField()
    status = models.CharField(max_length=24, choices=AskStatus.choices)
    clearance = models.CharField(max_length=16, choices=SecurityLevel.choices)
    client = models.ForeignKey("review.ApiClient", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="+")
    # The answer sent to scoring and review (answered and conflict); none for a refusal.
    answer = models.OneToOneField("review.Answer", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="ask")
    missing_terms = models.JSONField(default=list, blank=True)
    claims = models.JSONField(default=list, blank=True)
    conflicts = models.JSONField(default=list, blank=True)
    generator = models.CharField(max_length=20, help_text='"extractive" or "llm"')
    # Why the model's output was not used (schema violation, timeout): the extractive composer answered instead.
    generation_error = models.TextField(blank=True)
    elapsed_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"ask {self.pk}: {self.status}"

    @property
    def audit_security_level(self) -> str:
        """Its audit rows are for those cleared like the asker (console.audit)."""
        return self.clearance


class QuestionRun(models.Model):
    """One `evaluate --questions FILE` run: per-question results, kept so the next run can say what got worse."""

    questions_file = models.CharField(max_length=500, db_index=True)
    clearance = models.CharField(max_length=16, choices=SecurityLevel.choices)
    gate_settings = models.JSONField(default=dict)
    summary = models.JSONField(default=dict)
    results = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["questions_file", "-created_at"])]

    def __str__(self) -> str:
        return f"question run {self.pk} of {self.questions_file}"
