"""The review API's writes: taking the next answer, leases, a decision with its claim marks (one transaction), an
edit re-checked before it is sent, and undoing a reject — under the pages' rules."""

from datetime import timedelta

import pytest
from django.utils import timezone

from console.models import AuditEvent
from review.models import Answer, Claim, Decision

pytestmark = pytest.mark.django_db


def _path(answer, tail: str = "") -> str:
    return f"/api/v1/review/answers/{answer.pk}{tail}"


def test_next_leases_the_first_answer_in_queue_order_and_respects_the_filters(people_api, reviewer, second_reviewer,
                                                                              make_answer):
    medium = make_answer(question="Medium?", risk="medium")
    first_high = make_answer(question="First high?", risk="high")
    second_high = make_answer(question="Second high?", risk="high")

    taken = people_api(reviewer).post("/api/v1/review/next")
    other = people_api(second_reviewer).post("/api/v1/review/next")
    filtered = people_api(second_reviewer).post("/api/v1/review/next?risk=medium")

    assert taken.status_code == 200
    assert (taken.json()["id"], taken.json()["lease_holder"]) == (first_high.pk, "rita")
    assert taken.json()["lease_expires_at"]
    assert other.json()["id"] == second_high.pk
    assert filtered.json()["id"] == medium.pk
    assert Answer.objects.get(pk=first_high.pk).lease_holder == reviewer


def test_next_with_nothing_waiting_is_404(people_api, reviewer):
    response = people_api(reviewer).post("/api/v1/review/next")

    assert response.status_code == 404
    assert response.json() == {"error": "not_found", "detail": "nothing is waiting for review under these filters"}


def test_a_lease_taken_by_another_reviewer_is_409_naming_them(people_api, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    rita, rob = people_api(reviewer), people_api(second_reviewer)

    taken = rita.post(_path(answer, "/lease"))
    refused = rob.post(_path(answer, "/lease"))
    release_refused = rob.delete(_path(answer, "/lease"))
    released = rita.delete(_path(answer, "/lease"))
    retaken = rob.post(_path(answer, "/lease"))
    released_by_post = rob.post(_path(answer, "/lease/release"))

    assert taken.status_code == 200 and taken.json()["lease_expires_at"]
    assert refused.status_code == 409
    assert refused.json()["error"] == "conflict"
    assert refused.json()["detail"].startswith("rita is reviewing this answer until")
    assert release_refused.status_code == 409 and release_refused.json()["detail"] == (
        "rita holds the lease on this answer")
    assert released.status_code == 204
    assert retaken.status_code == 200
    assert released_by_post.status_code == 204
    assert Answer.objects.get(pk=answer.pk).lease_holder is None


def test_an_expired_lease_can_be_taken_over(people_api, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    Answer.objects.filter(pk=answer.pk).update(lease_holder=reviewer,
                                               lease_expires_at=timezone.now() - timedelta(seconds=1))

    response = people_api(second_reviewer).post(_path(answer, "/lease"))

    assert response.status_code == 200
    assert Answer.objects.get(pk=answer.pk).lease_holder == second_reviewer


def test_a_decided_answer_cannot_be_leased(people_api, reviewer, make_answer):
    answer = make_answer(status="approved")

    response = people_api(reviewer).post(_path(answer, "/lease"))

    assert response.status_code == 409
    assert response.json()["detail"] == "This answer was already approved."


def test_deciding_without_the_lease_is_409(people_api, reviewer, second_reviewer, make_answer):
    answer = make_answer(claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    rita, rob = people_api(reviewer), people_api(second_reviewer)

    without = rita.post(_path(answer, "/decision"), {"action": "approve"})
    rob.post(_path(answer, "/lease"))
    held_by_other = rita.post(_path(answer, "/decision"), {"action": "approve"})

    assert without.status_code == 409
    assert without.json()["detail"].startswith("take the lease first")
    assert held_by_other.status_code == 409
    assert held_by_other.json()["detail"] == "rob holds the lease on this answer."
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"


def test_marks_then_approve_in_one_call(people_api, reviewer, make_answer, django_capture_on_commit_callbacks):
    answer = make_answer(risk="medium", callback_url="http://127.0.0.1:9/hook",
                         claims=[("Refunds are paid within 14 days.", "uncertain", 0.5),
                                 ("The form is online.", "supported", 0.9)])
    api = people_api(reviewer)
    api.post(_path(answer, "/lease"))

    with django_capture_on_commit_callbacks() as callbacks:
        response = api.post(_path(answer, "/decision"), {
            "action": "approve", "claims": [{"index": 0, "state": "confirmed"}]})

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["decided_by"], body["released_text"], body["undo_until"]) == (
        "approved", "rita", answer.text, None)
    claim = answer.claims.get(ordinal=0)
    assert (claim.review_state, claim.reviewed_by) == ("confirmed", reviewer)
    assert AuditEvent.objects.filter(verb="claim.confirmed", object_id=str(claim.pk)).count() == 1
    assert AuditEvent.objects.filter(verb="answer.approve", object_id=str(answer.pk)).count() == 1
    assert len(callbacks) == 1  # the webhook, after commit


def test_an_override_without_its_note_is_400_and_changes_nothing(people_api, reviewer, make_answer):
    answer = make_answer(risk="high", claims=[("Refunds take 45 days.", "contradicted", 0.2)])
    api = people_api(reviewer)
    api.post(_path(answer, "/lease"))

    response = api.post(_path(answer, "/decision"), {"action": "approve",
                                                     "claims": [{"index": 0, "state": "confirmed"}]})

    assert response.status_code == 400
    assert response.json() == {"error": "bad_request", "detail": (
        "The checker found claim 1 contradicted: say in the note why it is correct.")}
    assert answer.claims.get().review_state == "open"
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"
    assert not AuditEvent.objects.filter(verb__startswith="claim.").exists()


def test_an_override_with_its_note_approves_and_is_recorded(people_api, reviewer, make_answer):
    answer = make_answer(risk="high", claims=[("Refunds take 45 days.", "contradicted", 0.2)])
    api = people_api(reviewer)
    api.post(_path(answer, "/lease"))

    response = api.post(_path(answer, "/decision"), {"action": "approve", "claims": [
        {"index": 0, "state": "confirmed", "note": "The 2024 policy says 45 days."}]})

    assert response.status_code == 200 and response.json()["status"] == "approved"
    decision = Decision.objects.get(answer=answer)
    assert decision.overrides_checker
    assert "claim 1 is correct: The 2024 policy says 45 days." in decision.reason
    assert answer.claims.get().overrides_checker


def test_a_refused_decision_leaves_no_mark_behind(people_api, reviewer, make_answer):
    """High risk needs every claim marked correct: the first mark is undone with the refused approval."""
    answer = make_answer(risk="high", claims=[("Refunds take 14 days.", "uncertain", 0.5),
                                              ("Shipping is free.", "uncertain", 0.5)])
    api = people_api(reviewer)
    api.post(_path(answer, "/lease"))

    response = api.post(_path(answer, "/decision"), {"action": "approve",
                                                     "claims": [{"index": 0, "state": "confirmed"}]})

    assert response.status_code == 400
    assert "mark every claim correct before approving (still open: claim 2)" in response.json()["detail"]
    assert list(answer.claims.values_list("review_state", flat=True)) == ["open", "open"]
    assert not AuditEvent.objects.filter(verb__startswith="claim.").exists()


def test_a_claim_marked_wrong_cannot_be_approved_but_can_be_rejected(people_api, reviewer, make_answer):
    answer = make_answer(claims=[("Refunds take 14 days.", "uncertain", 0.5)])
    api = people_api(reviewer)
    api.post(_path(answer, "/lease"))
    wrong = [{"index": 0, "state": "rejected", "note": "it is 30"}]

    approve = api.post(_path(answer, "/decision"), {"action": "approve", "claims": wrong})
    reject = api.post(_path(answer, "/decision"), {"action": "reject", "claims": wrong})

    assert approve.status_code == 400 and "is marked wrong" in approve.json()["detail"]
    assert reject.status_code == 200
    assert reject.json()["status"] == "rejected" and reject.json()["undo_until"]
    assert answer.claims.get().review_note == "it is 30"


@pytest.mark.parametrize(("body", "words"), [
    ({"action": "approve", "claims": [{"index": 7, "state": "confirmed"}]}, "no claim with index 7"),
    ({"action": "approve", "claims": [{"index": 0, "state": "confirmed"}, {"index": 0, "state": "rejected"}]},
     "marked once"),
    ({"action": "approve", "claims": [{"index": 0, "state": "maybe"}]}, "claims.0.state"),
    ({"action": "approve", "claims": [{"index": 0, "state": "confirmed", "kind": "number"}]}, "claims.0.kind"),
    ({"action": "reject", "claims": [{"index": 0, "state": "rejected", "kind": "typo"}]},
     "claims.0.kind: “typo” is no kind of error; the kinds are: wrong_value, wrong_name, not_in_sources"),
    ({"action": "approve", "claims": [{"index": 0, "state": "confirmed", "kind": "wrong_value"}]},
     "claims.0.kind: only a claim marked rejected"),
    ({"action": "publish"}, "action"),
    ({"action": "approve", "reasons": "typo"}, "reasons"),
    ({"action": "approve", "reason": "bad\x00byte"}, "reason"),
    ({"action": "edit"}, "edited answer is empty"),
])
def test_bad_decisions_are_400_and_change_nothing(people_api, reviewer, make_answer, body, words):
    answer = make_answer(claims=[("Refunds take 14 days.", "uncertain", 0.5)])
    api = people_api(reviewer)
    api.post(_path(answer, "/lease"))

    response = api.post(_path(answer, "/decision"), body)

    assert response.status_code == 400
    assert response.json()["error"] == "bad_request"
    assert words in response.json()["detail"]
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"
    assert answer.claims.get().review_state == "open"


def test_malformed_json_is_400(people_api, reviewer, make_answer):
    answer = make_answer()

    response = people_api(reviewer).post(_path(answer, "/decision"), raw=b'{"action": ')

    assert response.status_code == 400 and response.json()["error"] == "bad_request"


def test_escalating_needs_a_reason_and_then_only_an_admin_decides(people_api, reviewer, admin_user, make_answer):
    answer = make_answer(claims=[("Refunds take 14 days.", "supported", 0.9)])
    rita = people_api(reviewer)
    rita.post(_path(answer, "/lease"))

    bare = rita.post(_path(answer, "/decision"), {"action": "escalate"})
    escalated = rita.post(_path(answer, "/decision"), {"action": "escalate", "reason": "legal wording"})
    again = rita.post(_path(answer, "/lease"))
    admin = people_api(admin_user)
    admin.post(_path(answer, "/lease"))
    approved = admin.post(_path(answer, "/decision"), {"action": "approve"})

    assert bare.status_code == 400 and "Say why you escalate" in bare.json()["detail"]
    assert escalated.status_code == 200 and escalated.json()["escalated"] is True
    assert again.status_code == 403 and "only an admin can decide it" in again.json()["detail"]
    assert approved.status_code == 200 and approved.json()["status"] == "approved"


def test_a_reject_is_undone_within_the_window(people_api, reviewer, make_answer):
    answer = make_answer(claims=[("Refunds take 14 days.", "uncertain", 0.5)])
    api = people_api(reviewer)
    api.post(_path(answer, "/lease"))
    api.post(_path(answer, "/decision"), {"action": "reject", "claims": [{"index": 0, "state": "rejected"}]})

    response = api.post(_path(answer, "/undo"))

    assert response.status_code == 200 and response.json()["lease_expires_at"]
    answer.refresh_from_db()
    assert (answer.status, answer.lease_holder, answer.decided_by) == ("pending_review", reviewer, None)
    assert not Decision.objects.filter(answer=answer).exists()
    assert AuditEvent.objects.filter(verb="answer.reject_undone", object_id=str(answer.pk)).exists()


def test_a_reject_past_the_window_is_409(people_api, reviewer, second_reviewer, make_answer, settings):
    answer = make_answer(claims=[("Refunds take 14 days.", "uncertain", 0.5)])
    api = people_api(reviewer)
    api.post(_path(answer, "/lease"))
    api.post(_path(answer, "/decision"), {"action": "reject"})
    not_theirs = people_api(second_reviewer).post(_path(answer, "/undo"))
    Answer.objects.filter(pk=answer.pk).update(
        decided_at=timezone.now() - timedelta(seconds=settings.REVIEW_UNDO_SECONDS + 1))

    late = api.post(_path(answer, "/undo"))

    assert not_theirs.status_code == 409
    assert late.status_code == 409
    assert late.json() == {"error": "conflict",
                           "detail": f"Too late to undo: the rejection of answer {answer.pk} is final."}
    assert Answer.objects.get(pk=answer.pk).status == "rejected"


def test_routes_on_an_unknown_answer_are_404(people_api, reviewer):
    api = people_api(reviewer)

    responses = [api.post("/api/v1/review/answers/999999/lease"), api.delete("/api/v1/review/answers/999999/lease"),
                 api.post("/api/v1/review/answers/999999/decision", {"action": "approve"}),
                 api.post("/api/v1/review/answers/999999/undo")]

    assert [r.status_code for r in responses] == [404] * 4
    assert responses[0].json() == {"error": "not_found", "detail": "no answer 999999"}


POLICY = """# Expense policy

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""


@pytest.mark.django_db(transaction=True)
def test_an_edit_is_rechecked_as_on_the_page_before_it_is_sent(people_api, reviewer, make_answer, publish,
                                                               celery_worker, settings):
    from kb.models import Chunk

    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.API_CHECK_TIMEOUT = 120  # a busy shared machine must not turn a slow re-check into a 503 here
    version = publish(POLICY, key="expense-policy")
    chunk = Chunk.objects.get(version=version, heading_path="Expense policy > Submission")
    answer = make_answer(risk="medium", chunk=chunk, claims=[("Expense reports are due within 45 days.", "uncertain",
                                                              0.5)])
    api = people_api(reviewer)
    api.post(_path(answer, "/lease"))
    fixed_text = "Expense reports must be submitted within 30 days after the trip ends."
    wrong_mark = [{"index": 0, "state": "rejected", "note": "it is 30"}]

    unmarked = api.post(_path(answer, "/decision"), {"action": "edit", "text": fixed_text})
    still_wrong = api.post(_path(answer, "/decision"), {
        "action": "edit", "claims": wrong_mark,
        "text": "Expense reports must be submitted within 60 days after the trip ends."})
    fixed = api.post(_path(answer, "/decision"), {"action": "edit", "claims": wrong_mark, "text": fixed_text})

    assert unmarked.status_code == 400
    assert "Mark each flagged claim correct or wrong before editing" in unmarked.json()["detail"]
    assert still_wrong.status_code == 400
    assert "still high risk" in still_wrong.json()["detail"] and "60 days" in still_wrong.json()["detail"]
    assert fixed.status_code == 200
    assert (fixed.json()["status"], fixed.json()["released_text"]) == ("approved", fixed_text)
    sent = Claim.objects.get(answer=answer, from_edit=True)
    assert sent.text == fixed_text and sent.verdict == "supported"
    assert answer.claims.get(from_edit=False).review_state == "rejected"
    detail = api.get(_path(answer)).json()
    assert detail["edited_text"] == fixed_text and detail["sent_claims"][0]["text"] == fixed_text
    assert [d["action"] for d in detail["decisions"]] == ["edit"]
