"""In a real browser on a real server: the demo `admin` unlocks a locked-out person and grants them a role from
the console's Users page, as the lockout page (which names them) promised; a reviewer is refused the page."""

from __future__ import annotations

import os

import pytest
from django.test import Client

from console.models import AuditEvent, User
from tests.browser.steps import login_in_new_context
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = os.environ.get("CONSOLE_SCREENSHOTS", "")  # a directory keeps the pictures for looking at them


@pytest.fixture
def demo_admin(make_user):
    """As seed_demo makes it: the role admin, staff, cleared for everything, not a superuser."""
    admin = make_user("admin", "admin", clearance="restricted")
    User.objects.filter(pk=admin.pk).update(is_staff=True)
    return admin


def _lock_out(username: str) -> None:
    client = Client()
    for _ in range(10):
        client.post("/login/", {"username": username, "password": "wrong"}, REMOTE_ADDR="203.0.113.10")


def test_the_demo_admin_unlocks_a_locked_person_and_grants_a_role(browser, live_server, page, login, demo_admin,
                                                                   reviewer):
    _lock_out(reviewer.username)
    person = browser.new_context(base_url=live_server.url)
    person_page = person.new_page()
    person_page.goto("/login/")
    person_page.fill("#id_username", reviewer.username)
    person_page.fill("#id_password", PASSWORD)
    person_page.click("button[type=submit]")
    assert "An administrator can unlock it sooner: ask admin." in person_page.inner_text("main")

    login(demo_admin)
    page.click("nav >> text=Users")
    card = page.locator(f"#user-{reviewer.pk}")
    assert "login locked" in card.inner_text()
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        for width in (1440, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=os.path.join(SCREENSHOTS, f"users-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 1400, "height": 900})

    card.get_by_role("button", name="Unlock").click()
    assert f"Unlocked {reviewer.username}" in page.inner_text(".messages")
    card = page.locator(f"#user-{reviewer.pk}")
    assert "Not locked: no failed logins." in card.inner_text()

    card.get_by_label("curator").check()
    card.get_by_role("button", name="Save roles").click()
    assert f"Saved the roles of {reviewer.username}" in page.inner_text(".messages")
    assert page.locator(f"#user-{reviewer.pk} input[value=curator]").is_checked()

    assert sorted(reviewer.groups.values_list("name", flat=True)) == ["curator", "reviewer"]
    assert list(AuditEvent.objects.filter(actor=demo_admin).order_by("id").values_list("verb", flat=True)) == [
        "login.unlock", "user.roles"]
    person_page.fill("#id_username", reviewer.username)
    person_page.fill("#id_password", PASSWORD)
    person_page.click("button[type=submit]")
    person_page.wait_for_url(lambda url: "/login/" not in url)
    person_page.goto("/kb/new/")  # a curator's page (403 for a reviewer): the new role works at once
    assert "You don't have access" not in person_page.inner_text("main")
    person.close()


def test_a_reviewer_gets_403_on_the_users_page_naming_the_admins(browser, live_server, demo_admin, reviewer):
    context, reviewer_page = login_in_new_context(browser, live_server, reviewer)

    response = reviewer_page.goto("/users/")

    assert response.status == 403
    text = reviewer_page.inner_text("main")
    assert "You don't have access to this page" in text and "ask admin." in text
    assert reviewer_page.locator("nav >> text=Users").count() == 0
    context.close()
