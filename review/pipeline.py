"""Claim-level checking: split an answer, find evidence for each claim, score it, assess the answer's risk.

Runs where the embedding model may be loaded (a Celery worker): both the scoring task
and the synchronous /api/v1/check (which waits for a worker) call `answer_check`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from console.metrics import CHECK_SECONDS
from console.models import SecurityLevel
from console.redaction import redact
from console.tracing import traced
from kb.embeddings import EmbeddingError, Role
from kb.models import Chunk, DocumentVersion, VersionStatus
from kb.search import SearchHit, chunks_search_many
from kb.vectors import CachedEmbedder
from checking.base import CheckerUnavailable, CheckOutcome, EvidenceCandidate
from checking.builtin import BuiltinChecker, differing_values
from checking.claims import ClaimSpan, split_claims
from checking.external import configured_checkers
from checking.facts import claim_fact
from checking.findings import Finding, about_another_subject
from checking.languages import detect_language, reasons_in, reasons_joined
from checking.model import ScoringModel
from checking.scoring import HOLDS_AGAINST_EXTERNAL, beside_verdict
from checking.verdicts import supported_at, uncertain_at, verdict_for
from checking.vocabulary import vocabulary_refresh
from review.learning.adopted import adopted_checker
from review.learning.review_labels import claims_marked_wrong_before
from review.models import Verdict
from review.policy import risk_assess
from review.reviewed_facts import FactMatch, reviewed_facts_match

logger = logging.getLogger(__name__)

MAX_EVIDENCE_PER_CLAIM = 3


@dataclass
class Candidate:
    text: str
    chunk: Chunk | None = None
    context_index: int | None = None
    offset: int = 0  # where `text` starts in the version's Markdown (0 for contexts)

    def for_checker(self) -> EvidenceCandidate:
        return EvidenceCandidate(self.text, heading=self.chunk.heading_path if self.chunk else "")


@dataclass
class EvidenceResult:
    candidate: Candidate
    quote_start: int  # absolute: in the version's Markdown, or in the context string
    quote_end: int
    score: float
    flags: list[str]
    conflicting: bool = False  # an approved source stating something else about the claim's subject
    claim_part: tuple[int, int] | None = None  # synthesis: the span of the claim only this passage supplies

    @property
    def quote(self) -> str:
        source = self.candidate.chunk.version.text if self.candidate.chunk else self.candidate.text
        return source[self.quote_start:self.quote_end]


@dataclass(frozen=True)
class ConflictingSource:
    version: DocumentVersion
    message: str  # names both sources (document, version, owner) and what differs


@dataclass
class ClaimResult:
    text: str
    start: int
    end: int
    score: float | None
    verdict: str
    reasons: list[str]
    evidence: list[EvidenceResult]
    findings: list[Finding] = field(default_factory=list)  # every checker's, for the best evidence
    # Other approved documents stating something else about the same subject (the claim goes to a person).
    conflicts: list[ConflictingSource] = field(default_factory=list)
    features: dict[str, float] = field(default_factory=dict)  # what the scoring model read (training reads it)
    fact_key: str = ""  # the fact it states (checking.facts): pending answers stating the same facts are a group
    reviewed: FactMatch | None = None  # a reviewer decided on the same fact before (review.reviewed_facts)

    @property
    def conflicting(self) -> bool:
        return bool(self.conflicts)


@dataclass
class CheckReport:
    claims: list[ClaimResult]
    score: float | None
    risk: str
    reasons: list[str]
    warnings: list[str] = field(default_factory=list)
    evidence_level: str = SecurityLevel.PUBLIC
    held_by_rule: bool = False  # high for a reason no threshold changes (review.policy)
    wrong_probability: float = 1.0
    checker_model_id: int | None = None  # the adopted scoring model that scored it


def _version_flags(version: DocumentVersion) -> list[str]:
    flags = []
    if version.document.security_level in {SecurityLevel.CONFIDENTIAL, SecurityLevel.RESTRICTED}:
        flags.append(version.document.security_level)
    now = timezone.now()
    if version.status == VersionStatus.SUPERSEDED:
        flags.append("superseded")
    elif version.status == VersionStatus.EXPIRED or (version.expires_at and version.expires_at <= now):
        flags.append("expired")
    elif version.status != VersionStatus.APPROVED or version.document.is_retired:
        flags.append("unapproved")
    elif version.effective_from > now:
        flags.append("not yet effective")
    return flags


def _candidates_for(*, hits: list[SearchHit], cited: list[Chunk], contexts: list[str]) -> list[Candidate]:
    candidates = [Candidate(text=c.text, chunk=c, offset=c.char_start) for c in cited]
    seen = {c.pk for c in cited}
    for hit in hits:
        if hit.chunk.pk not in seen:
            seen.add(hit.chunk.pk)
            candidates.append(Candidate(text=hit.chunk.text, chunk=hit.chunk, offset=hit.chunk.char_start))
    candidates += [Candidate(text=text, context_index=i) for i, text in enumerate(contexts) if text.strip()]
    return candidates


def _evidence(candidate: Candidate, *, start: int, end: int, score: float, conflicting: bool = False,
              claim_part: tuple[int, int] | None = None) -> EvidenceResult:
    flags = _version_flags(candidate.chunk.version) if candidate.chunk else ["unpinned context"]
    if conflicting:
        flags.append("conflicting")
    return EvidenceResult(candidate=candidate, quote_start=candidate.offset + start,
                          quote_end=candidate.offset + end, score=score, flags=flags, conflicting=conflicting,
                          claim_part=claim_part)


def _source_name(version: DocumentVersion) -> str:
    """A source as a reviewer names it: title, key, version and owner."""
    document = version.document
    return _("'%(title)s' (%(key)s v%(number)s, owner %(owner)s)") % {
        "title": document.title, "key": document.key, "number": version.number, "owner": document.owner.username}


def _combine_external(*, score: float, builtin_findings: list[Finding], external_scores: list[float]) -> float:
    """The README's policy: any checker can hold a claim back; a hard finding of the built-in checker (a
    contradiction, a number the evidence lacks) always holds; otherwise an external checker that supports the
    claim outweighs the built-in one's merely not finding the words."""
    if not external_scores:
        return score
    if any(f.kind in HOLDS_AGAINST_EXTERNAL for f in builtin_findings):
        return min(score, *external_scores)
    return min(external_scores)


def _about_the_same_subject(outcome: CheckOutcome) -> bool:
    """Whether a source contradicting the claim speaks of what the claim, or its contradicted clause, is about."""
    signals = outcome.signals
    return max(signals.get("subject_coverage", 0.0),
               signals.get("contradicted_clause_coverage", 0.0)) >= settings.REVIEW_CONFLICT_SUBJECT_AT


def claim_check(
    *, span: ClaimSpan, candidates: list[Candidate], embed: CachedEmbedder | None, warnings: list[str],
    model: ScoringModel | None = None,
) -> ClaimResult:
    """Score one claim against its candidates; evidence comes best first. The checkers read ``span.checked_text``
    (a back-reference's subject in its place); the result, its findings' spans included, is the claim's own."""
    claim_text = span.checked_text
    result = ClaimResult(text=span.text, start=span.start, end=span.end, score=None, verdict=Verdict.NOT_FOUND,
                         reasons=[_("no supporting source found in the approved sources")], evidence=[])
    if not candidates:
        return result
    outcome = BuiltinChecker(embed=embed, model=model).check(claim=claim_text, candidates=[c.for_checker() for c in candidates])
    result.features = outcome.features
    if outcome.candidate_index is None:
        result.reasons = outcome.reasons
        return result
    best = candidates[outcome.candidate_index]
    score, reasons, findings = outcome.score, list(outcome.reasons), list(outcome.findings)
    evidence = [_evidence(best, start=outcome.quote_start, end=outcome.quote_end, score=outcome.score)]
    # Synthesis: every passage the support was put together from is cited, beside the part of the claim it supplies.
    parts = [_evidence(candidates[part.candidate_index], start=part.quote_start, end=part.quote_end,
                       score=outcome.score, claim_part=span.span_in_text((part.claim_start, part.claim_end)))
             for part in outcome.parts]
    part_candidates = {id(candidates[part.candidate_index]) for part in outcome.parts}

    # Other candidates: shown to the reviewer; another approved document stating something else about the
    # same subject is a conflict that a person must settle.
    unflagged = not best.chunk or not _version_flags(best.chunk.version)
    for candidate in candidates:
        if candidate is best or id(candidate) in part_candidates:
            continue
        could_conflict = bool(
            score >= supported_at() and unflagged and candidate.chunk and best.chunk
            and candidate.chunk.version.document_id != best.chunk.version.document_id
            and not _version_flags(candidate.chunk.version)
        )
        if len(evidence) >= MAX_EVIDENCE_PER_CLAIM and not could_conflict:
            continue
        # Hard findings (numbers, direction, negation) need no embeddings; skipping them here keeps the
        # extra candidates cheap (embedding dominates the check's cost).
        other = BuiltinChecker(model=model).check(claim=claim_text, candidates=[candidate.for_checker()])
        contradictions = differing_values(claim=claim_text, candidate=candidate.for_checker(), outcome=other)
        conflicting = (
            could_conflict and bool(contradictions) and not about_another_subject(other.findings)
            and _about_the_same_subject(other)
        )
        if conflicting:
            result.conflicts.append(ConflictingSource(
                version=candidate.chunk.version,
                message=_("approved sources conflict: %(supporting)s supports this claim; %(other)s says otherwise "
                          "(%(said)s)") % {"supporting": _source_name(best.chunk.version),
                                           "other": _source_name(candidate.chunk.version),
                                           "said": reasons_joined(f.message for f in contradictions)},
            ))
            reasons.append(result.conflicts[-1].message)
        # Unrelated candidates (they share a few words at most) would only be noise beside the real source.
        if conflicting or (len(evidence) < MAX_EVIDENCE_PER_CLAIM and other.score >= uncertain_at()):
            evidence.append(_evidence(candidate, start=other.quote_start, end=other.quote_end, score=other.score,
                                      conflicting=conflicting))
    evidence[1:] = parts + sorted(evidence[1:], key=lambda e: (not e.conflicting, -e.score))

    external_scores = []
    for checker in configured_checkers():
        try:
            external = checker.check(claim=claim_text, candidates=[evidence[0].candidate.for_checker()])
        except CheckerUnavailable as exc:
            # Kept, logged and returned by /api/v1/check: what an endpoint answered may echo its credentials.
            message = redact(f"{checker.name} checker skipped: {exc}")
            logger.warning(message)
            if message not in warnings:
                warnings.append(message)
            continue
        reasons += external.reasons
        findings += external.findings
        external_scores.append(external.score)
    score = _combine_external(score=score, builtin_findings=outcome.findings, external_scores=external_scores)
    result.score, result.evidence = score, evidence
    result.verdict = verdict_for(score=score, findings=findings, has_evidence=True)
    findings = [replace(f, claim_span=span.span_in_text(f.claim_span)) if f.claim_span else f for f in findings]
    result.findings, result.reasons = beside_verdict(verdict=result.verdict, findings=findings, reasons=reasons)
    return result


def answer_check(
    *, question: str, answer_text: str, clearance: str, contexts: Sequence[str] = (),
    cited_chunks: Sequence[Chunk] = (), retrieve: bool = True, language: str | None = None,
    reviewed_facts: bool = True,
) -> CheckReport:
    """`language`: the answer's (Answer.language); detected from the question and the answer when not given. Every
    reason is written in it (a Chinese answer's in Chinese), whoever asks. `reviewed_facts`: what reviewers decided
    on the same facts before counts (review.reviewed_facts); an evaluation of the checker itself leaves it out."""
    language = language or detect_language(f"{question}\n{answer_text}")
    vocabulary_refresh()  # a pair accepted or removed in another process counts from this check on
    with CHECK_SECONDS.time(), traced("answer check", language=language), reasons_in(language):
        return _answer_check(question=question, answer_text=answer_text, clearance=clearance, contexts=contexts,
                             cited_chunks=cited_chunks, retrieve=retrieve, language=language,
                             reviewed_facts=reviewed_facts)


def _reviewed_apply(claim: ClaimResult, match: FactMatch) -> None:
    """A confirmed fact supports the claim by review unless its source contradicts it (a hard contradiction always
    holds: the claim then stands as checked); a rejected one is named, and holds the answer (review.policy)."""
    if match.confirmed and claim.verdict == Verdict.CONTRADICTED:
        return
    claim.reviewed = match
    if match.confirmed:
        claim.verdict = Verdict.SUPPORTED
    claim.reasons = [match.reason(), *claim.reasons]


def _answer_check(
    *, question: str, answer_text: str, clearance: str, contexts: Sequence[str], cited_chunks: Sequence[Chunk],
    retrieve: bool, language: str, reviewed_facts: bool,
) -> CheckReport:
    spans = split_claims(answer_text)
    adopted = adopted_checker()
    warnings: list[str] = []
    embedder: CachedEmbedder | None = None
    vectors: list[list[float] | None] = [None] * len(spans)
    try:
        embedder = CachedEmbedder(language=language)
        vectors = [vector.tolist() for vector in embedder.vectors_for([s.checked_text for s in spans],
                                                                      role=Role.QUERY)]
    except EmbeddingError as exc:
        warnings.append(redact(f"semantic similarity unavailable: {exc}"))
        embedder = None

    # Every claim's retrieval in one pass (one evidence filter, shared statements).
    hits: list[list[SearchHit]] = [
        search.hits for search in chunks_search_many(queries=[s.checked_text for s in spans], clearance=clearance,
                                                     k=settings.REVIEW_RETRIEVAL_K, vectors=vectors,
                                                     language=language)
    ] if retrieve else [[] for _ in spans]
    candidates = [_candidates_for(hits=found, cited=list(cited_chunks), contexts=list(contexts)) for found in hits]
    if embedder is not None:
        embedder.stored_units_load(chunk_ids={c.chunk.pk for found in candidates for c in found if c.chunk})
    claims = [claim_check(span=span, embed=embedder, warnings=warnings, candidates=found, model=adopted.model)
              for span, found in zip(spans, candidates, strict=True)]
    facts = [claim_fact(claim.text, language=language) for claim in claims]
    for claim, span, fact in zip(claims, spans, facts, strict=True):
        # "It costs $40" states a fact only with the claim before it: it joins no group, where one decision
        # would settle it for answers about other things
        claim.fact_key = "" if span.reference else fact.key
    if reviewed_facts:
        matches = reviewed_facts_match(claims=claims, facts=facts)
        for claim, span, match in zip(claims, spans, matches, strict=True):
            # nor rests on a confirmation given where "it" was something else; a rejection still holds it
            if match is not None and not (match.confirmed and span.reference):
                _reviewed_apply(claim, match)

    scores = [c.score if c.score is not None else 0.0 for c in claims]
    assessment = risk_assess(
        question=question, answer_text=answer_text, claims=claims,
        release_threshold=adopted.release_threshold_for(language),
        marked_wrong_before=claims_marked_wrong_before(answer_text=answer_text, claim_texts=[c.text for c in claims]),
    )
    levels = [e.candidate.chunk.version.document.security_level for c in claims for e in c.evidence if e.candidate.chunk]
    evidence_level = max(levels, key=SecurityLevel.rank, default=SecurityLevel.PUBLIC)
    return CheckReport(claims=claims, score=min(scores) if scores else None, risk=assessment.risk,
                       reasons=assessment.reasons, warnings=warnings, evidence_level=evidence_level,
                       held_by_rule=assessment.held_by_rule, wrong_probability=assessment.wrong_probability,
                       checker_model_id=adopted.model_id)
