"""Webhooks: each released or decided answer's signed POST to its client, claimed per attempt, retried with
backoff, handed back when its worker is gone, and re-sent by the sweep when its message was lost (the work-claim
lifecycle of console/work_claims.py).

Delivery is at least once: a worker or the database lost after the receiver's 2xx but before the outcome is recorded
means the console cannot know it arrived, and sends it again. Each delivery follows the Standard Webhooks convention
(https://www.standardwebhooks.com/): `webhook-id` names the release event and is the same on every attempt, so a
receiver dedupes on it; `webhook-timestamp` is the attempt's time; `webhook-signature` is `v1,` + base64
HMAC-SHA256 of `id.timestamp.body`, keyed with the client's webhook secret as its UTF-8 bytes (in the spec's
serialised form: `whsec_` + base64 of those bytes). `X-Signature` (hex HMAC of the body alone) stays for receivers
written before.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import time
from datetime import timedelta

import httpx
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from console.metrics import WEBHOOK_ATTEMPTS
from console.redaction import redact
from console.work_claims import WorkClaimKind, work_claim_take
from review.callbacks import CallbackRefused, callback_post
from review.models import Answer, WebhookDelivery, WebhookState

logger = logging.getLogger(__name__)

def webhook_payload(answer: Answer) -> bytes:
    body = {
        "id": answer.pk,
        "external_id": answer.external_id,
        "status": answer.status,
        "released_text": answer.released_text,
        "decided_at": _iso(answer.decided_at or answer.released_at),
    }
    return json.dumps(body, separators=(",", ":")).encode()


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def webhook_signature(*, secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def webhook_id(answer: Answer) -> str:
    """The release event's id: the same on every attempt of one release, new when an undone answer is released
    again (its released_at changes)."""
    released = answer.released_at or answer.created_at
    return f"msg_answer{answer.pk}_{int(released.timestamp() * 1_000_000)}"


def webhook_standard_signature(*, secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(secret.encode(), signed, hashlib.sha256).digest()).decode()


def webhook_headers(*, answer: Answer, secret: str, body: bytes) -> dict[str, str]:
    message_id, timestamp = webhook_id(answer), int(time.time())
    return {"Content-Type": "application/json",
            "webhook-id": message_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": webhook_standard_signature(secret=secret, message_id=message_id,
                                                            timestamp=timestamp, body=body),
            "X-Signature": webhook_signature(secret=secret, body=body)}


def _webhook_lease() -> timedelta:
    # Long enough for one attempt to finish; a worker that dies mid-attempt leaves the webhook to the sweep.
    return timedelta(seconds=settings.WEBHOOK_TIMEOUT + 30)


def _webhook_backoff(attempt: int) -> int:
    return min(2 ** attempt, 300)  # 2, 4, 8, ... seconds, at most 5 minutes


def _given_up(claim: QuerySet[Answer]) -> bool:
    """A lost attempt that was the last one allowed: given up rather than sent again."""
    return bool(claim.filter(webhook_attempts__gte=settings.WEBHOOK_MAX_ATTEMPTS).update(
        webhook_state=WebhookState.FAILED, webhook_next_attempt_at=None, webhook_worker="", webhook_task_id=""))


# Each attempt is work a worker claims (console/work_claims.py): pending and due, with no worker on it. Its lease
# is the next attempt's time: a worker that dies mid-attempt leaves it due again when the lease ends (at once, when
# the worker is seen gone), and a task that met an outage takes its own attempt back when it is sent again.
WEBHOOK_ATTEMPT = WorkClaimKind(
    name="webhook of answer", model=Answer,
    waiting=Q(webhook_state=WebhookState.PENDING, webhook_worker=""),
    held=Q(webhook_state=WebhookState.PENDING) & ~Q(webhook_worker=""),
    worker_field="webhook_worker", held_at_field="webhook_claimed_at", requested_at_field="webhook_next_attempt_at",
    due_field="webhook_next_attempt_at", task_id_field="webhook_task_id", task="review.tasks.webhook_deliver",
    stale_after=_webhook_lease, instead_of_hand_back=_given_up,
)


@transaction.atomic
def webhook_attempt_take(*, answer_id: int, worker: str = "", task_id: str = "") -> int | None:
    """Take the next attempt of a pending, due webhook; its number, or None when there is nothing to send now
    (delivered, given up, not due, or another task is sending it). `task_id`: the task taking it, which may take
    its own attempt back after an outage cut it short."""
    if not work_claim_take(kind=WEBHOOK_ATTEMPT, pk=answer_id, worker=worker, task_id=task_id, also={
            "webhook_attempts": F("webhook_attempts") + 1,
            "webhook_next_attempt_at": timezone.now() + _webhook_lease()}):
        return None
    return Answer.objects.values_list("webhook_attempts", flat=True).get(pk=answer_id)


def webhook_settle(*, answer_id: int, attempt: int, delivered: bool) -> int | None:
    """Record an attempt's outcome; seconds until the next attempt, or None when done (delivered or given up)."""
    claimed = Answer.objects.filter(pk=answer_id, webhook_state=WebhookState.PENDING, webhook_attempts=attempt)
    released = {"webhook_worker": "", "webhook_task_id": ""}
    if delivered:
        claimed.update(webhook_state=WebhookState.DELIVERED, webhook_next_attempt_at=None, **released)
        return None
    if attempt >= settings.WEBHOOK_MAX_ATTEMPTS:
        claimed.update(webhook_state=WebhookState.FAILED, webhook_next_attempt_at=None, **released)
        logger.error("webhook for answer %s failed after %s attempts", answer_id, attempt)
        return None
    delay = _webhook_backoff(attempt)
    claimed.update(webhook_next_attempt_at=timezone.now() + timedelta(seconds=delay), **released)
    return delay


def webhook_attempt(*, answer_id: int, attempt: int) -> bool:
    """One delivery attempt, logged. True when the receiver accepted it (2xx). The attempt is recorded as sending
    before the POST (committed): should its outcome be lost, the delivery log shows it and the next attempt, sent
    under the same webhook-id, says why it was sent again."""
    answer = Answer.objects.select_related("client").get(pk=answer_id)
    if answer.deliveries.filter(delivered=True).exists():
        return True  # a re-delivered task must not post twice
    answer.deliveries.filter(sending=True).update(
        sending=False, error="outcome not recorded (the worker or the database was lost after the POST); sent again")
    body = webhook_payload(answer)
    secret = answer.client.webhook_secret
    # The delivery log keeps neither the URL's credentials nor what the receiver echoed of them.
    delivery = WebhookDelivery.objects.create(answer=answer, url=redact(answer.callback_url), attempt=attempt,
                                              sending=True)
    delivery.sending = False
    try:
        response = callback_post(
            url=answer.callback_url, content=body, timeout=settings.WEBHOOK_TIMEOUT,
            headers=webhook_headers(answer=answer, secret=secret, body=body),
        )
        delivery.status_code = response.status_code
        delivery.delivered = 200 <= response.status_code < 300
        if not delivery.delivered:
            # Redacted before it is cut short: a cut credential would no longer be recognised.
            delivery.error = f"HTTP {response.status_code}: {redact(response.text[:2000], also=[secret])[:200]}"
    except CallbackRefused as exc:
        delivery.error = redact(f"refused: callback_url {exc}", also=[secret])[:500]
    except httpx.HTTPError as exc:
        delivery.error = redact(f"{type(exc).__name__}: {exc}", also=[secret])[:500]
    delivery.save()
    WEBHOOK_ATTEMPTS.labels(outcome="delivered" if delivery.delivered else "failed").inc()
    return delivery.delivered
