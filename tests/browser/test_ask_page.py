"""The Ask page in a browser: Enter submits the question, the answer shows each claim beside its highlighted
quote, and the page breaks no rule of the Content-Security-Policy."""

import pytest

from tests.ask.conftest import KB
from tests.browser.test_csp import Visits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_enter_asks_and_the_answer_shows_its_quote(page, login, reviewer, publish, celery_worker, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    publish(KB, key="workspace-faq", title="Workspace FAQ")
    visits = Visits(page)
    login(reviewer)
    visits.goto("/ask/", ready="#id_question")

    page.fill("#id_question", "When does the support team answer email?")
    page.press("#id_question", "Enter")

    quote = page.wait_for_selector("#ask-result mark.quote", timeout=60_000)
    assert "Monday through Friday" in quote.inner_text()
    assert page.locator("[data-ask-status]").get_attribute("data-ask-status") == "answered"
    assert page.locator("#ask-result .evidence-meta").first.inner_text().startswith("Workspace FAQ")
    visits.collect("/ask/ answered")
    assert visits.violations == []
