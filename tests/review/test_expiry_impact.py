"""Before a version expires, its page says how many sent answers cited it lately (they would go to review)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from review.models import RISK_ORDER, Answer, Claim, Evidence

pytestmark = pytest.mark.django_db

POLICY = "# Parking\n\nVisitors park in lot P7 for up to 4 hours.\n"
SENTENCE = "Visitors park in lot P7 for up to 4 hours."


@pytest.fixture
def version(publish):
    return publish(POLICY, key="parking", title="Parking guide", expires_at=timezone.now() + timedelta(days=10))


@pytest.fixture
def cite(version, api_token):
    client, _ = api_token

    def make(*, status: str, days_ago: int = 0) -> Answer:
        answer = Answer.objects.create(
            client=client, question="Where do visitors park?", text=SENTENCE, status=status, risk="low",
            risk_order=RISK_ORDER["low"], score=0.9, evidence_level="internal", released_text=SENTENCE,
            released_at=timezone.now() if status == "released" else None)
        Answer.objects.filter(pk=answer.pk).update(created_at=timezone.now() - timedelta(days=days_ago))
        claim = Claim.objects.create(answer=answer, ordinal=0, text=SENTENCE, start=0, end=len(SENTENCE), score=0.9,
                                     verdict="supported", reasons=["(test)"])
        start = version.text.index(SENTENCE)
        Evidence.objects.create(claim=claim, chunk=version.chunks.get(), quote_start=start,
                                quote_end=start + len(SENTENCE), score=0.9, rank=1)
        return answer

    return make


def _impact(client, version) -> str | None:
    html = client.get(f"/kb/parking/v{version.number}/").content.decode()
    marker = 'data-expiry-impact="'
    return html[html.index(marker) + len(marker):].split('"')[0] if marker in html else None


def test_the_version_page_counts_sent_answers_of_the_last_30_days(client, version, cite, curator):
    cite(status="released")
    cite(status="released", days_ago=3)
    cite(status="pending_review")  # not sent: its expiry sends nothing back to review
    cite(status="released", days_ago=45)  # too long ago
    client.force_login(curator)

    assert _impact(client, version) == "2"
    assert "2 sent answers cited this version in the last 30 days" in client.get(
        f"/kb/parking/v{version.number}/").content.decode()


def test_a_viewer_who_may_not_read_answers_sees_no_count(client, version, cite, viewer_user):
    cite(status="released")
    viewer_user.clearance = "internal"
    viewer_user.save(update_fields=["clearance"])
    client.force_login(viewer_user)

    assert _impact(client, version) is None


def test_a_version_without_expiry_shows_no_count(client, publish, curator):
    forever = publish(POLICY, key="forever")
    client.force_login(curator)
    assert 'data-expiry-impact' not in client.get(f"/kb/forever/v{forever.number}/").content.decode()
