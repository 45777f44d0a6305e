"""A claim put together from two approved documents (synthesis, issue #36 item 2): stored with both passages, the
second beside the part of the claim it supplies, on the answer page, the claim's trace and the API."""

import pytest
from django.urls import reverse

from review.pipeline import Candidate, ClaimResult, EvidenceResult
from review.policy import risk_assess
from tests.conftest import answer_scored

pytestmark = pytest.mark.django_db(transaction=True)

LONDON = """# Travel policy

## Hotels

The London hotel cap is £220 a night.
"""

PARIS = """# Paris office handbook

## Travel

Employees in Paris may book hotels up to €250 a night.
"""

CLAIM = "The London hotel cap is £220 a night and €250 in Paris."


@pytest.fixture
def synthesized(publish, api_token, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0.0
    london, paris = publish(LONDON, key="travel-policy"), publish(PARIS, key="paris-office")
    answer = answer_scored(client=api_token[0], question="What are the hotel caps?", text=CLAIM)
    return answer, london, paris


def test_both_passages_are_stored_the_second_beside_the_part_it_supplies(synthesized):
    answer, london, paris = synthesized
    claim = answer.claims.get()

    assert claim.verdict == "supported"
    best, part = claim.best_evidence, claim.part_evidence
    assert best.chunk.version == london and not best.is_part
    assert [e.chunk.version for e in part] == [paris]
    assert "€250" in part[0].claim_part and "£220" not in part[0].claim_part
    assert part[0].quote == "Employees in Paris may book hotels up to €250 a night."
    assert part[0] not in claim.other_evidence


def test_the_reviewer_sees_each_part_beside_its_source(client, reviewer, synthesized, api):
    answer, _, paris = synthesized
    claim = answer.claims.get()
    client.force_login(reviewer)

    page = client.get(answer.get_absolute_url()).content.decode()
    section = page[page.index("data-evidence-part"):]
    assert f"“{claim.part_evidence[0].claim_part}” is supported by another passage" in section
    assert "Paris office handbook" in section[:section.index("</section>")]
    trace = client.get(reverse("review:claim_trace", args=[claim.pk])).content.decode()
    assert f"supplies “{claim.part_evidence[0].claim_part}”" in trace

    evidence = api.get(f"/api/v1/answers/{answer.pk}").json()["claims"][0]["evidence"]
    assert evidence[0]["claim_part"] is None
    start, end = evidence[1]["claim_part"]
    assert (evidence[1]["document_key"], CLAIM[start:end]) == ("paris-office", claim.part_evidence[0].claim_part)


def test_a_part_taken_from_a_flagged_version_holds_the_answer(synthesized):
    """Synthesis rests on both sources: the second being expired holds the answer as the first would."""
    answer, london, paris = synthesized
    chunk = lambda version: version.chunks.first()  # noqa: E731
    best = EvidenceResult(candidate=Candidate(text=chunk(london).text, chunk=chunk(london)), quote_start=0,
                          quote_end=10, score=0.97, flags=[])
    part = EvidenceResult(candidate=Candidate(text=chunk(paris).text, chunk=chunk(paris)), quote_start=0,
                          quote_end=10, score=0.97, flags=["expired"], claim_part=(41, 54))
    claim = ClaimResult(text=CLAIM, start=0, end=len(CLAIM), score=0.97, verdict="supported", reasons=[],
                        evidence=[best, part])

    held = risk_assess(question="", answer_text=CLAIM, claims=[claim], release_threshold=0.6)
    part.claim_part = None  # the same source as other evidence considered, not relied on
    considered = risk_assess(question="", answer_text=CLAIM, claims=[claim], release_threshold=0.6)

    assert held.risk == "high" and any("relies on a" in reason and str(paris) in reason for reason in held.reasons), \
        held.reasons
    assert not any("relies on a" in reason for reason in considered.reasons), considered.reasons


def test_a_confirmed_synthesized_claim_is_not_kept_as_a_reviewed_fact(synthesized, reviewer):
    """A reviewed fact records one version; one put together from two would outlive the second's."""
    from review import services
    from review.leases import answer_lease_take
    from review.models import ReviewedFact

    answer, _, _ = synthesized
    answer = answer_lease_take(answer=answer, reviewer=reviewer)
    services.claim_review(claim=answer.claims.get(), reviewer=reviewer, state="confirmed", note="both caps checked")
    services.answer_decide(answer=answer, reviewer=reviewer, action="approve", reason="")

    answer.refresh_from_db()
    assert answer.status == "approved"
    assert not ReviewedFact.objects.filter(answer=answer).exists()


def test_evaluate_counts_synthesized_answers_as_their_own_structure_kind(synthesized):
    from review.evaluation import item_check

    put_together = item_check(item={"claim": CLAIM, "label": "supported"}, clearance="internal")
    one_source = item_check(item={"claim": "The London hotel cap is £220 a night.", "label": "supported"},
                            clearance="internal")

    assert "synthesis" in put_together["structure"] and put_together["predicted"] == "supported"
    assert "synthesis" not in one_source["structure"]
