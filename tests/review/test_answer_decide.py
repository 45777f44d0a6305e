import threading
import time

import pytest
from django.test import Client

from console.models import AuditEvent
from review import refusals
from review.models import Answer, Decision

pytestmark = pytest.mark.django_db


def _lease(client, user, answer):
    client.force_login(user)
    client.post(f"/review/answers/{answer.pk}/start/")


def test_reviewer_can_approve_medium_risk_answer(client, reviewer, make_answer, django_capture_on_commit_callbacks):
    answer = make_answer(risk="medium", claims=[("Refunds are paid within 14 days.", "supported", 0.9)],
                         callback_url="http://127.0.0.1:9/hook")
    _lease(client, reviewer, answer)

    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    assert response.status_code == 302
    answer.refresh_from_db()
    assert (answer.status, answer.released_text, answer.decided_by) == ("approved", answer.text, reviewer)
    assert len(callbacks) == 1  # the webhook, after commit
    assert AuditEvent.objects.filter(verb="answer.approve", object_id=str(answer.pk)).count() == 1


def test_a_flagged_claim_must_be_marked_before_approving(client, reviewer, make_answer):
    answer = make_answer(risk="medium", claims=[("Refunds take 30 days.", "uncertain", 0.5)])
    _lease(client, reviewer, answer)

    refused = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve", "reason": "looks fine"},
                          follow=True)
    client.post(f"/review/claims/{answer.claims.get().pk}/review/", {"state": "confirmed"})
    accepted = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    assert refused.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "Mark each flagged claim correct or wrong before approving (still open: claim 1)" in refused.content.decode()
    assert accepted.status_code == 302
    # Settling an uncertain claim is the reviewer's job, not an override.
    assert Decision.objects.get(answer=answer).overrides_checker is False


def test_a_claim_marked_wrong_blocks_approval(client, reviewer, make_answer):
    answer = make_answer(risk="medium", claims=[("Refunds take 30 days.", "uncertain", 0.5)])
    _lease(client, reviewer, answer)
    client.post(f"/review/claims/{answer.claims.get().pk}/review/", {"state": "rejected"})

    refused = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve", "reason": "send anyway"},
                          follow=True)

    assert refused.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "Claim 1 is marked wrong: edit the answer or reject it." in refused.content.decode()
    assert not Decision.objects.filter(answer=answer).exists()


@pytest.mark.parametrize("verdict", ["contradicted", "not_found"])
def test_marking_a_claim_the_checker_doubts_correct_needs_a_note_and_is_an_override(
    client, reviewer, make_answer, verdict,
):
    answer = make_answer(risk="high", claims=[("Pets under 10 kilograms may travel.", verdict, 0.0)])
    claim = answer.claims.get()
    _lease(client, reviewer, answer)

    refused = client.post(f"/review/claims/{claim.pk}/review/", {"state": "confirmed"}, headers={"HX-Request": "true"})
    claim.refresh_from_db()
    assert refused.status_code == 400
    assert "say in the note why it is correct" in refused.content.decode()
    assert 'class="msg msg-error small claim-error"' in refused.content.decode()  # shown in the card
    assert claim.review_state == "open"

    client.post(f"/review/claims/{claim.pk}/review/", {"state": "confirmed", "note": "the 2026 tariff allows it"})
    approved = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    claim.refresh_from_db()
    assert (claim.review_state, claim.overrides_checker) == ("confirmed", True)
    assert approved.status_code == 302
    decision = Decision.objects.get(answer=answer)
    assert decision.overrides_checker is True
    assert decision.reason == "claim 1 is correct: the 2026 tariff allows it"
    mark = AuditEvent.objects.get(verb="claim.confirmed", object_id=str(claim.pk))
    assert mark.after == {"review": "Claim is correct", "note": "the 2026 tariff allows it", "overrides_checker": True}
    page = client.get(answer.get_absolute_url()).content.decode()
    assert "Claim 1: “Claim is correct” — rita" in page and "the 2026 tariff allows it" in page


def test_high_risk_answer_needs_every_claim_confirmed(client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=[("A is true.", "supported", 0.9), ("B is 4.", "contradicted", 0.2)])
    first, second = answer.claims.order_by("ordinal")
    _lease(client, reviewer, answer)

    page = client.get(answer.get_absolute_url()).content.decode()
    assert 'id="approve-button" data-shortcut="approve" disabled' in page
    refused = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve", "reason": "ok"}, follow=True)
    assert refused.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "High risk: mark every claim correct before approving (still open: claim 1, 2)" in refused.content.decode()

    client.post(f"/review/claims/{first.pk}/review/", {"state": "confirmed"})
    partial = client.post(f"/review/claims/{second.pk}/review/", {"state": "confirmed", "note": "4 is right"},
                          headers={"HX-Request": "true"})
    assert 'hx-swap-oob="true"' in partial.content.decode()
    assert 'data-shortcut="approve" disabled' not in partial.content.decode()

    approved = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve", "reason": "verified"})
    assert approved.status_code == 302
    answer.refresh_from_db()
    assert answer.status == "approved"


def test_reject_sends_the_configured_fallback(client, reviewer, make_answer, settings):
    settings.REVIEW_FALLBACK_TEXT = "Sorry, I can't answer that."
    answer = make_answer(risk="high", claims=[("B is 4.", "contradicted", 0.2)])
    _lease(client, reviewer, answer)

    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "reject"})

    answer.refresh_from_db()
    assert (answer.status, answer.released_text) == ("rejected", "Sorry, I can't answer that.")


def test_escalate_needs_a_reason_and_keeps_the_answer_waiting(client, reviewer, make_answer):
    answer = make_answer()
    _lease(client, reviewer, answer)

    refused = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "escalate"}, follow=True)
    assert "Say why you escalate, so the admin knows what to look at." in refused.content.decode()
    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "escalate", "reason": "legal should look"})

    answer.refresh_from_db()
    assert (answer.status, answer.escalated, answer.lease_holder) == ("pending_review", True, None)
    assert f'id="answer-{answer.pk}"' in client.get("/review/?status=escalated").content.decode()
    assert f'id="answer-{answer.pk}"' not in client.get("/review/").content.decode()


def test_deciding_twice_reports_a_conflict(client, reviewer, make_answer):
    answer = make_answer(claims=[("A is true.", "supported", 0.9)])
    _lease(client, reviewer, answer)
    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    second = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "reject", "reason": "changed my mind"},
                         follow=True)

    assert second.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert "Your decision was not recorded: This answer was already approved by rita." in second.content.decode()
    assert Decision.objects.get(answer=answer).action == "approve"


def test_unknown_answer_is_404(client, reviewer):
    client.force_login(reviewer)

    assert client.get("/review/answers/999999/").status_code == 404
    assert client.post("/review/answers/999999/decide/", {"action": "approve"}).status_code == 404


def test_decision_without_csrf_is_refused(reviewer, make_answer):
    answer = make_answer()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(reviewer)

    assert strict.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"}).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_concurrent_approve_and_reject_one_wins(reviewer, make_answer, celery_worker, receiver):
    answer = make_answer(risk="medium", claims=[("A is true.", "supported", 0.9)], callback_url=receiver.url + "/hook")
    clients = [Client(), Client()]
    for c in clients:
        c.force_login(reviewer)
    clients[0].get(answer.get_absolute_url())
    barrier = threading.Barrier(2)
    statuses = {}

    def decide(index: int, action: str) -> None:
        from django.db import connection

        barrier.wait()
        statuses[action] = clients[index].post(f"/review/answers/{answer.pk}/decide/",
                                               {"action": action, "reason": "double click"}).status_code
        connection.close()

    threads = [threading.Thread(target=decide, args=(0, "approve")), threading.Thread(target=decide, args=(1, "reject"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert sorted(statuses.values()) == [302, 303]  # the loser is sent to the answer, to read why
    assert Decision.objects.filter(answer=answer).count() == 1
    assert AuditEvent.objects.filter(object_id=str(answer.pk), verb__in=["answer.approve", "answer.reject"]).count() == 1
    receiver.wait_for(1)
    time.sleep(1)
    assert len(receiver.requests) == 1
    answer.refresh_from_db()
    winner = "approve" if statuses["approve"] == 302 else "reject"
    assert answer.status == {"approve": "approved", "reject": "rejected"}[winner]


def _refused_approve(client, reviewer, make_answer):
    """A reviewer who typed a reason and an edit presses approve while a flagged claim is open."""
    answer = make_answer(risk="medium", claims=[("Refunds take 30 days.", "uncertain", 0.5)])
    _lease(client, reviewer, answer)
    response = client.post(f"/review/answers/{answer.pk}/decide/", {
        "action": "approve", "reason": "checked with finance", "edited_text": "Refunds take 14 days."})
    return answer, response


def test_a_refused_approve_is_sent_to_the_answer_with_what_was_typed(client, reviewer, make_answer):
    answer, response = _refused_approve(client, reviewer, make_answer)

    assert (response.status_code, response["Location"]) == (303, answer.get_absolute_url())
    page = client.get(response["Location"]).content.decode()
    assert "Mark each flagged claim correct or wrong before approving (still open: claim 1)" in page
    assert 'id="decision-error"' in page
    assert 'id="id_reason">\nchecked with finance</textarea>' in page
    assert 'id="id_edited_text">\nRefunds take 14 days.</textarea>' in page
    assert not Decision.objects.filter(answer=answer).exists()
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"


def test_a_refusal_is_shown_once(client, reviewer, make_answer):
    answer, response = _refused_approve(client, reviewer, make_answer)
    client.get(response["Location"])

    again = client.get(answer.get_absolute_url()).content.decode()

    assert 'id="decision-error"' not in again  # the approve hint still says why; the refusal itself is gone
    assert "checked with finance" not in again


def test_a_refusal_older_than_five_minutes_is_not_shown(client, reviewer, make_answer):
    answer, response = _refused_approve(client, reviewer, make_answer)
    session = client.session
    session[refusals.REFUSALS_SESSION_KEY][str(answer.pk)]["until"] = time.time() - 1  # stored over 5 minutes ago
    session.save()

    page = client.get(answer.get_absolute_url()).content.decode()

    assert 'id="decision-error"' not in page
    assert "checked with finance" not in page
    assert refusals.REFUSALS_SESSION_KEY not in client.session


def test_a_refusal_belongs_to_its_answer(client, reviewer, make_answer):
    answer, response = _refused_approve(client, reviewer, make_answer)
    other = make_answer(question="Another one?")

    assert 'id="decision-error"' not in client.get(other.get_absolute_url()).content.decode()
    assert 'id="decision-error"' in client.get(answer.get_absolute_url()).content.decode()


def test_an_htmx_refusal_is_answered_in_place(client, reviewer, make_answer):
    answer = make_answer(risk="medium", claims=[("Refunds take 30 days.", "uncertain", 0.5)])
    _lease(client, reviewer, answer)

    refused = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve", "reason": "looks fine"},
                          headers={"HX-Request": "true"})

    assert refused.status_code == 400  # htmx does not navigate: nothing to redirect
    assert "still open: claim 1)" in refused.content.decode()
    assert refusals.REFUSALS_SESSION_KEY not in client.session
    assert not Decision.objects.filter(answer=answer).exists()


def test_an_htmx_decision_that_lost_is_a_conflict_in_place(client, reviewer, make_answer):
    answer = make_answer(claims=[("A is true.", "supported", 0.9)])
    _lease(client, reviewer, answer)
    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    second = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "reject", "reason": "changed my mind"},
                         headers={"HX-Request": "true"})

    assert second.status_code == 409
    assert "already approved" in second.content.decode()
