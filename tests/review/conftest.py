import pytest

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
