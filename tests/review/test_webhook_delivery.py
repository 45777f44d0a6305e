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


def _readme_verify():
    """The receiver's snippet from README.md (section *Webhooks*), run as it is printed there."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    snippet = next(block.split("```", 1)[0] for block in readme.split("```python\n")[1:] if "def verify(" in block)
    namespace: dict = {}
    exec(snippet, namespace)  # noqa: S102 - our own README's code
    return namespace["verify"]


def _standard_webhooks_key_verify(*, spec_secret: str, headers: dict, body: bytes) -> bool:
    """What a Standard Webhooks library does with the spec's `whsec_` + base64 form of the secret."""
    import base64
    import hashlib
    import hmac

    key = base64.b64decode(spec_secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest(expected, entry.removeprefix("v1,"))
               for entry in headers["webhook-signature"].split() if entry.startswith("v1,"))


def test_each_delivery_carries_standard_webhooks_headers_a_receiver_can_verify_and_dedupe_on(
        make_answer, receiver, api_token, settings):
    import base64

    settings.WEBHOOK_MAX_ATTEMPTS = 3
    client, _ = api_token
    receiver.respond(500, b"busy")
    receiver.respond(200)
    answer = make_answer(status="approved", callback_url=receiver.url + "/hook")
    Answer.objects.filter(pk=answer.pk).update(released_at=timezone.now(), webhook_state="pending",
                                               webhook_next_attempt_at=timezone.now())

    for number in (1, 2):
        assert webhooks.webhook_attempt_take(answer_id=answer.pk) == number
        delivered = webhooks.webhook_attempt(answer_id=answer.pk, attempt=number)
        Answer.objects.filter(pk=answer.pk).update(webhook_next_attempt_at=timezone.now(), webhook_worker="")
    assert delivered

    first, second = ({k.lower(): v for k, v in r["headers"].items()} for r in receiver.requests)
    assert first["webhook-id"] == second["webhook-id"] == webhooks.webhook_id(Answer.objects.get(pk=answer.pk))
    assert abs(int(second["webhook-timestamp"]) - time.time()) < 60
    spec_secret = "whsec_" + base64.b64encode(client.webhook_secret.encode()).decode()
    verify = _readme_verify()
    for request, headers in zip(receiver.requests, (first, second), strict=True):
        assert verify(client.webhook_secret, headers, request["body"]) == first["webhook-id"]
        with pytest.raises(ValueError, match="signature"):
            verify(client.webhook_secret, headers, request["body"] + b" ")
        assert _standard_webhooks_key_verify(spec_secret=spec_secret, headers=headers, body=request["body"])
        assert headers["x-signature"].startswith("sha256=")
    assert list(answer.deliveries.values_list("attempt", "sending", "delivered")) == [(1, False, False),
                                                                                        (2, False, True)]
