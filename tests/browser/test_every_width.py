"""Every main page fits the window at phone and laptop widths: no sideways page scroll, nav and Log out reachable,
and on the review page the decision buttons are in view at 1024×768 without scrolling."""

import pytest

from kb.models import Chunk
from tests.ask.question_sets import QUESTIONS, save_and_run
from tests.conflict_sources import FAQ, REFUND_POLICY, conflicting_answer_rows

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("vocabulary_forgotten")]

POLICY = """# Expense policy

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.
Receipts_for_every_meal_above_twenty_five_dollars_are_required_without_any_exception.

| Item | Limit | Notes |
|------|-------|-------|
| Breakfast | $15 | Including tip and taxes where the hotel does not include breakfast in the room rate |
| Dinner | $35 | Alcohol excluded |

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""

WIDTHS = [(390, 844), (768, 1024), (1024, 768), (1440, 900)]


def _no_sideways_scroll(page, where: str) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{where}: page is {widths[0]} px wide in a {widths[1]} px window"


@pytest.fixture
def pages(publish, make_answer, admin_user, api_token):
    from review import corrections, leases

    version = publish(POLICY, key="expense-policy")
    publish(POLICY.replace("30 days", "45 days"), key="expense-policy", approve=False)  # a diff and a pending v2
    chunk = Chunk.objects.get(version=version, heading_path="Expense policy > Submission")
    answer = make_answer(
        risk="high", chunk=chunk, question="When are expense reports due, and is alcohol reimbursed at dinner?",
        claims=[("Expense reports are due within 30 days after the trip ends.", "supported", 0.9),
                ("Alcohol is reimbursed at dinners with clients when a manager approves it in writing.",
                 "contradicted", 0.2),
                ("The per diem is $65 per day.", "supported", 0.8),
                ("Receipts are needed for every meal.", "uncertain", 0.5)],
    )
    leases.answer_lease_take(answer=answer, reviewer=admin_user)  # the decision panel is the reviewer's
    claim = answer.claims.first()
    conflict = conflicting_answer_rows(client=api_token[0], faq_version=publish(FAQ, key="product-faq"),
                                       policy_version=publish(REFUND_POLICY, key="refund-policy"))
    conflict_claim = conflict.claims.get()
    corrections.source_conflict_settle(claim=conflict_claim, reviewer=admin_user, right="neither",
                                       conflicting=conflict_claim.evidence.get(rank=2))  # both listed to fix
    question_set, run = save_and_run(rows=QUESTIONS)  # the saved set's pages, with a finished run
    _vocabulary_filled(admin_user)
    return answer, [
        "/", "/kb/", "/kb/new/", version.get_absolute_url(), "/kb/expense-policy/v2/", "/kb/expense-policy/upload/",
        "/kb/expense-policy/diff/?from=1&to=2", "/kb/search/?q=per+diem", "/review/", answer.get_absolute_url(),
        f"/review/claims/{claim.pk}/trace/", "/review/sources/expense-policy/v1/", "/audit/",
        conflict.get_absolute_url(), "/review/sources-to-fix/",
        "/ask/sets/", question_set.get_absolute_url(), run.get_absolute_url(), "/kb/vocabulary/",
    ]


def _vocabulary_filled(curator) -> None:
    """A candidate with a long example and an accepted pair in each language, for the vocabulary page."""
    from kb import vocabulary

    vocabulary.synonym_candidates_record(
        language="en", pairs=[("per diem", "daily allowance")], reviewer=curator, answer_id=1, claim_id=1,
        claim_text="The per diem is $65 per day. " * 6, evidence_text="The daily allowance is $65 per day. " * 6,
        security_level="internal")
    vocabulary.synonym_add(language="zh", words="打车", other_words="乘坐 出租车", curator=curator)
    vocabulary.synonym_add(language="en", words="Superextraordinarilylongcompoundwordforreimbursements",
                           other_words="meal receipts", curator=curator)


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_no_main_page_scrolls_sideways(page, login, admin_user, pages, width, height):
    _, paths = pages
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/login/")
    _no_sideways_scroll(page, f"login at {width}")
    login(admin_user)

    for path in paths:
        response = page.goto(path)
        assert response.status == 200, path
        _no_sideways_scroll(page, f"{path} at {width}")


def test_narrow_screen_folds_the_menu_and_log_out_stays_reachable(page, login, admin_user, pages):
    page.set_viewport_size({"width": 390, "height": 844})
    login(admin_user)
    log_out = page.get_by_role("button", name="Log out")
    assert not log_out.is_visible()

    page.click("[data-nav-toggle]")

    assert page.get_attribute("[data-nav-toggle]", "aria-expanded") == "true"
    assert page.get_by_role("link", name="Audit log").is_visible()
    box = log_out.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    log_out.click()
    page.wait_for_url("**/login/**")


def test_version_page_columns_stack_on_a_phone(page, login, admin_user, pages):
    page.set_viewport_size({"width": 390, "height": 844})
    login(admin_user)
    page.goto("/kb/expense-policy/v1/")

    versions = page.locator(".version-layout > aside").bounding_box()
    detail = page.locator(".version-layout > div").first.bounding_box()

    assert detail["y"] >= versions["y"] + versions["height"]  # one column: the detail sits below the list


def test_decision_buttons_are_in_view_at_1024_by_768(page, login, admin_user, pages):
    answer, _ = pages
    page.set_viewport_size({"width": 1024, "height": 768})
    login(admin_user)
    page.goto(answer.get_absolute_url())

    approve = page.locator("[data-shortcut='approve']").bounding_box()
    reject = page.locator("[data-shortcut='reject-answer']").bounding_box()

    for box in (approve, reject):
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 768


# One phrase of the page's own Chinese per path (the header's are checked on every page): the page was translated,
# not only the layout around it.
CHINESE_ON = {
    "/": "放行决策", "/kb/": "检索试验场", "/kb/new/": "上传文档", "/kb/expense-policy/v1/": "标题路径",
    "/kb/expense-policy/v2/": "驳回时必填", "/kb/expense-policy/upload/": "的新版本",
    "/kb/expense-policy/diff/?from=1&to=2": "修改的词语", "/kb/search/?q=per+diem": "命中测试", "/review/": "审核队列",
    "/review/sources/expense-policy/v1/": "依赖了它的回答", "/audit/": "审计日志", "/review/sources-to-fix/": "待修正来源",
    "/ask/sets/": "保存问题集", "/account/language/": "与浏览器相同", "/kb/vocabulary/": "审核中发现的候选",
}
CJK = "[\u4e00-\u9fff]"
# CONSOLE_SCREENSHOTS=docs/screenshots/zh keeps these pages' pictures (README "Languages"); otherwise none are kept.
SCREENSHOTS = {"/": "dashboard", "/review/": "review-queue", "/kb/expense-policy/v1/": "kb-version"}


@pytest.fixture
def chinese_page(browser, live_server):
    """A browser whose language is Chinese (it sends Accept-Language: zh-CN, as a Chinese Chromium does)."""
    context = browser.new_context(base_url=live_server.url, locale="zh-CN")
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1440, 900)])
def test_every_page_in_chinese_fits_and_shows_chinese(chinese_page, admin_user, pages, width, height):
    import os
    import re
    from pathlib import Path

    from tests.conftest import PASSWORD

    answer, paths = pages
    page = chinese_page
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/login/")
    assert page.locator("h1").inner_text() == "有据回答审核控制台"
    page.fill("#id_username", admin_user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    shots = os.environ.get("CONSOLE_SCREENSHOTS")

    for path in [*paths, "/account/language/"]:
        response = page.goto(path)
        assert response.status == 200, path
        assert page.evaluate("document.documentElement.lang") == "zh-hans", path
        header = page.locator("header.topbar").text_content()
        assert "仪表盘" in header and "退出登录" in header, path
        main = page.locator("main").inner_text()
        assert len(re.findall(CJK, main)) >= 10, f"{path}: little Chinese in {main[:200]!r}"
        if path in CHINESE_ON:
            assert CHINESE_ON[path] in main, f"{path} at {width}: no “{CHINESE_ON[path]}”"
        _no_sideways_scroll(page, f"{path} in Chinese at {width}")
        if shots and path in SCREENSHOTS:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shots}/{SCREENSHOTS[path]}-{width}.png", full_page=True)

    page.goto(answer.get_absolute_url())  # the review page's own words, beside the English answer it reviews
    main = page.locator("main").inner_text()
    assert "为何在此" in main and "第 1 条论断" in main
    if shots:
        page.screenshot(path=f"{shots}/review-answer-{width}.png", full_page=True)
