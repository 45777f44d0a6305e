"""The Vocabulary page in a real browser changes what the checker and the Ask gate say: a candidate learned from
a review accepted, another dismissed, a pair added by hand (after a refused one, which keeps what was typed) and
removed again. Each time a newly scored answer shows the checker's verdict on a claim held for those words, and the
Ask page shows the gate's."""

import pytest

from review import services
from review.leases import answer_lease_take
from tests.conftest import answer_scored

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("vocabulary_forgotten")]

POLICY = """# Leave policy

## Absence

Bring a medical certificate after three days off.

## Abroad

Staff abroad send a medical certificate by email.
"""
ZH_POLICY = """# 差旅规定

## 交通

员工出差可以乘坐出租车，费用凭发票报销。

## 加班

加班到晚上十点以后，员工可以乘坐出租车回家。
"""
HELD_EN = "Staff abroad send a sick note by email."
HELD_ZH = "加班到晚上十点以后，员工可以打车回家。"


@pytest.fixture
def learned(publish, api_token, reviewer, settings):
    """Both policies published, and a reviewer's confirmation of one held claim in each language (the candidates
    "sick note ↔ medical certificate" and "打车 ↔ 乘坐 出租车"); a function scoring a new answer's claim."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    publish(POLICY, key="leave", title="Leave policy")
    publish(ZH_POLICY, key="travel-zh", title="差旅规定")
    client, _ = api_token

    def verdict(text: str) -> str:
        return answer_scored(client=client, text=text, question="").claims.get().verdict

    for text in ("Bring a sick note after three days off.", "员工出差可以打车，费用凭发票报销。"):
        answer = answer_lease_take(answer=answer_scored(client=client, text=text, question=""),
                                   reviewer=reviewer)
        services.claim_review(claim=answer.claims.get(), reviewer=reviewer, state="confirmed",
                              note="the policy means the same")
        services.answer_decide(answer=answer, reviewer=reviewer, action="approve")
    return verdict


def ask(page, question: str) -> str:
    """The Ask gate's status for ``question``, asked on the Ask page."""
    page.goto("/ask/")
    page.fill("#id_question", question)
    with page.expect_response(lambda response: "/ask/submit/" in response.url, timeout=90_000):
        page.press("#id_question", "Enter")
    return page.locator("#ask-result [data-ask-status]").get_attribute("data-ask-status", timeout=30_000)


def act(page, button: str) -> str:
    """Press a button of the vocabulary lists and wait for the lists htmx swaps in; what they say happened."""
    with page.expect_response(lambda response: "/kb/vocabulary/" in response.url and response.request.method == "POST"):
        page.get_by_role("button", name=button).click()
    return page.locator("#vocabulary .vocabulary-notice").inner_text()


def test_the_vocabulary_page_changes_what_the_checker_and_the_gate_say(page, login, curator, learned):
    assert learned(HELD_EN) == "contradicted" and learned(HELD_ZH) == "contradicted"
    login(curator)
    assert ask(page, "Do I need a sick note after three days off?") == "insufficient_evidence"
    assert ask(page, "加班以后可以打车回家吗？") == "insufficient_evidence"

    page.goto("/kb/")
    page.get_by_role("link", name="Vocabulary").first.click()
    candidates = page.locator("#vocabulary-candidates")
    assert "Confirmed once, by rita" in candidates.inner_text()
    assert "Bring a sick note after three days off." in candidates.inner_text()
    assert "No accepted pairs yet" in page.locator("#vocabulary-accepted").inner_text()

    # Accept the English candidate: the claim held for "sick note" is supported, the question answered.
    assert act(page, "Accept: sick note ↔ medical certificate").startswith("Accepted “sick note ↔ medical certificate”")
    assert "sick note" in page.locator("#vocabulary-accepted").inner_text()
    assert learned(HELD_EN) == "supported"
    assert ask(page, "Do I need a sick note after three days off?") == "answered"

    # Dismiss the Chinese one: nothing changes for the checker.
    page.goto("/kb/vocabulary/")
    assert act(page, "Dismiss: 打车 ↔ 乘坐 出租车").startswith("Dismissed")
    assert "No candidates." in page.locator("#vocabulary-candidates").inner_text()
    assert learned(HELD_ZH) == "contradicted"

    # Add a pair by hand: first one the vocabulary refuses, which keeps what was typed.
    page.select_option("#id_language", "zh")
    page.fill("#id_words", "的")
    page.fill("#id_other_words", "出租车")
    with page.expect_response(lambda response: response.url.endswith("/kb/vocabulary/add/")) as refused:
        page.get_by_role("button", name="Add the pair").click()
    assert refused.value.status == 400
    assert "has no word the checker reads" in page.locator("#vocabulary-add").inner_text()
    assert page.input_value("#id_other_words") == "出租车" and page.input_value("#id_language") == "zh"
    page.fill("#id_words", "打车")
    assert act(page, "Add the pair").startswith("Added “打车 ↔ 出租车”")
    assert learned(HELD_ZH) == "supported"
    assert ask(page, "加班以后可以打车回家吗？") == "answered"

    # Remove it: back to what the checker and the gate said before.
    page.goto("/kb/vocabulary/")
    assert act(page, "Remove: 打车 ↔ 出租车").startswith("Removed")
    assert learned(HELD_ZH) == "contradicted"
    assert ask(page, "加班以后可以打车回家吗？") == "insufficient_evidence"
