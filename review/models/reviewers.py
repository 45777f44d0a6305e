"""How each reviewer marked a claim, and the gold items their marks are scored against (review/agreement.py,
review/gold.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from review.models.answers import Answer, Claim, ClaimReview, Decision, ErrorKind


class ReviewerMark(models.Model):
    """One reviewer's mark on a claim, as it stood when they decided (or gave a first approval): the claim itself
    keeps only the last mark, so agreement between two reviewers of one claim and accuracy on gold items are read
    from these."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="reviewer_marks")
    decision = models.ForeignKey(Decision, on_delete=models.CASCADE, related_name="marks")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    state = models.CharField(max_length=16, choices=ClaimReview.choices)
    error_kind = models.CharField(max_length=24, choices=ErrorKind.choices, blank=True)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["claim", "created_at", "pk"]
        indexes = [models.Index(fields=["reviewer", "created_at"], name="reviewer_mark_by_reviewer")]

    def __str__(self) -> str:
        return f"{self.reviewer} marked claim {self.claim_id} {self.state}"


class GoldItem(models.Model):
    """An answer whose verdict is known, marked gold by a lead (an approver or admin): copies of it are mixed into
    reviewers' queues unannounced (REVIEW_GOLD_RATE), and each copy's decision is scored against the known one."""

    class Verdict(models.TextChoices):
        RIGHT = "right", _("Right: send it")
        WRONG = "wrong", _("Wrong: do not send it")

    answer = models.OneToOneField(Answer, on_delete=models.PROTECT, related_name="gold_item")
    verdict = models.CharField(max_length=8, choices=Verdict.choices)
    # {claim ordinal (str): "confirmed" | "rejected"}: the known mark of each claim the lead's answer had marked.
    claim_marks = models.JSONField(default=dict, blank=True)
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    marked_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-marked_at", "-pk"]

    def __str__(self) -> str:
        return f"gold item {self.pk} (answer {self.answer_id}, {self.verdict})"

    @property
    def audit_security_level(self) -> str:
        return self.answer.audit_security_level

    @property
    def is_active(self) -> bool:
        return self.retired_at is None
