"""Screenshots of the main pages of a running console (start it with `make run` first).

    .venv/bin/python scripts/screenshots.py [--url http://localhost:8000] [--out docs/screenshots] [--only NAME]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PASSWORD = "demo-password"
# name -> (user, path, button to click before the shot)
PAGES: dict[str, tuple[str, str, str | None]] = {
    "login": ("", "/login/", None),
    "dashboard": ("admin", "/", None),
    "kb-list": ("curator", "/kb/", None),
    "kb-document": ("curator", "/kb/travel-policy/", None),
    "kb-search": ("reviewer", "/kb/search/?q=hotel+cap+in+London", None),
    "review-queue": ("reviewer", "/review/", None),
    "review-answer": ("reviewer", "/review/", "button:has-text('Review next')"),
    "audit-log": ("admin", "/audit/", None),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="http://localhost:8000")
    parser.add_argument("--out", default="docs/screenshots")
    parser.add_argument("--only", action="append", help="page name(s) to capture")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        contexts: dict[str, object] = {}
        for name, (user, path, click) in PAGES.items():
            if args.only and name not in args.only:
                continue
            if user not in contexts:
                context = browser.new_context(base_url=args.url, viewport={"width": 1400, "height": 900})
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
            if click:
                page.click(click)
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(out / f"{name}.png"), full_page=True)
            print(f"{name}: {page.url} -> {out / f'{name}.png'}")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
