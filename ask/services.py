"""Asking: retrieval within clearance -> evidence gate -> composed answer -> the checker -> scoring and review.

`ask_draft` does the part that sends nothing (the evaluation runs it); `ask_question` stores the ask and, for an
answered or conflicting question, submits the answer through review.services.answer_create with the draft's check:
the check scoring would run (review.pipeline.answer_check, on the same answer and cited passages), run once and
stored, then the same routing and review as POST /api/v1/answers. A conflict is decided by that check, so the queue
holds it at high risk naming both sources. A refusal sends nothing; it is stored (Ask) so refusals can be counted.
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass, field

from django.utils.translation import gettext

from ask.compose import ComposedClaim, Composition, answer_compose
from ask.gate import GateDecision, gate_decide
from ask.llm import GenerationRejected, answer_generate, llm_configured
from ask.models import Ask, AskStatus, Generator, Routing
from checking.vocabulary import vocabulary_refresh
from console.audit import audit_record
from kb.search import SearchHit, chunks_search
from review import services as review_services
from review.models import Answer, AnswerStatus, ApiClient
from review.pipeline import CheckReport, answer_check

logger = logging.getLogger(__name__)

PLAYGROUND_CLIENT = "ask-playground-{clearance}"


@dataclass
class AskDraft:
    """What asking would answer, before anything is sent."""

    question: str
    clearance: str
    status: str
    hits: list[SearchHit]
    gate: GateDecision
    composition: Composition | None = None
    report: CheckReport | None = None  # the checker on the composed answer (what scoring will find)
    conflicts: list[dict] = field(default_factory=list)
    generator: str = Generator.EXTRACTIVE
    generation_error: str = ""
    warnings: list[str] = field(default_factory=list)

    @property
    def answer(self) -> str | None:
        return self.composition.answer if self.composition and self.status != AskStatus.INSUFFICIENT_EVIDENCE else None

    @property
    def claims(self) -> list[ComposedClaim]:
        return self.composition.claims if self.composition and self.answer is not None else []


@dataclass
class AskResult:
    ask_id: int
    status: str
    answer: str | None
    claims: list[dict]
    missing_terms: list[str]
    conflicts: list[dict]
    refusal_reasons: list[str] = field(default_factory=list)  # the question's constraints no source meets
    answer_id: int | None = None
    answer_status: str | None = None  # the review answer's: scoring, released, pending_review, ...
    risk: str | None = None
    routing: str | None = None  # auto-released, waits for review, scoring (not scored yet)
    routing_reasons: list[str] = field(default_factory=list)
    generator: str = Generator.EXTRACTIVE
    generation_error: str = ""
    warnings: list[str] = field(default_factory=list)

    @property
    def status_label(self) -> str:
        return AskStatus(self.status).label

    @property
    def routing_label(self) -> str:
        return Routing(self.routing).label if self.routing else ""

    @property
    def generator_label(self) -> str:
        return Generator(self.generator).label


def _source(evidence) -> dict:
    version = evidence.candidate.chunk.version
    return {"document_key": version.document.key, "title": version.document.title, "version": version.number,
            "owner": version.document.owner.username, "chunk_id": evidence.candidate.chunk.pk,
            "quote_start": evidence.quote_start, "quote_end": evidence.quote_end, "text": evidence.quote}


def conflicts_from(report: CheckReport) -> list[dict]:
    """Each claim the checker found two effective sources disagreeing on: the supporting and the other source."""
    conflicts = []
    for claim in report.claims:
        if not claim.conflicts or not claim.evidence or not claim.evidence[0].candidate.chunk:
            continue
        for conflicting, message in zip([e for e in claim.evidence if e.conflicting], claim.conflicts, strict=False):
            conflicts.append({"claim": claim.text, "message": message.message,
                              "sources": [_source(claim.evidence[0]), _source(conflicting)]})
    return conflicts


def _generate(draft: AskDraft) -> None:
    """The model's answer when one is configured; on any rejection (recorded) the extractive composer's."""
    qualified = draft.gate.qualified
    if llm_configured():
        try:
            composition = answer_generate(question=draft.question, hits=qualified)
        except GenerationRejected as exc:
            logger.warning("ask: model output rejected, extractive composer used: %s", exc)
            draft.generation_error = str(exc)
            draft.warnings.append(gettext("the model's answer was rejected (%(error)s); answered extractively instead")
                                 % {"error": exc})
        else:
            draft.generator = Generator.LLM
            if composition is None:
                draft.status = AskStatus.INSUFFICIENT_EVIDENCE
                return
            draft.composition = composition
            return
    draft.composition = answer_compose(question=draft.question, terms=draft.gate.key_terms, hits=qualified)
    if not draft.composition.claims:
        draft.status = AskStatus.INSUFFICIENT_EVIDENCE


def ask_draft(*, question: str, clearance: str, k: int = 5) -> AskDraft:
    """Retrieve within `clearance`, gate, compose and check; nothing is stored or sent."""
    search = chunks_search(query=question, clearance=clearance, k=k)
    vocabulary_refresh()  # the gate reads the accepted synonyms as they are now, whichever process accepted them
    gate = gate_decide(question=question, hits=search.hits)
    draft = AskDraft(question=question, clearance=clearance, status=gate.status, hits=search.hits, gate=gate,
                     warnings=[*search.warnings, *gate.warnings])
    if gate.status != AskStatus.ANSWERED:
        return draft
    _generate(draft)
    if draft.status != AskStatus.ANSWERED:
        return draft
    # The very check scoring runs on this answer and its citations (stored with the answer: it runs once): its
    # conflicts are the sources' conflicts.
    draft.report = answer_check(question=question, answer_text=draft.composition.answer, clearance=clearance,
                                cited_chunks=list({claim.chunk.pk: claim.chunk for claim in draft.claims}.values()))
    draft.conflicts = conflicts_from(draft.report)
    if draft.conflicts:
        draft.status = AskStatus.CONFLICT
    return draft


def playground_client(*, clearance: str) -> ApiClient:
    """The Ask page's answers go to review as this client (one per clearance, so scoring retrieves within the
    asker's clearance). It holds no usable token and is inactive: nobody can call the API as it."""
    client, _ = ApiClient.objects.get_or_create(
        name=PLAYGROUND_CLIENT.format(clearance=clearance),
        defaults={"clearance": clearance, "is_active": False, "token_prefix": "-",
                  "token_hash": ApiClient.hash_token(secrets.token_urlsafe(32))},
    )
    return client


def _routing(answer: Answer) -> str:
    return Routing.RELEASED if answer.status == AnswerStatus.RELEASED and not answer.decided_by_id else Routing.REVIEW


def ask_question(*, question: str, client: ApiClient | None = None, user=None, k: int = 5) -> AskResult:
    """Ask as an API client, or as a staff user (the Ask page: the user's clearance limits retrieval)."""
    if (client is None) == (user is None):
        raise ValueError("ask as a client or as a user")
    started = time.perf_counter()
    clearance = client.clearance if client else user.clearance
    draft = ask_draft(question=question, clearance=clearance, k=k)
    claims = [claim.as_dict() for claim in draft.claims]
    refused = draft.status == AskStatus.INSUFFICIENT_EVIDENCE
    result = AskResult(ask_id=0, status=draft.status, answer=draft.answer, claims=claims,
                       missing_terms=draft.gate.missing if refused else [],
                       refusal_reasons=draft.gate.reasons if refused else [], conflicts=draft.conflicts,
                       generator=draft.generator, generation_error=draft.generation_error, warnings=draft.warnings)
    answer = None
    if draft.answer is not None:
        answer, _ = review_services.answer_create(
            client=client or playground_client(clearance=clearance), question=question, text=draft.answer,
            external_id=f"ask:{user.username}" if user else "", citations=[claim.chunk.pk for claim in draft.claims],
            sandbox=user is not None,  # the Ask page: a person trying questions, not production traffic
            report=draft.report,
        )
    ask = Ask.objects.create(
        question=question, status=draft.status, clearance=clearance, client=client, user=user, answer=answer,
        missing_terms=result.missing_terms, claims=claims, conflicts=draft.conflicts, generator=draft.generator,
        generation_error=draft.generation_error, elapsed_ms=round((time.perf_counter() - started) * 1000),
    )
    result.ask_id = ask.pk
    if draft.generation_error:
        audit_record(verb="ask.generation_rejected", obj=ask, actor=user,
                     actor_label=f"api:{client.name}" if client else "", after={"error": draft.generation_error[:500]})
    if answer is not None:
        result.answer_id, result.answer_status, result.risk = answer.pk, answer.status, answer.risk or None
        result.routing, result.routing_reasons = _routing(answer), answer.routing_reasons
    return result
