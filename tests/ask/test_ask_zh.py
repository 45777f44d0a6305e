"""POST /api/v1/ask in Chinese on the real worker (issue #22, item 5): a Chinese policy is uploaded, indexed by
the worker and approved; a question it answers is answered by a verbatim Chinese sentence, one it does not is
refused naming the missing Chinese term, and nothing is sent for review."""

import pytest

from ask.models import Ask
from review.models import Answer

pytestmark = pytest.mark.django_db(transaction=True)

LEAVE = """# 员工休假制度

## 婚假

依法登记结婚的员工享受婚假十天，婚假期间工资照常发放。婚假须在领取结婚证之日起一年内一次性休完；未在期限内休完的，视为自动放弃。

## 病假

- 连续病假不超过两天的，无需提供医院证明。
- 连续病假三天及以上的，必须提供二级及以上医院出具的诊断证明。

## 请假审批

| 请假天数 | 审批人 |
|---|---|
| 三天以内 | 直属主管 |
| 三天以上 | 部门经理 |
"""


def ask(api, question: str) -> dict:
    response = api.post("/api/v1/ask", {"question": question})
    assert response.status_code == 200, response.content
    return response.json()


def test_a_chinese_question_is_answered_with_a_quoted_chinese_sentence(api, celery_worker, publish, quiet_topics):
    version = publish(LEAVE, key="leave-policy", title="员工休假制度")
    assert version.language == "zh"

    body = ask(api, "婚假有几天？")

    assert body["status"] == "answered", body
    assert [claim["text"] for claim in body["claims"]] == ["依法登记结婚的员工享受婚假十天，婚假期间工资照常发放。"]
    claim = body["claims"][0]
    assert version.text[claim["quote_start"]:claim["quote_end"]] == claim["text"]
    assert body["answer"] == claim["text"] and body["answer_id"] is not None
    assert body["answer_status"] in {"released", "pending_review"}  # scored as it was asked, routed at once


def test_a_chinese_question_the_policy_does_not_cover_is_refused_naming_the_missing_term(api, celery_worker,
                                                                                         publish):
    publish(LEAVE, key="leave-policy", title="员工休假制度")

    body = ask(api, "员工每年的健康体检安排在几月份？")

    assert body["status"] == "insufficient_evidence"
    # in the question's words; 员工 is in the policy, 几月份 asks (it is no term), 每年 frames it (not required)
    assert body["missing_terms"] == ["健康", "体检", "安排"]
    assert body["answer"] is None and body["claims"] == []
    assert not Answer.objects.exists()  # nothing is sent for review
    assert Ask.objects.get().missing_terms == body["missing_terms"]
