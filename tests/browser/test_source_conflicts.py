"""A real conflict in a real browser: two approved documents disagree, the answer is held and both sources are
shown side by side; the reviewer records which is right; the other document's owner sees it in "sources to fix"
and marks it fixed."""

import pytest

from kb.models import Document
from review.models import Answer, SourceCorrection
from tests.browser.steps import login_in_new_context
from tests.conflict_sources import FAQ, FAQ_SENTENCE, REFUND_POLICY
from tests.conftest import answer_scored

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def held_conflict(publish, api_token, make_user, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []  # "refund" is a listed topic: only the conflict may hold the answer
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0.0
    publish(FAQ, key="product-faq", title="Product FAQ")
    publish(REFUND_POLICY, key="refund-policy", title="Refund policy")
    owner = make_user("olive")  # owns the refund policy and holds no role
    Document.objects.filter(key="refund-policy").update(owner=owner)
    client, _ = api_token
    answer = answer_scored(client=client, question="How long is the refund window?", text=FAQ_SENTENCE)
    return answer, owner


def test_a_held_conflict_is_settled_by_the_reviewer_and_fixed_by_the_owner(page, login, browser, live_server,
                                                                           reviewer, held_conflict):
    answer, owner = held_conflict
    assert (answer.status, answer.risk) == ("pending_review", "high")
    login(reviewer)
    page.goto(answer.get_absolute_url())
    page.keyboard.press("n")
    page.wait_for_selector("form.conflict-settle")

    conflict = page.locator("[data-conflict]")
    assert conflict.is_visible()
    assert "Approved sources disagree: Product FAQ v1 says 30 days; Refund policy v1 says 45 days." \
        in conflict.locator(".conflict-sentence").inner_text()
    supporting = conflict.locator("section.evidence.supporting")
    conflicting = conflict.locator("section.evidence.conflicting")
    assert "product-faq v1" in supporting.inner_text() and "refund-policy v1" in conflicting.inner_text()
    assert supporting.locator("mark.differs").inner_text() == "30"
    assert conflicting.locator("mark.differs").inner_text() == "45"
    left, right = supporting.bounding_box(), conflicting.bounding_box()
    assert abs(left["y"] - right["y"]) < 1 and left["x"] + left["width"] <= right["x"]  # side by side

    page.set_viewport_size({"width": 390, "height": 844})
    left, right = supporting.bounding_box(), conflicting.bounding_box()
    assert right["y"] >= left["y"] + left["height"]  # stacked on a phone
    page.set_viewport_size({"width": 1400, "height": 900})

    page.fill(".conflict-settle input[name=note]", "the contract says 30 days")
    page.click(".conflict-settle button[value=supporting]")
    page.wait_for_selector("[data-conflict-recorded]")
    assert "Product FAQ v1 is right" in page.locator("[data-conflict-recorded]").inner_text()
    assert page.get_attribute(".conflict-settle button[value=supporting]", "aria-pressed") == "true"
    entry = SourceCorrection.objects.get()
    assert (entry.wrong_version.document.key, entry.note) == ("refund-policy", "the contract says 30 days")

    claim_card = page.locator("[data-claim-card].selected")  # still this claim: it is not marked yet
    assert claim_card.get_attribute("id") == f"claim-{entry.claim_id}"
    page.keyboard.press("c")
    page.wait_for_selector(f"#claim-{entry.claim_id}.review-confirmed")
    page.wait_for_selector("#approve-button:not([disabled])")
    page.locator("input[name=then]").uncheck()
    page.keyboard.press("a")
    page.wait_for_selector(".msg-success:has-text('approved and sent')")
    assert Answer.objects.get(pk=answer.pk).status == "approved"

    owner_context, owner_page = login_in_new_context(browser, live_server, owner,
                                                     viewport={"width": 1400, "height": 900})
    owner_page.click("a.nav-count:has-text('Sources to fix')")
    listed = owner_page.locator(f"#correction-{entry.pk}")
    assert "Refund policy" in listed.locator("h2").inner_text()
    assert "marked wrong by rita" in listed.inner_text()
    assert "Annual subscriptions can be refunded within 30 days of purchase." in listed.inner_text()
    assert listed.locator("mark.differs").all_inner_texts() == ["45", "30"]

    listed.locator("input[name=note]").fill("v2 says 30 days")
    listed.locator("button[value=fixed]").click()
    owner_page.wait_for_selector(".msg-success")
    assert owner_page.locator(f"#correction-{entry.pk}").count() == 0
    assert owner_page.locator("a.nav-count:has-text('Sources to fix')").count() == 0
    entry.refresh_from_db()
    assert (entry.status, entry.resolved_by, entry.resolution_note) == ("fixed", owner, "v2 says 30 days")
    owner_context.close()
