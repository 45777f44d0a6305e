"""A reviewer's day in a real browser: next item, highlighted wrong number, claim and answer rejected,
leases respected, high risk gated on marking every claim correct, keyboard shortcuts."""

import time

import pytest

from review.models import Answer
from tests.browser import steps
from tests.conftest import answer_scored

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
        return answer_scored(client=client, text=text, question=question)

    return make




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

    colleague_context, colleague = steps.login_in_new_context(browser, live_server, second_reviewer)
    colleague.goto(f"/review/answers/{answer.pk}/")
    assert f"{reviewer.username} is reviewing this answer until" in colleague.locator("#lease-notice").inner_text()
    assert colleague.locator("#approve-button").count() == 0
    colleague_context.close()

    wrong.locator("button:has-text('Claim is wrong')").click()
    page.wait_for_selector(".claim-card.verdict-contradicted.review-rejected")
    page.fill("#id_reason", "deadline is 30 days")
    page.locator("button[data-shortcut='reject-answer']").click()  # no question: a toast offers Undo instead
    page.wait_for_selector("#undo-toast:has-text('rejected')")
    assert Answer.objects.get(pk=answer.pk).status == "rejected"
    page.locator("#undo-toast button").click()  # within the toast's time: back in review, nothing sent
    page.wait_for_selector(".msg-success:has-text('Reject undone')")
    assert page.locator("#undo-toast").count() == 0
    undone = Answer.objects.get(pk=answer.pk)
    assert (undone.status, undone.lease_holder, undone.decisions.count()) == ("pending_review", reviewer, 0)

    page.fill("#id_reason", "deadline is 30 days")
    page.keyboard.press("Escape")
    page.keyboard.press("r")  # this time it stands
    page.wait_for_selector("#undo-toast:has-text('rejected')")

    answer.refresh_from_db()
    assert answer.status == "rejected"
    assert answer.claims.get(verdict="contradicted").review_state == "rejected"


def test_high_risk_answer_is_approved_only_after_every_claim_is_marked_correct_with_the_keyboard(
    page, login, reviewer, scored_answer
):
    answer = scored_answer("The domestic per diem is $65 per day. Alcohol is not reimbursed.",
                           question="Can I get a refund for drinks?")  # not a listed topic here: force high below
    Answer.objects.filter(pk=answer.pk).update(status="pending_review", risk="high", risk_order=0)
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")
    page.keyboard.press("n")  # start review: the page was read-only

    approve = page.locator("#approve-button")
    assert approve.is_disabled()

    page.keyboard.press("?")
    assert page.locator("dialog#shortcuts").is_visible()
    page.keyboard.press("Escape")

    claim_count = page.locator("[data-claim-card]").count()
    steps.confirm_every_claim_by_key(page)
    page.wait_for_selector("#approve-button:not([disabled])")
    assert page.locator(".claim-card.review-confirmed").count() == claim_count

    page.keyboard.press("a")
    page.wait_for_selector(".msg-success:has-text('approved and sent')")
    answer.refresh_from_db()
    assert answer.status == "approved"
    assert answer.released_text == answer.text


WRONG_DEADLINE = ("The domestic per diem is $65 per day. "
                  "Expense reports must be submitted within 45 days after the trip ends.")


def _start_review(page, answer):
    page.goto(f"/review/answers/{answer.pk}/")
    page.keyboard.press("n")
    page.wait_for_selector("#approve-button")


def test_marking_a_contradicted_claim_correct_needs_a_note_and_counts_as_an_override(
    page, login, reviewer, scored_answer
):
    answer = scored_answer(WRONG_DEADLINE)
    login(reviewer)
    _start_review(page, answer)
    wrong = page.locator(".claim-card.verdict-contradicted")

    page.keyboard.press("j")
    page.keyboard.press("j")  # the second claim: the wrong deadline
    page.keyboard.press("c")
    page.wait_for_selector(".claim-card.verdict-contradicted.has-error")
    assert "say in the note why it is correct" in wrong.locator(".claim-error").inner_text()
    # ready for the note: htmx focuses it once it has settled the refused card
    page.wait_for_function("document.activeElement && document.activeElement.matches('[data-claim-note]')")
    assert answer.claims.get(verdict="contradicted").review_state == "open"

    page.keyboard.type("HR extended the deadline to 45 days this year")
    wrong.locator("button:has-text('Claim is correct')").click()
    page.wait_for_selector(".claim-card.verdict-contradicted.review-confirmed .badge:has-text('override')")
    page.locator(".claim-card.verdict-supported button:has-text('Claim is correct')").click()
    page.wait_for_selector("#approve-button:not([disabled])")

    page.locator("input[name=then]").focus()  # a focused checkbox does not stop the shortcuts
    page.keyboard.press("a")
    page.wait_for_selector(".msg-success:has-text('approved and sent')")

    decision = answer.decisions.get()
    assert (decision.action, decision.overrides_checker) == ("approve", True)
    assert decision.reason == "claim 2 is correct: HR extended the deadline to 45 days this year"
    assert answer.claims.get(verdict="contradicted").overrides_checker is True
    page.goto(f"/review/answers/{answer.pk}/")
    said = page.locator("#claim-marks").inner_text()
    assert "Claim 2: “Claim is correct” — rita" in said and "override" in said


def test_edit_and_send_after_marking_a_claim_wrong_keeps_the_edit_and_names_sources(
    page, login, reviewer, scored_answer
):
    answer = scored_answer(WRONG_DEADLINE)
    fixed = ("The domestic per diem is $65 per day. "
             "Expense reports must be submitted within 30 days after the trip ends.")
    login(reviewer)
    _start_review(page, answer)

    page.keyboard.press("e")
    assert page.evaluate("document.activeElement.id") == "id_edited_text"
    page.fill("#id_edited_text", fixed)
    page.keyboard.type("ran")  # shortcut letters in the box are text: nothing is rejected, approved or next
    assert page.input_value("#id_edited_text") == fixed + "ran"
    assert page.url.endswith(f"/review/answers/{answer.pk}/")
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"
    page.keyboard.press("Escape")  # leaves the box for the cards
    assert page.evaluate("document.activeElement.id") != "id_edited_text"
    page.fill("#id_edited_text", fixed)
    assert page.locator("#edit-send-button").is_disabled()  # the flagged claim is not marked yet

    page.locator(".claim-card.verdict-contradicted button:has-text('Claim is wrong')").click()
    page.wait_for_selector(".claim-card.verdict-contradicted.review-rejected")
    page.locator(".claim-card.verdict-supported button:has-text('Claim is correct')").click()
    page.wait_for_selector(".claim-card.verdict-supported.review-confirmed")

    assert page.input_value("#id_edited_text") == fixed  # survives the swaps
    assert page.locator("#edit-panel").evaluate("panel => panel.open")
    assert page.locator("#edit-send-button").is_enabled()
    assert page.locator("#approve-button").is_disabled()  # a claim marked wrong is not approved

    page.click("#recheck-button")
    page.wait_for_selector(".recheck-claim")
    rows = page.locator(".recheck-claim")
    assert rows.count() == 2
    assert all("Supported" in rows.nth(i).inner_text() for i in range(2))
    assert "Expense Policy (expense-policy v1)" in rows.nth(1).inner_text()
    assert answer.decisions.count() == 0  # nothing is sent by a re-check

    page.once("dialog", lambda dialog: dialog.accept())  # sending an edit asks once
    page.focus("#id_edited_text")
    page.keyboard.press("Control+Enter")  # the box's own button: send the edit
    page.wait_for_selector(".msg-success:has-text('edited and sent')")
    answer.refresh_from_db()
    assert (answer.status, answer.released_text) == ("approved", fixed)
    assert answer.claims.get(verdict="contradicted").review_state == "rejected"
    assert answer.claims.filter(from_edit=True).count() == 2


def test_viewing_takes_no_lease_and_closing_the_page_releases_it(page, login, reviewer, make_answer):
    answer = make_answer()
    login(reviewer)

    page.goto(f"/review/answers/{answer.pk}/")
    assert page.locator("#start-review").is_visible()
    assert page.locator("#approve-button").count() == 0
    answer.refresh_from_db()
    assert answer.lease_holder is None

    page.keyboard.press("n")
    page.wait_for_selector("#approve-button")
    answer.refresh_from_db()
    assert answer.lease_holder == reviewer

    page.goto("/review/")  # leaving the page sends the release beacon
    deadline = time.monotonic() + 10
    while Answer.objects.get(pk=answer.pk).lease_holder_id and time.monotonic() < deadline:
        time.sleep(0.1)
    assert Answer.objects.get(pk=answer.pk).lease_holder is None


def test_skip_hands_the_answer_back_and_opens_the_next(page, login, reviewer, make_answer):
    first = make_answer(question="First?", risk="high")
    second = make_answer(question="Second?", risk="medium")
    login(reviewer)
    page.goto("/review/")
    page.keyboard.press("n")
    page.wait_for_url(f"**/review/answers/{first.pk}/")
    assert page.locator("#queue-progress").inner_text() == "1 of 2 waiting"

    page.keyboard.press("s")
    page.wait_for_url(f"**/review/answers/{second.pk}/")

    assert "Skipped answer" in page.locator(".messages").inner_text()
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.lease_holder, second.lease_holder) == (None, reviewer)
    page.keyboard.press("[")  # previous item: read-only
    page.wait_for_url(f"**/review/answers/{first.pk}/")
    assert page.locator("#start-review").is_visible()


def test_undo_puts_the_last_claim_mark_back(page, login, reviewer, make_answer):
    answer = make_answer(claims=[("Refunds are paid within 14 days.", "uncertain", 0.5),
                                 ("Shipping is free.", "uncertain", 0.5)])
    login(reviewer)
    _start_review(page, answer)

    assert page.locator("#undo-button").is_hidden()  # nothing to undo yet
    page.keyboard.press("j")
    page.keyboard.press("x")
    page.wait_for_selector("[data-claim-card].review-rejected")
    page.wait_for_selector("#undo-button", state="visible")

    page.keyboard.press("u")
    page.wait_for_selector("[data-claim-card].review-rejected", state="detached")

    assert list(answer.claims.values_list("review_state", flat=True)) == ["open", "open"]
    assert page.locator("#undo-button").is_hidden()
