"""The review API's shapes (review/review_api.py) and the serialisers that fill them from prefetched rows."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Literal

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone
from ninja import Field, Schema
from pydantic import ConfigDict

from console.api import Text
from review.api_schemas import AnswerText, ClaimReviewOut, DecisionOut, EvidenceOut
from review.forms import QueueFilterForm
from review.models import Answer, AnswerStatus, Claim, Decision, ErrorKind, Evidence

PAGE_SIZE = 25  # the queue page's
PAGE_SIZE_MAX = 100
NOTE_MAX_CHARS = 2000  # as the page's note and reason fields
EDITED_TEXT_MAX_CHARS = 50_000  # as the page's edit field


def _choices(choices: list[tuple[str, object]]) -> tuple[str, ...]:
    return tuple(value for value, _label in choices if value)


class QueueQuery(Schema):
    """The queue page's filters (review.forms.QueueFilterForm), as query parameters."""

    status: Literal[_choices(QueueFilterForm.STATUS_CHOICES)] | None = Field(  # type: ignore[valid-type]
        None, description="pending (the default), escalated, approved, rejected, released or all")
    risk: Literal["low", "medium", "high"] | None = Field(None, description="the risk tier")
    client: int | None = Field(None, description="an API client's id: answers it sent")
    assignee: Literal["me", "none"] | None = Field(
        None, description="me: assigned to you, leased by you or decided by you; none: assigned to nobody")
    document: str | None = Field(None, max_length=200, description="a document key: answers resting on it")
    q: str | None = Field(None, max_length=200, description="words the question contains")
    overdue: bool = Field(False, description="only answers past their SLA")
    received_from: date | None = None
    received_to: date | None = None
    sort: Literal[_choices(QueueFilterForm.SORT_CHOICES)] | None = Field(  # type: ignore[valid-type]
        None, description="risk (the default: tier, likeliest wrong, oldest), likely, oldest, newest, score, client, "
                          "assignee")
    view: int | None = Field(None, description="a saved view's id: its filters and sort (a filter given beside it "
                                               "wins over the view's)")


class QueuePageQuery(QueueQuery):
    page: int = Field(1, ge=1)
    page_size: int = Field(PAGE_SIZE, ge=1, le=PAGE_SIZE_MAX)


class ReviewClaimOut(Schema):
    id: int
    index: int  # the claim's position in the answer, from 0 (the pages and refusals number claims from 1)
    text: str
    start: int
    end: int
    verdict: str  # supported, uncertain, contradicted, not_found
    score: float | None
    reasons: list[str]
    evidence: list[EvidenceOut]
    review: ClaimReviewOut


class QueueAnswerOut(Schema):
    id: int
    external_id: str
    client: str
    question: str
    text: str
    language: str
    status: str  # pending_review, approved, rejected, released (escalated says whether it waits for an admin)
    escalated: bool
    risk: str | None
    score: float | None
    wrong_probability: float
    routing_reasons: list[str]
    sampled_for_audit: bool
    created_at: datetime
    age_seconds: int
    sla_deadline: datetime | None
    assignee: str | None
    lease_holder: str | None  # a live lease only
    lease_expires_at: datetime | None
    # Two people for what matters: a first approval was given, by first_approved_by; a second reviewer must approve.
    needs_second_reviewer: bool
    first_approved_by: str | None
    url: str  # the answer's review page
    claims: list[ReviewClaimOut]


class QueuePageOut(Schema):
    count: int
    page: int
    pages: int
    page_size: int
    results: list[QueueAnswerOut]


class ReviewAnswerOut(QueueAnswerOut):
    released_text: str | None
    edited_text: str | None
    decided_by: str | None
    decided_at: datetime | None
    decisions: list[DecisionOut]  # oldest first
    comments: int
    sent_claims: list[ReviewClaimOut]  # an edited answer's: the claims of the text that was sent


class LeaseOut(Schema):
    id: int
    lease_expires_at: datetime


class ClaimMarkIn(Schema):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is refused, never silently dropped

    index: int = Field(ge=0, description="the claim's index (from 0), as the queue and the answer list it")
    state: Literal["confirmed", "rejected"]
    note: Text = Field("", max_length=NOTE_MAX_CHARS,
                       description="needed to mark correct a claim the checker found contradicted or not found")
    kind: str | None = Field(None, max_length=40, description="why a claim marked wrong is wrong: "
                             + ", ".join(ErrorKind.values) + " (only with state rejected)")


class DecisionIn(Schema):
    model_config = ConfigDict(extra="forbid")

    action: Literal[tuple(Decision.Action.values)]  # type: ignore[valid-type]
    claims: list[ClaimMarkIn] = Field(default_factory=list, max_length=200,
                                      description="marks applied first, in one transaction with the decision")
    reason: Text = Field("", max_length=NOTE_MAX_CHARS)
    text: AnswerText = Field("", max_length=EDITED_TEXT_MAX_CHARS, description="the edited answer (edit only)")


class DecidedOut(Schema):
    id: int
    status: str
    escalated: bool
    decided_by: str | None
    decided_at: datetime | None
    released_text: str | None
    undo_until: datetime | None  # a reject: until when POST .../undo takes it back
    needs_second_reviewer: bool  # a first approval: pending, nothing released, until another reviewer approves


def _user_name(user) -> str | None:
    return user.username if user is not None else None


def _evidence_to_dict(evidence: Evidence) -> dict:
    chunk = evidence.chunk
    return {
        "chunk_id": evidence.chunk_id, "document_key": chunk.version.document.key if chunk else None,
        "version": chunk.version.number if chunk else None, "heading": chunk.heading_path if chunk else None,
        "quote_start": evidence.quote_start, "quote_end": evidence.quote_end, "quote": evidence.quote,
        "score": round(evidence.score, 4), "flags": evidence.flags,
        "claim_part": [evidence.claim_part_start, evidence.claim_part_end] if evidence.is_part else None,
    }


def review_claim_to_dict(claim: Claim) -> dict:
    """Expects the evidence (with chunk, version and document) and the reviewer prefetched."""
    return {
        "id": claim.pk, "index": claim.ordinal, "text": claim.text, "start": claim.start, "end": claim.end,
        "verdict": claim.verdict, "score": None if claim.score is None else round(claim.score, 4),
        "reasons": claim.reasons, "evidence": [_evidence_to_dict(e) for e in claim.evidence.all()],
        "review": {"state": claim.review_state, "note": claim.review_note,
                   "overrides_checker": claim.overrides_checker, "kind": claim.error_kind or None,
                   "reviewed_by": _user_name(claim.reviewed_by),
                   "reviewed_at": claim.reviewed_at},
    }


def _assignee(answer: Answer) -> str | None:
    """triage's Assignment, through the ORM's reverse relation the queue already joins (docs/architecture.md)."""
    try:
        return answer.assignment.assignee.username
    except ObjectDoesNotExist:
        return None


def _sla_deadline(answer: Answer) -> datetime | None:
    """When a waiting answer is due, as the queue's SLA column has it (REVIEW_SLA_MINUTES by tier)."""
    minutes = settings.REVIEW_SLA_MINUTES.get(answer.risk)
    if answer.status != AnswerStatus.PENDING_REVIEW or minutes is None:
        return None
    return answer.created_at + timedelta(minutes=minutes)


def queue_answer_to_dict(answer: Answer) -> dict:
    """Expects the client, lease holder and assignee joined and the claims (of the answer, not of an edit)
    prefetched as review.review_api prefetches them."""
    now = timezone.now()
    leased = answer.lease_holder_id is not None and answer.lease_expires_at and answer.lease_expires_at > now
    return {
        "id": answer.pk, "external_id": answer.external_id, "client": answer.client.name,
        "question": answer.question, "text": answer.text, "language": answer.language, "status": answer.status,
        "escalated": answer.escalated, "risk": answer.risk or None,
        "score": None if answer.score is None else round(answer.score, 4),
        "wrong_probability": round(answer.wrong_probability, 4), "routing_reasons": answer.routing_reasons,
        "sampled_for_audit": answer.sampled_for_audit, "created_at": answer.created_at,
        "age_seconds": int((now - answer.created_at).total_seconds()),
        "sla_deadline": _sla_deadline(answer),
        "assignee": _assignee(answer), "lease_holder": answer.lease_holder.username if leased else None,
        "lease_expires_at": answer.lease_expires_at if leased else None, "url": answer.get_absolute_url(),
        "needs_second_reviewer": answer.needs_second_reviewer,
        "first_approved_by": _user_name(answer.first_approved_by),
        "claims": [review_claim_to_dict(claim) for claim in answer.claims.all() if not claim.from_edit],
    }


def review_answer_to_dict(answer: Answer, *, comments: int) -> dict:
    """The queue's fields and what was decided; expects the decisions (with reviewers) prefetched and the claims
    of an edit among the claims."""
    decisions = sorted(answer.decisions.all(), key=lambda d: (d.created_at, d.pk))
    return {
        **queue_answer_to_dict(answer),
        "released_text": answer.released_text if answer.released_at else None,
        "edited_text": answer.edited_text or None, "decided_by": _user_name(answer.decided_by),
        "decided_at": answer.decided_at, "comments": comments,
        "decisions": [{"action": d.action, "reviewer": d.reviewer.username, "reason": d.reason,
                       "overrides_checker": d.overrides_checker, "at": d.created_at} for d in decisions],
        "sent_claims": [review_claim_to_dict(claim) for claim in answer.claims.all() if claim.from_edit],
    }
