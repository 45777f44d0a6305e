"""Two reviewers at once in real browsers against the real server and worker: the second one's page shows the
first one's comment and decision without a reload (and keeps what they are typing), presence, one lease warning;
bulk reject of three ticked rows and its undo, seen live on a colleague's queue; search in a claim's words; the
queue as cards on a phone."""

import pytest

from review.models import Answer, Decision
from tests.browser.steps import login_in_new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def live_quickly(settings):
    settings.REVIEW_LIVE_POLL_SECONDS = 1  # the pages ask every second: the test waits less


def test_a_second_reviewer_sees_the_first_ones_comment_and_decision_without_a_reload(
        page, login, browser, live_server, celery_worker, reviewer, second_reviewer, make_answer, live_quickly):
    answer = make_answer(question="Is the refund window 14 days?")
    login(reviewer)
    page.goto(answer.get_absolute_url())
    page.click("#start-review")
    page.wait_for_selector("#lease:has-text('Leased to you')")

    context, colleague = login_in_new_context(browser, live_server, second_reviewer)
    colleague.goto(answer.get_absolute_url())
    notices = colleague.get_by_text(f"{reviewer.username} is reviewing this answer")
    assert notices.count() == 1  # one lease warning, not three
    assert colleague.locator("#presence").inner_text() == f"{reviewer.username} is looking at this"
    page.wait_for_selector(f"#presence:has-text('{second_reviewer.username} is looking at this')")
    colleague.fill("#id_text", "half-written thought")  # must survive the page's live updates

    page.fill("#id_text", "The policy says 30 days.")
    page.click("#comments button[type=submit]")
    page.wait_for_selector("#comment-list:has-text('The policy says 30 days.')")
    page.fill("#id_reason", "refund window is 30 days")
    page.locator("button[data-shortcut='reject-answer']").click()
    page.wait_for_selector("#undo-toast")

    colleague.wait_for_selector("#comment-list:has-text('The policy says 30 days.')")
    colleague.wait_for_selector("#decision-panel:has-text('Rejected')")
    colleague.wait_for_selector(f"#history:has-text('{reviewer.username}')")
    assert "Rejected" in colleague.locator("#answer-heading").inner_text()
    assert colleague.locator("#lease-notice").count() == 0  # the lease went with the decision
    assert colleague.input_value("#id_text") == "half-written thought"
    assert colleague.evaluate("performance.getEntriesByType('navigation').length") == 1  # never reloaded
    context.close()


def test_bulk_reject_of_three_ticked_rows_with_undo_seen_live_by_a_colleague(
        page, login, browser, live_server, celery_worker, reviewer, second_reviewer, make_answer, live_quickly):
    answers = [make_answer(question=f"Question {n}?") for n in range(4)]
    ticked = answers[:3]
    context, colleague = login_in_new_context(browser, live_server, second_reviewer)
    colleague.goto("/review/")
    assert colleague.locator("#queue-total").inner_text() == "4 listed"
    login(reviewer)
    page.goto("/review/")
    for answer in ticked:
        page.check(f"#answer-{answer.pk} input[name=answers]")
    assert page.locator("[data-ticked-count]").inner_text() == "3"
    page.fill("#id_bulk_reason", "duplicates of a known wrong answer")
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))

    page.click("button[data-bulk-action=reject]")

    page.wait_for_selector("#undo-toast:has-text('Rejected 3 answers.')")
    assert asked and asked[0].startswith("Reject 3 ticked answers?")
    assert Decision.objects.filter(action="reject").count() == 3  # each its own decision
    colleague.wait_for_selector("#queue-total:has-text('1 listed')")
    assert colleague.locator("#queue-rows tr[id^=answer-]").count() == 1  # the count matches the rows

    page.click("#undo-toast button")

    page.wait_for_selector(".msg-success:has-text('Reject undone: 3 answers are back in the queue.')")
    assert set(Answer.objects.values_list("status", flat=True)) == {"pending_review"}
    colleague.wait_for_selector("#queue-total:has-text('4 listed')")
    assert colleague.locator("#queue-rows tr[id^=answer-]").count() == 4
    context.close()


def test_search_finds_a_claims_words(page, login, reviewer, make_answer):
    gym = make_answer(question="What can I claim on a trip?",
                      claims=[("Hotel gym fees are reimbursed up to $50 a day.", "uncertain", 0.5)])
    make_answer(question="What about meals?", claims=[("Meals are covered up to $70 a day.", "uncertain", 0.5)])
    login(reviewer)
    page.goto("/review/")
    assert page.locator("label[for=id_q]").inner_text() == "Search questions, answers and claims"

    page.fill("#id_q", "gym reimbursed")
    page.press("#id_q", "Enter")

    page.wait_for_url("**/review/?*q=gym*")
    rows = page.locator("#queue-rows tr[id^=answer-]")
    assert rows.count() == 1 and rows.first.get_attribute("id") == f"answer-{gym.pk}"


def test_on_a_phone_the_queue_is_cards_with_tier_reason_and_client_on_the_first_screen(
        page, login, reviewer, make_answer):
    for n in range(3):
        make_answer(question=f"Is claim {n} right?", risk="high")
    page.set_viewport_size({"width": 390, "height": 844})
    login(reviewer)
    page.goto("/review/")

    card = page.locator("#queue-rows tr[id^=answer-]").first
    for column in ("risk", "reason", "client", "age"):
        box = card.locator(f"td[data-column={column}]").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, f"{column} is below the first screen: {box}"
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, f"{column} runs off the side: {box}"
    assert card.bounding_box()["width"] <= 390
    for control in page.locator("main a:visible, main button:visible, main select:visible, main summary:visible").all():
        assert control.bounding_box()["height"] >= 44, f"{control.inner_text()!r} is too small for a thumb"

    page.goto(Answer.objects.order_by("pk").first().get_absolute_url())
    toolbar = page.locator("#review-toolbar a:visible, #review-toolbar button:visible")
    assert toolbar.count() >= 3
    for i in range(toolbar.count()):
        height = toolbar.nth(i).bounding_box()["height"]
        assert height >= 44, f"{toolbar.nth(i).inner_text()!r} is {height} px tall"
