"""A Chinese page says nothing in English: the console's own stored notes ("imported from travel-policy.md", "the
console on first start") are shown in Chinese; only names, keys, numbers and codes stay as they are."""

import re

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What may stay ASCII on a Chinese page besides people's names: the document's title and key, its file's
# extension, setting names (all capitals) and terms Chinese software writes in Latin letters.
ALLOWED = {"travel", "policy", "md", "api", "url", "webhook"}


def english_words(text: str, *, names: set[str]) -> list[str]:
    words = re.findall(r"[A-Za-z][A-Za-z']+", text)
    allowed = ALLOWED | {name.lower() for name in names}
    return sorted({w for w in words if w.lower() not in allowed and not re.fullmatch(r"[A-Z0-9_]{3,}", w)})


def test_chinese_dashboard_shows_no_english(page, login, approver, curator, tmp_path, celery_worker):
    approver.language = "zh-hans"
    approver.save(update_fields=["language"])
    source = tmp_path / "travel-policy.md"
    source.write_text("# Travel policy\n\nHotels are paid up to 180 euros a night.\n")
    call_command("kb_import", str(source), "--owner", curator.username)
    login(approver)

    page.goto("/")
    page.wait_for_selector("#release-decision")
    text = page.inner_text("main")

    assert "导入自 travel-policy.md" in text
    assert "控制台首次启动" in text
    assert english_words(text, names={approver.username, curator.username}) == []


def test_chinese_version_page_shows_the_import_notes_in_chinese(page, login, approver, curator, tmp_path,
                                                                 celery_worker):
    curator.language = "zh-hans"
    curator.save(update_fields=["language"])
    source = tmp_path / "travel-policy.md"
    source.write_text("# Travel policy\n\nHotels are paid up to 180 euros a night.\n")
    call_command("kb_import", str(source), "--owner", curator.username, "--approve-as", approver.username)
    login(curator)

    page.goto("/kb/travel-policy/v1/")
    text = page.inner_text("main")

    assert "导入时批准" in text and "导入自 travel-policy.md" in text
    assert "approved at import" not in text and "imported from" not in text
