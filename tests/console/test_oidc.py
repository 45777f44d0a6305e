"""Single sign-on against the test OIDC provider process (tests/oidc_provider.py), walked by the Django test client:
the console's redirects are followed by hand to the provider and back."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from axes.models import AccessAttempt

from console.models import AuditEvent, User
from console.roles import user_roles

pytestmark = pytest.mark.django_db


def _sign_in(client, next_url: str = ""):
    """Start at the console's button, let the provider approve, and come back: the callback's response."""
    start = client.get("/login/sso/" + (f"?next={next_url}" if next_url else ""))
    assert start.status_code == 302, start.content
    authorize = httpx.get(start["Location"])
    assert authorize.status_code == 302, authorize.text
    callback = urlsplit(authorize.headers["Location"])
    return client.get(f"{callback.path}?{callback.query}")


def test_first_sign_in_creates_the_person_with_roles_and_clearance_from_their_groups(client, oidc_provider):
    oidc_provider.choose("sam", "kb-reviewers", "staff", "unrelated-group")

    response = _sign_in(client)

    assert response.status_code == 302 and response["Location"] == "/"
    sam = User.objects.get(username="sam")
    assert (set(user_roles(sam)), sam.clearance, sam.email, sam.has_usable_password()) == (
        {"reviewer"}, "internal", "sam@example.com", False)
    event = AuditEvent.objects.get(verb="user.create", object_id=str(sam.pk))
    assert event.after["roles"] == ["reviewer"] and event.after["provider_groups"] == [
        "kb-reviewers", "staff", "unrelated-group"]
    assert client.get("/").status_code == 200


def test_the_page_asked_for_is_where_sign_in_lands(client, oidc_provider):
    oidc_provider.choose("sam", "kb-reviewers")

    response = _sign_in(client, next_url="/review/")

    assert response["Location"] == "/review/"


def test_a_group_change_at_the_provider_takes_effect_at_the_next_sign_in_and_is_audited(client, oidc_provider):
    oidc_provider.choose("sam", "kb-reviewers", "staff")
    _sign_in(client)
    client.post("/logout/")
    oidc_provider.choose("sam", "kb-curators", "security-team")

    _sign_in(client)

    sam = User.objects.get(username="sam")
    assert (set(user_roles(sam)), sam.clearance) == ({"curator"}, "confidential")
    change = AuditEvent.objects.get(verb="user.roles", object_id=str(sam.pk))
    assert (change.before, change.after["roles"], change.after["clearance"]) == (
        {"roles": ["reviewer"], "clearance": "internal"}, ["curator"], "confidential")


def test_an_existing_local_account_signs_in_by_its_username_and_takes_its_roles_from_the_provider(
        client, oidc_provider, reviewer):
    oidc_provider.choose(reviewer.username, "kb-approvers")

    _sign_in(client)

    reviewer.refresh_from_db()
    assert User.objects.filter(username=reviewer.username).count() == 1
    assert set(user_roles(reviewer)) == {"approver"}


def test_a_disabled_person_is_refused_and_the_refusal_audited_and_counted(client, oidc_provider, reviewer):
    reviewer.is_active = False
    reviewer.save(update_fields=["is_active"])
    oidc_provider.choose(reviewer.username, "kb-reviewers")

    response = _sign_in(client)

    assert response.status_code == 403
    assert "This account is disabled" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert AuditEvent.objects.filter(verb="login.refused", object_id=str(reviewer.pk)).exists()
    assert AccessAttempt.objects.get().failures_since_start == 1  # a failed login for the address, as for passwords


def test_a_locked_out_address_cannot_sign_in_through_the_provider_either(client, oidc_provider, reviewer, settings):
    settings.AXES_FAILURE_LIMIT = 2
    for _ in range(2):
        client.post("/login/", {"username": reviewer.username, "password": "wrong"})
    oidc_provider.choose("sam", "kb-reviewers")

    response = _sign_in(client)

    assert response.status_code == 429 and "Too many failed logins" in response.content.decode()
    assert not User.objects.filter(username="sam", last_login__isnull=False).exists()


def test_a_locked_out_account_cannot_sign_in_through_the_provider(client, oidc_provider, reviewer, settings):
    settings.AXES_FAILURE_LIMIT = 2
    settings.AXES_LOCKOUT_PARAMETERS = ["username"]
    for _ in range(2):
        client.post("/login/", {"username": reviewer.username, "password": "wrong"})
    oidc_provider.choose(reviewer.username, "kb-reviewers")

    response = _sign_in(client)

    assert response.status_code == 429 and "Too many failed logins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logout_ends_the_session_at_the_provider_and_comes_back_to_the_login_page(client, oidc_provider):
    oidc_provider.choose("sam", "kb-reviewers")
    _sign_in(client)

    response = client.post("/logout/")

    location = urlsplit(response["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == f"{oidc_provider.issuer}/logout"
    query = parse_qs(location.query)
    assert query["post_logout_redirect_uri"] == ["http://testserver/login/"] and query["id_token_hint"]
    assert "_auth_user_id" not in client.session


def test_a_password_login_logs_out_here_only(client, oidc_provider, reviewer):
    client.force_login(reviewer)

    response = client.post("/logout/")

    assert response["Location"] == "/login/"


def test_with_local_login_off_the_page_offers_only_the_provider_and_a_password_post_is_refused(
        client, oidc_provider, reviewer, settings):
    settings.LOCAL_LOGIN_ENABLED = False
    settings.AUTHENTICATION_BACKENDS = [backend for backend in settings.AUTHENTICATION_BACKENDS
                                        if backend != "django.contrib.auth.backends.ModelBackend"]

    page = client.get("/login/").content.decode()
    refused = client.post("/login/", {"username": reviewer.username, "password": "correct-horse-battery"})

    assert "Sign in with Test IdP" in page and 'name="password"' not in page
    assert refused.status_code == 403 and "Logging in with a password is turned off" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_login_page_in_chinese_offers_the_provider_in_chinese(client, oidc_provider, settings):
    page = client.get("/login/", headers={"Accept-Language": "zh-hans"}).content.decode()
    settings.OIDC_PROVIDER_NAME = ""
    unnamed = client.get("/login/", headers={"Accept-Language": "zh-hans"}).content.decode()

    assert "通过 Test IdP 登录" in page and "或使用密码登录" in page
    assert ">单点登录</a>" in unnamed


def test_a_provider_that_cannot_be_reached_is_said_in_words(client, oidc_provider, settings):
    from tests.processes import free_port

    settings.OIDC_ISSUER = f"http://127.0.0.1:{free_port()}"  # nothing listens there

    response = client.get("/login/sso/")

    assert response.status_code == 502
    assert "The identity provider could not be reached" in response.content.decode()


def test_a_replayed_answer_from_the_provider_is_refused_in_words(client, oidc_provider):
    oidc_provider.choose("sam", "kb-reviewers")
    start = client.get("/login/sso/")
    callback = urlsplit(httpx.get(start["Location"]).headers["Location"])
    client.get(f"{callback.path}?{callback.query}")
    client.post("/logout/")

    replayed = client.get(f"{callback.path}?{callback.query}")

    assert replayed.status_code in (400, 403) and "_auth_user_id" not in client.session


def test_without_single_sign_on_the_login_page_has_no_provider_button(client, db):
    page = client.get("/login/").content.decode()

    assert "Sign in with" not in page and 'name="password"' in page
    assert client.get("/login/sso/").status_code == 404


def test_an_id_token_for_another_client_is_refused(client, oidc_provider):
    oidc_provider.choose("sam", "kb-reviewers", audience="another-console")

    response = _sign_in(client)

    assert response.status_code == 400 and "could not be completed" in response.content.decode()
    assert not User.objects.filter(username="sam").exists() and "_auth_user_id" not in client.session


def test_a_map_naming_no_role_or_clearance_is_an_error_at_start_up(settings):
    from console.oidc import oidc_maps_check

    settings.OIDC_ROLE_MAP = {"kb-curators": "curators"}
    settings.OIDC_CLEARANCE_MAP = {"staff": "secret"}

    errors = [error.msg for error in oidc_maps_check()]

    assert errors == ["OIDC_ROLE_MAP maps 'kb-curators' to 'curators', not one of curator, approver, reviewer, admin, "
                      "viewer",
                      "OIDC_CLEARANCE_MAP maps 'staff' to 'secret', not one of public, internal, confidential, "
                      "restricted"]


def test_a_role_map_that_is_not_a_json_object_names_the_variable():
    from django.core.exceptions import ImproperlyConfigured

    from config.env import json_object

    with pytest.raises(ImproperlyConfigured, match="OIDC_ROLE_MAP must be a JSON object"):
        json_object("OIDC_ROLE_MAP", "kb-curators=curator")
    assert json_object("OIDC_ROLE_MAP", "") == {}
