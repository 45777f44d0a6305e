"""A team triaging the queue in a real browser: "next" under a client filter, a saved view opened by a
colleague from its URL, and an assignment and a comment with a mention that the other reviewer sees."""

import pytest

from review.models import Answer
from review.services import api_client_create
from tests.browser.steps import login_in_new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]




@pytest.fixture
def helpdesk_answer(make_answer):
    """A medium-risk answer from a second API client, behind a high-risk one from the first."""
    helpdesk, _token = api_client_create(name="helpdesk", clearance="internal")
    make_answer(question="High from the assistant?", risk="high")
    answer = make_answer(question="Medium from helpdesk?", risk="medium")
    Answer.objects.filter(pk=answer.pk).update(client=helpdesk)
    return answer


def test_next_with_a_client_filter_hands_out_only_that_clients_answer(page, login, reviewer, helpdesk_answer):
    login(reviewer)
    page.goto("/review/")
    page.select_option("#id_client", label="helpdesk")
    page.click(".filters button[type=submit]")
    page.wait_for_url("**/review/?*client=*")

    page.keyboard.press("n")

    page.wait_for_url(f"**/review/answers/{helpdesk_answer.pk}/")
    assert Answer.objects.get(pk=helpdesk_answer.pk).lease_holder == reviewer


def test_a_saved_view_restores_filters_and_columns_from_its_url_for_a_colleague(
        page, login, browser, live_server, reviewer, second_reviewer, helpdesk_answer):
    login(reviewer)
    page.goto("/review/")
    page.select_option("#id_risk", "medium")
    page.click(".columns-choice summary")
    for column in ("risk", "age", "reason", "flagged", "status"):  # every column is ticked to begin with
        page.uncheck(f".columns-choice input[value={column}]")
    page.click(".filters button[type=submit]")
    page.wait_for_url("**/review/?*risk=medium*")
    page.click("#saved-views summary")
    page.fill("#id_name", "Medium, by client")
    page.check("#id_shared")
    page.click("#saved-views button:has-text('Save view')")
    page.wait_for_selector("#current-view:has-text('Medium, by client')")
    view_url = page.locator("[data-saved-view='Medium, by client']").get_attribute("href")

    context, colleague = login_in_new_context(browser, live_server, second_reviewer)
    colleague.goto(view_url)

    assert colleague.input_value("#id_risk") == "medium"
    headers = colleague.locator("#queue-table thead th[data-column]")
    assert [headers.nth(i).get_attribute("data-column") for i in range(headers.count())] == [
        "client", "probability", "assignee"]
    rows = colleague.locator("#queue-rows tr[id^=answer-]")
    assert rows.count() == 1 and "Medium from helpdesk?" in rows.first.inner_text()
    assert "helpdesk" in rows.first.locator("td[data-column=client]").inner_text()
    context.close()


def test_an_assignment_and_a_mention_appear_for_the_other_reviewer(
        page, login, browser, live_server, reviewer, second_reviewer, make_user, make_answer):
    make_user("dora", "reviewer")
    answer = make_answer(question="Is the refund window 14 days?")
    login(reviewer)
    page.goto(answer.get_absolute_url())
    page.select_option("#id_assignee_pick", label="rob")
    page.click(".assign-form button:has-text('Assign')")
    page.wait_for_selector("#assignee-name:has-text('rob')")
    page.click("#id_text")
    page.keyboard.type("@ro")  # narrows the mention buttons to the names starting so
    assert page.locator("[data-mention='dora']").is_hidden()
    page.click("[data-mention='rob']")  # completes the name
    page.keyboard.type("is 14 days right? The FAQ says 30.")
    page.keyboard.press("Control+Enter")  # the comment box's own button
    page.wait_for_selector("[data-comment]:has-text('The FAQ says 30.')")

    context, colleague = login_in_new_context(browser, live_server, second_reviewer)
    colleague.goto("/review/")
    assert colleague.locator("#nav-notifications [data-unread]").inner_text() == "2"
    colleague.goto("/review/?assignee=me")
    assert colleague.locator(f"#answer-{answer.pk} [data-assignee]").inner_text() == "rob"
    colleague.click("#nav-notifications")
    assert "rita assigned answer" in colleague.locator("[data-notification=assignment]").inner_text()
    mention = colleague.locator("[data-notification=mention]")
    assert "@rob is 14 days right? The FAQ says 30." in mention.inner_text()
    mention.locator("a").click()
    colleague.wait_for_selector("[data-comment]:has-text('The FAQ says 30.')")
    assert colleague.locator("#nav-notifications [data-unread]").count() == 0  # read by opening the answer
    context.close()


def test_question_mark_on_the_queue_lists_its_keys(page, login, reviewer, helpdesk_answer):
    login(reviewer)
    page.goto("/review/")

    page.keyboard.press("?")

    help_dialog = page.locator("dialog#shortcuts")
    help_dialog.wait_for(state="visible")
    assert "review the next answer" in help_dialog.inner_text()
