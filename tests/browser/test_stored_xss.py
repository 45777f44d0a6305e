"""Stored XSS in a real browser: script tags, event handlers and javascript: links stored in a document (title,
Markdown and raw HTML, a version note, a second version's diff), in questions (the Ask page, a saved question set)
and in an answer sent over the API (question, text and so claims, external id, contexts) are shown as text on every
page that shows them. window.alert, confirm and prompt are hooked before any page script runs; no call may happen,
and no element the payloads would inject (an on* attribute, a javascript: URL, an inline script, a frame) may be in
the DOM, with or without the Content-Security-Policy that would stop most of them from running."""

import httpx
import pytest

from ask.regression import question_set_save
from kb import services as kb_services
from kb.models import Chunk, Document
from review.models import Answer
from tests.ask.question_sets import jsonl, wait_finished
from tests.conftest import wait_scored

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TITLE = "Expense \"><img src=x onerror=\"alert('xss-title')\"> policy"
POLICY = """# Expense <img src=x onerror="alert('xss-h1')"> policy

## Meals <script>alert('xss-h2')</script>

The domestic per diem is $65 per day. <img src=x onerror="alert('xss-inline')"> Alcohol is not reimbursed.

<div onmouseover="alert('xss-block')"><img src=x onerror=alert('xss-block-img')></div>

Book through [the travel desk](javascript:alert('xss-md-link')) or <a href="javascript:alert('xss-a')">the portal</a>.

![logo](javascript:alert('xss-md-img')) <svg onload="alert('xss-svg')"><script>alert('xss-svg-script')</script></svg>

## Submission

Expense reports must be submitted within 30 days after the trip ends. <iframe src="javascript:alert('xss-iframe')"></iframe>

| Item | Limit <b onclick="alert('xss-cell')">cap</b> |
|---|---|
| Hotel | $220 <img src=x onerror=alert('xss-table')> |
"""
# The second version changes words inside the payload lines: the diff page marks them up word by word.
POLICY_V2 = (POLICY.replace("within 30 days", "within 45 days")
             .replace("alert('xss-inline')", "alert('xss-inline-v2')"))
NOTE = "<script>alert('xss-note')</script> <img src=x onerror=alert('xss-note-img')>"

QUESTION = "What is the <img src=x onerror=alert('xss-question')> per diem?"
ANSWER = ("The domestic per diem is $65 per day. "
          "Expense reports must be submitted within 45 days after the trip ends <script>alert('xss-answer')</script>. "
          "Alcohol is reimbursed <img src=x onerror=alert('xss-answer-img')> "
          "<a href=\"javascript:alert('xss-answer-link')\">always</a>.")
EXTERNAL_ID = "\"><svg onload=alert('xss-external-id')>"
CONTEXT = "Per diem <img src=x onerror=alert('xss-context')> is $65 per day."
ASK_QUESTION = "Is the per diem <img src=x onerror=alert('xss-ask')> <script>alert('xss-ask-script')</script> $65?"
SET_NAME = "Expenses <script>alert('xss-set')</script>"
SET_QUESTIONS = [
    {"id": "per-diem", "kind": "direct<img src=x onerror=alert('xss-kind')>",
     "question": "What is the domestic per diem <img src=x onerror=alert('xss-set-question')>?",
     "expected_status": "answered", "required_points": ["<script>alert('xss-point')</script>"]},
]

# Runs before any page script (Playwright injects it through the DevTools protocol, which CSP does not govern).
HOOK_DIALOGS = """
window.__dialogCalls = [];
for (const name of ["alert", "confirm", "prompt"]) {
  window[name] = function (message) {
    window.__dialogCalls.push(name + ": " + String(message));
    return name === "confirm" ? false : null;
  };
}
"""
# Anything a payload would have put in the page if it were not escaped or sanitised.
INJECTED_ELEMENTS = """
() => {
  const found = [];
  const urlAttributes = ["href", "src", "action", "formaction", "xlink:href", "data", "poster"];
  for (const element of document.querySelectorAll("*")) {
    const tag = element.tagName.toLowerCase();
    for (const attribute of element.attributes) {
      const name = attribute.name.toLowerCase();
      const value = attribute.value.replace(/[\\s\\u0000-\\u001f]/g, "").toLowerCase();
      if (name.startsWith("on")) found.push(`${tag}[${name}=${attribute.value}]`);
      if (urlAttributes.includes(name) && value.startsWith("javascript:")) found.push(`${tag}[${name}=${attribute.value}]`);
    }
    if (["iframe", "object", "embed", "frame"].includes(tag)) found.push(tag);
    if (tag === "script" && !element.src) found.push("inline script: " + element.textContent.slice(0, 80));
  }
  return found;
}
"""
# The payloads' own text, as a reader sees it: proves the stored content did reach the page.
SHOWN_TEXT = """
() => document.body.innerText + " " + Array.from(document.querySelectorAll("input, textarea"), e => e.value).join(" ")
"""


class Inspector:
    """Opens pages with the dialogs hooked and checks each one for executed or injected payloads."""

    def __init__(self, page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.context.add_init_script(HOOK_DIALOGS)
        page.on("dialog", self._native_dialog)

    def _native_dialog(self, dialog) -> None:  # a dialog from a frame the hook did not reach
        self.problems.append(f"{self.page.url}: native {dialog.type}: {dialog.message}")
        dialog.dismiss()

    def visit(self, path: str, *, shows: str | None = "xss-", ready: str = "main") -> None:
        response = self.page.goto(path)
        assert response.status == 200, path
        self.page.wait_for_selector(ready)
        self.inspect(path, shows=shows)

    def inspect(self, where: str, *, shows: str | None = "xss-") -> None:
        self.page.wait_for_load_state("load")
        self.problems += [f"{where}: {call}" for call in self.page.evaluate("window.__dialogCalls.splice(0)")]
        self.problems += [f"{where}: {found}" for found in self.page.evaluate(INJECTED_ELEMENTS)]
        if shows is not None:
            assert shows in self.page.evaluate(SHOWN_TEXT), f"{where} does not show the stored text {shows!r}"


@pytest.fixture
def stored_payloads(publish, api_token, admin_user, live_server, celery_worker, settings):
    """A published document, a second version, an answer sent over HTTP and scored, and a question set run by the
    worker, all carrying payloads."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    version = publish(POLICY, key="expense-policy", title=TITLE)
    document = Document.objects.get(key="expense-policy")
    second = kb_services.version_upload(document=document, raw=POLICY_V2.encode(), filename="expense-policy.md",
                                        uploaded_by=document.owner, note=NOTE)
    _, token = api_token
    response = httpx.post(f"{live_server.url}/api/v1/answers", headers={"Authorization": f"Bearer {token}"},
                          json={"question": QUESTION, "answer": ANSWER, "external_id": EXTERNAL_ID,
                                "contexts": [CONTEXT]}, timeout=30)
    assert response.status_code == 202, response.text
    answer = wait_scored(response.json()["id"])
    assert answer.status == "pending_review", (answer.status, answer.risk)  # 45 days is contradicted: queued
    _, run = question_set_save(name=SET_NAME, text=jsonl(SET_QUESTIONS), source_filename="expenses.jsonl",
                               clearance="internal", user=admin_user)
    run = wait_finished(run.pk)
    return {"version": version, "second": second, "answer": answer, "run": run}


def test_stored_payloads_never_run_nor_enter_the_dom(page, login, admin_user, stored_payloads):
    version, second, answer, run = (stored_payloads[k] for k in ("version", "second", "answer", "run"))
    chunk = Chunk.objects.filter(version=version, text__contains="xss-inline").first()
    inspector = Inspector(page)
    login(admin_user)  # every role, restricted clearance: every page and every part of it

    inspector.visit("/", shows=None)
    inspector.visit("/kb/")
    inspector.visit(version.document.get_absolute_url())
    inspector.visit(version.get_absolute_url())
    inspector.visit(second.get_absolute_url())
    inspector.visit(f"/kb/{version.document.key}/diff/?from=1&to=2")
    inspector.visit(f"/kb/chunks/{chunk.pk}/")
    inspector.visit("/kb/search/?q=per+diem+onerror")
    inspector.visit("/review/")
    inspector.visit(answer.get_absolute_url(), ready="[data-review-page]")
    for claim in Answer.objects.get(pk=answer.pk).claims.all():
        inspector.visit(f"/review/claims/{claim.pk}/trace/")
    inspector.visit(f"/review/sources/{version.document.key}/v{version.number}/")
    inspector.visit("/ask/sets/")
    inspector.visit(run.question_set.get_absolute_url())
    inspector.visit(f"/ask/runs/{run.pk}/")
    inspector.visit("/audit/")

    inspector.visit("/ask/", shows=None, ready="#id_question")
    page.fill("#id_question", ASK_QUESTION)
    page.press("#id_question", "Enter")
    page.wait_for_selector("#ask-result [data-ask-status]", timeout=60_000)
    inspector.inspect("/ask/ answered")

    assert inspector.problems == []


def test_the_inspector_catches_an_injected_handler_and_a_dialog(page, login, admin_user):
    """The checks can fail: an element with a handler and a javascript: link put in the page by script, and a
    call to alert, are all reported."""
    inspector = Inspector(page)
    login(admin_user)
    inspector.visit("/", shows=None)

    page.evaluate("""() => {
        document.body.insertAdjacentHTML("beforeend", '<img src="x" onerror="1"><a href="javascript:void(0)">x</a>');
        window.alert("xss-control");
    }""")
    inspector.inspect("control", shows=None)

    assert any("img[onerror" in problem for problem in inspector.problems)
    assert any("a[href=javascript:void(0)]" in problem for problem in inspector.problems)
    assert any("alert: xss-control" in problem for problem in inspector.problems)
