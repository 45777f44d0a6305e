"""Webhooks are pending state, not fire-and-forget messages: delivered once, retried with backoff up to
WEBHOOK_MAX_ATTEMPTS, and sent by the sweep when their message never went out or was lost."""

import json
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from review import services, webhooks
from review.models import Answer
from review.tasks import webhook_deliver
from console.work_claims import work_claims_requeue

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_for_state(answer: Answer, states: set[str], timeout: float = 30.0) -> Answer:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer.refresh_from_db()
        if answer.webhook_state in states:
            return answer
        time.sleep(0.1)
    raise AssertionError(f"webhook still {answer.webhook_state} after {answer.webhook_attempts} attempts")


def _approve(answer: Answer, reviewer) -> Answer:
    services.claim_review(claim=answer.claims.get(), reviewer=reviewer, state="confirmed")  # flagged: marked first
    return services.answer_decide(answer=answer, reviewer=reviewer, action="approve", reason="checked by hand")


def test_a_decision_leaves_a_pending_webhook_that_is_delivered_once(celery_worker, make_answer, reviewer, receiver):
    answer = make_answer(callback_url=receiver.url + "/hook")

    _approve(answer, reviewer)

    answer = _wait_for_state(answer, {"delivered", "failed"})
    assert (answer.webhook_state, answer.webhook_attempts, answer.webhook_next_attempt_at) == ("delivered", 1, None)
    assert json.loads(receiver.requests[0]["body"])["status"] == "approved"

    webhook_deliver(answer.pk)  # the same message delivered again
    assert work_claims_requeue(kind=webhooks.WEBHOOK_ATTEMPT) == 0
    time.sleep(0.5)
    assert len(receiver.requests) == 1
    assert answer.deliveries.count() == 1


def test_a_webhook_the_receiver_keeps_refusing_is_given_up_after_the_last_attempt(
        celery_worker, make_answer, reviewer, receiver, settings):
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    receiver.respond(500, b"down")
    answer = make_answer(callback_url=receiver.url + "/hook")

    _approve(answer, reviewer)

    answer = _wait_for_state(answer, {"delivered", "failed"})
    assert (answer.webhook_state, answer.webhook_attempts) == ("failed", 2)
    attempts = list(answer.deliveries.order_by("attempt").values_list("attempt", "status_code", "delivered"))
    assert attempts == [(1, 500, False), (2, 500, False)]
    first, second = answer.deliveries.order_by("attempt")
    assert (second.created_at - first.created_at).total_seconds() >= 2  # backoff before the retry
    assert work_claims_requeue(kind=webhooks.WEBHOOK_ATTEMPT) == 0
    webhook_deliver(answer.pk)
    assert len(receiver.requests) == 2


def test_the_sweep_sends_a_pending_webhook_whose_message_was_lost(celery_worker, make_answer, receiver, settings):
    settings.DISPATCH_RESEND_AFTER_SECONDS = 30
    overdue = timezone.now() - timedelta(minutes=2)
    answer = make_answer(status="approved", callback_url=receiver.url + "/hook")
    # What a release committed while the broker was down leaves behind: pending, due, and no message anywhere.
    Answer.objects.filter(pk=answer.pk).update(released_at=overdue, webhook_state="pending",
                                               webhook_next_attempt_at=overdue)
    not_yet = make_answer(status="approved", callback_url=receiver.url + "/other")
    Answer.objects.filter(pk=not_yet.pk).update(webhook_state="pending", webhook_next_attempt_at=timezone.now())

    assert work_claims_requeue(kind=webhooks.WEBHOOK_ATTEMPT) == 1  # the other one's own message may still be on its way

    answer = _wait_for_state(answer, {"delivered", "failed"})
    assert answer.webhook_state == "delivered"
    assert [r["path"] for r in receiver.requests] == ["/hook"]


def test_only_one_of_two_concurrent_tasks_gets_the_attempt(make_answer):
    answer = make_answer(status="approved", callback_url="http://receiver.invalid/hook")
    Answer.objects.filter(pk=answer.pk).update(webhook_state="pending", webhook_next_attempt_at=timezone.now())

    assert webhooks.webhook_attempt_take(answer_id=answer.pk) == 1
    assert webhooks.webhook_attempt_take(answer_id=answer.pk) is None  # leased until the first attempt can finish
