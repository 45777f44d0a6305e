"""API v1 request/response shapes and the serialisers shared by the API and the worker."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from django.conf import settings
from ninja import Field, Schema
from pydantic import AfterValidator, HttpUrl, PlainValidator
from pydantic_core import PydanticCustomError

from console.api import Text, clean_text
from console.input_text import text_problem
from review.callbacks import CallbackRefused, callback_url_validate
from checking.claims import split_claims
from review.models import Answer
from review.pipeline import CheckReport

CALLBACK_URL_MAX_CHARS = Answer._meta.get_field("callback_url").max_length
TRACE_URL_MAX_CHARS = Answer._meta.get_field("trace_url").max_length


def _within_answer_length(answer: str) -> str:
    """API_MAX_ANSWER_CHARS as it is set now (a Field max_length would keep the value read at import), with
    pydantic's own error."""
    limit = settings.API_MAX_ANSWER_CHARS
    if len(answer) > limit:
        raise PydanticCustomError("string_too_long", "String should have at most {max_length} characters",
                                  {"max_length": limit})
    return answer


def _answer_length_schema(schema: dict) -> None:
    schema["maxLength"] = settings.API_MAX_ANSWER_CHARS


def _within_caps(answer: str) -> str:
    """An answer the worker can check in reasonable time: cost grows with its claims, so they are capped (its
    length is capped by API_MAX_ANSWER_CHARS, which the OpenAPI schema shows)."""
    claims = len(split_claims(answer))
    if claims > settings.API_MAX_CLAIMS:
        raise ValueError(f"has {claims} claims; the limit is {settings.API_MAX_CLAIMS} per answer (API_MAX_CLAIMS)")
    return answer


def _callback_allowed(url: HttpUrl) -> HttpUrl:
    if len(str(url)) > CALLBACK_URL_MAX_CHARS:
        raise ValueError(f"is longer than {CALLBACK_URL_MAX_CHARS} characters")
    try:
        callback_url_validate(str(url))
    except CallbackRefused as exc:
        raise ValueError(str(exc)) from None
    return url


AnswerText = Annotated[str, AfterValidator(clean_text), AfterValidator(_within_caps)]
# The answer of /answers and /check: first within API_MAX_ANSWER_CHARS, as a max_length would be.
AnswerBody = Annotated[str, AfterValidator(_within_answer_length), AfterValidator(clean_text),
                       AfterValidator(_within_caps)]
CallbackUrl = Annotated[HttpUrl, AfterValidator(_callback_allowed)]


class CitationIn(Schema):
    chunk_id: int


RETRIEVED_MAX_PASSAGES = 50  # as many as `contexts`
RETRIEVED_MAX_CHARS = 20_000  # per passage


class RetrievedIn(Schema):
    """A passage the assistant retrieved for the answer, as its retriever returned it (shown to the reviewer, not
    used as evidence: that is what `contexts` and `citations` are for)."""

    text: Text = Field(min_length=1, max_length=RETRIEVED_MAX_CHARS)
    source: Text = Field("", max_length=500)  # a document name, URL or id in the assistant's own terms
    score: float | None = Field(None, allow_inf_nan=False)


def _trace_url_allowed(url: HttpUrl) -> HttpUrl:
    if len(str(url)) > TRACE_URL_MAX_CHARS:
        raise ValueError(f"is longer than {TRACE_URL_MAX_CHARS} characters")
    return url


# HttpUrl admits http and https only: a javascript: or data: link is refused (400) before anything is stored.
TraceUrl = Annotated[HttpUrl, AfterValidator(_trace_url_allowed)]


class AnswerIn(Schema):
    question: Text = Field(min_length=1, max_length=20_000)
    answer: AnswerBody = Field(min_length=1, json_schema_extra=_answer_length_schema)
    external_id: Text = Field("", max_length=200)
    contexts: list[Text] = Field(default_factory=list, max_length=50)
    citations: list[CitationIn] = Field(default_factory=list, max_length=50)
    callback_url: CallbackUrl | None = None
    # The answer's language ("en", "zh"); detected from the question and answer when not given.
    language: Literal["en", "zh"] | None = None
    # The assistant's own context, shown beside the answer on its review page: the model that wrote it, a link to
    # its trace (Langfuse, LangSmith, ...), and the passages it retrieved.
    model: Text = Field("", max_length=200)
    trace_url: TraceUrl | None = None
    retrieved: list[RetrievedIn] = Field(default_factory=list, max_length=RETRIEVED_MAX_PASSAGES)


class CheckIn(Schema):
    answer: AnswerBody = Field(min_length=1, json_schema_extra=_answer_length_schema)
    question: Text = Field("", max_length=20_000)
    contexts: list[Text] = Field(default_factory=list, max_length=50)


EVIDENCE_MAX_CHARS = 50_000  # per context of an AlignScore request
EVIDENCE_MAX_CONTEXTS = 50  # as many as /api/v1/check takes


def _evidence_text(text: str, *, item: int | None = None) -> str:
    problem = text_problem(text) or (
        f"is longer than {EVIDENCE_MAX_CHARS} characters" if len(text) > EVIDENCE_MAX_CHARS else None)
    if problem:
        raise ValueError(problem if item is None else f"item {item} {problem}")
    return text


def _evidence_contexts(value: object) -> list[str]:
    """NeMo's AlignScore contract: evidence is one string or, from NeMo's retrieval, a list of chunks; each is
    one context, as `contexts` are on /api/v1/check. One plain error for a wrong shape, where a union type would
    report each of its branches."""
    if isinstance(value, str):
        return [_evidence_text(value)]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise PydanticCustomError("evidence_type", "Input should be a string or a list of strings")
    if not value or len(value) > EVIDENCE_MAX_CONTEXTS:
        raise PydanticCustomError("evidence_count", "List should have 1 to {limit} items",
                                  {"limit": EVIDENCE_MAX_CONTEXTS})
    return [_evidence_text(text, item=i) for i, text in enumerate(value)]


class AlignScoreIn(Schema):
    evidence: Annotated[list[str], PlainValidator(_evidence_contexts)]
    claim: AnswerText = Field(min_length=1, max_length=5_000)


class AcceptedOut(Schema):
    id: int
    status: str
    url: str


class EvidenceOut(Schema):
    chunk_id: int | None
    document_key: str | None
    version: int | None
    heading: str | None
    quote_start: int
    quote_end: int
    quote: str
    score: float
    flags: list[str] = []
    # Synthesis: offsets in the claim's text of the part this passage supplies (the first evidence supports the
    # rest); null for evidence of the whole claim.
    claim_part: list[int] | None = None


class FindingOut(Schema):
    kind: str  # quantity_mismatch, negation, direction, entity_swap, role_swap, missing_quantity, ...
    effect: str  # contradicts, missing, weakens, supports
    message: str
    claim_span: list[int] | None = None  # offsets in the claim's text
    evidence_span: list[int] | None = None  # offsets in the best evidence chunk's text


class ClaimReviewOut(Schema):
    """What the reviewer said of a stored claim: marked correct or wrong, their note, and whether marking it
    correct went against the checker (an override)."""

    state: str  # open, confirmed, rejected
    note: str
    overrides_checker: bool
    kind: str | None  # why a claim marked wrong is wrong (wrong_value, wrong_name, not_in_sources, ...), if said
    reviewed_by: str | None
    reviewed_at: datetime | None


class ClaimOut(Schema):
    id: int | None = None
    text: str
    start: int
    end: int
    score: float | None
    verdict: str  # supported, uncertain, contradicted, not_found
    reasons: list[str]
    findings: list[FindingOut] = []
    evidence: list[EvidenceOut]
    review: ClaimReviewOut | None = None  # stored answers' claims only (not /check)


class DecisionOut(Schema):
    """The reviewer's decision that released (or held) the answer, with their reason or note."""

    action: str  # approve, edit, reject, escalate
    reviewer: str
    reason: str
    overrides_checker: bool
    at: datetime


class RetrievedOut(Schema):
    text: str
    source: str
    score: float | None


class AnswerOut(Schema):
    id: int
    external_id: str
    language: str
    status: str
    risk: str | None
    score: float | None
    routing_reasons: list[str]
    released_text: str | None
    decided_by: str | None
    decided_at: datetime | None
    # Added after v1's first contract (fields only added, none changed): the last decision and whether the answer
    # went out against the checker; the claims of an edited text that was sent.
    decision: DecisionOut | None = None
    overrides_checker: bool = False
    claims: list[ClaimOut]
    sent_claims: list[ClaimOut] = []
    # What the client sent of the assistant's own run (empty when it sent nothing).
    model: str = ""
    trace_url: str | None = None
    retrieved: list[RetrievedOut] = []


class CheckOut(Schema):
    score: float | None
    risk: str
    reasons: list[str]
    warnings: list[str]
    claims: list[ClaimOut]


def _evidence_payload(*, chunk, quote_start: int, quote_end: int, quote: str, score: float, flags: list[str],
                      claim_part: tuple[int, int] | None) -> dict:
    return {
        "chunk_id": chunk.pk if chunk else None,
        "document_key": chunk.version.document.key if chunk else None,
        "version": chunk.version.number if chunk else None,
        "heading": chunk.heading_path if chunk else None,
        "quote_start": quote_start, "quote_end": quote_end, "quote": quote,
        "score": round(score, 4), "flags": flags, "claim_part": list(claim_part) if claim_part else None,
    }


def _claim_payload(*, claim, evidence: list[dict], findings: list[dict], claim_id: int | None = None) -> dict:
    return {"id": claim_id, "text": claim.text, "start": claim.start, "end": claim.end,
            "score": None if claim.score is None else round(claim.score, 4), "verdict": claim.verdict,
            "reasons": claim.reasons, "findings": findings, "evidence": evidence}


def report_to_dict(report: CheckReport) -> dict:
    claims = [
        _claim_payload(claim=claim, findings=[f.as_dict() for f in claim.findings], evidence=[
            _evidence_payload(chunk=e.candidate.chunk, quote_start=e.quote_start, quote_end=e.quote_end,
                              quote=e.quote, score=e.score, flags=e.flags, claim_part=e.claim_part)
            for e in claim.evidence
        ])
        for claim in report.claims
    ]
    return {"score": None if report.score is None else round(report.score, 4), "risk": report.risk,
            "reasons": report.reasons, "warnings": report.warnings, "claims": claims}


def _stored_claim_payload(claim) -> dict:
    payload = _claim_payload(claim=claim, claim_id=claim.pk, findings=claim.findings, evidence=[
        _evidence_payload(chunk=e.chunk, quote_start=e.quote_start, quote_end=e.quote_end, quote=e.quote,
                          score=e.score, flags=e.flags,
                          claim_part=(e.claim_part_start, e.claim_part_end) if e.is_part else None)
        for e in claim.evidence.all()
    ])
    payload["review"] = {
        "state": claim.review_state, "note": claim.review_note, "overrides_checker": claim.overrides_checker,
        "kind": claim.error_kind or None,
        "reviewed_by": claim.reviewed_by.username if claim.reviewed_by_id else None, "reviewed_at": claim.reviewed_at,
    }
    return payload


def answer_to_dict(answer: Answer) -> dict:
    """Answer with claims, evidence and decisions; expects claims (with evidence, chunks and reviewers) and
    decisions prefetched."""
    all_claims = list(answer.claims.all())
    claims = [_stored_claim_payload(claim) for claim in all_claims if not claim.from_edit]
    sent_claims = [_stored_claim_payload(claim) for claim in all_claims if claim.from_edit]
    decisions = sorted(answer.decisions.all(), key=lambda d: (d.created_at, d.pk))
    last = decisions[-1] if decisions else None
    return {
        "id": answer.pk, "external_id": answer.external_id, "language": answer.language, "status": answer.status,
        "risk": answer.risk or None,
        "score": None if answer.score is None else round(answer.score, 4),
        "routing_reasons": answer.routing_reasons,
        "released_text": answer.released_text if answer.released_at else None,
        "decided_by": answer.decided_by.username if answer.decided_by_id else None,
        "decided_at": answer.decided_at, "claims": claims, "sent_claims": sent_claims,
        "decision": {"action": last.action, "reviewer": last.reviewer.username, "reason": last.reason,
                     "overrides_checker": last.overrides_checker, "at": last.created_at} if last else None,
        "overrides_checker": any(d.overrides_checker for d in decisions),
        "model": answer.assistant_model, "trace_url": answer.trace_url or None, "retrieved": answer.retrieved,
    }
