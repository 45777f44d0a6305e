"""The Users page (admins): roles, clearance, login lock and tokens, under its rules and audited; and the
messages that send people to an admin name the admins who can act."""

import pytest
from axes.models import AccessAttempt
from django.test import Client

from console.models import AuditEvent, User
from console.personal_tokens import personal_token_create
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.10"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _lock_out(username: str) -> None:
    client = Client()
    for _ in range(10):
        client.post("/login/", {"username": username, "password": "wrong"}, REMOTE_ADDR=ATTACKER)


def _roles(user) -> list[str]:
    return sorted(user.groups.values_list("name", flat=True))


@pytest.mark.parametrize("fixture", ["reviewer", "approver", "viewer_user", "outsider"])
def test_a_non_admin_is_refused_the_users_page_and_its_actions(request, fixture, admin_user):
    person = request.getfixturevalue(fixture)
    client = _as(person)

    assert client.get("/users/").status_code == 403
    assert client.post(f"/users/{person.pk}/roles/", {f"u{person.pk}-roles": ["admin"]}).status_code == 403
    assert client.post(f"/users/{admin_user.pk}/unlock/").status_code == 403
    assert _roles(person) != ["admin"]
    assert not AuditEvent.objects.filter(verb="user.roles").exists()


def test_the_users_page_lists_roles_clearance_lock_and_live_tokens(admin_user, reviewer, viewer_user):
    personal_token_create(user=reviewer, name="Ticket bot", actor=reviewer)
    revoked, _ = personal_token_create(user=reviewer, name="Old script", actor=reviewer)
    revoked.revoked_at = revoked.created_at
    revoked.save(update_fields=["revoked_at"])
    _lock_out(viewer_user.username)

    response = _as(admin_user).get("/users/")

    assert response.status_code == 200
    text = response.content.decode()
    assert f'id="user-{reviewer.pk}"' in text and "Ticket bot" in text and "Old script" not in text
    assert "Locked after 10 failed logins" in text and "Addresses locked out" in text and ATTACKER in text
    assert 'value="reviewer" checked' in text.replace(f'id="id_u{reviewer.pk}-roles_2" ', "")


def test_the_admin_grants_a_role_and_it_is_audited(admin_user, reviewer):
    response = _as(admin_user).post(f"/users/{reviewer.pk}/roles/",
                                    {f"u{reviewer.pk}-roles": ["reviewer", "curator"], "back": "?q=ri"})

    assert response.status_code == 302 and response["Location"] == f"/users/?q=ri#user-{reviewer.pk}"
    assert _roles(reviewer) == ["curator", "reviewer"]
    event = AuditEvent.objects.get(verb="user.roles")
    assert event.actor == admin_user and event.object_id == str(reviewer.pk)
    assert (event.before, event.after) == ({"roles": ["reviewer"]}, {"roles": ["curator", "reviewer"]})


def test_granting_admin_makes_staff_and_removing_it_unmakes(admin_user, reviewer):
    client = _as(admin_user)
    client.post(f"/users/{reviewer.pk}/roles/", {f"u{reviewer.pk}-roles": ["admin"]})
    reviewer.refresh_from_db()
    assert reviewer.is_staff and _roles(reviewer) == ["admin"]

    client.post(f"/users/{reviewer.pk}/roles/", {f"u{reviewer.pk}-roles": ["reviewer"]})
    reviewer.refresh_from_db()
    assert not reviewer.is_staff


def test_the_last_admin_cannot_remove_their_own_admin_role(admin_user):
    response = _as(admin_user).post(f"/users/{admin_user.pk}/roles/", {f"u{admin_user.pk}-roles": ["reviewer"]},
                                    follow=True)

    assert _roles(admin_user) == ["admin"]
    assert "ada is the last admin" in response.content.decode()
    assert not AuditEvent.objects.filter(verb="user.roles").exists()


def test_an_admin_may_leave_the_role_when_another_admin_remains(admin_user, make_user):
    make_user("bea", "admin")

    _as(admin_user).post(f"/users/{admin_user.pk}/roles/", {f"u{admin_user.pk}-roles": ["reviewer"]})

    assert _roles(admin_user) == ["reviewer"]


def test_an_admin_cannot_clear_anyone_above_their_own_clearance(make_user, reviewer):
    internal_admin = make_user("ike", "admin", clearance="internal")
    client = _as(internal_admin)

    response = client.post(f"/users/{reviewer.pk}/clearance/", {f"u{reviewer.pk}-clearance": "restricted"},
                           follow=True)

    reviewer.refresh_from_db()
    assert reviewer.clearance == "internal"
    assert "up to your own clearance" in response.content.decode()
    assert 'value="restricted"' not in client.get("/users/").content.decode()  # not even offered


def test_an_admin_cannot_change_someone_cleared_above_them(make_user, approver):
    internal_admin = make_user("ike", "admin", clearance="internal")

    client = _as(internal_admin)
    client.post(f"/users/{approver.pk}/clearance/", {f"u{approver.pk}-clearance": "public"})
    client.post(f"/users/{approver.pk}/roles/", {f"u{approver.pk}-roles": ["viewer"]})

    approver.refresh_from_db()
    assert approver.clearance == "confidential" and _roles(approver) == ["approver"]


def test_the_admin_sets_a_clearance_within_their_own_and_it_is_audited(admin_user, viewer_user):
    _as(admin_user).post(f"/users/{viewer_user.pk}/clearance/", {f"u{viewer_user.pk}-clearance": "confidential"})

    viewer_user.refresh_from_db()
    assert viewer_user.clearance == "confidential"
    event = AuditEvent.objects.get(verb="user.clearance")
    assert (event.before, event.after) == ({"clearance": "public"}, {"clearance": "confidential"})


def test_a_bad_clearance_is_a_400(admin_user, viewer_user):
    response = _as(admin_user).post(f"/users/{viewer_user.pk}/clearance/", {f"u{viewer_user.pk}-clearance": "top"})

    assert response.status_code == 400


def test_the_admin_unlocks_a_locked_account_and_it_is_audited(admin_user, reviewer):
    _lock_out(reviewer.username)
    assert Client().post("/login/", {"username": reviewer.username, "password": PASSWORD},
                         REMOTE_ADDR="198.51.100.7").status_code == 429

    _as(admin_user).post(f"/users/{reviewer.pk}/unlock/")

    assert not AccessAttempt.objects.filter(username=reviewer.username).exists()
    assert AuditEvent.objects.get(verb="login.unlock").actor == admin_user
    person = Client()
    person.post("/login/", {"username": reviewer.username, "password": PASSWORD}, REMOTE_ADDR="198.51.100.7")
    assert "_auth_user_id" in person.session


def test_the_admin_unlocks_an_address(admin_user, reviewer):
    _lock_out(reviewer.username)

    _as(admin_user).post("/users/addresses/unlock/", {"address": ATTACKER})

    assert not AccessAttempt.objects.filter(ip_address=ATTACKER).exists()


def test_the_admin_revokes_a_persons_token(admin_user, reviewer):
    token, _ = personal_token_create(user=reviewer, name="Ticket bot", actor=reviewer)

    _as(admin_user).post(f"/users/{reviewer.pk}/tokens/{token.pk}/revoke/")

    token.refresh_from_db()
    assert token.revoked_at is not None
    assert AuditEvent.objects.get(verb="personal_token.revoke").actor == admin_user


def test_the_users_page_actions_need_the_csrf_token(admin_user, reviewer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin_user)

    response = client.post(f"/users/{reviewer.pk}/roles/", {f"u{reviewer.pk}-roles": ["admin"]})

    assert response.status_code == 403
    assert _roles(reviewer) == ["reviewer"]


def test_the_lockout_page_names_the_admins_who_can_unlock(admin_user, make_user, reviewer):
    make_user("bea", "admin")
    make_user("gone", "admin").__class__.objects.filter(username="gone").update(is_active=False)
    _lock_out(reviewer.username)

    text = Client().post("/login/", {"username": reviewer.username, "password": "wrong"},
                         REMOTE_ADDR=ATTACKER).content.decode()

    assert "An administrator can unlock it sooner: ask ada, bea." in text


def test_the_403_page_names_the_admins_and_the_users_page(admin_user, viewer_user):
    text = _as(viewer_user).get("/review/").content.decode()

    assert "An admin grants roles on the Users page: ask ada." in text


def test_the_admin_role_may_use_the_admin_sites_users_and_access_attempts(admin_user, make_user):
    User.objects.filter(pk=admin_user.pk).update(is_staff=True)  # as the Users page and the demo make admins
    superuser = User.objects.create_superuser("root", password=PASSWORD)
    client = _as(User.objects.get(pk=admin_user.pk))

    for path in ("/admin/console/user/", f"/admin/console/user/{admin_user.pk}/change/", "/admin/axes/accessattempt/",
                 "/admin/console/auditevent/"):
        assert client.get(path).status_code == 200, path
    # Roles and clearance are the Users page's (audited, under its rules); a superuser's account is not theirs.
    change = client.get(f"/admin/console/user/{admin_user.pk}/change/").content.decode()
    assert 'name="clearance"' not in change and 'name="is_superuser"' not in change
    assert client.get(f"/admin/console/user/{superuser.pk}/change/").content.decode().count('name="username"') == 0


@pytest.mark.parametrize("address", ["", "not-an-address", "203.0.113.10; DROP"])
def test_unlocking_something_that_is_no_address_is_a_400(admin_user, address):
    assert _as(admin_user).post("/users/addresses/unlock/", {"address": address}).status_code == 400


def test_a_forged_back_link_stays_on_the_users_page(admin_user, reviewer):
    response = _as(admin_user).post(f"/users/{reviewer.pk}/unlock/", {"back": "?q=a\r\nSet-Cookie: x=1&page=2"})

    assert response.status_code == 302
    assert response["Location"].startswith("/users/?q=a%0D%0ASet-Cookie") and "\n" not in response["Location"]
