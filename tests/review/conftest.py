import pytest

from tests.conftest import answer_scored
from tests.conflict_sources import FAQ, REFUND_POLICY, conflicting_answer_rows


@pytest.fixture
def conflict_versions(publish):
    """(FAQ v1, Refund policy v1): approved, indexed, disagreeing about the refund window."""
    return (publish(FAQ, key="product-faq", title="Product FAQ"),
            publish(REFUND_POLICY, key="refund-policy", title="Refund policy"))


@pytest.fixture
def conflicting_answer(conflict_versions, api_token):
    faq, policy = conflict_versions
    client, _ = api_token
    return conflicting_answer_rows(client=client, faq_version=faq, policy_version=policy)


@pytest.fixture
def quiet(settings, release_at):
    """Routing says only what the checker and the reviews found; nothing is released on its score alone."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0.0
    release_at(1.01)


def scored(client, text: str):
    return answer_scored(client=client, text=text)
