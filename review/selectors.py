from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import (
    Case, Count, DateTimeField, ExpressionWrapper, F, OuterRef, Prefetch, Q, QuerySet, Subquery, Value, When,
)
from django.shortcuts import get_object_or_404
from django.utils import timezone

from console.models import SecurityLevel
from kb.models import DocumentVersion
from review.checking.verdicts import UNCERTAIN_AT
from review.models import Answer, AnswerStatus, Claim, Evidence, Risk, SelfTestRun, Verdict

QUEUE_SORTS = {
    "risk": ("risk_order", "created_at"),
    "oldest": ("created_at",),
    "newest": ("-created_at",),
    "score": (F("score").asc(nulls_first=True), "created_at"),
}


def answers_visible_to(user) -> QuerySet[Answer]:
    """Reviewers only see answers whose evidence is within their clearance."""
    return Answer.objects.filter(evidence_level__in=SecurityLevel.up_to(user.clearance))


def get_answer_for_user(*, user, answer_id: int) -> Answer:
    return get_object_or_404(
        answers_visible_to(user).select_related("client", "lease_holder", "decided_by")
        .prefetch_related(Prefetch("claims", queryset=claims_with_evidence())),
        pk=answer_id,
    )


def claims_with_evidence() -> QuerySet[Claim]:
    return Claim.objects.order_by("ordinal").select_related("reviewed_by").prefetch_related(
        Prefetch("evidence", queryset=Evidence.objects.order_by("rank").select_related(
            "chunk__version__document__owner", "chunk__version__approved_by",
        ))
    )


def _sla_deadline() -> Case:
    return Case(*[
        When(risk=risk, then=ExpressionWrapper(F("created_at") + timedelta(minutes=minutes),
                                               output_field=DateTimeField()))
        for risk, minutes in settings.REVIEW_SLA_MINUTES.items()
    ], default=Value(None), output_field=DateTimeField())


def review_queue(
    *, user, risk: str = "", status: str = "pending", overdue: bool = False, mine: bool = False, sort: str = "risk",
) -> QuerySet[Answer]:
    # Correlated counts instead of JOIN + GROUP BY: PostgreSQL then walks the (status, risk_order, created_at)
    # index and computes them for the 25 rows of the page only.
    claims = Claim.objects.filter(answer=OuterRef("pk")).order_by().values("answer")
    answers = answers_visible_to(user).select_related("lease_holder", "decided_by").annotate(
        flagged=Subquery(claims.exclude(verdict=Verdict.SUPPORTED).annotate(n=Count("id")).values("n")[:1]),
        claim_count=Subquery(claims.annotate(n=Count("id")).values("n")[:1]),
        sla_deadline=_sla_deadline(),
    )
    if status == "pending":
        answers = answers.filter(status=AnswerStatus.PENDING_REVIEW, escalated=False)
    elif status == "escalated":
        answers = answers.filter(status=AnswerStatus.PENDING_REVIEW, escalated=True)
    elif status in AnswerStatus.values:
        answers = answers.filter(status=status)
    if risk in Risk.values:
        answers = answers.filter(risk=risk)
    if overdue:
        answers = answers.filter(status=AnswerStatus.PENDING_REVIEW, sla_deadline__lt=timezone.now())
    if mine:
        answers = answers.filter(Q(lease_holder=user, lease_expires_at__gt=timezone.now()) | Q(decided_by=user))
    return answers.order_by(*QUEUE_SORTS.get(sort, QUEUE_SORTS["risk"]))


def answers_citing_version(*, viewer, version, line: int | None = None) -> QuerySet[Answer]:
    """Every answer the viewer may see that rests on this version (optionally: on the paragraph at `line`): a
    claim's best evidence is there and at least partly supports it. Weaker candidates shown to reviewers do not
    count. An answer citing this version may also cite a source above the viewer's clearance: it is left out."""
    evidence = Evidence.objects.filter(chunk__version=version, rank=1, score__gte=UNCERTAIN_AT)
    if line is not None:
        evidence = evidence.filter(chunk__line_start__lte=line, chunk__line_end__gte=line)
    return (
        answers_visible_to(viewer).filter(claims__evidence__in=evidence).distinct()
        .select_related("client", "decided_by").order_by("-created_at")
    )


def selftest_versions() -> QuerySet[DocumentVersion]:
    """What a self-test covers: every version usable as evidence (approved, effective, unexpired, indexed)."""
    return (DocumentVersion.objects.usable_as_evidence(clearance=SecurityLevel.RESTRICTED)
            .select_related("document").order_by("document__key"))


def selftest_latest(*, version: DocumentVersion) -> SelfTestRun | None:
    return SelfTestRun.objects.filter(version=version).order_by("-created_at", "-pk").first()
