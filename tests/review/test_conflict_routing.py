"""A real conflict between two approved documents is held for a person and shown side by side, never released
automatically and never folded away."""

from html.parser import HTMLParser

import pytest

from console.models import AuditEvent
from review.pipeline import ClaimResult, ConflictingSource
from review.policy import risk_assess
from tests.conflict_sources import FAQ_SENTENCE
from tests.conftest import answer_scored

pytestmark = pytest.mark.django_db(transaction=True)


class _ConflictPlacement(HTMLParser):
    """Records, for each element marked data-conflict, whether it sits inside a <details> (collapsed) panel."""

    def __init__(self) -> None:
        super().__init__()
        self.details_depth = 0
        self.conflicts_in_details: list[bool] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "details":
            self.details_depth += 1
        if "data-conflict" in dict(attrs):
            self.conflicts_in_details.append(self.details_depth > 0)

    def handle_endtag(self, tag) -> None:
        if tag == "details":
            self.details_depth -= 1


@pytest.fixture
def scored_conflict(conflict_versions, api_token, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []  # "refund" is a listed topic: only the conflict may hold it
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0.0
    client, _ = api_token
    return answer_scored(client=client, question="How long is the refund window?", text=FAQ_SENTENCE)


def test_a_conflict_between_approved_documents_is_held_not_released(scored_conflict):
    answer = scored_conflict

    assert (answer.status, answer.risk) == ("pending_review", "high")
    assert answer.released_at is None and answer.released_text == ""
    assert not AuditEvent.objects.filter(verb="answer.release", object_id=str(answer.pk)).exists()
    assert any("approved sources conflict" in reason for reason in answer.routing_reasons)
    claim = answer.claims.get()
    assert [e.chunk.version.document.key for e in claim.conflicting_evidence] == ["refund-policy"]
    assert claim.best_evidence.chunk.version.document.key == "product-faq"


def test_the_review_page_shows_both_sources_side_by_side_with_the_values_marked(client, reviewer, scored_conflict,
                                                                               curator):
    client.force_login(reviewer)

    page = client.get(scored_conflict.get_absolute_url()).content.decode()

    assert "Approved sources disagree: Product FAQ v1 says 30 days; Refund policy v1 says 45 days." in page
    pair = page[page.index('class="evidence-pair"'):]
    supporting, conflicting = pair.index("Supports the claim"), pair.index("Says otherwise")
    assert supporting < conflicting
    for title, key in (("Product FAQ", "product-faq"), ("Refund policy", "refund-policy")):
        assert f"<strong>{title}</strong>" in pair and f'<span class="mono">{key}</span> v1' in pair
    assert pair.count(f"owner {curator.username}") >= 2
    assert '<mark class="differs">30</mark>' in pair and '<mark class="differs">45</mark>' in pair
    placement = _ConflictPlacement()
    placement.feed(page)
    assert placement.conflicts_in_details == [False]  # shown, not collapsed under "other evidence"


def test_risk_assess_puts_any_conflict_at_high_risk_even_when_every_claim_is_supported(conflict_versions):
    _, policy = conflict_versions
    supported = ClaimResult(text=FAQ_SENTENCE, start=0, end=len(FAQ_SENTENCE), score=0.97, verdict="supported",
                            reasons=[], evidence=[],
                            conflicts=[ConflictingSource(version=policy, message="approved sources conflict: test")])

    assessment = risk_assess(question="", answer_text=FAQ_SENTENCE, claims=[supported], release_threshold=0.6)

    assert (assessment.risk, assessment.held_by_rule) == ("high", True)
    assert assessment.reasons == ["conflict: claim 1: approved sources conflict: test"]
