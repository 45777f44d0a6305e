"""What review finds about the approved sources themselves: the checker's self-test of a version, and a reviewer's
word on two sources that disagree (review/corrections.py)."""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from review.conflicts import QuoteDifference, quote_difference
from review.models.answers import Answer, Claim


class SelfTestRun(models.Model):
    """One `evaluate --synthesize` run over a version: how many synthesised claims the checker judged right."""

    version = models.ForeignKey("kb.DocumentVersion", on_delete=models.CASCADE, related_name="selftest_runs")
    created_at = models.DateTimeField(auto_now_add=True)
    total = models.PositiveIntegerField()
    correct = models.PositiveIntegerField()
    per_kind = models.JSONField(default=dict, help_text="{kind: [correct, total]}")
    checker = models.CharField(max_length=200, help_text='The checkers that judged, e.g. "builtin".')

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["version", "-created_at"])]

    def __str__(self) -> str:
        return f"self-test of {self.version_id}: {self.correct}/{self.total}"

    @property
    def percent(self) -> int:
        return round(100 * self.correct / self.total) if self.total else 0

    @property
    def kinds(self) -> list[tuple[str, int, int]]:
        """(kind, correct, total), weakest kind first: where the checker needs help shows at the top."""
        return sorted(((kind, c, t) for kind, (c, t) in self.per_kind.items()), key=lambda k: (k[1] / k[2], k[0]))


class SourceCorrection(models.Model):
    """A reviewer's word on two approved sources that disagree about a claim: `wrong_version` needs fixing by its
    document's owner. `right_version` is the other source when the reviewer found it right; empty for "neither /
    can't tell" (then each of the two versions gets its own entry)."""

    class Status(models.TextChoices):
        OPEN = "open", _("To fix")
        FIXED = "fixed", _("Fixed")
        DISMISSED = "dismissed", _("Dismissed")
        WITHDRAWN = "withdrawn", _("Withdrawn by the reviewer")  # replaced by their later choice for the same claim

    answer = models.ForeignKey(Answer, on_delete=models.PROTECT, related_name="source_corrections")
    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="source_corrections")
    wrong_version = models.ForeignKey("kb.DocumentVersion", on_delete=models.PROTECT, related_name="corrections")
    other_version = models.ForeignKey("kb.DocumentVersion", on_delete=models.PROTECT, related_name="+",
                                      help_text="The approved source it disagrees with.")
    right_version = models.ForeignKey("kb.DocumentVersion", null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="+")
    # What each source says (its quote when the reviewer decided): the entry reads the same after a new version.
    wrong_quote = models.TextField()
    other_quote = models.TextField()
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "wrong_version"], name="source_correction_open")]

    def __str__(self) -> str:
        verdict = "marked wrong" if self.right_version_id else "questioned (neither / can't tell)"
        return f"{self.wrong_version.document.title} v{self.wrong_version.number} {verdict} on claim {self.claim_id}"

    @property
    def audit_security_level(self) -> str:
        return self.answer.audit_security_level

    @property
    def neither(self) -> bool:
        return self.right_version_id is None

    @cached_property
    def difference(self) -> QuoteDifference:
        """What this version says differently from the other (first: this one's quote)."""
        return quote_difference(first=self.wrong_quote, second=self.other_quote)
