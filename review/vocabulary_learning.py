"""Words learned from reviews: a claim the checker held because the evidence words one of its words otherwise,
marked correct by a reviewer, shows a pair that may mean the same (kb's vocabulary keeps the candidates).

The pairs are what the checker's alignment found: a substitution or a slot swap names the claim's word
(``Finding.subject``) and the evidence word standing in its place (``Finding.rival``). A slot swap's phrase comes
first ("sick note" / "medical certificate"); a substitution of one of its words ("sick" / "medical") adds nothing. Recorded when the answer is decided, like reviewed
facts, and taken back when the decision is undone.
"""

from __future__ import annotations

from checking.findings import FindingKind
from kb.vocabulary import synonym_candidates_record, synonym_confirmations_withdraw
from review.models import Answer, Claim, ClaimReview, Verdict

_ALIGNED = (FindingKind.SLOT_SWAP, FindingKind.SUBSTITUTION)  # slot swaps first: they keep whole phrases


def claim_word_pairs(claim: Claim) -> list[tuple[str, str]]:
    """(claim words, evidence words) the checker's alignment showed for a claim, each claim word in one pair."""
    pairs: list[tuple[str, str]] = []
    paired: set[str] = set()
    for kind in _ALIGNED:
        for finding in claim.findings:
            words, rival = finding.get("subject", ""), finding.get("rival", "")
            if finding["kind"] != kind or not words or not rival or paired & set(words.lower().split()):
                continue
            pairs.append((words, rival))
            paired |= set(words.lower().split())
    return pairs


def vocabulary_learn(*, answer: Answer) -> int:
    """Record the pairs of the claims a reviewer marked correct although the checker held them (the caller holds
    the answer's row lock, deciding it); how many pairs were counted."""
    counted = 0
    claims = answer.claims.filter(from_edit=False, review_state=ClaimReview.CONFIRMED).exclude(verdict=Verdict.SUPPORTED)
    for claim in claims.select_related("reviewed_by").prefetch_related("evidence__chunk"):
        pairs = claim_word_pairs(claim)
        if not pairs or claim.reviewed_by is None:
            continue
        best = claim.best_evidence
        counted += len(synonym_candidates_record(
            language=answer.language, pairs=pairs, reviewer=claim.reviewed_by, answer_id=answer.pk, claim_id=claim.pk,
            claim_text=claim.text, evidence_text=best.quote if best else "",
            security_level=answer.audit_security_level))
    return counted


def vocabulary_unlearn(*, answer: Answer) -> int:
    """An undone decision: what its confirmed claims showed no longer counts."""
    return synonym_confirmations_withdraw(answer_id=answer.pk)
