"""A curator uploads, watches indexing finish, an approver approves, and the text is searchable."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOC = b"""# Parking guide

## Visitor parking

Visitors park in lot P7 for up to 4 hours. The gate code is PX-2231.

## Staff parking

Staff permits cost 30 euros per month.
"""


def test_upload_index_approve_and_search(page, login, celery_worker, curator, approver, tmp_path, browser, live_server):
    source = tmp_path / "parking.md"
    source.write_bytes(DOC)
    login(curator)

    page.goto("/kb/new/")
    page.fill("#id_key", "parking")
    page.fill("#id_title", "Parking guide")
    page.set_input_files("#id_file", str(source))
    page.click("button:has-text('Upload')")

    # The progress bar polls until the worker has indexed every chunk, then the page reloads with chunks.
    page.wait_for_selector("[data-state='ready']", timeout=60_000)
    page.wait_for_selector(".chunk-inspector tr[id^='chunk-']")
    assert page.locator(".progress.done").count() == 1
    assert "Waiting for an approver" in page.content()

    approver_context = browser.new_context(base_url=live_server.url)
    approver_page = approver_context.new_page()
    approver_page.goto("/login/")
    approver_page.fill("#id_username", approver.username)
    approver_page.fill("#id_password", "correct-horse-battery")
    approver_page.click("button[type=submit]")
    approver_page.goto("/kb/parking/")
    approver_page.fill("#id_reason", "checked with facilities")
    approver_page.click("button:has-text('Approve')")
    assert "is now approved" in approver_page.locator(".messages").inner_text()

    approver_page.goto("/kb/search/?q=PX-2231")
    hit = approver_page.locator(".search-hit").first
    assert "Parking guide" in hit.inner_text()
    assert "Visitors park in lot P7" in hit.inner_text()
    approver_context.close()
