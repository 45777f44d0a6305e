"""Context beside the task, in a real browser: a saved view's guidelines beside the answers opened from it; the
assistant's own model, trace link and retrieved passages on the answer page; a draft that survives leaving the page
and coming back on another device; a refused approve that a reload does not send again; the recently-decided list
that keeps a reject's Undo after its toast has gone."""

import pytest

from console.models import AuditEvent
from review.models import Answer, Decision
from tests.browser import steps
from tests.conftest import wait_scored
from triage.models import QueueView, ViewGuideline

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_guidelines_show_beside_the_answer_opened_from_the_view(page, login, reviewer, make_answer):
    make_answer(question="Refund window?", risk="high")
    view = QueueView.objects.create(owner=reviewer, name="High risk", query="risk=high", shared=True)
    ViewGuideline.objects.create(view=view, number=1, author=reviewer,
                                 text="## Refunds\n\nThe window is **14 days**; anything else is wrong.")
    login(reviewer)

    page.goto(f"/review/?view={view.pk}")
    assert "14 days" in page.inner_text("#view-guidelines")
    page.keyboard.press("n")  # Review next, within the view
    page.wait_for_url("**/review/answers/*/")

    panel = page.locator("#view-guidelines")
    assert panel.is_visible()
    assert panel.locator("strong", has_text="14 days").count() == 1
    assert "v1 by" in panel.inner_text()


def test_answer_page_shows_what_the_assistant_sent_about_its_run(page, login, reviewer, api, celery_worker):
    created = api.post("/api/v1/answers", {
        "question": "How long do refunds take?", "answer": "Refunds are paid within 14 days.",
        "model": "gpt-4o-mini-2024-07-18", "trace_url": "https://cloud.langfuse.com/project/p/traces/abc-123",
        "retrieved": [{"text": "Refunds are paid within 14 days of the request.", "source": "refunds.md",
                       "score": 0.82}]})
    answer = wait_scored(created.json()["id"])
    login(reviewer)

    page.goto(f"/review/answers/{answer.pk}/")

    assert page.inner_text("#assistant-model") == "gpt-4o-mini-2024-07-18"
    trace = page.locator("#assistant-trace")
    assert trace.get_attribute("href") == "https://cloud.langfuse.com/project/p/traces/abc-123"
    assert trace.get_attribute("rel") == "noopener noreferrer"
    passage = page.locator("[data-retrieved-passage]")
    assert "Refunds are paid within 14 days of the request." in passage.inner_text()
    assert "refunds.md" in passage.inner_text()


def test_a_draft_survives_leaving_the_page_and_comes_back_on_another_device(
        page, login, reviewer, make_answer, browser, live_server):
    answer = make_answer(claims=(("Refunds are paid within 14 days.", "uncertain", 0.5),))
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")
    page.click("#start-review")
    page.wait_for_selector("#decision-form")

    with page.expect_response(lambda r: "/drafts/" in r.url and r.status == 204):
        page.fill("#id_reason", "The policy page says 30 days, not 14")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.accept()))
    page.goto("/review/")  # leaving with unsent text asks first

    assert dialogs == ["beforeunload"]
    context, other = steps.login_in_new_context(browser, live_server, reviewer)
    try:
        other.goto(f"/review/answers/{answer.pk}/")
        other.click("#start-review")  # leaving the page handed the answer back; taking it again brings the draft
        other.wait_for_selector("#draft-restored")
        assert other.input_value("#id_reason") == "The policy page says 30 days, not 14"
    finally:
        context.close()


def test_a_decided_answer_leaves_no_draft_and_no_warning(page, login, reviewer, make_answer):
    answer = make_answer(claims=(("Refunds are paid within 14 days.", "uncertain", 0.5),))
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")
    page.click("#start-review")
    page.wait_for_selector("#decision-form")
    with page.expect_response(lambda r: "/drafts/" in r.url):
        page.fill("#id_reason", "Wrong: it is 30 days")
    page.uncheck("input[name=then]")
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.accept()))

    page.click("button[data-shortcut='reject-answer']")
    page.wait_for_url("**/review/")

    assert dialogs == []  # sending is not leaving unsent text
    assert Answer.objects.get(pk=answer.pk).status == "rejected"
    from triage.drafts import drafts_for
    assert drafts_for(answer=Answer.objects.get(pk=answer.pk), author=reviewer) == {}


def test_a_reload_after_a_refused_approve_sends_nothing(page, login, reviewer, make_answer):
    answer = make_answer(risk="high", claims=(("Refunds are paid within 14 days.", "uncertain", 0.5),))
    login(reviewer)
    page.goto(f"/review/answers/{answer.pk}/")
    page.click("#start-review")
    page.wait_for_selector("#decision-form")
    page.fill("#id_reason", "Checked with finance")
    # The button is disabled while a claim is open; a stale page (or a script) may still send the approve.
    page.evaluate("document.getElementById('approve-button').disabled = false")
    with page.expect_response(lambda response: response.url.endswith("/decide/")) as refused:
        page.click("#approve-button")
    page.wait_for_selector("#decision-error")

    assert refused.value.status == 303  # post/redirect/get: the refusal is read at the answer's own address
    assert page.url.endswith(f"/review/answers/{answer.pk}/")
    assert "before approving (still open: claim 1)" in page.inner_text("#decision-error")
    # Put back by the page itself (its default value), not only by the drafts script.
    assert page.eval_on_selector("#id_reason", "box => box.defaultValue") == "Checked with finance"
    events = AuditEvent.objects.count()
    posts = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)

    page.reload()
    page.wait_for_selector("#decision-form")

    assert page.url.endswith(f"/review/answers/{answer.pk}/")
    assert [url for url in posts if "/decide/" in url] == []
    assert page.locator("#decision-error").count() == 0  # shown once
    assert Decision.objects.filter(answer=answer).count() == 0
    assert AuditEvent.objects.count() == events
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"


def test_recently_decided_list_offers_undo_within_the_window(page, login, reviewer, make_answer, settings):
    settings.REVIEW_UNDO_SECONDS = 120
    rejected = make_answer(question="First?")
    later = make_answer(question="Second?")
    login(reviewer)
    page.goto(f"/review/answers/{rejected.pk}/")
    page.click("#start-review")
    page.wait_for_selector("#decision-form")
    page.uncheck("input[name=then]")
    page.click("button[data-shortcut='reject-answer']")
    page.wait_for_selector("#undo-toast")

    page.goto(f"/review/answers/{later.pk}/")  # moving on: the toast stays with its answer
    assert page.locator("#undo-toast").count() == 0
    recent = page.locator(f"#recently-decided [data-recent-decision='{rejected.pk}']")
    assert recent.locator("[data-recent-undo]").count() == 1
    recent.locator("[data-recent-undo]").click()
    page.wait_for_selector(".msg-success:has-text('Reject undone')")

    assert page.url.endswith(f"/review/answers/{rejected.pk}/")
    assert Answer.objects.get(pk=rejected.pk).status == "pending_review"
