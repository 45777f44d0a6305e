"""The models of learning from reviewers: their labels, the versions of the scoring model, the leak estimate."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LabelSource(models.TextChoices):
    REVIEW = "review", _("Review")
    AUDIT_SAMPLE = "audit_sample", _("Audit sample")
    OVERRIDE = "override", _("Override")


class ReviewLabel(models.Model):
    """A claim labelled by a person: what the deployment's own reviewers say the checker should have said.

    Kept apart from the claim (texts and the feature row copied), so a label reads the same after the knowledge
    base changes. `weight` is how many answers the label stands for in the leak estimate: 1 for a held answer
    (every one of them is reviewed), 1 / the audit rate for an audit sample of what would have been released."""

    claim = models.OneToOneField("review.Claim", on_delete=models.PROTECT, related_name="label")
    answer = models.ForeignKey("review.Answer", on_delete=models.PROTECT, related_name="labels")
    claim_text = models.TextField()
    question = models.TextField(blank=True)
    evidence_text = models.TextField(blank=True)
    chunk_ids = models.JSONField(default=list, blank=True)
    features = models.JSONField(default=dict, blank=True)
    supported = models.BooleanField()
    # Why: "confirmed", "kept in the sent answer", "marked wrong", "rejected with the answer", "edited out".
    basis = models.CharField(max_length=40)
    # Why the claim is wrong, as its reviewer said (review.models.ErrorKind); empty when supported or not said.
    error_kind = models.CharField(max_length=24, blank=True)
    source = models.CharField(max_length=16, choices=LabelSource.choices)
    weight = models.FloatField(default=1.0)
    held_by_rule = models.BooleanField(default=False)
    # Digests of the normalised answer and claim text: an identical later answer finds what was said of it.
    answer_digest = models.CharField(max_length=64, db_index=True)
    claim_digest = models.CharField(max_length=64)
    labelled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{'supported' if self.supported else 'unsupported'}: {self.claim_text[:60]}"

    @property
    def audit_security_level(self) -> str:
        return self.answer.audit_security_level


class CheckerModel(models.Model):
    """A version of the scoring model: the shipped fit, or a refit on reviewers' labels. One is current.

    A refused candidate is kept too (never adopted, `refusal` says why), so the figures of every attempt can be
    read. `replaced` is the model this one took over from: what a rollback restores."""

    class Origin(models.TextChoices):
        SHIPPED = "shipped", _("Shipped with the console")
        LEARNING_JOB = "learning_job", _("Learning job")
        COMMAND = "command", "train_checker --from-reviews"

    origin = models.CharField(max_length=16, choices=Origin.choices)
    model_json = models.TextField(help_text="checking.model.ScoringModel.as_json()")
    digest = models.CharField(max_length=64, help_text="sha256 of model_json")
    # The model.json this one was fitted from (for the shipped model: its own digest).
    shipped_digest = models.CharField(max_length=64)
    family = models.CharField(max_length=40, blank=True, help_text="Which candidate family won (refits).")
    # The release threshold this model starts from; the leak-budget job may move it once the labels prove a bound.
    release_threshold = models.FloatField()
    figures = models.JSONField(default=dict, blank=True)
    labels_used = models.PositiveIntegerField(default=0)
    is_current = models.BooleanField(default=False)
    replaced = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    adopted_at = models.DateTimeField(null=True, blank=True)
    adopted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    adopted_label = models.CharField(max_length=100, blank=True, help_text="Who or what adopted it, when no user.")
    refusal = models.TextField(blank=True)
    rolled_back_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["is_current"], condition=models.Q(is_current=True),
                                    name="one_current_checker_model"),
        ]

    def __str__(self) -> str:
        return f"checker model {self.pk} ({self.get_origin_display()})"

    @property
    def state(self) -> str:
        if self.is_current:
            return "current"
        if self.rolled_back_at:
            return "rolled back"
        if self.adopted_at:
            return "retired"
        return "refused" if self.refusal else "candidate"


class LeakEstimate(models.Model):
    """The leak budget worked out for the current model from every label so far (review.learning.leak): the
    release threshold it sets, the estimate and its one-sided 95 % upper bound there, the samples behind them and
    the curve (the dashboard's chart)."""

    class Status(models.TextChoices):
        PROVEN = "proven", _("Within the budget")
        INSUFFICIENT = "insufficient", _("Too few samples to prove the budget")
        EXCEEDED = "exceeded", _("Budget exceeded at every threshold")

    checker_model = models.ForeignKey(CheckerModel, on_delete=models.PROTECT, related_name="leak_estimates")
    status = models.CharField(max_length=16, choices=Status.choices)
    budget = models.FloatField()
    threshold = models.FloatField(null=True, blank=True, help_text="None: nothing is released automatically.")
    estimate = models.FloatField(null=True, blank=True)
    bound = models.FloatField(null=True, blank=True)
    automation = models.FloatField(null=True, blank=True)
    wrong_reviewed = models.PositiveIntegerField(default=0, help_text="Wrong answers among the held, reviewed ones.")
    audited = models.PositiveIntegerField(default=0, help_text="Audit samples of released answers.")
    released_unaudited = models.PositiveIntegerField(default=0, help_text="Released answers nobody audited.")
    labelled_answers = models.PositiveIntegerField(default=0)
    curve = models.JSONField(default=list, blank=True, help_text="[{threshold, estimate, bound, automation}]")
    computed_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-computed_at", "-pk"]

    def __str__(self) -> str:
        return f"leak estimate {self.pk}: {self.status}"
