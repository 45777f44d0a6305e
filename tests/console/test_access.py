"""Every page needs a login and the right role; every form needs CSRF."""

import pytest
from django.test import Client

from console.roles import REVIEWER

pytestmark = pytest.mark.django_db


def test_anonymous_user_is_redirected_to_login(client):
    response = client.get("/audit/")

    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/audit/"


def test_user_without_the_role_gets_403(client, reviewer):
    client.force_login(reviewer)

    response = client.get("/audit/")

    assert response.status_code == 403
    assert b"needs one of these roles" in response.content


def test_user_with_the_role_gets_the_page(client, approver):
    client.force_login(approver)

    assert client.get("/audit/").status_code == 200


def test_admin_holds_every_role(admin_user):
    assert admin_user.has_role(REVIEWER)


def test_login_post_without_csrf_token_is_refused(reviewer):
    strict_client = Client(enforce_csrf_checks=True)

    response = strict_client.post("/login/", {"username": reviewer.username, "password": "correct-horse-battery"})

    assert response.status_code == 403
    assert "_auth_user_id" not in strict_client.session


def test_logout_needs_post(client, reviewer):
    client.force_login(reviewer)

    assert client.get("/logout/").status_code == 405
    assert client.post("/logout/").status_code == 302
