"""POST /api/v1/ask, a Router of the API assembled in config/api.py (same bearer tokens, errors and OpenAPI
document)."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from ninja import Field, Router, Schema

from ask.services import AskResult, ask_question
from console.api import Text, errors_documented

router = Router(tags=["ask"])
ERRORS = errors_documented(400, 401, 403, 429)


class AskIn(Schema):
    question: Text = Field(min_length=1, max_length=2000)
    k: int = Field(5, ge=1, le=20, description="passages retrieved (within the client's clearance)")


class SourceIdOut(Schema):
    document_key: str
    version: int
    chunk_id: int


class AskClaimOut(Schema):
    source_id: SourceIdOut
    source_title: str
    quote_start: int = Field(description="offset of the quote in the version's text")
    quote_end: int
    text: str


class ConflictSourceOut(Schema):
    document_key: str
    title: str
    version: int
    owner: str
    chunk_id: int
    quote_start: int
    quote_end: int
    text: str = Field(description="what this source says (the differing text)")


class ConflictOut(Schema):
    claim: str
    message: str
    sources: list[ConflictSourceOut] = Field(description="the supporting source, then the one saying otherwise")


class AskOut(Schema):
    status: str = Field(description="answered, insufficient_evidence or conflict")
    answer: str | None
    claims: list[AskClaimOut]
    missing_terms: list[str] = Field(description="key terms and constraints (dates, numbers, names) of the question "
                                                 "no qualified evidence covers")
    refusal_reasons: list[str] = Field([], description="each constraint no source meets, in the asker's language")
    conflicts: list[ConflictOut]
    answer_id: int | None = Field(None, description="the answer sent to scoring and review (answered, conflict)")
    answer_url: str | None = Field(None, description="GET it for status, risk and the released text")
    answer_status: str | None = None
    risk: str | None = Field(None, description="low, medium, high; null while scoring")
    routing: str | None = Field(None, description="auto-released, or waits for review")
    routing_reasons: list[str] = []
    generator: str
    warnings: list[str] = []


def result_to_dict(result: AskResult, *, answer_url: str | None) -> dict:
    return {
        "status": result.status, "answer": result.answer, "claims": result.claims,
        "missing_terms": result.missing_terms, "refusal_reasons": result.refusal_reasons,
        "conflicts": result.conflicts, "answer_id": result.answer_id,
        "answer_url": answer_url, "answer_status": result.answer_status, "risk": result.risk,
        "routing": result.routing, "routing_reasons": result.routing_reasons, "generator": result.generator,
        "warnings": result.warnings,
    }


@router.post("/ask", response={200: AskOut, **ERRORS}, url_name="ask",
             summary="Ask a question: answered from approved sources, refused, or handed to a person")
def ask(request: HttpRequest, body: AskIn):
    result = ask_question(question=body.question, client=request.auth, k=body.k)
    answer_url = (request.build_absolute_uri(reverse("api:answer_get", args=[result.answer_id]))
                  if result.answer_id else None)
    return result_to_dict(result, answer_url=answer_url)
