"""Two approved sources conflict only when they state different values about the same subject."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

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
HANDBOOK = """# Employee handbook

## Working hours

The standard workweek is 40 hours, Monday through Friday, 9:00 AM to 5:00 PM.
"""


def _check(api, answer: str) -> dict:
    response = api.post("/api/v1/check", {"question": "", "answer": answer})
    assert response.status_code == 200, response.content
    return response.json()


def test_a_real_conflict_goes_to_a_reviewer_naming_both_sources(api, celery_worker, publish, curator, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    publish(FAQ, key="product-faq", title="Product FAQ")
    publish(REFUND_POLICY, key="refund-policy", title="Refund policy")

    body = _check(api, "Annual subscriptions can be refunded within 30 days of purchase.")

    assert body["risk"] == "high"
    conflict = next(r for r in body["reasons"] if "approved sources conflict" in r)
    assert f"'Product FAQ' (product-faq v1, owner {curator.username})" in conflict
    assert f"'Refund policy' (refund-policy v1, owner {curator.username})" in conflict
    keys = {e["document_key"]: e["flags"] for e in body["claims"][0]["evidence"]}
    assert "conflicting" in keys["refund-policy"] and "conflicting" not in keys["product-faq"]


def test_two_sources_stating_the_same_value_are_no_conflict(api, celery_worker, publish, settings):
    """The second source lists both windows in one sentence ("... within 14 days, and annual subscriptions within
    30 days"): it says the claim's 30 days too, so the 14 days the claim's number may be bound to is no different
    value, and no conflict goes to a person."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    publish(FAQ, key="product-faq", title="Product FAQ")
    publish("# Billing FAQ\n\n## Refunds\n\nMonthly subscriptions can be refunded within 14 days, and annual "
            "subscriptions within 30 days of purchase.\n", key="billing-faq", title="Billing FAQ")

    body = _check(api, "Annual subscriptions can be refunded within 30 days of purchase.")

    assert not any("conflict" in r for r in body["reasons"]), body["reasons"]
    assert not any("conflicting" in e["flags"] for e in body["claims"][0]["evidence"])
    assert body["claims"][0]["verdict"] == "supported"


def test_same_weekdays_and_clock_times_about_another_subject_are_no_conflict(api, celery_worker, publish, settings,
                                                                             release_at):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    release_at(0.6)
    publish(FAQ, key="product-faq", title="Product FAQ")
    publish(HANDBOOK, key="employee-handbook", title="Employee handbook")

    body = _check(api, "The standard workweek is 40 hours, Monday through Friday, 9:00 AM to 5:00 PM.")

    assert not any("conflict" in r for r in body["reasons"]), body["reasons"]
    assert body["claims"][0]["verdict"] == "supported"
    assert body["risk"] == "low"


def test_the_opposite_said_of_another_subject_is_no_conflict(api, celery_worker, publish, settings):
    """"Guests are allowed on company laptops" shares most words with "Contractors are not allowed on company
    laptops", but says nothing of contractors: no conflict to settle, the supporting source stands alone."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    publish("# Access\n\n## Laptops\n\nContractors are not allowed on company laptops.\n", key="access-policy")
    publish("# Demos\n\n## Laptops\n\nGuests are allowed on company laptops during supervised demos.\n",
            key="demo-guide")

    body = _check(api, "Contractors are not allowed on company laptops.")

    assert not any("conflict" in r for r in body["reasons"]), body["reasons"]
    assert body["claims"][0]["verdict"] == "supported"
    assert body["claims"][0]["evidence"][0]["document_key"] == "access-policy"


def test_a_source_stating_one_provision_of_the_claim_otherwise_is_a_conflict(api, celery_worker, publish, settings):
    """The claim joins two provisions; the second source states only the first, with another value. It names
    little of the whole claim, but all of the clause it contradicts: the sources conflict."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    publish("# 信息安全管理制度\n\n## 密码\n\n公司账号的密码长度不得少于十二位，并且必须包含大写字母、小写字母、"
            "数字和特殊符号中的至少三类。\n", key="it-security", title="信息安全管理制度")
    publish("# IT常见问题\n\n## 账号\n\n公司账号的密码长度不得少于八位。\n", key="it-faq", title="IT常见问题")

    body = _check(api, "公司账号的密码长度不得少于十二位，并且必须包含大写字母、小写字母、数字和特殊符号中的至少三类。")

    evidence = {e["document_key"]: e["flags"] for e in body["claims"][0]["evidence"]}
    assert "conflicting" in evidence["it-faq"] and "conflicting" not in evidence["it-security"]
    assert body["risk"] == "high"

