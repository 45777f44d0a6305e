"""In a real browser over the real worker (#24 items 4 and 5): an answer released on a reviewer's override is
counted in its paragraph's "cited by", and its trace and the API show the override and note; a curator following a
review link gets a page that explains; the dashboard leaves the Ask page's answers out of production figures."""

from __future__ import annotations

import os
import time

import pytest

from review.models import Answer
from tests.conftest import answer_scored
from tests.ask.conftest import KB

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLICY = """# Expense policy

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""
SCREENSHOTS = os.environ.get("CONSOLE_SCREENSHOTS", "")  # a directory keeps the pictures for looking at them


def _shot(page, name: str) -> None:
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=True)


def _log_in_as(page, login, user) -> None:
    page.context.clear_cookies()
    login(user)




def test_an_override_released_answer_is_cited_by_its_paragraph_with_the_note_in_trace_and_api(
    page, login, reviewer, curator, publish, api_token, api, settings,
):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0.0
    version = publish(POLICY, key="expense-policy", title="Expense policy")
    answer = answer_scored(client=api_token[0], question="When are expense reports due?",
                           text="Expense reports must be submitted within 45 days after the trip ends.")
    assert answer.status == "pending_review" and answer.claims.get().verdict == "contradicted"

    login(reviewer)
    page.goto(answer.get_absolute_url())
    page.click("#start-review")
    card = page.locator("[data-claim-card]")
    card.locator("input[name=note]").fill("HR extended the deadline to 45 days")
    card.locator("button[value=confirmed]").click()
    page.wait_for_selector("[data-claim-card].review-confirmed")
    page.locator("input[name=then]").uncheck()
    page.click("#approve-button")
    page.wait_for_selector(".msg-success:has-text('approved and sent')")
    assert Answer.objects.get(pk=answer.pk).status == "approved"

    _log_in_as(page, login, curator)
    page.goto(version.get_absolute_url())
    line = version.text[: version.text.index("Expense reports must")].count("\n") + 1
    cited = page.locator(f"a.cited-by[href$='?line={line}']")
    assert cited.inner_text() == "cited by 1 answer"
    assert page.locator("a.cited-by").count() == 1  # the meals paragraph is cited by none
    _shot(page, "version-cited-by-1440")
    cited.click()
    row = page.locator(f"#answer-{answer.pk}")
    assert row.is_visible()
    row.locator("a:has-text('trace')").click()
    review = page.locator("#trace-review")
    assert "override: marked correct against the checker" in review.inner_text()
    assert "HR extended the deadline to 45 days" in review.inner_text()
    _shot(page, "trace-override-1440")

    body = api.get(f"/api/v1/answers/{answer.pk}").json()
    assert body["overrides_checker"] is True
    assert body["claims"][0]["review"]["note"] == "HR extended the deadline to 45 days"
    assert "HR extended the deadline to 45 days" in body["decision"]["reason"]


def test_a_curator_following_a_review_link_sees_a_page_that_explains(page, login, curator, admin_user, make_answer):
    answer = make_answer()
    login(curator)

    response = page.goto(answer.get_absolute_url())

    assert response.status == 403
    refused = page.locator("#refused")
    assert "This page needs one of these roles: reviewer, approver." in refused.inner_text()  # approvers: gold items
    assert page.locator("[data-held-roles]").inner_text() == "curator"
    assert f"ask {admin_user.username}" in page.locator("[data-granted-by]").inner_text()
    assert page.get_by_role("link", name="Review queue").count() == 0  # the nav leads nowhere it refuses
    _shot(page, "forbidden-1440")
    page.set_viewport_size({"width": 390, "height": 844})
    _shot(page, "forbidden-390")


def test_the_dashboard_leaves_ask_page_answers_out(page, login, reviewer, publish, celery_worker, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0.0
    publish(KB, key="workspace-faq", title="Workspace FAQ")
    login(reviewer)
    page.goto("/ask/")
    page.fill("#id_question", "When does the support team answer email?")
    page.press("#id_question", "Enter")
    page.wait_for_selector("#ask-result mark.quote", timeout=60_000)
    asked = Answer.objects.get()
    deadline = time.monotonic() + 30
    while Answer.objects.get(pk=asked.pk).status == "scoring" and time.monotonic() < deadline:
        time.sleep(0.1)
    asked.refresh_from_db()
    assert asked.sandbox and asked.status != "scoring"

    page.goto("/")

    assert page.locator("#released-today").inner_text() == "0"
    assert page.locator("[aria-label^='Queue depth by risk']").get_attribute("aria-label") \
        == "Queue depth by risk: high 0, medium 0, low 0"
    sent = 1 if asked.status in ("released", "approved") else 0
    waiting = 1 if asked.status == "pending_review" else 0
    assert page.locator("#sandbox").inner_text() == (
        f"Ask page (sandbox), not counted above: 1 asked today, {sent} sent today, {waiting} waiting for review.")
    _shot(page, "dashboard-1440")
