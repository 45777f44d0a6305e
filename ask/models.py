"""What the ask endpoint and the playground answered (refusals included, so they can be counted), and the
question-set evaluation runs (ask/question_evaluation.py) compared run to run."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from console.models import SecurityLevel
from console.work_claims import work_claim_fields


class AskStatus(models.TextChoices):
    ANSWERED = "answered", _("Answered")
    INSUFFICIENT_EVIDENCE = "insufficient_evidence", _("Insufficient evidence")
    CONFLICT = "conflict", _("Conflicting sources")


class Routing(models.TextChoices):
    """Where an answer went: the API's values (English, read by programs), with labels for people."""

    RELEASED = "auto-released", _("auto-released")
    REVIEW = "waits for review", _("waits for review")


class Generator(models.TextChoices):
    EXTRACTIVE = "extractive", _("extractive")
    LLM = "llm", _("language model")


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


class QuestionSet(models.Model):
    """A question set the console keeps and re-runs whenever approved knowledge or a checker or gate setting
    changes (ask/regression.py). Its questions are the JSON lines of the file it came from, as dicts; their
    `fixtures` only name documents (by file stem = document key): a saved set never imports anything."""

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    questions = models.JSONField(default=list)
    source_filename = models.CharField(max_length=255)
    # Retrieval runs at this clearance, and only people cleared for it see the runs (they quote its documents).
    clearance = models.CharField(max_length=16, choices=SecurityLevel.choices)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    active = models.BooleanField(default=True, help_text=_("Inactive sets are kept with their runs but not re-run."))

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("ask:question_set_detail", args=[self.slug])

    @property
    def audit_security_level(self) -> str:
        return self.clearance


class RunState(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class RunTrigger(models.TextChoices):
    VERSION_APPROVED = "version_approved", _("Version approved")
    VERSION_RETIRED = "version_retired", _("Version retired")
    VERSION_EXPIRED = "version_expired", _("Version expired")
    SETTINGS_CHANGED = "settings_changed", _("Settings changed")
    MANUAL = "manual", _("Run by hand")
    SEED = "seed", _("Demo seed")
    COMMAND = "command", "evaluate --questions"


class QuestionRun(work_claim_fields("")):
    """One run of a question set: `evaluate --questions FILE` (done when stored) or a saved set's run, queued on a
    change and run by a worker. Per-question results are kept so the next run can say what got worse."""

    questions_file = models.CharField(max_length=500, db_index=True)
    question_set = models.ForeignKey(QuestionSet, null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="runs")
    clearance = models.CharField(max_length=16, choices=SecurityLevel.choices)
    state = models.CharField(max_length=12, choices=RunState.choices, default=RunState.DONE)
    trigger = models.CharField(max_length=20, choices=RunTrigger.choices, default=RunTrigger.COMMAND)
    # The versions whose approval, retirement or expiry asked for this run (several when changes coalesced).
    trigger_versions = models.ManyToManyField("kb.DocumentVersion", blank=True, related_name="question_runs")
    changed_settings = models.JSONField(default=list, blank=True)
    # What the run ran against: digests of the checker and gate settings (ask/regression.py settings_digests).
    fingerprint = models.CharField(max_length=64, blank=True)
    settings_digests = models.JSONField(default=dict, blank=True)
    gate_settings = models.JSONField(default=dict)
    summary = models.JSONField(default=dict)
    results = models.JSONField(default=list)
    compared_with = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    regressions = models.JSONField(default=list, blank=True)  # [{"question_id", "what"}] since compared_with
    # The task holding the claim; `worker`, the worker running it (console/work_claims.py).
    task_id = models.CharField(max_length=64, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    requested_at = models.DateTimeField(null=True, blank=True)  # the last time a worker was asked for it
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["questions_file", "-created_at"]),
                   models.Index(fields=["question_set", "state"])]
        constraints = [
            # Coalescing: while a run of a set waits for a worker, further changes join it.
            models.UniqueConstraint(fields=["question_set"], condition=models.Q(state="queued"),
                                    name="one_queued_run_per_question_set"),
        ]

    def __str__(self) -> str:
        return f"question run {self.pk} of {self.question_set or self.questions_file}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("ask:question_run_detail", args=[self.pk])

    @property
    def seconds(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None

    @property
    def not_applicable(self) -> list[dict]:
        return [r for r in self.results if r.get("not_applicable")]
