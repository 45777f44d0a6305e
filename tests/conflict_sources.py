"""Two approved documents that truly disagree (a 30-day vs a 45-day refund window), for conflict tests."""

from __future__ import annotations

FAQ = """# Product FAQ

## Billing

Annual subscriptions can be refunded within 30 days of purchase.

## Support

Our support team is available Monday through Friday, 8:00 a.m. to 6:00 p.m.
"""
REFUND_POLICY = """# Refund policy

## Annual plans

Annual subscriptions can be refunded within 45 days of purchase.
"""
FAQ_SENTENCE = "Annual subscriptions can be refunded within 30 days of purchase."
POLICY_SENTENCE = "Annual subscriptions can be refunded within 45 days of purchase."


def conflicting_answer_rows(*, client, faq_version, policy_version, risk: str = "high"):
    """An answer waiting for review whose one claim the FAQ supports and the refund policy contradicts, written
    as the scoring pipeline stores it (rows, no checker run)."""
    from kb.models import Chunk
    from review.models import RISK_ORDER, Answer, Claim, Evidence

    answer = Answer.objects.create(
        client=client, question="How long is the refund window?", text=FAQ_SENTENCE, status="pending_review",
        risk=risk, risk_order=RISK_ORDER[risk], score=0.95, evidence_level="internal",
        routing_reasons=["claim 1: approved sources conflict (test)"],
    )
    claim = Claim.objects.create(answer=answer, ordinal=0, text=FAQ_SENTENCE, start=0, end=len(FAQ_SENTENCE),
                                 score=0.95, verdict="supported", reasons=["approved sources conflict (test)"])
    for rank, (version, sentence, flags) in enumerate(
            [(faq_version, FAQ_SENTENCE, []), (policy_version, POLICY_SENTENCE, ["conflicting"])], start=1):
        start = version.text.index(sentence)
        chunk = Chunk.objects.get(version=version, char_start__lte=start, char_end__gte=start + len(sentence))
        Evidence.objects.create(claim=claim, chunk=chunk, quote_start=start, quote_end=start + len(sentence),
                                score=0.95 if rank == 1 else 0.6, rank=rank, flags=flags)
    return answer
