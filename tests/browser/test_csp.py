"""Every main page works under the strict Content-Security-Policy: the browser reports no violation."""

import pytest

from kb.models import Chunk

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLICY = """# Expense policy

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""

# Runs before any page script (Playwright injects it through the DevTools protocol, which CSP does not govern).
COLLECT_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__cspViolations.push(event.violatedDirective + " blocked " + (event.blockedURI || "inline")
                              + " at " + event.sourceFile + ":" + event.lineNumber);
});
"""


class Visits:
    def __init__(self, page) -> None:
        self.page = page
        self.violations: list[str] = []
        page.context.add_init_script(COLLECT_VIOLATIONS)
        page.on("console", lambda message: self.violations.append(f"console: {message.text}")
                if "Content Security Policy" in message.text else None)

    def goto(self, path: str, *, ready: str = "main") -> None:
        response = self.page.goto(path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"], path
        self.page.wait_for_selector(ready)
        self.collect(path)

    def collect(self, where: str) -> None:
        self.violations += [f"{where}: {v}" for v in self.page.evaluate("window.__cspViolations.splice(0)")]


def test_main_pages_report_no_csp_violation(page, login, admin_user, publish, make_answer):
    version = publish(POLICY, key="expense-policy")
    chunk = Chunk.objects.get(version=version, heading_path="Expense policy > Submission")
    answer = make_answer(risk="high", chunk=chunk, question="When are expense reports due?",
                         claims=[("Expense reports are due within 30 days.", "supported", 0.9),
                                 ("Alcohol is reimbursed.", "contradicted", 0.2)])
    visits = Visits(page)

    visits.goto("/login/", ready="#id_username")
    login(admin_user)  # every role, restricted clearance: every page and every part of it
    visits.collect("login")
    for path in ("/", "/kb/", "/kb/new/", version.get_absolute_url(), "/kb/search/?q=per+diem", "/review/",
                 f"/review/claims/{answer.claims.first().pk}/trace/", "/review/sources/expense-policy/v1/",
                 "/audit/"):
        visits.goto(path)
    visits.goto("/api/docs", ready=".swagger-ui .info")  # django-ninja's Swagger UI, from our static files

    visits.goto(answer.get_absolute_url(), ready="[data-review-page]")
    page.keyboard.press("n")  # start review: the page reloads with the lease, claim actions and decision panel
    page.wait_for_selector("#approve-button")
    visits.collect("answer under review")
    page.keyboard.press("?")
    assert page.locator("dialog#shortcuts").is_visible()
    page.keyboard.press("Escape")
    page.keyboard.press("j")
    page.keyboard.press("c")  # an htmx swap: htmx adds no indicator <style> of its own
    page.wait_for_selector(".claim-card.review-confirmed")
    visits.collect("answer keyboard shortcuts")

    assert visits.violations == []

    # The listener does catch a violation: a style attribute set from script is refused.
    page.evaluate("document.body.setAttribute('style', 'color: red')")
    page.wait_for_function("window.__cspViolations.length > 0")
    visits.collect("control")
    assert any("style-src" in v for v in visits.violations)
