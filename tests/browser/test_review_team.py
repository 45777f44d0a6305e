"""Team review in a real browser against a real server and worker: why a claim is wrong (its kind reaches the
review API and the labels export), two reviewers for a high-risk answer, and a gold item's verdict counted in the
reviewer's accuracy on the lead's dashboard."""

import json

import pytest
from django.core.management import call_command

from review import services
from review.leases import answer_lease_take
from review.models import Answer, GoldItem
from tests.browser import steps
from tests.conftest import answer_scored

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLICY = """# Expense policy

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""

WRONG_DEADLINE = ("The domestic per diem is $65 per day. "
                  "Expense reports must be submitted within 45 days after the trip ends.")


@pytest.fixture
def scored_answer(publish, api_token, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    publish(POLICY, key="expense-policy")
    client, _ = api_token

    def make(text: str, question: str = "What are the expense rules?") -> Answer:
        return answer_scored(client=client, text=text, question=question)

    return make


def test_a_rejected_claims_kind_reaches_the_review_api_and_the_labels_export(
        page, login, live_server, reviewer, person_token, scored_answer, tmp_path):
    answer = scored_answer(WRONG_DEADLINE)
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")
    page.keyboard.press("n")
    page.wait_for_selector("#approve-button")

    wrong = page.locator(".claim-card.verdict-contradicted")
    wrong.locator("[data-claim-note]").fill("the policy says 30 days")
    wrong.locator("button:has-text('Claim is wrong')").click()
    # The swapped card is selected once htmx has settled it; a key pressed before then has no card to act on.
    page.wait_for_selector(".claim-card.verdict-contradicted.selected [data-error-kinds]:has-text('Why is it wrong?')")
    page.keyboard.press("1")  # the card marked wrong stays selected: 1 is its first kind
    page.wait_for_selector(".claim-card.verdict-contradicted [data-error-kind-label]:has-text('Wrong number or date')")
    page.fill("#id_reason", "deadline is 30 days")
    page.locator("button[data-shortcut='reject-answer']").click()
    page.wait_for_selector("#undo-toast:has-text('rejected')")

    token = person_token(reviewer)
    seen = page.request.get(f"{live_server.url}/api/v1/review/answers/{answer.pk}",
                            headers={"Authorization": f"Bearer {token}"}).json()
    [review] = [claim["review"] for claim in seen["claims"] if claim["verdict"] == "contradicted"]
    assert (review["state"], review["kind"], review["note"]) == ("rejected", "wrong_value", "the policy says 30 days")
    exported = tmp_path / "labels.jsonl"
    call_command("export_review_labels", output=str(exported))
    rows = [json.loads(line) for line in exported.read_text().splitlines()]
    assert sorted((row["answer"], row["error_kind"]) for row in rows) == [
        ("Expense reports must be submitted within 45 days after the trip ends.", "wrong_value"),
        ("The domestic per diem is $65 per day.", None)]


def _confirm_every_claim_and_approve(page) -> None:
    page.keyboard.press("n")
    page.wait_for_selector("#approve-button")
    steps.confirm_every_claim_by_key(page)
    page.wait_for_selector("#approve-button:not([disabled])")
    page.keyboard.press("a")


def test_a_high_risk_answer_needs_two_reviewers(page, login, browser, live_server, reviewer, second_reviewer,
                                                scored_answer, settings):
    settings.REVIEW_SECOND_REVIEW_TIERS = ["high"]
    answer = scored_answer("The domestic per diem is $65 per day. Alcohol is not reimbursed.")
    Answer.objects.filter(pk=answer.pk).update(status="pending_review", risk="high", risk_order=0)
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")
    _confirm_every_claim_and_approve(page)
    page.wait_for_selector(".msg-success:has-text('waits for a second reviewer')")

    first = Answer.objects.get(pk=answer.pk)
    assert (first.status, first.first_approved_by, first.released_at) == ("pending_review", reviewer, None)
    page.goto("/review/")
    assert page.locator(f"#answer-{answer.pk} [data-needs-second-reviewer]").is_visible()
    page.goto(f"/review/answers/{answer.pk}/")
    assert "You gave this answer its first approval" in page.locator("#second-reviewer-notice").inner_text()
    assert page.locator("#start-review").count() == 0
    page.keyboard.press("n")  # the same person cannot give the second approval, not even by key
    assert page.locator("#approve-button").count() == 0
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"

    colleague_context, colleague = steps.login_in_new_context(browser, live_server, second_reviewer)
    colleague.goto(f"/review/answers/{answer.pk}/")
    assert "rita gave the first approval" in colleague.locator("#second-reviewer-notice").inner_text()
    _confirm_every_claim_and_approve(colleague)  # the claims are open again: the second review is blind
    colleague.wait_for_selector(".msg-success:has-text('approved and sent')")
    colleague_context.close()

    released = Answer.objects.get(pk=answer.pk)
    assert (released.status, released.decided_by, released.released_text) == ("approved", second_reviewer,
                                                                               released.text)


def test_a_gold_items_verdict_counts_in_the_reviewers_accuracy(page, login, browser, live_server, reviewer,
                                                              second_reviewer, approver, scored_answer, settings):
    settings.REVIEW_GOLD_RATE = 1.0
    source = scored_answer(WRONG_DEADLINE)
    answer_lease_take(answer=source, reviewer=reviewer)
    wrong = source.claims.get(verdict="contradicted")
    services.claim_review(claim=wrong, reviewer=reviewer, state="rejected", kind="wrong_value")
    services.answer_decide(answer=source, reviewer=reviewer, action="reject", reason="deadline is 30 days")

    login(approver)  # a lead
    page.goto(f"/review/answers/{source.pk}/")
    page.click("#mark-gold")
    page.wait_for_selector(".msg-success:has-text('is a gold item')")
    assert GoldItem.objects.get(answer=source).verdict == "wrong"

    colleague_context, colleague = steps.login_in_new_context(browser, live_server, second_reviewer)
    colleague.goto("/review/")
    colleague.click("button:has-text('Review next')")
    colleague.wait_for_url(lambda url: "/review/answers/" in url and f"/answers/{source.pk}/" not in url)
    assert colleague.locator("#gold-item").count() == 0  # unannounced
    copy = Answer.objects.get(gold_copy_of__answer=source)
    card = colleague.locator(".claim-card.verdict-contradicted")
    card.locator("button:has-text('Claim is wrong')").click()
    colleague.wait_for_selector(".claim-card.verdict-contradicted [data-error-kinds]")
    colleague.fill("#id_reason", "the deadline is 30 days")
    colleague.locator("button[data-shortcut='reject-answer']").click()
    colleague.wait_for_selector("#undo-toast:has-text('rejected')")
    colleague.goto("/")
    assert colleague.locator("#calibration").count() == 0  # leads only
    colleague_context.close()

    copy.refresh_from_db()
    assert (copy.status, copy.released_at, copy.webhook_state) == ("rejected", None, "")
    page.goto("/")
    row = page.locator("#gold-accuracy-rob")
    assert "100% (1/1)" in row.locator("[data-accuracy]").inner_text()
