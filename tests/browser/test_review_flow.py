"""A reviewer's day in a real browser: next item, highlighted wrong number, claim and answer rejected,
leases respected, high risk gated on confirming every claim, keyboard shortcuts."""

import time

import pytest

from review import services
from review.models import Answer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLICY = """# Expense policy

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""


@pytest.fixture
def scored_answer(publish, api_token, settings):
    """An answer scored by the real pipeline: one claim right, one with a wrong number."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    publish(POLICY, key="expense-policy")
    client, _ = api_token

    def make(text: str, question: str = "What are the expense rules?") -> Answer:
        answer, _ = services.answer_create(client=client, question=question, text=text)
        if services.answer_score_claim(answer_id=answer.pk):
            return services.answer_score_run(answer_id=answer.pk)
        deadline = time.monotonic() + 30  # the worker took the on-commit task first
        while Answer.objects.get(pk=answer.pk).status == "scoring" and time.monotonic() < deadline:
            time.sleep(0.1)
        return Answer.objects.get(pk=answer.pk)

    return make


def _second_login(browser, live_server, user):
    context = browser.new_context(base_url=live_server.url)
    page = context.new_page()
    page.goto("/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    return context, page


def test_reviewer_rejects_a_wrong_number_while_a_colleague_is_told_it_is_leased(
    page, login, browser, live_server, reviewer, second_reviewer, scored_answer
):
    answer = scored_answer("The domestic per diem is $65 per day. "
                           "Expense reports must be submitted within 45 days after the trip ends.")
    assert (answer.status, answer.risk) == ("pending_review", "high")
    login(reviewer)

    page.goto("/review/")
    page.click("button:has-text('Review next')")
    page.wait_for_url(f"**/review/answers/{answer.pk}/")

    wrong = page.locator(".claim-card.verdict-contradicted")
    assert "45 days" in wrong.locator(".claim-text").inner_text()
    assert wrong.locator("section.evidence mark.quote").inner_text() == "Expense reports must be submitted within 30 days after the trip ends."
    assert "30" in wrong.locator(".reasons").inner_text() and "45" in wrong.locator(".reasons").inner_text()

    colleague_context, colleague = _second_login(browser, live_server, second_reviewer)
    colleague.goto(f"/review/answers/{answer.pk}/")
    assert f"{reviewer.username} is reviewing this answer until" in colleague.locator(".messages").inner_text()
    assert colleague.locator("#approve-button").count() == 0
    colleague_context.close()

    wrong.locator("button:has-text('Reject claim')").click()
    page.wait_for_selector(".claim-card.verdict-contradicted.review-rejected")
    page.fill("#id_reason", "deadline is 30 days")
    page.locator("button[data-shortcut='reject-answer']").click()
    page.wait_for_selector(".msg-success:has-text('rejected')")

    answer.refresh_from_db()
    assert answer.status == "rejected"
    assert answer.claims.get(verdict="contradicted").review_state == "rejected"


def test_high_risk_answer_is_approved_only_after_every_claim_is_confirmed_with_the_keyboard(
    page, login, reviewer, scored_answer
):
    answer = scored_answer("The domestic per diem is $65 per day. Alcohol is not reimbursed.",
                           question="Can I get a refund for drinks?")  # not a listed topic here: force high below
    Answer.objects.filter(pk=answer.pk).update(status="pending_review", risk="high", risk_order=0)
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")

    approve = page.locator("#approve-button")
    assert approve.is_disabled()

    page.keyboard.press("?")
    assert page.locator("dialog#shortcuts").is_visible()
    page.keyboard.press("Escape")

    claim_count = page.locator("[data-claim-card]").count()
    page.keyboard.press("j")
    for _ in range(claim_count):
        page.keyboard.press("c")
        time.sleep(0.4)  # let htmx swap the card before the next key
    page.wait_for_function("!document.querySelector('#approve-button').disabled")
    assert page.locator(".claim-card.review-confirmed").count() == claim_count

    page.keyboard.press("a")
    page.wait_for_selector(".msg-success:has-text('approved and sent')")
    answer.refresh_from_db()
    assert answer.status == "approved"
    assert answer.released_text == answer.text
