"""Reviewed facts: a reviewer's decision on a claim counts for every later claim that states the same fact.

When an answer is decided, each claim a person settled is kept as the fact it states (checking.facts): confirmed
when it went out in an approved or edited answer or was marked correct, rejected when it was marked wrong. A later
claim (or the claims of a later answer that say it between them) restates a reviewed fact by
checking.facts.facts_restated: the same quantities, directions, negation and names, and no word put in another's
place. For a confirmed fact, the claims' best evidence must also be that fact's very quote in the same approved,
effective, unexpired version. A confirmed match supports the claim by review (it counts as supported for routing;
contradictions, conflicts, flagged sources and high-risk topics still hold the answer); a rejected match holds the
answer as wrong as before.

A claim that restates less than a confirmed fact, or in words of its own, is supported by review too when the
checker found it supported by that fact's very quote and it says nothing beyond the fact that could be a changed fact
(checking.facts.fact_within): the reviewer confirmed what this passage states, and the release threshold, which
guards the checker's score alone, is not what decides it.

A confirmed fact stops matching when its version stops being evidence, and any fact ends when the decision is
undone or an approver revokes it.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from checking.facts import (
    Fact,
    claim_fact,
    contradicted_by,
    fact_within,
    facts_restated,
    parts_within,
    text_stems,
)
from checking.references import leading_reference
from console.audit import audit_record
from console.models import SecurityLevel
from kb.models import DocumentVersion, EvidenceSpan
from review.models import Answer, Claim, ClaimReview, Decision, ReviewedFact, Verdict

if TYPE_CHECKING:
    from review.pipeline import ClaimResult

logger = logging.getLogger(__name__)



@dataclass(frozen=True)
class FactMatch:
    """A reviewed fact a claim states, as its card and reasons name it."""

    fact_id: int
    confirmed: bool
    reviewer: str
    decided_at: datetime
    answer_id: int
    # The checker found the claim supported by the quote the fact was confirmed against, and it says no more than
    # the fact (checking.facts.fact_within) in this many parts (checking.facts.parts_within; this fact is the
    # first part's), rather than restating all of it in words of its own: 0.
    parts_within: int = 0

    @property
    def within(self) -> bool:
        return self.parts_within > 0

    def reason(self) -> str:
        said = {"reviewer": self.reviewer, "date": f"{self.decided_at:%Y-%m-%d}", "answer": self.answer_id,
                "parts": self.parts_within}
        if self.confirmed and self.parts_within > 1:
            return (_("supported by review, part by part: its source states each of its %(parts)s parts, where "
                      "reviewers confirmed the same facts (the first: %(reviewer)s on %(date)s, answer #%(answer)s)")
                    % said)
        if self.confirmed and self.within:
            return (_("supported by review: its source states it, where %(reviewer)s confirmed the same fact on "
                      "%(date)s (answer #%(answer)s)") % said)
        if self.confirmed:
            return (_("supported by review: %(reviewer)s confirmed the same fact on %(date)s (answer #%(answer)s)")
                    % said)
        return _("rejected before: %(reviewer)s marked the same fact wrong on %(date)s (answer #%(answer)s)") % said


def _fact_of(row: ReviewedFact) -> Fact:
    return Fact.from_dict(row.content)


def _live_versions() -> Q:
    """Facts confirmed against a version that is evidence now, as retrieval reads it (approved, effective,
    unexpired, indexed, not retired nor superseded). Whether the asker may read it, retrieval decided already."""
    return Q(version_id__in=EvidenceSpan.objects.live(clearance=SecurityLevel.RESTRICTED).values("version_id"))


def _evidence_spans(result: ClaimResult) -> list[tuple[int, int, int]]:
    """(version id, quote start, quote end) of each pinned evidence of a checked claim, best first."""
    return [(e.candidate.chunk.version_id, e.quote_start, e.quote_end) for e in result.evidence
            if e.candidate.chunk is not None]


def _overlaps(row: ReviewedFact, spans: list[tuple[int, int, int]]) -> bool:
    return row.quote_start is not None and any(
        version_id == row.version_id and start < row.quote_end and row.quote_start < end
        for version_id, start, end in spans)


def _confirmed_candidates(claims: list[ClaimResult]) -> dict[int | None, list[ReviewedFact]]:
    """The live facts confirmed against the versions the claims' best evidence comes from, by the decision that
    settled them (one query)."""
    versions = {spans[0][0] for claim in claims if (spans := _evidence_spans(claim))}
    by_decision: dict[int | None, list[ReviewedFact]] = defaultdict(list)
    if not versions:
        return by_decision
    rows = (ReviewedFact.objects.filter(outcome=ReviewedFact.Outcome.CONFIRMED, ended_at__isnull=True,
                                        version_id__in=versions).filter(_live_versions())
            .select_related("decided_by").order_by("-decided_at", "-pk"))
    for row in rows:
        by_decision[row.decision_id].append(row)
    return by_decision


def _components(claims: list[ClaimResult], rows: list[ReviewedFact]) -> list[tuple[list[int], list[ReviewedFact]]]:
    """The claims and facts that say the same part of a source: a claim and a fact whose quotes overlap are
    together, and so is everything joined to them (a claim joining two reviewed sentences, or two claims splitting
    one)."""
    parent = list(range(len(claims) + len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, claim in enumerate(claims):
        best = _evidence_spans(claim)[:1]
        for j, row in enumerate(rows):
            if best and _overlaps(row, best):
                parent[root(i)] = root(len(claims) + j)
    together: dict[int, tuple[list[int], list[ReviewedFact]]] = defaultdict(lambda: ([], []))
    for i in range(len(claims)):
        together[root(i)][0].append(i)
    for j, row in enumerate(rows):
        together[root(len(claims) + j)][1].append(row)
    return [(indexes, facts) for indexes, facts in together.values() if indexes and facts]


def _confirmed_matches(claims: list[ClaimResult], facts: list[Fact],
                       candidates: dict[int | None, list[ReviewedFact]]) -> dict[int, ReviewedFact]:
    """Claim index -> the confirmed fact at its best quote, for each claim in a part of the answer that restates
    facts one decision settled."""
    found: dict[int, ReviewedFact] = {}
    for rows in candidates.values():
        for indexes, part in _components(claims, rows):
            if any(i in found for i in indexes):
                continue
            if facts_restated([facts[i] for i in indexes], [_fact_of(row) for row in part],
                              grounded={w for row in part for w in row.grounded_words}) and not contradicted_by(
                    [claims[i].text for i in indexes], [row.claim_text for row in part]):
                for i in indexes:
                    found[i] = next(row for row in part if _overlaps(row, _evidence_spans(claims[i])[:1]))
    return found


def _within_one(text: str, fact: Fact, *, rows: list[tuple[ReviewedFact, Fact]],
                texts: dict[int, str]) -> ReviewedFact | None:
    """The first of `rows` (facts at the claim's quote, each with what it states) that `text`, stating `fact`, says
    no more than. One fact at a time: two facts together pair their words either way ("employees may use an app"
    and "administrators must use a key" do not say administrators may use an app)."""
    return next((row for row, reviewed in rows if fact_within(
        fact, reviewed, grounded=row.grounded_words, source_text=texts[row.version_id],
        source_words=text_stems(texts[row.version_id])) and not contradicted_by([text], [row.claim_text])), None)


def _within_matches(claims: list[ClaimResult], facts: list[Fact], candidates: dict[int | None, list[ReviewedFact]],
                    found: dict[int, ReviewedFact]) -> dict[int, int]:
    """Of the claims the checker found supported and no fact restated, those whose best quote is one a fact was
    confirmed against and that say no more than that fact (checking.facts.fact_within), or part by part no more
    than facts there: claim index -> the (first) fact, added to `found`; returns the indexes added, each with its
    number of parts. One query for the versions' texts, only when a claim needs them."""
    rows = [row for part in candidates.values() for row in part]
    waiting = [i for i, claim in enumerate(claims)
               if i not in found and claim.verdict == Verdict.SUPPORTED and _evidence_spans(claim)]
    if not rows or not waiting:
        return {}
    texts = dict(DocumentVersion.objects.filter(pk__in={row.version_id for row in rows}).values_list("pk", "text"))
    stated = [(row, _fact_of(row)) for row in rows]
    added: dict[int, int] = {}
    for i in waiting:
        best = _evidence_spans(claims[i])[:1]
        at_quote = [(row, fact) for row, fact in stated if _overlaps(row, best)]
        if not at_quote:
            continue
        within = partial(_within_one, rows=at_quote, texts=texts)
        # the claim within one fact, or its parts each within one ("$95 a day internationally and $65 for domestic
        # trips": the checker found the whole supported, so each part's pairing with the rest is the source's)
        row = within(claims[i].text, facts[i])
        parts = [row] if row is not None else parts_within(claims[i].text, language=facts[i].language,
                                                            within=within) or []
        if parts:
            found[i] = parts[0]
            added[i] = len(parts)
    return added


def reviewed_facts_match(*, claims: list[ClaimResult], facts: list[Fact]) -> list[FactMatch | None]:
    """For each checked claim (and the fact it states), the reviewed fact it states too — a rejected one first:
    holding costs a review, a wrong release more — or None. Two queries for all of them (three when a supported
    claim may be within a confirmed fact: the sources' texts)."""
    if not facts:
        return []
    rejected_rows = (ReviewedFact.objects.filter(outcome=ReviewedFact.Outcome.REJECTED, ended_at__isnull=True,
                                                 values_key__in={fact.values for fact in facts})
                     .select_related("decided_by").order_by("-decided_at", "-pk"))
    rejected_by_values: dict[str, list[ReviewedFact]] = defaultdict(list)
    for row in rejected_rows:
        rejected_by_values[row.values_key].append(row)
    candidates = _confirmed_candidates(claims)
    confirmed = _confirmed_matches(claims, facts, candidates)
    within = _within_matches(claims, facts, candidates, confirmed)
    matches: list[FactMatch | None] = []
    for index, fact in enumerate(facts):
        row = next((r for r in rejected_by_values.get(fact.values, [])
                    if facts_restated([fact], [_fact_of(r)], grounded=r.grounded_words)
                    and not contradicted_by([claims[index].text], [r.claim_text])), None) or confirmed.get(index)
        matches.append(None if row is None else FactMatch(
            fact_id=row.pk, confirmed=row.outcome == ReviewedFact.Outcome.CONFIRMED,
            reviewer=row.decided_by.username, decided_at=row.decided_at, answer_id=row.answer_id,
            parts_within=within.get(index, 0) if row.outcome == ReviewedFact.Outcome.CONFIRMED else 0))
    return matches


def _grounded_words(*, version: DocumentVersion, quote_start: int, quote_end: int, heading: str) -> list[str]:
    """The content stems of the quote a fact was confirmed against, and of its headings (the document's title and
    section): words a paraphrase may use although the reviewed claim did not ("according to the travel policy")."""
    return sorted(text_stems(version.text[quote_start:quote_end]) | text_stems(heading))


def _outcome(claim: Claim, *, action: str) -> str | None:
    """What the decision says of this claim: confirmed, rejected, or nothing a person settled."""
    if claim.review_state == ClaimReview.REJECTED:
        return ReviewedFact.Outcome.REJECTED
    if claim.review_state == ClaimReview.CONFIRMED:
        return ReviewedFact.Outcome.CONFIRMED
    if claim.from_edit or action == Decision.Action.APPROVE:
        return ReviewedFact.Outcome.CONFIRMED  # it went out with the reviewer's approval
    return None


def reviewed_facts_record(*, answer: Answer, decision: Decision) -> list[ReviewedFact]:
    """Keep the facts a decision settled (the caller holds the answer's row lock). A confirmed fact needs the
    version it was confirmed against; a claim that went out on no source is not one a later claim can rest on."""
    claims = answer.claims.prefetch_related("evidence__chunk__version")
    if decision.action != Decision.Action.EDIT:
        claims = claims.filter(from_edit=False)
    kept = []
    for claim in claims:
        if decision.action == Decision.Action.EDIT and not claim.from_edit \
                and claim.review_state != ClaimReview.REJECTED:
            continue  # edited out or kept: the sent text's own claims speak for it
        outcome = _outcome(claim, action=decision.action)
        if outcome is None:
            continue
        best = claim.best_evidence
        pinned = best is not None and best.chunk is not None
        if outcome == ReviewedFact.Outcome.CONFIRMED and (not pinned or leading_reference(claim.text)
                                                           or claim.part_evidence):
            # "It costs $40" confirmed is true of what "it" was there, not wherever a claim says so; a fact put
            # together from two sources would outlive the second one's version, which it does not record
            continue
        fact = claim_fact(claim.text, language=answer.language)
        row = ReviewedFact(
            language=fact.language, content=fact.as_dict(), values_key=fact.values, key=fact.key, outcome=outcome,
            claim_text=claim.text, claim=claim, answer=answer, decision=decision,
            decided_by=decision.reviewer, decided_at=decision.created_at)
        if pinned:
            row.version, row.quote_start, row.quote_end = best.chunk.version, best.quote_start, best.quote_end
            row.grounded_words = _grounded_words(version=best.chunk.version, quote_start=best.quote_start,
                                                 quote_end=best.quote_end, heading=best.chunk.heading_path)
        kept.append(row)
    return ReviewedFact.objects.bulk_create(kept)


def _end(facts: QuerySet[ReviewedFact], *, reason: str, by=None) -> int:
    return facts.filter(ended_at__isnull=True).update(ended_at=timezone.now(), ended_reason=reason, ended_by=by)


def reviewed_facts_end_for_decision(*, decision: Decision) -> int:
    """An undone decision takes back the facts it settled."""
    return _end(decision.reviewed_facts.all(), reason=ReviewedFact.Ending.UNDONE, by=decision.reviewer)


def reviewed_facts_end_for_version(*, version: DocumentVersion, reason: str) -> int:
    """A version that stopped being evidence ends the facts confirmed against it (they stopped matching already:
    matching reads the version's state; this keeps the record of why)."""
    return _end(ReviewedFact.objects.filter(version=version, outcome=ReviewedFact.Outcome.CONFIRMED), reason=reason)


@transaction.atomic
def reviewed_fact_revoke(*, fact: ReviewedFact, approver) -> ReviewedFact:
    """An approver takes a reviewed fact back: later claims stating it wait for a person again."""
    if _end(ReviewedFact.objects.filter(pk=fact.pk), reason=ReviewedFact.Ending.REVOKED, by=approver):
        audit_record(verb="reviewed_fact.revoke", obj=fact, actor=approver,
                     before={"state": "live"}, after={"state": ReviewedFact.Ending.REVOKED.value})
    fact.refresh_from_db()
    return fact


_ENDING_OF_CHANGE = {"retired": ReviewedFact.Ending.RETIRED, "expired": ReviewedFact.Ending.EXPIRED,
                     "superseded": ReviewedFact.Ending.SUPERSEDED}


def evidence_changed_receiver(sender, *, version: DocumentVersion, change: str, **kwargs) -> None:
    """kb.signals.evidence_changed: a version withdrawn, expired or superseded ends its confirmed facts."""
    if change in _ENDING_OF_CHANGE:
        with transaction.atomic():
            reviewed_facts_end_for_version(version=version, reason=_ENDING_OF_CHANGE[change])
