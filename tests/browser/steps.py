"""Steps the browser tests share: a second person signed in in a context of their own, and an answer scored by
the real pipeline."""

from __future__ import annotations

import time

from tests.conftest import PASSWORD
from console.work_claims import work_claim_take


def login_in_new_context(browser, live_server, user, **context_options):
    """(context, page) of `user` signed in beside the test's own page: a colleague at another desk."""
    context = browser.new_context(base_url=live_server.url, **context_options)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    return context, page


def scored_answer(*, client, text: str, question: str):
    """An answer sent by `client` and scored: here, or by the worker when it took the on-commit task first."""
    from review import services
    from review.models import Answer

    answer, _ = services.answer_create(client=client, question=question, text=text)
    if work_claim_take(kind=services.ANSWER_SCORING, pk=answer.pk):
        return services.answer_score_run(answer_id=answer.pk)
    deadline = time.monotonic() + 30
    while Answer.objects.get(pk=answer.pk).status == "scoring" and time.monotonic() < deadline:
        time.sleep(0.1)
    return Answer.objects.get(pk=answer.pk)
