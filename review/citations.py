"""The reverse trace: which answers cite a version, and which cite each of its paragraphs.

A claim cites the paragraph holding its best evidence (rank 1) when the claim is part of what the answer says — the
claims of the edited text once an edit was sent, the answer's own claims otherwise — and the evidence backs it: it
at least partly supports the claim, or the reviewer marked the claim correct (an override included: the answer went
out resting on that paragraph all the same). A paragraph is "cited by" the answers whose released text cites it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Q, QuerySet
from django.utils import timezone

from checking.verdicts import uncertain_at
from console import roles
from kb.models import DocumentVersion
from kb.rendering import block_lines
from review.models import Answer, AnswerStatus, ClaimReview, Evidence
from review.selectors import answers_visible_to

# Who may read the reverse trace (the answers' questions): reviewers, and those who keep the knowledge base.
CITATION_READERS = (roles.REVIEWER, roles.CURATOR, roles.APPROVER)
# What went out with the answer's own words or the reviewer's edit (a rejection sends the fallback text).
SENT_STATUSES = (AnswerStatus.RELEASED, AnswerStatus.APPROVED)


def citing_evidence(*, version: DocumentVersion) -> QuerySet[Evidence]:
    """Evidence rows by which claims cite ``version`` (the module's rule)."""
    said = Q(claim__from_edit=True) | Q(claim__from_edit=False, claim__answer__edited_text="")
    backed = (Q(score__gte=uncertain_at()) | Q(claim__overrides_checker=True)
              | Q(claim__review_state=ClaimReview.CONFIRMED))
    return Evidence.objects.filter(said, backed, chunk__version=version, rank=1)


@dataclass(frozen=True)
class ParagraphCitations:
    """Per rendered paragraph (its first line, the page's #L anchor): the sent answers citing it, and for each the
    first claim that does (what the trace shows)."""

    claims_by_answer: dict[int, dict[int, int]]  # line -> {answer id: claim id}

    def count(self, line: int) -> int:
        return len(self.claims_by_answer.get(line, {}))

    def answer_ids(self, line: int) -> list[int]:
        return list(self.claims_by_answer.get(line, {}))

    @property
    def counts(self) -> dict[int, int]:
        return {line: len(answers) for line, answers in self.claims_by_answer.items()}


def paragraph_citations(*, viewer, version: DocumentVersion) -> ParagraphCitations:
    """Which sent answers (that the viewer may see) cite each paragraph of ``version``: one query, then each
    quote placed in the rendered block that holds it."""
    anchors = block_lines(version.text)
    newlines = [index for index, char in enumerate(version.text) if char == "\n"]
    rows = (citing_evidence(version=version)
            .filter(claim__answer__in=answers_visible_to(viewer), claim__answer__status__in=SENT_STATUSES)
            .order_by("claim_id").values_list("claim__answer_id", "claim_id", "quote_start"))
    by_line: dict[int, dict[int, int]] = defaultdict(dict)
    for answer_id, claim_id, quote_start in rows:
        line = bisect_right(newlines, quote_start - 1) + 1  # the quote's first line, 1-based
        position = bisect_right(anchors, line) - 1
        anchor = anchors[position] if position >= 0 else 1
        by_line[anchor].setdefault(answer_id, claim_id)
    return ParagraphCitations(claims_by_answer=dict(by_line))


def answers_citing_version(*, viewer, version: DocumentVersion, line: int | None = None) -> QuerySet[Answer]:
    """Every answer the viewer may see that rests on this version; with `line` (a paragraph's first line): the
    sent answers citing that paragraph, as its "cited by N" counts them. An answer citing this version may also
    cite a source above the viewer's clearance: it is left out."""
    if line is not None:
        ids = paragraph_citations(viewer=viewer, version=version).answer_ids(line)
        answers = answers_visible_to(viewer).filter(pk__in=ids)
    else:
        answers = answers_visible_to(viewer).filter(
            pk__in=citing_evidence(version=version).values("claim__answer_id"))
    return answers.select_related("client", "decided_by").order_by("-created_at")


def recent_sent_answers_citing(*, viewer, version: DocumentVersion, days: int) -> int:
    """How many sent answers (that the viewer may see) cited ``version`` in the last ``days`` days: what its expiry
    would have sent to review instead."""
    since = timezone.now() - timedelta(days=days)
    return answers_visible_to(viewer).filter(
        status__in=SENT_STATUSES, created_at__gte=since,
        pk__in=citing_evidence(version=version).values("claim__answer_id")).count()


def citing_claims(*, version: DocumentVersion, answer_ids: list[int]) -> dict[int, int]:
    """For each of these answers, the first of its claims citing ``version``: the trace a row links to."""
    claims: dict[int, int] = {}
    for answer_id, claim_id in (citing_evidence(version=version).filter(claim__answer_id__in=answer_ids)
                                .order_by("claim_id").values_list("claim__answer_id", "claim_id")):
        claims.setdefault(answer_id, claim_id)
    return claims
