import pytest

KB = """# Workspace FAQ

## Access

The knowledge base is only for the current workspace, not public.

## Refunds

Annual subscriptions can be refunded within 30 days of purchase. Monthly plans cannot be refunded.

## Support

Our support team answers email Monday through Friday, 8:00 a.m. to 6:00 p.m.
"""
REFUND_POLICY = """# Refund policy

## Annual plans

Annual subscriptions can be refunded within 45 days of purchase.
"""
VAULT = """# Vault codes

## Door codes

The server room door code is changed every 9 days by the facilities team.
"""


@pytest.fixture
def quiet_topics(settings):
    """No topic makes an answer high-risk by itself: risk then says what the checker found."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0.0
