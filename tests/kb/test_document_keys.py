"""Keys suggested from titles (kb/keys.py) and the endpoint the new-document form asks for Chinese titles."""

import pytest

from kb.keys import document_key_suggest


def test_chinese_title_is_spelled_in_pinyin():
    assert document_key_suggest(title="差旅政策") == "cha-lv-zheng-ce"


def test_mixed_title_keeps_its_latin_words_and_numbers():
    assert document_key_suggest(title="员工手册 Employee Handbook 2026") == "yuan-gong-shou-ce-employee-handbook-2026"


def test_title_of_punctuation_only_suggests_nothing():
    assert document_key_suggest(title="！？——") == ""


@pytest.mark.django_db
def test_key_suggestion_endpoint_answers_curators_only(client, curator, reviewer):
    client.force_login(reviewer)
    assert client.get("/kb/key-suggestion/", {"title": "差旅"}).status_code == 403
    client.force_login(curator)
    assert client.get("/kb/key-suggestion/", {"title": "差旅"}).json() == {"key": "cha-lv"}
