"""Full-text search in Chinese: a Chinese version is indexed as its words, and a Chinese query is segmented the same
way (the embedded PostgreSQL has no Chinese parser: without this a whole sentence was one "word")."""

from kb.search import fulltext_ids

TRAVEL = """# 差旅费报销制度

## 住宿

员工出差住宿标准为每晚五百元，超过标准需部门经理审批。

## 交通

出差须通过**北辰云差旅平台**预订机票，国际航班可乘坐经济舱。
"""
LEAVE = """# 休假制度

## 年假

员工入职满一年后享有五天带薪年假。
"""


def test_a_chinese_query_finds_the_chunk_that_has_its_words(publish):
    travel = publish(TRAVEL, key="travel-expenses")
    publish(LEAVE, key="leave-policy")
    assert travel.language == "zh"
    headings = {chunk.pk: chunk.heading_path for chunk in travel.chunks.all()}

    lodging = fulltext_ids(query="住宿标准是多少？", clearance="internal", limit=3)
    approval = fulltext_ids(query="超过标准谁审批", clearance="internal", limit=3)
    platform = fulltext_ids(query="在哪个平台订机票", clearance="internal", limit=3)

    assert headings.get(lodging[0]) == "差旅费报销制度 > 住宿"
    assert headings.get(approval[0]) == "差旅费报销制度 > 住宿"
    assert headings.get(platform[0]) == "差旅费报销制度 > 交通"


def test_a_traditional_query_finds_the_simplified_text(publish):
    travel = publish(TRAVEL, key="travel-expenses")

    found = fulltext_ids(query="住宿標準", clearance="internal", limit=3)

    assert found and found[0] in set(travel.chunks.values_list("pk", flat=True))


def test_english_documents_are_searched_as_before(publish):
    publish("# Guide\n\n## Refunds\n\nRefunds are paid within 14 days.\n", key="guide")

    assert fulltext_ids(query="refund payments", clearance="internal", limit=3)
