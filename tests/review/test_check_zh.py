"""A Chinese policy end to end on the real worker (issue #22): uploaded and detected as Chinese, indexed, found by
a Chinese query, and a Chinese answer checked against it, with its reasons in Chinese."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

LEAVE = """# 员工休假制度

## 婚假

依法登记结婚的员工享受婚假十天，婚假期间工资照常发放。婚假须在领取结婚证之日起一年内一次性休完。

## 病假

- 连续病假不超过两天的，无需提供医院证明。
- 连续病假三天及以上的，必须提供二级及以上医院出具的诊断证明。
"""


def test_a_chinese_answer_is_checked_against_the_chinese_policy_with_chinese_reasons(api, celery_worker, publish,
                                                                                  settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []  # risk says what the checker found
    version = publish(LEAVE, key="leave-policy", title="员工休假制度")
    assert version.language == "zh"

    found = api.get("/api/v1/search?q=婚假有几天&k=3").json()
    assert "婚假十天" in found["results"][0]["text"]

    response = api.post("/api/v1/check", {
        "question": "婚假有几天？",
        "answer": "员工享受婚假十五天。连续病假不超过两天的，无需提供医院证明。",
    })

    assert response.status_code == 200, response.content
    body = response.json()
    wrong, right = body["claims"]
    assert wrong["verdict"] == "contradicted" and "论断为十五天；证据为十天" in wrong["reasons"]
    assert right["verdict"] == "supported"
    assert right["evidence"][0]["document_key"] == "leave-policy"
    assert body["risk"] == "high"
    assert any(reason.startswith("矛盾：第 1 条论断") for reason in body["reasons"])
