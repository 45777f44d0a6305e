"""Gold items: answers whose verdict is known, marked gold by a lead (an approver or admin), to calibrate reviewers.

"Review next" hands a reviewer, at REVIEW_GOLD_RATE and unannounced, a calibration copy of a gold item they have
not decided before: a new pending answer with the same question, text, claims and evidence. Its decision is kept
(with the reviewer's claim marks) and scored against the known verdict — the reviewer's accuracy on the dashboard,
for leads only — and it is never released: no release, no webhook, no labels, no reviewed facts, no words learned.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from console.audit import audit_record
from review.models import Answer, AnswerStatus, Claim, ClaimReview, Decision, Evidence, GoldItem, ReviewerMark



class GoldRefused(ValueError):
    """This answer cannot be gold (not decided, or a calibration copy itself)."""


def gold_verdict_of(answer: Answer) -> str | None:
    """The verdict an answer's decision makes known: sent as it was (right), or rejected or edited (wrong)."""
    if answer.status == AnswerStatus.APPROVED:
        return GoldItem.Verdict.WRONG if answer.edited_text else GoldItem.Verdict.RIGHT
    if answer.status == AnswerStatus.REJECTED:
        return GoldItem.Verdict.WRONG
    return None


@transaction.atomic
def gold_item_mark(*, answer: Answer, lead) -> GoldItem:
    """Make a decided answer gold (again, if it was retired), with its verdict and its claims' marks."""
    answer = Answer.objects.select_for_update().get(pk=answer.pk)  # its decision as stored, not as the caller saw it
    if answer.gold_copy_of_id:
        raise GoldRefused(_("A calibration copy cannot be a gold item itself."))
    verdict = gold_verdict_of(answer)
    if verdict is None:
        raise GoldRefused(_("Only an answer a reviewer approved or rejected has a known verdict to be gold."))
    marks = {str(ordinal): state for ordinal, state in answer.claims.filter(from_edit=False)
             .exclude(review_state=ClaimReview.OPEN).values_list("ordinal", "review_state")}
    item, created = GoldItem.objects.get_or_create(answer=answer, defaults={
        "verdict": verdict, "claim_marks": marks, "marked_by": lead})
    if not created:
        if item.is_active:
            return item
        item.retired_at = None
        item.save(update_fields=["retired_at"])
    audit_record(verb="gold.mark", obj=item, actor=lead, after={"verdict": item.verdict})
    return item


@transaction.atomic
def gold_item_retire(*, item: GoldItem, lead) -> GoldItem:
    """No more copies of it; the decisions already made on its copies still count."""
    if item.is_active:
        item.retired_at = timezone.now()
        item.save(update_fields=["retired_at"])
        audit_record(verb="gold.retire", obj=item, actor=lead, before={"active": True}, after={"active": False})
    return item


def _copy_make(item: GoldItem) -> Answer:
    source = item.answer
    copy = Answer.objects.create(
        # What a reviewer sees of it reads as the answer did (unannounced); the client never sees the copy.
        client=source.client, external_id=source.external_id, question=source.question, text=source.text,
        language=source.language,
        contexts=source.contexts, citations=source.citations, status=AnswerStatus.PENDING_REVIEW, risk=source.risk,
        risk_order=source.risk_order, score=source.score, wrong_probability=source.wrong_probability,
        held_by_rule=source.held_by_rule, routing_reasons=source.routing_reasons,
        checker_warnings=source.checker_warnings, sampled_for_audit=source.sampled_for_audit,
        audit_sample_rate=source.audit_sample_rate, evidence_level=source.evidence_level, sandbox=source.sandbox,
        scored_at=timezone.now(), gold_copy_of=item,
    )
    for claim in source.claims.filter(from_edit=False).prefetch_related("evidence"):
        # No fact key: a copy must not join a group of pending answers, nor rest on what reviewers decided.
        copied = Claim.objects.create(answer=copy, ordinal=claim.ordinal, text=claim.text, start=claim.start,
                                      end=claim.end, score=claim.score, verdict=claim.verdict, reasons=claim.reasons,
                                      findings=claim.findings, features=claim.features)
        Evidence.objects.bulk_create(
            Evidence(claim=copied, chunk_id=e.chunk_id, context_index=e.context_index, quote_start=e.quote_start,
                     quote_end=e.quote_end, score=e.score, rank=e.rank, flags=e.flags,
                     claim_part_start=e.claim_part_start, claim_part_end=e.claim_part_end)
            for e in claim.evidence.all())
    audit_record(verb="gold.copy", obj=copy, actor_label="gold items", after={"gold_item": item.pk})
    return copy


def gold_copy_offer(*, reviewer, queryset: QuerySet[Answer]) -> Answer | None:
    """At REVIEW_GOLD_RATE, a new calibration copy of a gold item the reviewer never decided (neither the answer
    nor a copy) and that has no copy waiting, if the copy falls within `queryset` (the reviewer's clearance and
    the filters they pressed "next" under); None otherwise. The caller holds a transaction and leases it."""
    if not GoldItem.objects.filter(retired_at__isnull=True).exists() or random.random() >= settings.REVIEW_GOLD_RATE:
        return None
    item = (GoldItem.objects.filter(retired_at__isnull=True)
            .exclude(answer__decisions__reviewer=reviewer)
            .exclude(copies__decisions__reviewer=reviewer)
            .exclude(copies__status=AnswerStatus.PENDING_REVIEW)
            .select_related("answer__client").order_by("?").first())
    if item is None:
        return None
    savepoint = transaction.savepoint()
    copy = _copy_make(item)
    if not queryset.filter(pk=copy.pk, status=AnswerStatus.PENDING_REVIEW).exists():
        transaction.savepoint_rollback(savepoint)  # outside the reviewer's clearance or filters: no copy at all
        return None
    transaction.savepoint_commit(savepoint)
    return copy


def gold_copy_decided(*, answer: Answer, action: str) -> Answer:
    """A calibration copy's decision, stored (the caller saved who and when) and never released."""
    answer.status = AnswerStatus.REJECTED if action == Decision.Action.REJECT else AnswerStatus.APPROVED
    answer.save(update_fields=["status"])
    audit_record(verb="gold.decided", obj=answer, actor=answer.decided_by, after={"status": answer.status})
    return answer


@dataclass
class GoldAccuracy:
    username: str
    decided: int  # calibration copies decided
    correct: int  # decided as the known verdict
    claims_marked: int  # claims marked on copies whose gold answer had them marked
    claims_agreed: int

    @property
    def percent(self) -> int:
        return round(100 * self.correct / self.decided) if self.decided else 0

    @property
    def claims_percent(self) -> int | None:
        return round(100 * self.claims_agreed / self.claims_marked) if self.claims_marked else None


def gold_accuracy(*, answers: QuerySet[Answer]) -> list[GoldAccuracy]:
    """Each reviewer's decisions on calibration copies among `answers` against the known verdicts: whether the
    answer should go out, and each claim's mark. Two queries."""
    rows: dict[str, GoldAccuracy] = {}
    decisions = (Decision.objects.filter(answer__in=answers, answer__gold_copy_of__isnull=False,
                                         action__in=[Decision.Action.APPROVE, Decision.Action.EDIT,
                                                     Decision.Action.REJECT])
                 .values_list("reviewer__username", "action", "answer__gold_copy_of__verdict"))
    for username, action, verdict in decisions:
        row = rows.setdefault(username, GoldAccuracy(username, 0, 0, 0, 0))
        row.decided += 1
        sent = action == Decision.Action.APPROVE
        row.correct += int(sent == (verdict == GoldItem.Verdict.RIGHT))
    marks = (ReviewerMark.objects.filter(claim__answer__in=answers, claim__answer__gold_copy_of__isnull=False)
             .values_list("reviewer__username", "state", "claim__ordinal", "claim__answer__gold_copy_of__claim_marks"))
    for username, state, ordinal, known in marks:
        if str(ordinal) not in known:
            continue
        row = rows.setdefault(username, GoldAccuracy(username, 0, 0, 0, 0))
        row.claims_marked += 1
        row.claims_agreed += int(known[str(ordinal)] == state)
    return sorted(rows.values(), key=lambda row: (-row.decided, row.username))
