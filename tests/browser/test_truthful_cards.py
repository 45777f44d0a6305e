"""Claim cards that never contradict themselves, in a real browser over answers the real worker scored (#24 item 3):
the $750 card gives a supported reason and a not-found card none; two sources saying the same 30 days are no
conflict; a real conflict names both values and cannot be approved before the reviewer says which source is right,
and only the source they blamed is listed to fix; "Yes." is no claim."""

import pytest

from review.models import Answer, SourceCorrection
from tests.conftest import answer_scored
from tests.conflict_sources import FAQ, FAQ_SENTENCE, REFUND_POLICY

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDBOOK = """# Home office

## Equipment

Employees may expense up to $750 for a home office chair.
"""
CHAIR = "Employees may expense up to $750 for a home office chair."
BONUS = "Employees get a $750 wellness bonus every year."
# The FAQ's 30 days in other words, in a document of its own.
BILLING_GUIDE = """# Billing guide

## Refunds

Refunds of annual subscriptions are possible within 30 days of purchase.
"""


@pytest.fixture
def scored(api_token, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []  # only what the cards show may hold the answers
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0.0
    client, _ = api_token

    def score(text: str, question: str) -> Answer:
        return answer_scored(client=client, text=text, question=question)

    return score


def test_the_750_card_gives_a_supported_reason_and_yes_is_no_claim(page, login, reviewer, publish, scored):
    publish(HANDBOOK, key="home-office", title="Home office")
    answer = scored(f"Yes. {CHAIR} {BONUS}", "What can I expense for my home office?")
    login(reviewer)
    page.goto(answer.get_absolute_url())

    cards = page.locator("[data-claim-card]")
    assert cards.count() == 2  # "Yes." is not a claim
    supported, bonus = cards.nth(0), cards.nth(1)
    assert CHAIR in supported.locator(".claim-text").inner_text()
    assert "Supported" in supported.locator(".badge.supported").inner_text()
    assert "$750 matches evidence" in supported.locator(".reasons").inner_text()
    assert "No supporting source found" not in supported.inner_text()

    assert BONUS in bonus.locator(".claim-text").inner_text()
    assert "No supporting source found" in bonus.inner_text()
    assert "matches evidence" not in bonus.inner_text()
    assert "$750 is in the nearest passage, which does not support the claim" in bonus.locator(".reasons").inner_text()


def test_two_sources_saying_the_same_30_days_are_no_conflict(page, login, reviewer, publish, scored):
    publish(FAQ, key="product-faq", title="Product FAQ")
    publish(BILLING_GUIDE, key="billing-guide", title="Billing guide")
    answer = scored(FAQ_SENTENCE, "How long is the refund window?")
    login(reviewer)
    page.goto(answer.get_absolute_url())

    page.wait_for_selector("[data-claim-card]")
    assert page.locator("[data-conflict]").count() == 0
    assert "disagree" not in page.locator("main").inner_text()
    assert not any("conflict" in reason for reason in answer.routing_reasons)


def test_a_conflict_names_both_values_needs_a_source_choice_and_lists_only_the_blamed_source(
    page, login, reviewer, curator, publish, scored,
):
    publish(FAQ, key="product-faq", title="Product FAQ")
    publish(REFUND_POLICY, key="refund-policy", title="Refund policy")
    answer = scored(FAQ_SENTENCE, "How long is the refund window?")
    assert (answer.status, answer.risk) == ("pending_review", "high")
    login(reviewer)
    page.goto(answer.get_absolute_url())
    page.click("text=Start review")
    page.wait_for_selector("form.conflict-settle")

    sentence = page.locator("[data-conflict] .conflict-sentence").inner_text()
    assert "Product FAQ v1 says 30 days; Refund policy v1 says 45 days." in sentence
    page.locator("[data-claim-card] button[value=confirmed]").click()
    page.wait_for_selector("[data-claim-card].review-confirmed")
    assert page.locator("#approve-button").is_disabled()
    assert "say which source is right before approving" in page.locator("#approve-hint").inner_text()

    page.click(".conflict-settle button[value=supporting]")
    page.wait_for_selector("[data-conflict-recorded]")
    page.wait_for_selector("#approve-button:not([disabled])")
    assert page.locator("#approve-hint").count() == 0

    page.context.clear_cookies()
    login(curator)  # who keeps the knowledge base
    page.goto("/review/sources-to-fix/")
    entries = page.locator("article.source-fix")
    assert entries.count() == 1
    assert "Refund policy" in entries.locator("h2").inner_text()
    assert "Product FAQ" not in entries.locator("h2").inner_text()
    assert SourceCorrection.objects.get().wrong_version.document.key == "refund-policy"
