"""Personal tokens for the review API: made by `create_user_token` or on /account/tokens/ (shown once, a hash
stored), listed and revoked by their owner, audited; a revoked token stops working at once."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from console.models import AuditEvent, PersonalToken
from console.personal_tokens import LIVE_TOKENS_MAX, personal_token_hash

pytestmark = pytest.mark.django_db

QUEUE = "/api/v1/review/queue"


def _queue(token: str):
    return Client().get(QUEUE, headers={"Authorization": f"Bearer {token}"})


def test_the_command_prints_a_token_that_works_and_stores_only_its_hash(reviewer):
    out = StringIO()

    call_command("create_user_token", "rita", "--name", "ticket bot", stdout=out)

    lines = out.getvalue().splitlines()
    token = next(line.removeprefix("token: ") for line in lines if line.startswith("token: "))
    assert lines[0] == "personal token 'ticket bot' for rita (clearance internal)"
    assert "cannot be shown again" in lines[-1]
    stored = PersonalToken.objects.get()
    assert (stored.user, stored.name, stored.token_hash) == (reviewer, "ticket bot", personal_token_hash(token))
    assert token.startswith(stored.prefix) and token not in stored.prefix
    assert _queue(token).status_code == 200
    event = AuditEvent.objects.get(verb="personal_token.create")
    assert event.actor_label == "manage.py create_user_token rita" and token not in str(event.after)


def test_the_command_says_when_the_person_holds_no_reviewer_role(curator):
    out = StringIO()

    call_command("create_user_token", "cora", stdout=out)

    assert "holds no reviewer role" in out.getvalue()
    assert PersonalToken.objects.get().name == "command line"


def test_the_command_refuses_unknown_and_deactivated_people(reviewer):
    reviewer.is_active = False
    reviewer.save(update_fields=["is_active"])

    with pytest.raises(CommandError, match="no user named 'nobody'"):
        call_command("create_user_token", "nobody")
    with pytest.raises(CommandError, match="deactivated"):
        call_command("create_user_token", "rita")
    assert not PersonalToken.objects.exists()


def test_the_page_creates_a_token_shown_once(client, reviewer):
    client.force_login(reviewer)

    created = client.post("/account/tokens/", {"name": "chat bot"})
    again = client.get("/account/tokens/")

    assert created.status_code == 200
    assert "no-store" in created["Cache-Control"]
    stored = PersonalToken.objects.get()
    page = created.content.decode()
    token = page.split("<pre class=\"mono\" data-new-token>", 1)[1].split("</pre>", 1)[0]
    assert personal_token_hash(token) == stored.token_hash
    assert token not in again.content.decode() and "chat bot" in again.content.decode()
    assert f"{stored.prefix}…" in again.content.decode()
    assert _queue(token).status_code == 200
    assert AuditEvent.objects.get(verb="personal_token.create").actor == reviewer


def test_revoking_on_the_page_stops_the_token_at_once(client, reviewer, person_token):
    token = person_token(reviewer)
    assert _queue(token).status_code == 200
    client.force_login(reviewer)

    response = client.post(f"/account/tokens/{PersonalToken.objects.get().pk}/revoke/", follow=True)

    assert response.status_code == 200
    assert "Revoked the token “test tool”: it no longer works." in response.content.decode()
    assert PersonalToken.objects.get().revoked_at is not None
    assert _queue(token).status_code == 401
    assert AuditEvent.objects.filter(verb="personal_token.revoke").count() == 1


def test_nobody_sees_or_revokes_another_persons_tokens(client, reviewer, second_reviewer, person_token):
    token = person_token(second_reviewer, name="rob's bot")
    client.force_login(reviewer)

    listing = client.get("/account/tokens/").content.decode()
    revoke = client.post(f"/account/tokens/{PersonalToken.objects.get().pk}/revoke/")

    assert "rob's bot" not in listing and "You have no tokens yet." in listing
    assert revoke.status_code == 404
    assert _queue(token).status_code == 200


def test_every_form_on_the_page_needs_its_csrf_token(reviewer, person_token):
    person_token(reviewer)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(reviewer)
    token_id = PersonalToken.objects.get().pk

    forged_create = browser.post("/account/tokens/", {"name": "forged"})
    forged_revoke = browser.post(f"/account/tokens/{token_id}/revoke/")
    page = browser.get("/account/tokens/")
    csrf = page.cookies["csrftoken"].value
    genuine = browser.post("/account/tokens/", {"name": "genuine", "csrfmiddlewaretoken": csrf})

    assert forged_create.status_code == 403 and forged_revoke.status_code == 403
    assert page.content.decode().count('name="csrfmiddlewaretoken"') >= 3  # create, revoke, log out
    assert genuine.status_code == 200
    assert sorted(PersonalToken.objects.values_list("name", flat=True)) == ["genuine", "test tool"]
    assert PersonalToken.objects.get(name="test tool").revoked_at is None


@pytest.mark.parametrize(("name", "words"), [("", "This field is required."), ("x" * 101, "at most 100 characters"),
                                             ("bad\x07bell", "control character")])
def test_a_bad_name_is_refused_and_stores_nothing(client, reviewer, name, words):
    client.force_login(reviewer)

    response = client.post("/account/tokens/", {"name": name})

    assert response.status_code == 400
    assert words in response.content.decode()
    assert not PersonalToken.objects.exists()


def test_a_person_keeps_at_most_twenty_live_tokens(client, reviewer, person_token):
    for n in range(LIVE_TOKENS_MAX):
        person_token(reviewer, name=f"tool {n}")
    client.force_login(reviewer)

    response = client.post("/account/tokens/", {"name": "one more"})

    assert response.status_code == 400
    assert "revoke one you no longer need first" in response.content.decode()
    assert PersonalToken.objects.count() == LIVE_TOKENS_MAX


def test_any_logged_in_person_has_the_page_linked_beside_the_language(client, outsider):
    client.force_login(outsider)

    page = client.get("/account/tokens/").content.decode()

    assert '<a href="/account/tokens/" aria-current="page">API tokens</a>' in page
    assert "You hold no reviewer role" in page
    assert client.get("/").content.decode().count('href="/account/tokens/"') == 1


def test_the_page_needs_a_login(client):
    response = client.get("/account/tokens/")

    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_the_page_speaks_chinese(client, reviewer):
    reviewer.language = "zh-hans"
    reviewer.save(update_fields=["language"])
    client.force_login(reviewer)

    page = client.get("/account/tokens/").content.decode()

    assert "<h1>API 令牌</h1>" in page and "创建令牌" in page and "你还没有令牌。" in page
