import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_reviewer_logs_in_and_navigates(page, login, reviewer):
    page.goto("/")
    assert "/login/" in page.url

    login(reviewer)

    assert page.locator("h1").first.inner_text() == "Dashboard"
    assert page.locator(".who").inner_text().startswith(reviewer.username)


def test_wrong_password_shows_a_readable_error(page, reviewer):
    page.goto("/login/")
    page.fill("#id_username", reviewer.username)
    page.fill("#id_password", "wrong")
    page.click("button[type=submit]")

    assert "didn't match" in page.locator(".msg-error").inner_text()


def test_locked_out_person_reads_how_long_and_whom_to_ask(page, reviewer, settings):
    settings.AXES_FAILURE_LIMIT = 3
    for _ in range(3):
        page.goto("/login/")
        page.fill("#id_username", reviewer.username)
        page.fill("#id_password", "wrong")
        page.click("button[type=submit]")

    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")

    message = page.locator(".msg-error").inner_text()
    assert "Too many failed logins" in message and "15 minutes" in message and "administrator" in message
    assert "/login/" in page.url and page.locator("#id_username").input_value() == reviewer.username
