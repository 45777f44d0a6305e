"""Steps the browser tests share: a second person signed in in a context of their own, and an answer's claims
marked correct by key."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import PASSWORD


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


def confirm_every_claim_by_key(page) -> None:
    """Walk the answer's claims with j then c, c, c …: each c waits until its card is marked and htmx has moved the
    selection on, as a person sees it before pressing again. The claims' forms show once the page holds the lease
    (after n), so the keys go to that page, not to the one it replaced."""
    page.wait_for_selector("[data-claim-card] form.claim-actions")
    count = page.locator("[data-claim-card]").count()
    page.keyboard.press("j")
    for marked in range(1, count + 1):
        page.keyboard.press("c")
        try:
            page.wait_for_function(
                """([marked, count]) => document.querySelectorAll('.claim-card.review-confirmed').length >= marked
                    && (marked === count || document.querySelector('.claim-card.selected:not(.review-confirmed)'))""",
                arg=[marked, count])
        except PlaywrightTimeout as timeout:  # say what the cards showed, not only that the wait ran out
            cards = page.eval_on_selector_all("[data-claim-card]", "cards => cards.map(c => c.className)")
            raise AssertionError(f"claim {marked} of {count} not marked by c; the cards: {cards}") from timeout
