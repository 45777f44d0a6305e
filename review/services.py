"""Writes for answers: intake, scoring, routing, release and decisions; and self-test results (webhooks:
review/webhooks.py)."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from checking.languages import detect_language
from console.audit import audit_label, audit_record
from console.dispatch import broker_unreachable, enqueue_on_commit
from console.redaction import redact
from console.work_claims import WorkClaimKind
from kb.models import Chunk, DocumentVersion
from review.learning.review_labels import review_labels_record
from review.leases import DecisionConflict, answer_lease_hold, answer_require_lease
from review.models import (
    RISK_ORDER, Answer, AnswerStatus, ApiClient, Claim, ClaimReview, Decision, ErrorKind, Evidence, Risk, SelfTestRun,
    Verdict, WebhookState,
)
from review.pipeline import CheckReport, answer_check
from review.gold import gold_copy_decided
from review.reviewed_facts import reviewed_facts_record
from review.second_review import answer_first_approve, reviewer_marks_record, second_review_needed
from review.vocabulary_learning import vocabulary_learn

logger = logging.getLogger(__name__)

SCORING_STALE_AFTER = timedelta(minutes=5)


class CheckUnavailable(Exception):
    """No worker answered a synchronous check in time, or the broker or result backend is down."""


def answer_check_on_worker(*, answer_text: str, clearance: str, question: str = "", contexts: list[str] | None = None,
                           retrieve: bool = True) -> dict:
    """Check now and wait: the check runs on a worker, where the embedding model is loaded."""
    from celery.exceptions import TimeoutError as CeleryTimeout

    from review.tasks import answer_check_sync

    payload = {"answer": answer_text, "question": question, "contexts": contexts or [], "clearance": clearance,
               "retrieve": retrieve}
    try:
        return answer_check_sync.delay(payload).get(timeout=settings.API_CHECK_TIMEOUT)
    except CeleryTimeout as exc:
        logger.warning("synchronous check timed out: %s", exc)
        raise CheckUnavailable("no checking worker answered in time; try again shortly") from exc
    except Exception as exc:
        if not broker_unreachable(exc):
            raise
        logger.warning("synchronous check impossible, broker or result backend down: %s: %s", type(exc).__name__, exc)
        raise CheckUnavailable("the checking service is unavailable (its queue cannot be reached); "
                               "try again shortly") from exc


def selftest_record(*, version: DocumentVersion, per_kind: dict[str, list[int]], checker: str) -> SelfTestRun:
    """Keep a self-test's outcome ({kind: [correct, total]}) for the version page."""
    return SelfTestRun.objects.create(
        version=version, per_kind=per_kind, checker=checker,
        total=sum(total for _, total in per_kind.values()), correct=sum(correct for correct, _ in per_kind.values()),
    )


class IdempotencyConflict(Exception):
    """The Idempotency-Key was used before with a different request body."""


def api_client_create(*, name: str, clearance: str) -> tuple[ApiClient, str]:
    """Create a client and return it with its token; only the token's hash is kept."""
    token = ApiClient.new_token()
    client = ApiClient.objects.create(
        name=name, clearance=clearance, token_hash=ApiClient.hash_token(token), token_prefix=token[:8],
        webhook_secret=secrets.token_hex(32),
    )
    audit_record(verb="api_client.create", obj=client, actor_label="create_api_client",
                 after={"name": name, "clearance": clearance})
    return client, token


def _request_hash(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def answer_create(
    *, client: ApiClient, question: str, text: str, external_id: str = "", contexts: list[str] | None = None,
    citations: list[int] | None = None, callback_url: str = "", idempotency_key: str | None = None,
    language: str | None = None, sandbox: bool = False, report: CheckReport | None = None,
    assistant_model: str = "", trace_url: str = "", retrieved: list[dict] | None = None,
) -> tuple[Answer, bool]:
    """Store an answer for scoring; returns (answer, created). A repeated Idempotency-Key returns the first answer.
    `language`: the client's word for it; without one it is detected from the question and the answer.
    `sandbox`: asked on the Ask page, left out of production figures. `report`: the answer was checked already,
    exactly as scoring would check it (asking composed it and checked it against its citations): it is stored and
    routed now, and no worker checks it again."""
    payload = {"question": question, "answer": text, "external_id": external_id, "contexts": contexts or [],
               "citations": citations or [], "callback_url": callback_url}
    if language:  # only when given: the hash of a request without it stays what it was
        payload["language"] = language
    for name, value in (("model", assistant_model), ("trace_url", trace_url), ("retrieved", retrieved)):
        if value:  # the same: a request without the assistant's context hashes as before
            payload[name] = value
    request_hash = _request_hash(payload)
    if idempotency_key:
        existing = Answer.objects.filter(client=client, idempotency_key=idempotency_key).first()
        if existing is not None:
            return _same_request(existing, request_hash), False
    from review.tasks import answer_score

    try:
        with transaction.atomic():
            answer = Answer.objects.create(
                client=client, question=question, text=text, external_id=external_id, contexts=contexts or [],
                citations=citations or [], callback_url=callback_url, idempotency_key=idempotency_key or None,
                language=language or detect_language(f"{question}\n{text}"),
                request_hash=request_hash, scoring_requested_at=timezone.now(), sandbox=sandbox,
                assistant_model=assistant_model, trace_url=trace_url, retrieved=retrieved or [],
                # Until scoring knows its evidence, only those cleared like the client may read the answer.
                evidence_level=client.clearance,
            )
            audit_record(verb="answer.receive", obj=answer, actor_label=f"api:{client.name}",
                         after={"external_id": external_id, "status": answer.status})
            if report is not None:
                answer = answer_store_report(answer=answer, report=report)
            else:
                # The answer, "scoring" and not started, is what asks for the work: a lost message is sent again.
                enqueue_on_commit(answer_score, answer.pk)
    except IntegrityError:
        # A concurrent request with the same key won the race: answer with its result.
        existing = Answer.objects.get(client=client, idempotency_key=idempotency_key)
        return _same_request(existing, request_hash), False
    return answer, True


def _same_request(existing: Answer, request_hash: str) -> Answer:
    if existing.request_hash != request_hash:
        raise IdempotencyConflict("this Idempotency-Key was already used with a different request body")
    return existing


# Scoring is work a worker claims (console/work_claims.py): the answer waits while "scoring" and not started.
ANSWER_SCORING = WorkClaimKind(
    name="scoring of answer", model=Answer,
    waiting=Q(status=AnswerStatus.SCORING, scoring_started_at__isnull=True),
    held=Q(status=AnswerStatus.SCORING, scoring_started_at__isnull=False),
    worker_field="scoring_worker", held_at_field="scoring_started_at", requested_at_field="scoring_requested_at",
    task_id_field="scoring_task_id", task="review.tasks.answer_score", stale_after=lambda: SCORING_STALE_AFTER,
    handed_back={"scoring_started_at": None},
)


def answer_score_run(*, answer_id: int) -> Answer:
    answer = Answer.objects.select_related("client").get(pk=answer_id)
    cited = list(
        Chunk.objects.select_related("version__document__owner", "version__approved_by")
        .filter(pk__in=answer.citations)
    )
    report = answer_check(question=answer.question, answer_text=answer.text, clearance=answer.client.clearance,
                          contexts=answer.contexts, cited_chunks=cited, language=answer.language)
    return answer_store_report(answer=answer, report=report)


@transaction.atomic
def answer_store_report(*, answer: Answer, report: CheckReport) -> Answer:
    answer = Answer.objects.select_for_update().get(pk=answer.pk)
    if answer.status != AnswerStatus.SCORING:
        return answer  # a stalled attempt finishing after its replacement: the first report stands
    answer.claims.all().delete()  # an interrupted earlier attempt may have left some
    for ordinal, result in enumerate(report.claims):
        claim = Claim.objects.create(answer=answer, ordinal=ordinal, text=result.text, start=result.start,
                                     end=result.end, score=result.score, verdict=result.verdict,
                                     reasons=result.reasons, findings=[f.as_dict() for f in result.findings],
                                     features=result.features, fact_key=result.fact_key,
                                     reviewed_fact_id=result.reviewed.fact_id if result.reviewed else None)
        Evidence.objects.bulk_create(
            Evidence(claim=claim, chunk=e.candidate.chunk, context_index=e.candidate.context_index,
                     quote_start=e.quote_start, quote_end=e.quote_end, score=e.score, rank=rank, flags=e.flags,
                     claim_part_start=e.claim_part[0] if e.claim_part else None,
                     claim_part_end=e.claim_part[1] if e.claim_part else None)
            for rank, e in enumerate(result.evidence, start=1)
        )
    answer.score = report.score
    answer.risk = report.risk
    answer.risk_order = RISK_ORDER[report.risk]
    answer.wrong_probability = report.wrong_probability
    answer.held_by_rule = report.held_by_rule
    answer.routing_reasons = report.reasons
    answer.checker_warnings = report.warnings
    answer.evidence_level = report.evidence_level
    answer.scored_at = timezone.now()
    sampled = random.random() < settings.REVIEW_AUDIT_SAMPLE_RATE  # low-risk answers a person looks at anyway
    # Which claims rested on what reviewers decided before: the audit trail says so.
    reviewed = {"reviewed_facts": sorted({c.reviewed.fact_id for c in report.claims if c.reviewed})} \
        if any(c.reviewed for c in report.claims) else {}
    if report.risk == Risk.LOW and not sampled:
        answer.save()
        audit_record(verb="answer.score", obj=answer, actor_label="checker",
                     after={"risk": answer.risk, "score": answer.score, "route": "release", **reviewed})
        return answer_release(answer=answer, text=answer.text, actor_label="auto-release (low risk)")
    if report.risk == Risk.LOW:
        answer.sampled_for_audit = True
        answer.audit_sample_rate = settings.REVIEW_AUDIT_SAMPLE_RATE
        answer.routing_reasons = [*report.reasons, "sampled for audit review"]
    answer.status = AnswerStatus.PENDING_REVIEW
    answer.save()
    audit_record(verb="answer.score", obj=answer, actor_label="checker",
                 after={"risk": answer.risk, "score": answer.score, "route": "review", **reviewed})
    return answer


def answer_scoring_failed(*, answer_id: int, error: str) -> None:
    """Scoring could not finish: the answer waits for a person rather than going out unchecked.

    With no evidence found, the answer may rest on anything its client could see: only reviewers cleared
    like the client read it."""
    clearance = ApiClient.objects.filter(answers=answer_id).values_list("clearance", flat=True).get()
    error = redact(error)  # exception text may carry a checker's key or an endpoint's URL with its token
    Answer.objects.filter(pk=answer_id, status=AnswerStatus.SCORING).update(
        status=AnswerStatus.PENDING_REVIEW, risk=Risk.HIGH, risk_order=RISK_ORDER[Risk.HIGH], wrong_probability=1.0,
        held_by_rule=True, routing_reasons=[f"automatic checking failed: {error[:500]}"], scoring_error=error[:2000],
        scored_at=timezone.now(), evidence_level=clearance,
    )


def answer_release(
    *, answer: Answer, text: str, status: str = AnswerStatus.RELEASED, actor=None, actor_label: str = "",
    webhook_delay: int = 0,
) -> Answer:
    """Release = status change + webhook to the callback URL, pending in the same transaction, sent after commit.
    `webhook_delay`: seconds the webhook waits (a reject's undo window): no attempt is claimed before then."""
    before = {"status": answer.status}
    answer.status = status
    answer.released_text = text
    answer.released_at = timezone.now()
    fields = ["status", "released_text", "released_at"]
    if answer.callback_url:
        answer.webhook_state = WebhookState.PENDING
        answer.webhook_next_attempt_at = answer.released_at + timedelta(seconds=webhook_delay)
        fields += ["webhook_state", "webhook_next_attempt_at"]
    answer.save(update_fields=fields)
    audit_record(verb="answer.release", obj=answer, actor=actor, actor_label=actor_label, before=before,
                 after={"status": status, "released_text": text[:500]})
    if answer.callback_url:
        from review.tasks import webhook_deliver

        enqueue_on_commit(webhook_deliver, answer.pk, countdown=webhook_delay or None)
    return answer


# Review: leases and decisions ------------------------------------------------------------------------------


class DecisionInvalid(ValueError):
    """The decision is not allowed as asked (e.g. high risk with unconfirmed claims, override without reason)."""


def error_kind_problem(kind: str) -> str:
    """Why `kind` is no error kind (review.models.ErrorKind), in the reviewer's words; empty when it is one."""
    if not kind or kind in ErrorKind.values:
        return ""
    return _("“%(kind)s” is no kind of error; the kinds are: %(kinds)s.") % {
        "kind": kind[:40], "kinds": ", ".join(ErrorKind.values)}


@transaction.atomic
def claim_review(*, claim: Claim, reviewer, state: str, note: str = "", kind: str = "") -> Claim:
    """Mark a claim correct or wrong (or open again: undo). Correct against the checker needs a note and is an
    override. `kind`: why a claim marked wrong is wrong (review.models.ErrorKind); only a wrong claim has one."""
    if problem := error_kind_problem(kind):
        raise DecisionInvalid(problem)
    if kind and state != ClaimReview.REJECTED:
        raise DecisionInvalid(_("Only a claim marked wrong has a kind of error."))
    answer = Answer.objects.select_for_update().get(pk=claim.answer_id)
    answer_require_lease(answer, reviewer)
    claim = Claim.objects.get(pk=claim.pk, from_edit=False)
    claim.answer = answer  # the locked row: the audit record reads its level from it, not from a query of its own
    overrides = state == ClaimReview.CONFIRMED and claim.correct_needs_note
    if overrides and not note:
        raise DecisionInvalid(_("The checker found claim %(number)s %(verdict)s: say in the note why it is correct.")
                              % {"number": claim.ordinal + 1, "verdict": claim.get_verdict_display().lower()})
    reopened = state == ClaimReview.OPEN
    if (claim.review_state, claim.review_note, claim.overrides_checker, claim.error_kind) == (
            state, "" if reopened else note, overrides, kind):
        answer_lease_hold(answer, reviewer)  # the same mark again changes nothing: no audit row for it
        return claim
    before = {"review": audit_label(claim, "review_state"), "note": claim.review_note,
              "overrides_checker": claim.overrides_checker, "kind": claim.error_kind}
    claim.review_state = state
    claim.review_note = "" if reopened else note
    claim.overrides_checker = overrides
    claim.error_kind = kind
    claim.reviewed_by = None if reopened else reviewer
    claim.reviewed_at = None if reopened else timezone.now()
    claim.save(update_fields=["review_state", "review_note", "overrides_checker", "error_kind", "reviewed_by",
                              "reviewed_at"])
    after = {"review": audit_label(claim, "review_state"), "note": claim.review_note, "overrides_checker": overrides,
             "kind": kind}
    audit_record(verb=f"claim.{state}", obj=claim, actor=reviewer, note=claim.review_note,
                 before={field: value for field, value in before.items() if value != after[field]},
                 after={field: value for field, value in after.items() if value != before[field]})
    answer_lease_hold(answer, reviewer)  # activity keeps the lease alive
    return claim


@transaction.atomic
def claims_confirm_supported(*, answer: Answer, reviewer) -> int:
    """Mark correct every claim the checker supports that is still open (the reviewer agrees with the checker on
    them; none needs a note); how many. DecisionConflict without the reviewer's lease."""
    locked = Answer.objects.select_for_update().get(pk=answer.pk)
    answer_require_lease(locked, reviewer)
    supported = list(locked.claims.filter(from_edit=False, verdict=Verdict.SUPPORTED, review_state=ClaimReview.OPEN))
    for claim in supported:
        claim_review(claim=claim, reviewer=reviewer, state=ClaimReview.CONFIRMED)
    return len(supported)


def decision_blockers(*, answer: Answer, claims: list[Claim], action: str) -> str:
    """Why this action cannot be taken yet, in the reviewer's words; empty when it can.

    Every flagged claim must be marked first; approving also needs no claim marked wrong, high risk needs every
    claim marked correct, and two approved sources that disagree about a claim need the reviewer's word on which
    one is right (the choice lists the wrong one for its owner)."""
    def numbers(selected: list[Claim]) -> str:
        return ", ".join(str(c.ordinal + 1) for c in selected)

    open_flagged = [c for c in claims if c.is_flagged and c.review_state == ClaimReview.OPEN]
    if action == Decision.Action.EDIT and not answer.first_approved_by_id and second_review_needed(answer):
        # One person may not send what needs two: the edit is the second reviewer's, after a first approval.
        return _("This answer needs two people: approve it (a second reviewer then approves or edits it) or "
                 "reject it.")
    if action == Decision.Action.EDIT:
        return (_("Mark each flagged claim correct or wrong before editing (still open: claim %(numbers)s).")
                % {"numbers": numbers(open_flagged)} if open_flagged else "")
    if action != Decision.Action.APPROVE:
        return ""
    wrong = [c for c in claims if c.review_state == ClaimReview.REJECTED]
    if wrong:
        return _("Claim %(numbers)s is marked wrong: edit the answer or reject it.") % {"numbers": numbers(wrong)}
    if answer.risk == Risk.HIGH:
        still_open = [c for c in claims if c.review_state != ClaimReview.CONFIRMED]
        if still_open:
            return (_("High risk: mark every claim correct before approving (still open: claim %(numbers)s).")
                    % {"numbers": numbers(still_open)})
    if open_flagged:
        return (_("Mark each flagged claim correct or wrong before approving (still open: claim %(numbers)s).")
                % {"numbers": numbers(open_flagged)})
    unsettled = [c for c in claims if any(not pair.right for pair in c.conflict_pairs)]
    if unsettled:
        return (_("Approved sources disagree about claim %(numbers)s: say which source is right before approving.")
                % {"numbers": numbers(unsettled)})
    return ""


def _overrides_checker(action: str, claims: list[Claim], edited_risk: str | None) -> bool:
    """Does this decision go against the checker? Edited text is judged by its own re-check."""
    if action == Decision.Action.EDIT:
        return edited_risk == Risk.HIGH
    if action == Decision.Action.APPROVE:
        return any(c.overrides_checker for c in claims)
    if action == Decision.Action.REJECT:
        flagged = any(c.is_flagged for c in claims)
        return not flagged and not any(c.review_state == ClaimReview.REJECTED for c in claims)
    return False


def _claim_notes(claims: list[Claim]) -> str:
    """The reviewer's own words for each claim they marked correct against the checker."""
    return "; ".join(f"claim {c.ordinal + 1} is correct: {c.review_note}" for c in claims if c.overrides_checker)


def _edited_claims_store(answer: Answer, check: dict) -> None:
    """Keep the re-check of the text that was sent: its claims and evidence, so trace and reverse trace see it."""
    for ordinal, result in enumerate(check["claims"]):
        claim = Claim.objects.create(answer=answer, from_edit=True, ordinal=ordinal, text=result["text"],
                                     start=result["start"], end=result["end"], score=result["score"],
                                     verdict=result["verdict"], reasons=result["reasons"],
                                     findings=result["findings"])
        Evidence.objects.bulk_create(
            Evidence(claim=claim, chunk_id=e["chunk_id"], quote_start=e["quote_start"], quote_end=e["quote_end"],
                     score=e["score"], rank=rank, flags=e["flags"],
                     claim_part_start=e["claim_part"][0] if e.get("claim_part") else None,
                     claim_part_end=e["claim_part"][1] if e.get("claim_part") else None)
            for rank, e in enumerate((e for e in result["evidence"] if e["chunk_id"]), start=1)
        )


@transaction.atomic
def answer_decide(
    *, answer: Answer, reviewer, action: str, reason: str = "", edited_text: str = "",
    edited_check: dict | None = None,
) -> Answer:
    """Approve & send, edit & send, reject or escalate. Exactly one decision wins (row lock + status check).
    `edited_check`: the re-check of `edited_text` (review.api_schemas.report_to_dict), stored with the edit."""
    locked = Answer.objects.select_for_update().get(pk=answer.pk)
    answer_require_lease(locked, reviewer)
    # Evidence and source choices with the claims: the conflicts among them may block approving.
    claims = list(locked.claims.filter(from_edit=False).prefetch_related(
        "evidence__chunk__version__document", "source_corrections"))
    reason = reason.strip()

    if problem := decision_blockers(answer=locked, claims=claims, action=action):
        raise DecisionInvalid(problem)
    if action == Decision.Action.EDIT and (not edited_text.strip() or edited_check is None):
        raise DecisionInvalid(_("The edited answer is empty.") if not edited_text.strip()
                              else _("The edited answer must be re-checked before it is sent."))
    edited_risk = edited_check["risk"] if edited_check else None
    overrides = _overrides_checker(action, claims, edited_risk)
    if overrides and action != Decision.Action.APPROVE and not reason:
        raise DecisionInvalid(_("This decision goes against the checker: say why in the reason field."))
    if action == Decision.Action.APPROVE and overrides:
        reason = "; ".join(filter(None, [reason, _claim_notes(claims)]))
    if action == Decision.Action.ESCALATE and locked.escalated:
        raise DecisionInvalid(_("This answer is escalated already: approve, edit or reject it."))
    if action == Decision.Action.ESCALATE and not reason:
        raise DecisionInvalid(_("Say why you escalate, so the admin knows what to look at."))

    if action == Decision.Action.APPROVE and not locked.first_approved_by_id and second_review_needed(locked):
        return answer_first_approve(answer=locked, reviewer=reviewer, claims=claims, reason=reason,
                                    overrides=overrides)

    decision = Decision.objects.create(answer=locked, reviewer=reviewer, action=action, reason=reason,
                                       overrides_checker=overrides,
                                       text=edited_text if action == Decision.Action.EDIT else "")
    if action != Decision.Action.ESCALATE:
        reviewer_marks_record(decision=decision, claims=claims)
    # Only what the decision changes: the status change is answer.release's row, an escalation flips the flag.
    decided: dict = {"overrides_checker": True} if overrides else {}
    if action == Decision.Action.EDIT:
        decided["edited_risk"] = edited_risk
    escalating = action == Decision.Action.ESCALATE
    audit_record(verb=f"answer.{action}", obj=locked, actor=reviewer, note=reason,
                 before={"escalated": False} if escalating else None,
                 after={"escalated": True} if escalating else decided or None)
    locked.lease_holder = None
    locked.lease_expires_at = None
    if action == Decision.Action.ESCALATE:
        locked.escalated = True
        locked.save(update_fields=["escalated", "lease_holder", "lease_expires_at"])
        return locked

    locked.decided_by = reviewer
    locked.decided_at = timezone.now()
    locked.escalated = False  # the admin's decision settles it; the escalation stays in the decision history
    if action == Decision.Action.EDIT:
        locked.edited_text = edited_text
        _edited_claims_store(locked, edited_check)
    locked.save(update_fields=["decided_by", "decided_at", "escalated", "edited_text", "lease_holder",
                               "lease_expires_at"])
    if locked.gold_copy_of_id:
        return gold_copy_decided(answer=locked, action=action)
    review_labels_record(answer=locked, reviewer=reviewer, action=action, edited_text=edited_text)
    reviewed_facts_record(answer=locked, decision=decision)
    vocabulary_learn(answer=locked)
    if action == Decision.Action.REJECT:
        fallback = settings.REVIEW_FALLBACK_TEXT if settings.REVIEW_SEND_FALLBACK_ON_REJECT else ""
        # Held back for the undo window (review.undo): nothing leaves the console before it ends.
        return answer_release(answer=locked, text=fallback, status=AnswerStatus.REJECTED, actor=reviewer,
                              webhook_delay=settings.REVIEW_UNDO_SECONDS)
    text = edited_text if action == Decision.Action.EDIT else locked.text
    return answer_release(answer=locked, text=text, status=AnswerStatus.APPROVED, actor=reviewer)


def answers_approve_audit_samples(*, answer_ids: list[int], reviewer, queryset) -> tuple[int, int]:
    """Approve low-risk answers sampled for audit in one go; (approved, left) — an answer someone else holds, or
    one with a flagged claim, is left for a one-by-one review."""
    samples = queryset.filter(pk__in=answer_ids, status=AnswerStatus.PENDING_REVIEW, risk=Risk.LOW,
                              sampled_for_audit=True, escalated=False)
    approved = 0
    for answer in samples:
        try:
            answer_decide(answer=answer, reviewer=reviewer, action=Decision.Action.APPROVE)
            approved += 1
        except (DecisionConflict, DecisionInvalid, PermissionDenied):
            continue
    return approved, len(answer_ids) - approved
