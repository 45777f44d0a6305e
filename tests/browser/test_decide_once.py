"""Decisions that count more than once, in a real browser: a group of answers stating the same facts decided once
releases all its members, one key agrees with every supported claim, and a repeated fact goes out on its review."""

import pytest
from playwright.sync_api import expect

from review.models import Answer
from tests.conftest import answer_scored

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLICY = """# Travel policy

## Booking

International trips must be booked at least 21 days before departure. Domestic trips must be booked at least 14 days before departure.

## Hotels

The nightly hotel cap in London is £220.
"""
SAME = "International trips must be booked at least 21 days before departure. The nightly hotel cap in London is £220."


@pytest.fixture
def answers(publish, api_token, settings, release_at):
    """Answers scored by the real pipeline; nothing goes out on its score alone (they wait for a reviewer)."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0.0
    release_at(1.01)
    publish(POLICY, key="travel", title="Travel policy")
    client, _ = api_token
    return lambda text: answer_scored(client=client, text=text, question="How early do I book?")


def test_a_group_decided_once_releases_every_member(page, login, reviewer, answers):
    members = [answers(SAME) for _ in range(3)]
    assert {m.status for m in members} == {"pending_review"}
    login(reviewer)

    page.goto("/review/")
    page.click("#answer-groups a:has-text('Decide 3 answers once')")
    assert page.locator("[data-group-member]").count() == 3
    for card in page.locator("[data-group-claim]").all():
        card.locator("input[value=confirmed]").check()
    page.click("[data-group-approve]")
    page.wait_for_url("**/review/")

    assert "Decided 3 answers of the group." in page.locator(".messages, .msg-success, body").first.inner_text()
    assert [Answer.objects.get(pk=m.pk).status for m in members] == ["approved"] * 3
    assert page.locator("#answer-groups").count() == 0


def test_one_key_agrees_with_the_supported_claims_then_the_fact_goes_out_again_on_its_review(
        page, login, reviewer, answers):
    answer = answers(SAME)
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")
    page.keyboard.press("n")  # start the review: the lease
    page.wait_for_selector("#confirm-supported")

    page.keyboard.press("g")
    page.wait_for_selector("#confirm-supported", state="detached")
    assert page.locator(".claim-card .claim-mark").count() == 2
    page.keyboard.press("a")
    expect(page.locator("#approve-button")).to_have_count(0, timeout=15_000)  # no eval: the CSP refuses it

    again = answers(SAME)
    assert Answer.objects.get(pk=again.pk).status == "released"
    page.goto(f"/review/answers/{again.pk}/")
    assert page.locator("[data-reviewed-fact-badge]").count() == 2


CHANGED = "International trips must be booked at least 9 days before departure."


def test_enter_in_a_claims_note_never_marks_the_claim(page, login, reviewer, answers):
    answer = answers(CHANGED)
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")
    page.keyboard.press("n")  # the lease
    note = page.locator("[data-claim-note]").first
    note.wait_for()
    note.fill("wrong - the source says 21 days")
    note.press("Enter")
    page.wait_for_timeout(500)  # what a submission would have taken

    claim = Answer.objects.get(pk=answer.pk).claims.get()
    assert claim.review_state == "open", claim.review_state
    assert note.input_value() == "wrong - the source says 21 days"  # nothing lost either
    assert page.locator("#approve-button").is_disabled()


def test_ctrl_enter_in_the_reason_rejects_and_never_approves(page, login, reviewer, answers):
    answer = answers(CHANGED)
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")
    page.keyboard.press("n")  # the lease
    reason = page.locator("textarea[name=reason]")
    reason.wait_for()
    page.on("dialog", lambda dialog: dialog.accept())  # "Reject this answer?"
    reason.fill("The source says 21 days, not 9.")
    reason.press("Enter")  # a new line, nothing else
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"
    reason.press("Control+Enter")
    page.wait_for_function(f"() => !location.pathname.startsWith('/review/answers/{answer.pk}/')"
                           " || document.body.innerText.includes('Rejected')", timeout=15_000)

    decided = Answer.objects.get(pk=answer.pk)
    assert decided.status == "rejected"
    assert decided.decisions.get().reason.startswith("The source says 21 days")
