from __future__ import annotations

import operator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import reduce

from django.conf import settings
from django.db.models import (
    Case, Count, DateTimeField, Exists, ExpressionWrapper, F, Min, OuterRef, Prefetch, Q, QuerySet, Subquery, Value,
    When,
)
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone

from console import roles
from console.models import SecurityLevel
from kb.models import Document, DocumentVersion
from review.models import (
    Answer, AnswerStatus, Claim, Evidence, ReviewedFact, Risk, SelfTestRun, SourceCorrection, Verdict,
)

QUEUE_SORTS = {
    # Tier, then how likely the answer is wrong, then age: the design's queue order.
    "risk": ("risk_order", "-wrong_probability", "created_at"),
    "oldest": ("created_at",),
    "newest": ("-created_at",),
    "score": (F("score").asc(nulls_first=True), "created_at"),
    "likely": ("-wrong_probability", "risk_order", "created_at"),
    "client": ("client__name", "risk_order", "-wrong_probability", "created_at"),
    # Unassigned answers last: they are everyone's.
    "assignee": (F("assignment__assignee__username").asc(nulls_last=True), "risk_order", "-wrong_probability",
                 "created_at"),
}


def answers_visible_to(user) -> QuerySet[Answer]:
    """Reviewers only see answers whose evidence is within their clearance."""
    return Answer.objects.filter(evidence_level__in=SecurityLevel.up_to(user.clearance))


@dataclass(frozen=True)
class TierQueue:
    """Answers waiting for review in one risk tier, and when the longest-waiting of them arrived."""

    risk: str
    waiting: int
    oldest: datetime | None


def review_queue_depth(*, answers: QuerySet[Answer]) -> dict[str, TierQueue]:
    """Every tier's queue among `answers` (escalated ones included), high to low; one query. The dashboard shows it
    for what its viewer may see, /metrics for every production answer."""
    rows = {risk: (n, oldest) for risk, n, oldest in
            answers.filter(status=AnswerStatus.PENDING_REVIEW).order_by().values_list("risk")
            .annotate(n=Count("id"), oldest=Min("created_at"))}
    return {risk: TierQueue(risk, *rows.get(risk, (0, None))) for risk in (Risk.HIGH, Risk.MEDIUM, Risk.LOW)}


def get_answer_for_user(*, user, answer_id: int) -> Answer:
    return get_object_or_404(
        answers_visible_to(user).select_related("client", "lease_holder", "decided_by")
        .prefetch_related(Prefetch("claims", queryset=claims_with_evidence().filter(from_edit=False))),
        pk=answer_id,
    )


def edited_claims(*, answer: Answer) -> list[Claim]:
    """The claims of the edited text that was sent, as its re-check found them."""
    return list(claims_with_evidence().filter(answer=answer, from_edit=True))


@dataclass(frozen=True)
class QueuePosition:
    """Where an answer stands among those waiting for review, in the queue's default order."""

    position: int | None  # 1-based; None when the answer is not waiting
    waiting: int
    previous_id: int | None
    next_id: int | None


_QUEUE_ORDER = ("risk_order", "-wrong_probability", "created_at", "pk")


def _keyset(answer: Answer, *, before: bool) -> list[Q]:
    """The answers before (or after) ``answer`` in the queue's order, in four parts: a lower risk; the same risk,
    likelier wrong; the same risk and likelihood, older; all that the same, a lower id."""
    side, other = ("lt", "gt") if before else ("gt", "lt")
    same_tier = {"risk_order": answer.risk_order}
    same_odds = {**same_tier, "wrong_probability": answer.wrong_probability}
    same_time = {**same_odds, "created_at": answer.created_at}
    return [
        Q(**{f"risk_order__{side}": answer.risk_order}),
        Q(**same_tier, **{f"wrong_probability__{other}": answer.wrong_probability}),
        Q(**same_odds, **{f"created_at__{side}": answer.created_at}),
        Q(**same_time, **{f"pk__{side}": answer.pk}),
    ]


def _queue_key(row: tuple) -> tuple:
    risk_order, wrong_probability, created_at, pk = row
    return risk_order, -wrong_probability, created_at, pk


def _queue_neighbour(waiting: QuerySet[Answer], *, answer: Answer, before: bool) -> int | None:
    """The waiting answer just before (or after) ``answer`` in the queue's order, in one statement.

    The keyset's parts are asked for separately and joined with UNION: each is a range on the queue index, where
    their OR in one filter made PostgreSQL read every waiting answer (28 ms at 100,000 pending)."""
    flipped = [f[1:] if f.startswith("-") else f"-{f}" for f in _QUEUE_ORDER]
    order = flipped if before else list(_QUEUE_ORDER)
    columns = [f.lstrip("-") for f in _QUEUE_ORDER]
    first, *rest = [waiting.filter(part).order_by(*order).values_list(*columns)[:1]
                    for part in _keyset(answer, before=before)]
    rows = list(first.union(*rest, all=True))
    if not rows:
        return None
    return (max(rows, key=_queue_key) if before else min(rows, key=_queue_key))[3]


def queue_position(*, user, answer: Answer) -> QueuePosition:
    waiting = answers_visible_to(user).filter(status=AnswerStatus.PENDING_REVIEW, escalated=False)
    previous = _queue_neighbour(waiting, answer=answer, before=True)
    following = _queue_neighbour(waiting, answer=answer, before=False)
    before = reduce(operator.or_, _keyset(answer, before=True))
    counts = waiting.aggregate(waiting=Count("pk"), before=Count("pk", filter=before))
    is_waiting = answer.status == AnswerStatus.PENDING_REVIEW and not answer.escalated
    return QueuePosition(
        position=counts["before"] + 1 if is_waiting else None, waiting=counts["waiting"],
        previous_id=previous, next_id=following,
    )


def claims_with_evidence() -> QuerySet[Claim]:
    return Claim.objects.order_by("ordinal").select_related("reviewed_by", "reviewed_fact__decided_by").prefetch_related(
        Prefetch("evidence", queryset=Evidence.objects.order_by("rank").select_related(
            "chunk__version__document__owner", "chunk__version__approved_by",
        )),
        Prefetch("source_corrections", queryset=SourceCorrection.objects.exclude(
            status=SourceCorrection.Status.WITHDRAWN).select_related("reviewer")),
    )


def _sla_deadline() -> Case:
    return Case(*[
        When(risk=risk, then=ExpressionWrapper(F("created_at") + timedelta(minutes=minutes),
                                               output_field=DateTimeField()))
        for risk, minutes in settings.REVIEW_SLA_MINUTES.items()
    ], default=Value(None), output_field=DateTimeField())


def answer_text_search(q: str) -> Q:
    """Answers whose question, text, sent edit or claims hold every word of `q` (each anywhere in them, any case). A
    word is what spaces separate: Chinese, written without them, is matched as the phrase typed (健身房费用)."""
    claims = Claim.objects.filter(answer=OuterRef("pk"))
    found = Q()
    for word in q.split()[:10]:
        found &= (Q(question__icontains=word) | Q(text__icontains=word) | Q(edited_text__icontains=word)
                  | Exists(claims.filter(text__icontains=word)))
    return found


def review_queue(
    *, user, risk: str = "", status: str = "pending", overdue: bool = False, assignee: str = "", sort: str = "risk",
    q: str = "", client=None, document: str = "", received_from: date | None = None,
    received_to: date | None = None,
) -> QuerySet[Answer]:
    """`q` searches the question, the answer and its claims (answer_text_search); `client` (an ApiClient),
    `document` (a document key: answers a claim of which rests on it) and the received dates narrow the list.
    `assignee`: "me" (assigned to the user, or theirs by lease or decision) or "none" (nobody assigned)."""
    # Correlated counts instead of JOIN + GROUP BY: PostgreSQL then walks the (status, risk_order, created_at)
    # index and computes them for the 25 rows of the page only.
    claims = Claim.objects.filter(answer=OuterRef("pk"), from_edit=False).order_by().values("answer")
    answers = answers_visible_to(user).select_related(
        "client", "lease_holder", "decided_by", "first_approved_by", "assignment__assignee").annotate(
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
    if assignee == "me":
        held = Q(lease_holder=user, lease_expires_at__gt=timezone.now())
        answers = answers.filter(Q(assignment__assignee=user) | held | Q(decided_by=user))
    elif assignee == "none":
        answers = answers.filter(assignment__isnull=True)
    if q:
        answers = answers.filter(answer_text_search(q))
    if client is not None:
        answers = answers.filter(client=client)
    if document:
        answers = answers.filter(pk__in=Evidence.objects.filter(
            claim__from_edit=False, chunk__version__document__key=document).values("claim__answer"))
    if received_from:
        answers = answers.filter(created_at__date__gte=received_from)
    if received_to:
        answers = answers.filter(created_at__date__lte=received_to)
    return answers.order_by(*QUEUE_SORTS.get(sort, QUEUE_SORTS["risk"]))


def selftest_versions() -> QuerySet[DocumentVersion]:
    """What a self-test covers: every version usable as evidence (approved, effective, unexpired, indexed)."""
    return (DocumentVersion.objects.usable_as_evidence(clearance=SecurityLevel.RESTRICTED)
            .select_related("document").order_by("document__key"))


def selftest_latest(*, version: DocumentVersion) -> SelfTestRun | None:
    return SelfTestRun.objects.filter(version=version).order_by("-created_at", "-pk").first()


@dataclass(frozen=True)
class RecheckClaim:
    text: str
    verdict: str
    verdict_label: str
    score: float | None
    reasons: list[str]
    source: str  # "Title (key v2) · Heading", or "" when no approved source was found
    quote: str
    url: str  # the paragraph on the version page


@dataclass(frozen=True)
class Recheck:
    risk: str
    reasons: list[str]
    claims: list[RecheckClaim]


def recheck_rows(*, check: dict) -> Recheck:
    """A re-check of edited text (review.api_schemas.report_to_dict) as the review page shows it: each claim with
    its verdict and the source it rests on, named."""
    best = [claim["evidence"][0] if claim["evidence"] else None for claim in check["claims"]]
    keys = {e["document_key"] for e in best if e and e["document_key"]}
    titles = dict(Document.objects.filter(key__in=keys).values_list("key", "title"))
    rows = []
    for claim, evidence in zip(check["claims"], best, strict=True):
        named = evidence is not None and evidence["document_key"] and claim["verdict"] != Verdict.NOT_FOUND
        rows.append(RecheckClaim(
            text=claim["text"], verdict=claim["verdict"], verdict_label=Verdict(claim["verdict"]).label,
            score=claim["score"], reasons=claim["reasons"],
            source=(f"{titles.get(evidence['document_key'], evidence['document_key'])} "
                    f"({evidence['document_key']} v{evidence['version']}) · {evidence['heading']}") if named else "",
            quote=evidence["quote"] if named else "",
            url=reverse("kb:version_detail", args=[evidence["document_key"], evidence["version"]]) if named else "",
        ))
    return Recheck(risk=check["risk"], reasons=check["reasons"], claims=rows)


# Sources to fix -------------------------------------------------------------------------------------------


def source_corrections_visible_to(user) -> QuerySet[SourceCorrection]:
    """Entries about answers the user may see, between two documents within their clearance."""
    levels = SecurityLevel.up_to(user.clearance)
    return SourceCorrection.objects.filter(
        answer__in=answers_visible_to(user), wrong_version__document__security_level__in=levels,
        other_version__document__security_level__in=levels,
    )


def sources_to_fix_may_view(user) -> bool:
    """Curators and approvers keep the knowledge base; anyone else who owns a document sees what to fix in it."""
    return user.has_role(roles.CURATOR, roles.APPROVER) or Document.objects.filter(owner=user).exists()


def sources_to_fix(*, user, mine: bool = False, closed: bool = False) -> QuerySet[SourceCorrection]:
    """Versions reviewers marked wrong (or questioned), newest first: those still to fix, or those fixed or
    dismissed; `mine`: only documents the user owns."""
    statuses = ([SourceCorrection.Status.FIXED, SourceCorrection.Status.DISMISSED] if closed
                else [SourceCorrection.Status.OPEN])
    entries = source_corrections_visible_to(user).filter(status__in=statuses).select_related(
        "answer", "claim", "reviewer", "resolved_by", "wrong_version__document__owner", "other_version__document",
        "right_version",
    )
    if mine:
        entries = entries.filter(wrong_version__document__owner=user)
    return entries.order_by("-created_at", "-pk")


def sources_to_fix_count(*, user) -> int:
    """Open entries on the user's own documents: the nav's count."""
    return sources_to_fix(user=user, mine=True).count()


def reviewed_facts_of_version(*, version: DocumentVersion, limit: int = 50) -> QuerySet[ReviewedFact]:
    """The version's reviewed facts, live ones first, newest first."""
    return (ReviewedFact.objects.filter(version=version).select_related("decided_by", "ended_by")
            .order_by(F("ended_at").desc(nulls_first=True), "-decided_at", "-pk")[:limit])
