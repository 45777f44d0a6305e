"""Which language the console speaks: the browser's Accept-Language, unless the person saved a language of their
own; blank follows the browser again. The API answers in English whatever the client sends."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

CHINESE = "zh-Hans,zh;q=0.9,en;q=0.5"
ENGLISH = "en-GB,en;q=0.9"


def _page(client, path: str = "/", language: str | None = None) -> str:
    headers = {"Accept-Language": language} if language else {}
    response = client.get(path, headers=headers)
    assert response.status_code == 200, path
    return response.content.decode()


def test_without_accept_language_the_console_is_english(client, reviewer):
    client.force_login(reviewer)

    page = _page(client)

    assert '<html lang="en">' in page
    assert "<h1>Dashboard</h1>" in page and "仪表盘" not in page


def test_browser_asking_for_simplified_chinese_gets_chinese(client, reviewer):
    client.force_login(reviewer)

    page = _page(client, language=CHINESE)

    assert '<html lang="zh-hans">' in page
    assert "<h1>仪表盘</h1>" in page
    assert ">审核队列</a>" in page and ">退出登录</button>" in page
    assert "Dashboard" not in page


def test_login_page_follows_the_browser_before_anyone_logs_in(client):
    page = _page(client, "/login/", language=CHINESE)

    assert "<h1>有据回答审核控制台</h1>" in page and ">登录</button>" in page


def test_form_labels_and_choices_come_in_chinese(client, reviewer):
    client.force_login(reviewer)

    page = _page(client, "/review/", language=CHINESE)

    assert ">风险最高、最可能出错的在前</option>" in page  # QueueFilterForm's sort choices (gettext_lazy)
    assert "<h1>审核队列" in page


def test_saved_language_wins_over_the_browser(client, reviewer):
    reviewer.language = "en"
    reviewer.save(update_fields=["language"])
    client.force_login(reviewer)

    assert "<h1>Dashboard</h1>" in _page(client, language=CHINESE)

    reviewer.language = "zh-hans"
    reviewer.save(update_fields=["language"])

    assert "<h1>仪表盘</h1>" in _page(client, language=ENGLISH)


def test_blank_language_follows_the_browser(client, reviewer):
    assert reviewer.language == ""
    client.force_login(reviewer)

    assert "<h1>仪表盘</h1>" in _page(client, language=CHINESE)
    assert "<h1>Dashboard</h1>" in _page(client, language=ENGLISH)


def test_403_page_is_in_the_persons_language(client, reviewer):
    client.force_login(reviewer)

    response = client.get("/audit/", headers={"Accept-Language": CHINESE})

    assert response.status_code == 403
    body = response.content.decode()
    assert "你无权访问此页面" in body and "此页面需要以下角色之一" in body


def test_header_links_to_the_language_page_named_in_its_own_language(client, reviewer):
    client.force_login(reviewer)

    assert 'href="/account/language/?next=/"' in _page(client)
    assert ">English</a>" in _page(client)
    assert ">简体中文</a>" in _page(client, language=CHINESE)


def test_language_page_needs_login(client):
    response = client.get("/account/language/")

    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert Client().post("/account/language/", {"language": "zh-hans"}).status_code == 302


def test_language_form_needs_its_csrf_token(reviewer):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(reviewer)

    page = strict.get("/account/language/").content.decode()
    refused = strict.post("/account/language/", {"language": "zh-hans"})

    assert 'name="csrfmiddlewaretoken"' in page
    assert refused.status_code == 403
    reviewer.refresh_from_db()
    assert reviewer.language == ""


def test_choosing_chinese_saves_it_and_says_so_in_chinese(client, reviewer):
    client.force_login(reviewer)

    response = client.post("/account/language/", {"language": "zh-hans", "next": "/review/"},
                           headers={"Accept-Language": ENGLISH}, follow=True)

    reviewer.refresh_from_db()
    assert reviewer.language == "zh-hans"
    assert response.redirect_chain == [("/review/", 302)]
    assert "语言已保存。" in response.content.decode()


def test_choosing_same_as_browser_clears_the_saved_language(client, reviewer):
    reviewer.language = "zh-hans"
    reviewer.save(update_fields=["language"])
    client.force_login(reviewer)

    client.post("/account/language/", {"language": ""}, headers={"Accept-Language": ENGLISH})

    reviewer.refresh_from_db()
    assert reviewer.language == ""
    assert "<h1>Dashboard</h1>" in _page(client, language=ENGLISH)


def test_unknown_language_is_refused_and_nothing_saved(client, reviewer):
    client.force_login(reviewer)

    response = client.post("/account/language/", {"language": "xx"})

    assert response.status_code == 200 and "errorlist" in response.content.decode()
    reviewer.refresh_from_db()
    assert reviewer.language == ""


def test_language_page_never_redirects_off_site(client, reviewer):
    client.force_login(reviewer)

    response = client.post("/account/language/", {"language": "en", "next": "https://elsewhere.example/"})

    assert response.status_code == 302 and response["Location"] == "/account/language/"


def test_api_answers_in_english_whatever_the_client_asks_for(api, reviewer):
    reviewer.language = "zh-hans"  # a person's setting has no say over the API either
    reviewer.save(update_fields=["language"])

    response = api.post("/api/v1/check", {"answer": "Refunds take\x00 14 days."}, **{"Accept-Language": CHINESE})

    assert response.status_code == 400
    assert "contains a control character (U+0000)" in response.json()["detail"]
    assert response["Content-Language"] == "en"
