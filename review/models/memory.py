"""Reviewed facts: each reviewer decision on a claim, kept as the fact it states (review/reviewed_facts.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from checking.languages import LANGUAGE_CHOICES
from review.models.answers import Answer, Claim


class ReviewedFact(models.Model):
    """A reviewer's decision on one claim, kept as the fact it states (checking.facts): a later claim stating the same
    fact is supported by review, or wrong as before, instead of waiting for a person again (review/reviewed_facts.py).

    A confirmed fact holds while the version it was confirmed against is evidence; any fact ends when the decision
    is undone or an approver revokes it (`ended_at`, `ended_reason`)."""

    class Outcome(models.TextChoices):
        CONFIRMED = "confirmed", _("Confirmed")
        REJECTED = "rejected", _("Rejected")

    class Ending(models.TextChoices):
        SUPERSEDED = "superseded", _("its version was superseded")
        EXPIRED = "expired", _("its version expired")
        RETIRED = "retired", _("its version was withdrawn")
        UNDONE = "undone", _("the decision was undone")
        REVOKED = "revoked", _("revoked by an approver")

    language = models.CharField(max_length=8, choices=LANGUAGE_CHOICES)
    content = models.JSONField()  # checking.facts.Fact.as_dict(): its quantities, directions, negation and words
    values_key = models.TextField(db_index=True)  # checking.facts.Fact.values: the lookup of near-duplicates
    key = models.CharField(max_length=32, db_index=True)  # checking.facts.Fact.key
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    claim_text = models.TextField()
    claim = models.ForeignKey(Claim, null=True, on_delete=models.SET_NULL, related_name="reviewed_facts")
    answer = models.ForeignKey(Answer, on_delete=models.PROTECT, related_name="reviewed_facts")
    decision = models.ForeignKey("Decision", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="reviewed_facts")
    # What it was confirmed against: the version, the quote's place in it, and the words a paraphrase may take from
    # that quote and its headings.
    version = models.ForeignKey("kb.DocumentVersion", null=True, blank=True, on_delete=models.PROTECT,
                                related_name="reviewed_facts")
    quote_start = models.PositiveIntegerField(null=True, blank=True)
    quote_end = models.PositiveIntegerField(null=True, blank=True)
    grounded_words = models.JSONField(default=list, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_reason = models.CharField(max_length=16, choices=Ending.choices, blank=True)
    ended_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="+")

    class Meta:
        ordering = ["-decided_at", "-pk"]
        indexes = [models.Index(fields=["language", "ended_at"], name="reviewed_fact_live")]

    def __str__(self) -> str:
        return f"{self.get_outcome_display().lower()} fact {self.pk}: {self.claim_text[:60]}"

    @property
    def audit_security_level(self) -> str:
        return self.answer.audit_security_level

    @property
    def is_live(self) -> bool:
        return self.ended_at is None
