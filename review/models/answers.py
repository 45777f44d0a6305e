"""What the assistant sent and what review made of it: clients, answers, their claims and evidence, decisions
and webhook deliveries."""

from __future__ import annotations

import hashlib
import secrets
from functools import cached_property

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from checking.findings import Finding, FindingKind
from checking.languages import LANGUAGE_CHOICES
from checking.scoring import shown_beside_verdict
from console.models import SecurityLevel
from console.work_claims import work_claim_fields
from review.conflicts import ConflictPair, conflict_pairs
from review.labels import FINDING_KIND_LABELS


class ApiClient(models.Model):
    """A RAG application allowed to send answers. Only a hash of its bearer token is stored."""

    name = models.CharField(max_length=100, unique=True)
    token_prefix = models.CharField(max_length=12, help_text="First characters of the token, to recognise it.")
    token_hash = models.CharField(max_length=64, unique=True)
    clearance = models.CharField(max_length=16, choices=SecurityLevel.choices, default=SecurityLevel.INTERNAL)
    # Signs webhook bodies (HMAC-SHA256) so receivers can verify a release came from the console.
    webhook_secret = models.CharField(max_length=64, default="")
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def hash_token(token: str) -> str:
        return hashlib.sha256(token.encode("utf-8")).hexdigest()

    @staticmethod
    def new_token() -> str:
        return "gac_" + secrets.token_urlsafe(32)


class AnswerStatus(models.TextChoices):
    SCORING = "scoring", _("Scoring")
    RELEASED = "released", _("Released")
    PENDING_REVIEW = "pending_review", _("Pending review")
    APPROVED = "approved", _("Approved")
    REJECTED = "rejected", _("Rejected")


class Risk(models.TextChoices):
    LOW = "low", _("Low")
    MEDIUM = "medium", _("Medium")
    HIGH = "high", _("High")


RISK_ORDER = {Risk.HIGH: 0, Risk.MEDIUM: 1, Risk.LOW: 2}


class WebhookState(models.TextChoices):
    NONE = "", _("No callback")
    PENDING = "pending", _("Pending")
    DELIVERED = "delivered", _("Delivered")
    FAILED = "failed", _("Failed")


class Answer(work_claim_fields("scoring_"), work_claim_fields("webhook_")):
    client = models.ForeignKey(ApiClient, on_delete=models.PROTECT, related_name="answers")
    external_id = models.CharField(max_length=200, blank=True)
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)
    request_hash = models.CharField(max_length=64, blank=True)
    question = models.TextField()
    text = models.TextField()
    # Detected from the question and answer unless the client said (the language layer reads it).
    language = models.CharField(max_length=8, choices=LANGUAGE_CHOICES, default="en")
    contexts = models.JSONField(default=list, blank=True)
    citations = models.JSONField(default=list, blank=True)
    callback_url = models.URLField(max_length=1000, blank=True)
    # What the assistant said of its own run, shown beside the answer (never used as evidence): the model that wrote
    # it, a link to its trace in the assistant's tracing tool (Langfuse, LangSmith: http or https only), and the
    # passages it retrieved ([{"text", "source", "score"}]).
    assistant_model = models.CharField(max_length=200, blank=True)
    trace_url = models.URLField(max_length=2000, blank=True)
    retrieved = models.JSONField(default=list, blank=True)

    status = models.CharField(max_length=20, choices=AnswerStatus.choices, default=AnswerStatus.SCORING)
    risk = models.CharField(max_length=8, choices=Risk.choices, blank=True)
    risk_order = models.PositiveSmallIntegerField(default=3, help_text="high=0, medium=1, low=2: queue sort key")
    score = models.FloatField(null=True, blank=True)
    # How likely the answer is wrong, by the scoring model (1 - the product of its claims' scores): within a tier,
    # the queue shows the likeliest wrong first.
    wrong_probability = models.FloatField(default=1.0)
    # High risk for a reason no score changes (a contradiction, a conflict, a high-risk topic, a flagged source, a
    # claim marked wrong before): such an answer is never released automatically, whatever the threshold.
    held_by_rule = models.BooleanField(default=False)
    routing_reasons = models.JSONField(default=list, blank=True)
    checker_warnings = models.JSONField(default=list, blank=True)
    sampled_for_audit = models.BooleanField(default=False)
    # The audit rate it was sampled at: its labels stand for 1 / rate released answers in the leak estimate.
    audit_sample_rate = models.FloatField(null=True, blank=True)
    # The lowest security level that may see this answer: the highest level among its evidence.
    evidence_level = models.CharField(max_length=16, choices=SecurityLevel.choices, default=SecurityLevel.PUBLIC)
    scoring_error = models.TextField(blank=True)
    scoring_started_at = models.DateTimeField(null=True, blank=True)
    # When scoring was last asked for (the sweep asks again for answers no worker started), and which task holds
    # the claim (the same message redelivered after its worker process died may take it back); the worker holding
    # it is `scoring_worker` (console/work_claims.py).
    scoring_requested_at = models.DateTimeField(null=True, blank=True)
    scoring_task_id = models.CharField(max_length=255, blank=True)

    released_text = models.TextField(blank=True)
    # The release's webhook: pending until the receiver accepts it (or WEBHOOK_MAX_ATTEMPTS are spent); the sweep
    # sends what is pending and due, so a webhook whose message was never sent or was lost still goes out.
    webhook_state = models.CharField(max_length=16, choices=WebhookState.choices, default=WebhookState.NONE,
                                     blank=True)
    webhook_attempts = models.PositiveSmallIntegerField(default=0)
    webhook_next_attempt_at = models.DateTimeField(null=True, blank=True)
    # When the current attempt was taken, by `webhook_worker`: gone, the attempt is due again at once. The task
    # holding it: the same message sent again after an outage (OUTAGE_RETRY) takes its attempt back at once.
    webhook_claimed_at = models.DateTimeField(null=True, blank=True)
    webhook_task_id = models.CharField(max_length=255, blank=True)
    edited_text = models.TextField(blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    escalated = models.BooleanField(default=False)
    # Asked on the Ask page (a person trying questions), not sent by an application: reviewed like any answer,
    # but kept out of production figures (the dashboard shows it apart).
    sandbox = models.BooleanField(default=False)

    # Two people for what matters (REVIEW_SECOND_REVIEW_TIERS / _TOPICS): the first approval, given by someone other
    # than the second; until the second the answer stays pending and nothing is released (review/second_review.py).
    first_approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                          related_name="+")
    first_approved_at = models.DateTimeField(null=True, blank=True)
    # A calibration copy of a gold item, handed to a reviewer unannounced (review/gold.py): its decision counts in
    # the reviewer's accuracy and nothing of it is ever released or sent.
    gold_copy_of = models.ForeignKey("GoldItem", null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="copies")

    lease_holder = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    lease_expires_at = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    scored_at = models.DateTimeField(null=True, blank=True)
    released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["client", "idempotency_key"], name="unique_idempotency_key_per_client"),
        ]
        indexes = [
            models.Index(fields=["status", "risk_order", "-wrong_probability", "created_at"],
                         name="answer_queue_order"),
            # The queue's page count: an index-only scan, not a pass over every answer's row (bench/ui_bench.py).
            models.Index(fields=["status", "escalated", "evidence_level"], name="answer_queue_count"),
            models.Index(fields=["webhook_state", "webhook_next_attempt_at"], name="answer_webhook_due"),
        ]

    def __str__(self) -> str:
        return f"Answer {self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("review:answer_detail", args=[self.pk])

    @property
    def audit_security_level(self) -> str:
        """Who may read this answer's audit rows (console.audit). Before scoring its evidence is unknown, so
        the most restrictive level that could apply: the client's clearance."""
        return self.client.clearance if self.status == AnswerStatus.SCORING else self.evidence_level

    @property
    def needs_second_reviewer(self) -> bool:
        """A first approval was given (review/second_review.py): pending until another reviewer approves."""
        return self.status == AnswerStatus.PENDING_REVIEW and self.first_approved_by_id is not None

    def lease_is_held_by_other(self, user) -> bool:
        return bool(
            self.lease_holder_id and self.lease_holder_id != user.pk and self.lease_expires_at
            and self.lease_expires_at > timezone.now()
        )


class Verdict(models.TextChoices):
    SUPPORTED = "supported", _("Supported")
    UNCERTAIN = "uncertain", _("Uncertain")
    CONTRADICTED = "contradicted", _("Contradicted")
    NOT_FOUND = "not_found", _("Not found")  # no approved source supports it, and none states otherwise


class ClaimReview(models.TextChoices):
    """What the reviewer said about a claim, in the words the page offers them."""

    OPEN = "open", _("Not marked yet")
    CONFIRMED = "confirmed", _("Claim is correct")
    REJECTED = "rejected", _("Claim is wrong")


class ErrorKind(models.TextChoices):
    """Why a claim is wrong, as the reviewer who marked it wrong said: the labels export and the dashboard count
    wrong answers by it."""

    WRONG_VALUE = "wrong_value", _("Wrong number or date")
    WRONG_NAME = "wrong_name", _("Wrong name or role")
    NOT_IN_SOURCES = "not_in_sources", _("Not in the sources")
    OUTDATED_SOURCE = "outdated_source", _("Outdated source")
    CONTRADICTS_SOURCE = "contradicts_source", _("Contradicts the source")
    OTHER = "other", _("Other")


# Verdicts a reviewer contradicts by marking the claim correct: a note is required and it counts as an override.
OVERRIDABLE_VERDICTS = frozenset({"contradicted", "not_found"})


class Claim(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="claims")
    ordinal = models.PositiveIntegerField()
    text = models.TextField()
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    score = models.FloatField(null=True, blank=True)
    verdict = models.CharField(max_length=16, choices=Verdict.choices)
    reasons = models.JSONField(default=list)
    # Typed findings (checking.findings.Finding.as_dict): what routing and the review page read.
    findings = models.JSONField(default=list, blank=True)
    # The row the scoring model read (checking.features): a reviewer's mark on the claim becomes a labelled
    # row for learning, and the leak estimate re-scores it under each model.
    features = models.JSONField(default=dict, blank=True)
    review_state = models.CharField(max_length=16, choices=ClaimReview.choices, default=ClaimReview.OPEN)
    review_note = models.TextField(blank=True)
    # Why it is wrong (a claim marked wrong only; empty until the reviewer says).
    error_kind = models.CharField(max_length=24, choices=ErrorKind.choices, blank=True)
    # Marked correct although the checker found it contradicted or unsupported (the note says why).
    overrides_checker = models.BooleanField(default=False)
    # A claim of the reviewer's edited text, stored from the re-check it was sent with (trace and reverse trace
    # then cover what was actually sent); the answer's own claims have this False.
    from_edit = models.BooleanField(default=False)
    reviewed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    reviewed_at = models.DateTimeField(null=True, blank=True)
    # The fact it states (checking.facts.Fact.key): pending answers whose claims state the same facts are a group.
    fact_key = models.CharField(max_length=32, blank=True, db_index=True)
    # The reviewed fact its verdict came from: a reviewer confirmed (or rejected) the same fact before.
    reviewed_fact = models.ForeignKey("ReviewedFact", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="matched_claims")

    class Meta:
        ordering = ["answer", "ordinal"]
        constraints = [models.UniqueConstraint(fields=["answer", "from_edit", "ordinal"], name="unique_claim_ordinal")]

    def __str__(self) -> str:
        return self.text[:80]

    @property
    def audit_security_level(self) -> str:
        return self.answer.audit_security_level

    @property
    def is_flagged(self) -> bool:
        return self.verdict != Verdict.SUPPORTED

    @property
    def best_evidence(self) -> Evidence | None:
        evidence = list(self.evidence.all())  # prefetched: no query per claim
        return evidence[0] if evidence else None

    @property
    def other_evidence(self) -> list[Evidence]:
        return [e for e in list(self.evidence.all())[1:] if not e.is_conflicting and not e.is_part]

    @property
    def part_evidence(self) -> list[Evidence]:
        """The other passages the claim's support was put together from, each beside the part it supplies."""
        return [e for e in list(self.evidence.all())[1:] if e.is_part]

    @property
    def conflicting_evidence(self) -> list[Evidence]:
        """Other approved sources stating something else about the claim's subject: shown beside the best."""
        return [e for e in list(self.evidence.all())[1:] if e.is_conflicting]

    @cached_property
    def conflict_pairs(self) -> list[ConflictPair]:
        """Conflicting sources beside the supporting one, with what differs and the reviewer's word on them."""
        return conflict_pairs(self)

    @cached_property
    def _findings_beside_verdict(self) -> tuple[list[Finding], list[str]]:
        """Findings and reasons as they may stand beside the verdict: a claim scored before the checker kept them
        apart (a not-found claim listing "$750 matches evidence") reads as one scored now would."""
        return shown_beside_verdict(verdict=self.verdict, findings=[Finding.from_dict(f) for f in self.findings],
                                    reasons=list(self.reasons))

    @cached_property
    def finding_rows(self) -> list[dict]:
        """Findings as the review page lists them: effect (for the badge's colour), a readable kind, message."""
        findings, _reasons = self._findings_beside_verdict
        return [{"effect": str(f.effect), "kind": FINDING_KIND_LABELS[f.kind], "message": f.message}
                for f in findings if f.kind is not FindingKind.UNSUPPORTED_TERM]

    @property
    def other_reasons(self) -> list[str]:
        """Reasons no finding row already says: words found nowhere, similarity, conflicts, outside checkers."""
        shown = {row["message"] for row in self.finding_rows}
        _findings, reasons = self._findings_beside_verdict
        return [reason for reason in reasons if reason not in shown]

    @property
    def is_not_found(self) -> bool:
        return self.verdict == Verdict.NOT_FOUND

    @property
    def correct_needs_note(self) -> bool:
        """Marking this claim correct goes against the checker."""
        return self.verdict in OVERRIDABLE_VERDICTS


class Evidence(models.Model):
    """Where a claim's support (or contradiction) was found: a chunk of a pinned version, or a raw client context."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="evidence")
    chunk = models.ForeignKey("kb.Chunk", null=True, blank=True, on_delete=models.PROTECT, related_name="evidence")
    context_index = models.PositiveIntegerField(null=True, blank=True)
    # In the version's Markdown for a chunk; in the context string otherwise.
    quote_start = models.PositiveIntegerField()
    quote_end = models.PositiveIntegerField()
    score = models.FloatField()
    rank = models.PositiveSmallIntegerField()
    flags = models.JSONField(default=list, blank=True)
    # Synthesis: the span of the claim's text this passage supplies, where the support was put together from two
    # passages (the best evidence supports the rest). Null for evidence of the whole claim.
    claim_part_start = models.PositiveIntegerField(null=True, blank=True)
    claim_part_end = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["claim", "rank"]

    def __str__(self) -> str:
        return f"evidence {self.rank} for claim {self.claim_id}"

    @property
    def is_conflicting(self) -> bool:
        return "conflicting" in self.flags

    @property
    def is_part(self) -> bool:
        return self.claim_part_start is not None

    @property
    def claim_part(self) -> str:
        """The words of the claim this passage supplies (synthesis); empty for evidence of the whole claim."""
        return self.claim.text[self.claim_part_start:self.claim_part_end] if self.is_part else ""

    def source_text(self) -> str:
        return self.chunk.text if self.chunk else self.claim.answer.contexts[self.context_index]

    def quote_parts(self) -> tuple[str, str, str]:
        """The evidence text split around the quoted span: (before, quote, after)."""
        offset = self.chunk.char_start if self.chunk else 0
        text = self.source_text()
        start, end = self.quote_start - offset, self.quote_end - offset
        return text[:start], text[start:end], text[end:]

    @property
    def quote(self) -> str:
        return self.quote_parts()[1]

    @property
    def paragraph_line(self) -> int | None:
        """First line of the paragraph holding the quote: the anchor (#L<n>) on the document page."""
        if not self.chunk:
            return None
        block_start, _ = self.chunk.paragraph_containing(self.quote_start)
        return self.chunk.version.text.count("\n", 0, block_start) + 1


class Decision(models.Model):
    class Action(models.TextChoices):
        APPROVE = "approve", _("Approve & send")
        EDIT = "edit", _("Edit & send")
        REJECT = "reject", _("Reject")
        ESCALATE = "escalate", _("Escalate")
        # The first of two approvals an answer that matters needs: it stays pending for a second reviewer.
        FIRST_APPROVAL = "first_approval", _("First approval")

    answer = models.ForeignKey(Answer, on_delete=models.PROTECT, related_name="decisions")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=16, choices=Action.choices)
    reason = models.TextField(blank=True)
    overrides_checker = models.BooleanField(default=False)
    text = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]


class WebhookDelivery(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.PROTECT, related_name="deliveries")
    url = models.URLField(max_length=1000)
    attempt = models.PositiveSmallIntegerField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    delivered = models.BooleanField(default=False)
    # Recorded before the POST and cleared with its outcome: a row still sending lost its outcome (its worker or
    # the database went away after the POST) and the attempt was sent again under the same webhook-id.
    sending = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["answer", "attempt"]
