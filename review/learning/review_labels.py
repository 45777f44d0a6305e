"""Reviewers' decisions as labels: one ``ReviewLabel`` per claim of a decided answer, and what they said before.

A claim is labelled *supported* when the reviewer confirmed it or it went out in the sent answer, *unsupported*
when they marked it wrong, rejected the answer with it, or edited it out. A low-risk answer sampled for audit is
labelled like any other, but stands for 1 / the audit rate released answers: it is the only unbiased look at what
goes out without a person.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence

from django.db.models import QuerySet

from review.models import Answer, Claim, ClaimReview, Decision
from review.learning.models import LabelSource, ReviewLabel

_SPACE = re.compile(r"\s+")
_EDGE_PUNCTUATION = ".,;:!?\"'“”‘’()[]"
EVIDENCE_CHARS = 4000  # the shared external format's limit


def normalised(text: str) -> str:
    return _SPACE.sub(" ", text).strip().strip(_EDGE_PUNCTUATION).strip().casefold()


def text_digest(text: str) -> str:
    return hashlib.sha256(normalised(text).encode("utf-8")).hexdigest()


def _label_of(*, claim: Claim, action: str, sent_text: str) -> tuple[bool, str]:
    if claim.review_state == ClaimReview.CONFIRMED:
        return True, "confirmed"
    if claim.review_state == ClaimReview.REJECTED:
        return False, "marked wrong"
    if action == Decision.Action.APPROVE:
        return True, "kept in the sent answer"
    if action == Decision.Action.REJECT:
        return False, "rejected with the answer"
    if normalised(claim.text) in normalised(sent_text):
        return True, "kept in the sent answer"
    return False, "edited out"


def review_labels_record(*, answer: Answer, reviewer, action: str, edited_text: str = "") -> list[ReviewLabel]:
    """Label every claim of a decided answer (approve, edit or reject); the caller holds the answer's lock."""
    if action not in (Decision.Action.APPROVE, Decision.Action.EDIT, Decision.Action.REJECT):
        return []
    claims = list(answer.claims.filter(from_edit=False).prefetch_related("evidence__chunk").order_by("ordinal"))
    rate = answer.audit_sample_rate if answer.sampled_for_audit else None
    weight = 1.0 / rate if rate else 1.0
    answer_digest = text_digest(answer.text)
    labels = []
    for claim in claims:
        supported, basis = _label_of(claim=claim, action=action, sent_text=edited_text)
        source = (LabelSource.OVERRIDE if claim.overrides_checker
                  else LabelSource.AUDIT_SAMPLE if answer.sampled_for_audit else LabelSource.REVIEW)
        evidence = list(claim.evidence.all())
        labels.append(ReviewLabel(
            claim=claim, answer=answer, claim_text=claim.text, question=answer.question,
            evidence_text=evidence[0].source_text()[:EVIDENCE_CHARS] if evidence else "",
            chunk_ids=[e.chunk_id for e in evidence if e.chunk_id], features=claim.features, supported=supported,
            basis=basis, error_kind="" if supported else claim.error_kind, source=source,
            weight=weight, held_by_rule=answer.held_by_rule,
            answer_digest=answer_digest, claim_digest=text_digest(claim.text), labelled_by=reviewer,
        ))
    return ReviewLabel.objects.bulk_create(labels, ignore_conflicts=True)


def claims_marked_wrong_before(*, answer_text: str, claim_texts: Sequence[str]) -> dict[int, int]:
    """Claim index -> the earlier answer with the same text on which that claim's latest label is "wrong"."""
    latest: dict[str, tuple[bool, int]] = {}
    rows = (ReviewLabel.objects.filter(answer_digest=text_digest(answer_text))
            .order_by("created_at", "pk").values_list("claim_digest", "supported", "answer_id"))
    for claim_digest, supported, answer_id in rows:
        latest[claim_digest] = (supported, answer_id)
    marked = {}
    for index, text in enumerate(claim_texts):
        supported, answer_id = latest.get(text_digest(text), (True, 0))
        if not supported:
            marked[index] = answer_id
    return marked


def labels_exported(labels: QuerySet[ReviewLabel]) -> Iterator[dict]:
    """Labels in the shared external format ({"id", "source", "evidence", "question", "answer", "label"}), with
    what else a reader may want to filter on."""
    for label in labels.order_by("pk").iterator():
        yield {
            "id": f"review-label-{label.pk}", "source": f"console:{label.source}",
            "evidence": label.evidence_text[:EVIDENCE_CHARS], "question": label.question, "answer": label.claim_text,
            "label": "supported" if label.supported else "unsupported", "kind": label.basis,
            "error_kind": label.error_kind or None,  # why it is wrong, as its reviewer said (unsupported only)
            "weight": label.weight, "labelled_at": label.created_at.isoformat(),
        }
