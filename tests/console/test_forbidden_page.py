"""The 403 page explains (#24 item 5): which role the page needs, the roles the person holds, and who grants them
— in the person's language."""

import pytest

pytestmark = pytest.mark.django_db


def test_a_curator_following_a_review_link_is_told_which_role_and_who_grants_it(client, curator, admin_user,
                                                                                make_answer):
    answer = make_answer()
    client.force_login(curator)

    response = client.get(answer.get_absolute_url())

    page = response.content.decode()
    assert response.status_code == 403
    assert "This page needs one of these roles: reviewer, approver." in page  # approvers read it for gold items
    assert '<dd data-needed-roles><strong>reviewer</strong> or <strong>approver</strong></dd>' in page
    assert "<dd data-held-roles>curator</dd>" in page
    assert f"An admin grants roles on the Users page: ask {admin_user.username}." in page
    assert 'href="/review/' not in page  # the nav offers no link into review either


def test_an_approver_posting_a_review_action_gets_the_same_page(client, approver, make_answer):
    answer = make_answer()
    client.force_login(approver)

    response = client.post(f"/review/answers/{answer.pk}/start/")

    assert response.status_code == 403
    assert "<dd data-held-roles>approver</dd>" in response.content.decode()


def test_someone_with_no_role_reads_none(client, outsider):
    client.force_login(outsider)

    page = client.get("/audit/").content.decode()

    assert "<strong>admin</strong> or <strong>approver</strong>" in page
    assert "<dd data-held-roles>none</dd>" in page


def test_the_page_speaks_the_persons_language(client, make_user):
    user = make_user("cui", "curator")
    user.language = "zh-hans"
    user.save(update_fields=["language"])
    client.force_login(user)

    page = client.get("/review/").content.decode()

    assert "此页面需要以下角色之一：审核员。" in page
    assert "管理员" in page


def test_a_refusal_that_is_not_about_roles_says_only_why(client, reviewer):
    client.force_login(reviewer)

    response = client.get("/review/sources-to-fix/")

    assert response.status_code == 403
    assert "Sources to fix are for curators, approvers and document owners." in response.content.decode()
    assert "data-needed-roles" not in response.content.decode()
