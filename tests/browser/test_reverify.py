"""The owner re-verifies a version about to expire; another approver approves the extension in the browser; the
version stays evidence past its old expiry without a new upload."""

from datetime import timedelta

import pytest
from django.utils import timezone

from kb.models import DocumentVersion

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXT = "# Parking\n\nVisitors park in lot P7 for up to 4 hours.\n"


def test_owner_reverifies_and_an_approver_extends(page, login, browser, live_server, publish, curator, approver):
    version = publish(TEXT, key="parking", title="Parking guide", expires_at=timezone.now() + timedelta(days=5))
    old_expiry = version.expires_at
    until = timezone.localtime(timezone.now() + timedelta(days=200)).replace(second=0, microsecond=0)

    login(curator)
    page.goto("/kb/parking/")
    page.fill("#reverify input[name=expires_at]", until.strftime("%Y-%m-%dT%H:%M"))
    page.fill("#reverify input[name=note]", "checked with facilities")
    page.click("[data-reverify]")
    assert "takes effect once another approver approves it" in page.locator(".messages").inner_text()
    assert page.locator("[data-extension-pending]").count() == 1
    assert page.locator("[data-extension-approve]").count() == 0  # the owner sees no approve button

    approver_context = browser.new_context(base_url=live_server.url)
    approver_page = approver_context.new_page()
    approver_page.goto("/login/")
    approver_page.fill("#id_username", approver.username)
    approver_page.fill("#id_password", "correct-horse-battery")
    approver_page.click("button[type=submit]")
    approver_page.goto("/kb/parking/")
    approver_page.click("[data-extension-approve]")
    assert "Extension approved" in approver_page.locator(".messages").inner_text()
    assert until.strftime("%Y-%m-%d %H:%M") in approver_page.locator("dl.meta").inner_text()
    assert approver_page.locator("[data-extension=approved]").count() == 1
    approver_context.close()

    version.refresh_from_db()
    assert version.expires_at == until
    assert version.document.versions.count() == 1
    assert version in DocumentVersion.objects.usable_as_evidence(clearance="internal",
                                                                 at=old_expiry + timedelta(days=1))
