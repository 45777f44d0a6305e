"""Tiers that mean something, scored by the real worker: high is a reason to believe the answer is wrong, medium
is "we could not confirm it", low is every claim supported at or above the release threshold."""

import pytest

from review.models import Answer
from review.policy import figures_apart
from tests.conftest import wait_scored

pytestmark = pytest.mark.django_db(transaction=True)

POLICY = """# Expense policy

## Hotels

The nightly hotel cap is $220 in London and $325 in New York.
"""


@pytest.fixture
def scored(api, celery_worker, publish, settings):
    settings.REVIEW_HIGH_RISK_TOPICS = ["refund"]
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0
    publish(POLICY, key="expense-policy")

    def score(answer: str, question: str = "What is the hotel cap?") -> Answer:
        response = api.post("/api/v1/answers", {"question": question, "answer": answer})
        return wait_scored(response.json()["id"])

    return score


def test_a_contradicted_claim_is_high_risk_and_held_by_rule(scored):
    answer = scored("The nightly hotel cap is $425 in New York.")

    assert (answer.status, answer.risk, answer.held_by_rule) == ("pending_review", "high", True)
    assert answer.routing_reasons[0].startswith("contradiction: claim 1 is contradicted by its source")


def test_a_claim_no_source_supports_is_medium_risk_not_high(scored):
    answer = scored("Our quantum teleportation service launches on Mars next spring.")

    assert (answer.status, answer.risk, answer.held_by_rule) == ("pending_review", "medium", False)
    assert answer.routing_reasons == ["not found: claim 1 — no supporting source found"]
    assert answer.wrong_probability == 1.0


def test_every_claim_supported_at_or_above_the_release_threshold_is_low_risk_and_released(scored, release_at):
    release_at(0.6)
    answer = scored("The nightly hotel cap is $325 in New York.")

    assert (answer.status, answer.risk) == ("released", "low")
    assert answer.routing_reasons[0].startswith("low: every claim is supported at or above the release threshold")
    assert answer.wrong_probability == pytest.approx(1 - answer.score, abs=1e-4)


def test_a_supported_claim_below_the_release_threshold_is_medium_risk(scored, release_at):
    release_at(0.999)
    answer = scored("The nightly hotel cap is $325 in New York.")

    assert (answer.status, answer.risk) == ("pending_review", "medium")
    assert answer.claims.get().verdict == "supported"
    assert answer.routing_reasons[0].startswith("below the release threshold: claim 1 is supported at")


def test_a_high_risk_topic_is_high_risk_whatever_the_scores(scored, release_at):
    release_at(0.6)
    answer = scored("The nightly hotel cap is $325 in New York.", question="Is the hotel refund covered?")

    assert (answer.risk, answer.held_by_rule) == ("high", True)
    assert "high-risk topic: refund" in answer.routing_reasons


def test_a_claim_marked_wrong_on_an_identical_earlier_answer_is_high_risk(scored, client, reviewer):
    text = "Our quantum teleportation service launches on Mars next spring."
    first = scored(text)
    client.force_login(reviewer)
    client.post(f"/review/answers/{first.pk}/start/")
    client.post(f"/review/claims/{first.claims.get().pk}/review/", {"state": "rejected"})
    client.post(f"/review/answers/{first.pk}/decide/", {"action": "reject", "reason": "made up"})

    again = scored(text)
    different = scored(text + " Tickets cost 5 dollars.")

    assert (again.risk, again.held_by_rule) == ("high", True)
    assert (f"marked wrong before: a reviewer marked claim 1 wrong on an identical earlier answer (#{first.pk})"
            in again.routing_reasons)
    # Not the same answer, but the same rejected claim in it: held as a fact a reviewer rejected before.
    assert different.risk == "high"
    assert any(r.startswith("rejected before: claim 1 states a fact a reviewer marked wrong") for r in
               different.routing_reasons)


def test_the_queue_shows_the_likeliest_wrong_first_within_a_tier(client, reviewer, make_answer):
    older = make_answer(question="Older, less likely wrong?")
    likelier = make_answer(question="Newer, likelier wrong?")
    high = make_answer(question="High?", risk="high")
    Answer.objects.filter(pk=older.pk).update(wrong_probability=0.2)
    Answer.objects.filter(pk=likelier.pk).update(wrong_probability=0.7)
    Answer.objects.filter(pk=high.pk).update(wrong_probability=0.1)
    client.force_login(reviewer)

    page = client.get("/review/").content.decode()
    leased = client.post("/review/next/")

    assert page.index("High?") < page.index("Newer, likelier wrong?") < page.index("Older, less likely wrong?")
    assert leased.status_code == 302 and leased.url.endswith(f"/review/answers/{high.pk}/")
    client.post(f"/review/answers/{high.pk}/decide/", {"action": "reject", "reason": "test"})
    assert client.post("/review/next/").url.endswith(f"/review/answers/{likelier.pk}/")


LEAVE_ZH = """# 员工休假制度

## 婚假

依法登记结婚的员工享受婚假十天，婚假期间工资照常发放。
"""


def test_a_language_whose_rows_could_not_prove_the_budget_releases_nothing_until_reviews_teach(
        api, celery_worker, publish, settings, release_at):
    """The shipped model proves a threshold per language (train_checker): its 438 Chinese rows cannot prove a 1 %
    leak budget, so a Chinese answer is held however well supported, while an English one is released at the
    model's threshold."""
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0
    publish(POLICY, key="expense-policy")
    publish(LEAVE_ZH, key="leave-policy", title="员工休假制度")
    release_at(0.6)

    english = api.post("/api/v1/answers", {"question": "What is the hotel cap?",
                                           "answer": "The nightly hotel cap is $325 in New York."}).json()["id"]
    chinese = api.post("/api/v1/answers", {"question": "婚假有几天？", "answer": "员工享受婚假十天。"}).json()["id"]

    assert wait_scored(english).risk == "low"
    held = wait_scored(chinese)
    assert (held.status, held.risk) == ("pending_review", "medium")
    assert held.claims.get().verdict == "supported"
    # in the answer's language, and naming no threshold above every score ("under 1.010") as if one were set
    assert held.routing_reasons[0].startswith("尚未证明放行阈值") and "1.010" not in held.routing_reasons[0]


@pytest.mark.parametrize(("below", "above", "shown"), [
    (0.9620, 0.9624, ("0.9620", "0.9624")),  # not "0.962, under 0.962"
    (0.91, 0.9736, ("0.910", "0.974")),
    (0.96241, 0.96242, ("0.96241", "0.96242")),
])
def test_a_score_under_the_threshold_is_never_shown_as_equal_to_it(below, above, shown):
    assert figures_apart(below, above) == shown
