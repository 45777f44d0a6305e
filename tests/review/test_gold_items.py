"""Gold items: a lead (approver or admin) makes a decided answer gold; "next" hands reviewers who never decided it a
calibration copy at REVIEW_GOLD_RATE, unannounced; a copy's decision is never released or sent, teaches nothing,
and counts in the reviewer's accuracy — shown to leads only (others get a 403 or nothing)."""

import pytest

from review.gold import gold_accuracy
from review.learning.models import ReviewLabel
from review.models import Answer, GoldItem

pytestmark = pytest.mark.django_db


def _path(answer, tail: str = "") -> str:
    return f"/api/v1/review/answers/{answer.pk}{tail}"


@pytest.fixture
def rejected_answer(make_answer, people_api, reviewer):
    """An answer rita rejected, its claim marked wrong: its verdict is known (wrong)."""
    answer = make_answer(question="How long do refunds take?",
                         claims=[("Refunds take 45 days.", "uncertain", 0.5)])
    rita = people_api(reviewer)
    rita.post(_path(answer, "/lease"))
    decided = rita.post(_path(answer, "/decision"), {
        "action": "reject", "claims": [{"index": 0, "state": "rejected", "kind": "wrong_value"}]})
    assert decided.json()["status"] == "rejected"
    return answer


def test_only_a_lead_makes_an_answer_gold(client, rejected_answer, reviewer, approver):
    client.force_login(reviewer)
    refused = client.post(f"/review/answers/{rejected_answer.pk}/gold/", {"gold": "1"})
    client.force_login(approver)
    page = client.get(f"/review/answers/{rejected_answer.pk}/").content.decode()
    marked = client.post(f"/review/answers/{rejected_answer.pk}/gold/", {"gold": "1"})

    assert refused.status_code == 403
    assert 'id="mark-gold"' in page
    assert marked.status_code == 302
    item = GoldItem.objects.get(answer=rejected_answer)
    assert (item.verdict, item.claim_marks, item.marked_by) == ("wrong", {"0": "rejected"}, approver)


def test_a_pending_answer_cannot_be_gold(client, make_answer, approver):
    answer = make_answer()
    client.force_login(approver)

    response = client.post(f"/review/answers/{answer.pk}/gold/", {"gold": "1"}, follow=True)

    assert "Only an answer a reviewer approved or rejected has a known verdict" in response.content.decode()
    assert not GoldItem.objects.exists()


def test_next_hands_out_a_copy_whose_decision_is_never_sent_and_counts_in_accuracy(
        settings, client, rejected_answer, people_api, reviewer, second_reviewer, approver, api):
    settings.REVIEW_GOLD_RATE = 1.0
    client.force_login(approver)
    client.post(f"/review/answers/{rejected_answer.pk}/gold/", {"gold": "1"})
    rob, rita = people_api(second_reviewer), people_api(reviewer)

    handed = rob.post("/api/v1/review/next")
    rita_next = rita.post("/api/v1/review/next")  # she decided the gold answer: no copy for her
    copy = Answer.objects.get(pk=handed.json()["id"])
    approved = rob.post(_path(copy, "/decision"), {"action": "approve",
                                                   "claims": [{"index": 0, "state": "confirmed"}]})

    assert handed.status_code == 200
    assert copy.pk != rejected_answer.pk and copy.gold_copy_of.answer_id == rejected_answer.pk
    assert "gold" not in handed.content.decode()  # unannounced
    assert (handed.json()["question"], handed.json()["lease_holder"]) == ("How long do refunds take?", "rob")
    assert rita_next.status_code == 404
    assert approved.status_code == 200 and approved.json()["released_text"] is None
    copy.refresh_from_db()
    assert (copy.status, copy.released_at, copy.webhook_state) == ("approved", None, "")
    assert not ReviewLabel.objects.filter(answer=copy).exists()  # a calibration copy teaches the checker nothing
    assert api.get(f"/api/v1/answers/{copy.pk}").status_code == 404  # never the client's
    [rob_row] = gold_accuracy(answers=Answer.objects.all())
    assert (rob_row.username, rob_row.decided, rob_row.correct, rob_row.claims_marked, rob_row.claims_agreed) == (
        "rob", 1, 0, 1, 0)

    client.force_login(approver)
    lead_page = client.get("/").content.decode()
    client.force_login(second_reviewer)
    reviewer_page = client.get("/").content.decode()
    assert 'id="gold-accuracy-rob"' in lead_page and "0% (0/1)" in lead_page
    assert "gold-accuracy" not in reviewer_page


def test_no_copy_at_a_gold_rate_of_zero_nor_of_a_retired_item(settings, client, rejected_answer, people_api,
                                                             second_reviewer, approver):
    client.force_login(approver)
    client.post(f"/review/answers/{rejected_answer.pk}/gold/", {"gold": "1"})
    settings.REVIEW_GOLD_RATE = 0.0
    at_zero = people_api(second_reviewer).post("/api/v1/review/next")
    settings.REVIEW_GOLD_RATE = 1.0
    client.post(f"/review/answers/{rejected_answer.pk}/gold/", {"gold": "0"})
    retired = people_api(second_reviewer).post("/api/v1/review/next")

    assert (at_zero.status_code, retired.status_code) == (404, 404)
    assert not Answer.objects.filter(gold_copy_of__isnull=False).exists()
