"""services.claim_review: the audit row of a claim gets its level from the answer already locked, not from
queries of its own."""

import pytest

from console.models import AuditEvent
from review import leases, services
from review.models import Answer

pytestmark = pytest.mark.django_db


def test_marking_a_claim_reads_its_answer_once_and_audits_at_the_answers_level(
        reviewer, make_answer, django_assert_num_queries):
    answer = make_answer(claims=[("Refunds are paid within 14 days.", "supported", 0.9)], evidence_level="internal")
    leases.answer_lease_take(answer=answer, reviewer=reviewer)
    claim = answer.claims.get()

    with django_assert_num_queries(7) as captured:
        services.claim_review(claim=claim, reviewer=reviewer, state="confirmed")

    answer_reads = [q["sql"] for q in captured.captured_queries
                    if q["sql"].startswith("SELECT") and 'FROM "review_answer"' in q["sql"]]
    assert len(answer_reads) == 1 and answer_reads[0].endswith("FOR UPDATE"), answer_reads
    event = AuditEvent.objects.get(verb="claim.confirmed")
    assert (event.object_id, event.security_level) == (str(claim.pk), "internal")
    assert Answer.objects.get(pk=answer.pk).lease_holder == reviewer
