"""Screenshots of the main pages of a running console (start it with `make run` first), desktop and phone.

    .venv/bin/python scripts/screenshots.py [--url http://localhost:8000] [--out docs/screenshots] [--only NAME]
                                            [--width 1440 --width 390]

The widest width writes NAME.png; each narrower one NAME-<width>.png.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PASSWORD = "demo-password"
WIDTHS = (1440, 390)
HEIGHTS = {390: 844}  # a phone's window; other widths get a laptop's 900


def _review_next(page: Page) -> None:
    page.click("button:has-text('Review next')")


def _refused_approve(page: Page) -> None:
    """An approve sent while a claim is still open (as from a stale page): refused, shown on the answer's page."""
    _review_next(page)
    page.wait_for_selector("#decision-form")
    page.fill("#id_reason", "Checked with finance")
    page.evaluate("document.getElementById('approve-button').disabled = false")
    page.click("#approve-button")
    page.wait_for_selector("#decision-error")


def _first_group(page: Page) -> None:
    page.click("[data-answer-group] a")


def _asking(question: str) -> Callable[[Page], None]:
    def ask(page: Page) -> None:
        page.fill("input[name=question]", question)
        page.press("input[name=question]", "Enter")
        page.wait_for_selector("[data-ask-status]", timeout=60_000)
    return ask


# name -> (user, path, what to do before the shot)
PAGES: dict[str, tuple[str, str, Callable[[Page], None] | None]] = {
    "login": ("", "/login/", None),
    "dashboard": ("admin", "/", None),
    "kb-list": ("curator", "/kb/", None),
    "kb-document": ("curator", "/kb/travel-policy/", None),
    "kb-version": ("curator", "/kb/travel-policy/v1/", None),
    "kb-search": ("reviewer", "/kb/search/?q=hotel+cap+in+London", None),
    "kb-vocabulary": ("curator", "/kb/vocabulary/", None),
    "review-queue": ("reviewer", "/review/", None),
    "review-answer": ("reviewer", "/review/", _review_next),
    "review-answer-refused": ("reviewer", "/review/", _refused_approve),
    "review-group": ("reviewer", "/review/", _first_group),
    "ask-answered": ("reviewer", "/ask/", _asking("How much is the international per diem?")),
    "ask-refused": ("reviewer", "/ask/", _asking("Can the knowledge base be downloaded publicly?")),
    "question-sets": ("curator", "/ask/sets/", None),
    "sources-to-fix": ("curator", "/review/sources-to-fix/", None),
    "audit-log": ("admin", "/audit/", None),
    "users": ("admin", "/users/", None),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="http://localhost:8000")
    parser.add_argument("--out", default="docs/screenshots")
    parser.add_argument("--only", action="append", help="page name(s) to capture")
    parser.add_argument("--width", action="append", type=int, help=f"window width(s); default {WIDTHS}")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    widths = sorted(args.width or WIDTHS, reverse=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        for width in widths:
            suffix = "" if width == widths[0] else f"-{width}"
            capture(browser, url=args.url, out=out, only=args.only, width=width, suffix=suffix)
        browser.close()


def capture(browser, *, url: str, out: Path, only: list[str] | None, width: int, suffix: str) -> None:
    contexts: dict[str, object] = {}
    viewport = {"width": width, "height": HEIGHTS.get(width, 900)}
    for name, (user, path, act) in PAGES.items():
        if only and name not in only:
            continue
        if user not in contexts:
            context = browser.new_context(base_url=url, viewport=viewport)
            if user:
                page = context.new_page()
                page.goto("/login/")
                page.fill("#id_username", user)
                page.fill("#id_password", PASSWORD)
                page.click("button[type=submit]")
                page.wait_for_load_state()
                page.close()
            contexts[user] = context
        page = contexts[user].new_page()
        page.goto(path)
        if act:
            act(page)
        page.wait_for_load_state("networkidle")
        target = out / f"{name}{suffix}.png"
        page.screenshot(path=str(target), full_page=True)
        print(f"{name} at {width} px: {page.url} -> {target}")
        page.close()
    for context in contexts.values():
        context.close()


if __name__ == "__main__":
    main()
