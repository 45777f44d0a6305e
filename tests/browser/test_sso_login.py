"""Single sign-on through Chromium against the test OIDC provider process (tests/oidc_provider.py): the login page's
button, the provider and back; roles from groups, a group change at the next sign-in, a disabled person refused,
and password logins turned off."""

import pytest

from console.models import User
from console.roles import user_roles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _sign_in(page) -> None:
    page.goto("/login/")
    page.click("text=Sign in with Test IdP")
    page.wait_for_load_state()


def test_first_sign_in_lands_on_the_dashboard_with_the_role_of_the_provider_group(page, oidc_provider):
    oidc_provider.choose("sam", "kb-curators", "staff")

    _sign_in(page)

    page.wait_for_url(lambda url: "/login/" not in url)
    assert page.locator("h1").first.inner_text() == "Dashboard"
    assert page.locator(".who").inner_text().startswith("sam")
    sam = User.objects.get(username="sam")
    assert (set(user_roles(sam)), sam.clearance) == ({"curator"}, "internal")
    assert page.goto("/kb/new/").status == 200  # a curator's page


def test_a_group_change_takes_effect_at_the_next_sign_in(page, oidc_provider):
    oidc_provider.choose("sam", "kb-readers")
    _sign_in(page)
    page.wait_for_url(lambda url: "/login/" not in url)
    refused = page.goto("/kb/new/")  # a curator's page
    assert refused.status == 403 and "This page needs one of these roles" in page.content()

    page.click("text=Log out")  # ends the provider's session too, and comes back to the login page
    page.wait_for_url(lambda url: "/login/" in url)
    assert oidc_provider.state()["end_sessions"][-1] == {"id_token_hint": True, "client_id": "review-console"}
    oidc_provider.choose("sam", "kb-curators")
    _sign_in(page)
    page.wait_for_url(lambda url: "/login/" not in url)

    assert page.goto("/kb/new/").status == 200
    assert set(user_roles(User.objects.get(username="sam"))) == {"curator"}


def test_a_disabled_person_is_refused_in_words(page, oidc_provider, reviewer):
    reviewer.is_active = False
    reviewer.save(update_fields=["is_active"])
    oidc_provider.choose(reviewer.username, "kb-reviewers")

    _sign_in(page)

    assert "/login/" in page.url
    assert "This account is disabled" in page.locator(".msg-error").inner_text()
    page.goto("/")
    assert "/login/" in page.url


def test_with_local_login_off_the_page_offers_only_single_sign_on(page, oidc_provider, settings):
    settings.LOCAL_LOGIN_ENABLED = False
    settings.AUTHENTICATION_BACKENDS = [backend for backend in settings.AUTHENTICATION_BACKENDS
                                        if backend != "django.contrib.auth.backends.ModelBackend"]
    oidc_provider.choose("sam", "kb-reviewers")

    page.goto("/login/")

    assert page.locator("#id_password").count() == 0 and page.locator("#id_username").count() == 0
    button = page.locator("a.sso")
    assert button.inner_text() == "Sign in with Test IdP"
    button.click()
    page.wait_for_url(lambda url: "/login/" not in url)
    assert page.locator(".who").inner_text().startswith("sam")
