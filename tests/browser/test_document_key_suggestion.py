"""The new-document form suggests a key from the title, and leaves a key the curator typed alone."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_key_follows_the_title_until_the_curator_types_one(page, login, curator):
    login(curator)
    page.goto("/kb/new/")

    page.fill("#id_title", "Travel Policy (2026) — Überblick")
    suggested = page.input_value("#id_key")
    page.fill("#id_key", "travel")
    page.fill("#id_title", "Travel policy, revised")

    assert suggested == "travel-policy-2026-uberblick"
    assert page.input_value("#id_key") == "travel"


def test_chinese_title_suggests_a_pinyin_key(page, login, curator):
    login(curator)
    page.goto("/kb/new/")

    page.fill("#id_title", "差旅政策（2026版）")

    # expect() polls without eval: the console's CSP (script-src 'self') refuses wait_for_function's string
    expect(page.locator("#id_key")).to_have_value("cha-lv-zheng-ce-2026-ban")
