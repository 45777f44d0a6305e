"""Ask answers from a table in a sentence naming the row and its columns, checked like any other claim (issue #37,
item 8): not "| San Francisco | $300 |", which reads as nothing and which the checker held as no claim."""

import pytest

from checking.languages import language_for

pytestmark = pytest.mark.django_db(transaction=True)

HOTELS = """# Travel policy

## Hotels

The nightly hotel cap depends on the city:

| City | Nightly cap |
|---|---|
| San Francisco | $300 |
| Chicago | $240 |
"""
HOTELS_ZH = """# 差旅费报销制度

## 住宿标准

| 城市类别 | 普通员工（元/间·晚） | 部门经理及以上（元/间·晚） |
|---|---|---|
| 一类城市 | 600 | 800 |
| 三类城市 | 350 | 450 |
"""


@pytest.mark.parametrize(("policy", "question", "answer"), [
    (HOTELS, "What is the nightly hotel cap in San Francisco?", "The nightly cap for San Francisco is $300."),
    (HOTELS_ZH, "一类城市普通员工住宿每晚最多报销多少？", "一类城市的普通员工为600元/间·晚，部门经理及以上为800元/间·晚。"),
])
def test_a_table_row_is_answered_in_a_sentence_the_checker_supports(api, celery_worker, publish, settings, policy,
                                                                   question, answer):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    version = publish(policy, key="travel")

    response = api.post("/api/v1/ask", {"question": question})

    body = response.json()
    assert body["status"] == "answered", body
    assert body["answer"] == answer
    claim = body["claims"][0]
    assert version.text[claim["quote_start"]:claim["quote_end"]].startswith("|")  # the citation is the row itself
    checked = api.post("/api/v1/check", {"question": question, "answer": body["answer"]}).json()
    assert [c["verdict"] for c in checked["claims"]] == ["supported"]


def test_a_rows_sentence_names_each_column_and_moves_a_bracketed_unit_to_its_number():
    english = language_for("en").row_sentence(label="Pro", cells=[("Monthly price", "$12"), ("Storage (GB)", "250")])
    assert english == "The monthly price for Pro is $12; the storage for Pro is 250 GB."
    chinese = language_for("zh").row_sentence(label="国际出差", cells=[("每人每天", "300元")])
    assert chinese == "国际出差的每人每天为300元。"
