"""Webhooks: each released or decided answer's signed POST to its client, claimed per attempt, retried with
backoff, handed back when its worker is gone, and re-sent by the sweep when its message was lost."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from datetime import timedelta

import httpx
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from console.claims import WorkerLives
from console.dispatch import enqueue
from console.redaction import redact
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


def _webhook_lease() -> timedelta:
    # Long enough for one attempt to finish; a worker that dies mid-attempt leaves the webhook to the sweep.
    return timedelta(seconds=settings.WEBHOOK_TIMEOUT + 30)


def _webhook_backoff(attempt: int) -> int:
    return min(2 ** attempt, 300)  # 2, 4, 8, ... seconds, at most 5 minutes


@transaction.atomic
def webhook_claim(*, answer_id: int, worker: str = "") -> int | None:
    """Take the next attempt of a pending, due webhook; its number, or None when there is nothing to send now
    (delivered, given up, not due, or another task is sending it). `worker` holds the attempt's lease: when it is
    gone the attempt is handed back at once (console/claims.py), not when the lease ends."""
    answer = (
        Answer.objects.select_for_update(skip_locked=True)
        .filter(pk=answer_id, webhook_state=WebhookState.PENDING, webhook_next_attempt_at__lte=timezone.now())
        .first()
    )
    if answer is None:
        return None
    if answer.webhook_attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        answer.webhook_state = WebhookState.FAILED
        answer.save(update_fields=["webhook_state"])
        return None
    now = timezone.now()
    answer.webhook_attempts += 1
    answer.webhook_next_attempt_at = now + _webhook_lease()
    answer.webhook_worker, answer.webhook_claimed_at = worker, now
    answer.save(update_fields=["webhook_attempts", "webhook_next_attempt_at", "webhook_worker", "webhook_claimed_at"])
    return answer.webhook_attempts


def webhook_settle(*, answer_id: int, attempt: int, delivered: bool) -> int | None:
    """Record an attempt's outcome; seconds until the next attempt, or None when done (delivered or given up)."""
    claimed = Answer.objects.filter(pk=answer_id, webhook_state=WebhookState.PENDING, webhook_attempts=attempt)
    if delivered:
        claimed.update(webhook_state=WebhookState.DELIVERED, webhook_next_attempt_at=None, webhook_worker="")
        return None
    if attempt >= settings.WEBHOOK_MAX_ATTEMPTS:
        claimed.update(webhook_state=WebhookState.FAILED, webhook_next_attempt_at=None, webhook_worker="")
        logger.error("webhook for answer %s failed after %s attempts", answer_id, attempt)
        return None
    delay = _webhook_backoff(attempt)
    claimed.update(webhook_next_attempt_at=timezone.now() + timedelta(seconds=delay), webhook_worker="")
    return delay


def webhooks_release_lost(*, lives: WorkerLives) -> int:
    """Webhook attempts whose worker is gone (console/claims.py) are due again now, not when their lease ends."""
    from review.tasks import webhook_deliver

    lost = (Answer.objects.filter(lives.lost(worker_field="webhook_worker", held_at_field="webhook_claimed_at"),
                                  webhook_state=WebhookState.PENDING)
            .values_list("pk", "webhook_attempts", "webhook_worker"))
    released = 0
    for answer_id, attempt, worker in lost:
        handed_back = Answer.objects.filter(
            pk=answer_id, webhook_state=WebhookState.PENDING, webhook_attempts=attempt, webhook_worker=worker,
        ).update(webhook_worker="", webhook_next_attempt_at=timezone.now())
        if not handed_back:
            continue
        released += 1
        logger.warning("webhook for answer %s: its worker %s is gone during attempt %s; sending again",
                       answer_id, worker, attempt)
        enqueue(webhook_deliver, answer_id)  # if the broker is down, the sweep of due webhooks sends it later
    return released


def webhooks_send_due() -> int:
    """Send pending webhooks whose attempt is overdue: never sent (broker down), or their retry was lost (beat)."""
    from review.tasks import webhook_deliver

    now = timezone.now()
    cutoff = now - timedelta(seconds=settings.DISPATCH_RESEND_AFTER_SECONDS)
    due = list(
        Answer.objects.filter(webhook_state=WebhookState.PENDING, webhook_next_attempt_at__lt=cutoff)
        .values_list("pk", flat=True)
    )
    for answer_id in due:
        if not enqueue(webhook_deliver, answer_id):
            break  # the broker is still down; the next sweep tries again
        # Still due for the task (next_attempt_at <= now), but not re-sent by the next sweep straight away.
        Answer.objects.filter(pk=answer_id, webhook_state=WebhookState.PENDING,
                              webhook_next_attempt_at__lt=cutoff).update(webhook_next_attempt_at=now)
    return len(due)


def webhook_attempt(*, answer_id: int, attempt: int) -> bool:
    """One delivery attempt, logged. True when the receiver accepted it (2xx)."""
    answer = Answer.objects.select_related("client").get(pk=answer_id)
    if answer.deliveries.filter(delivered=True).exists():
        return True  # a re-delivered task must not post twice
    body = webhook_payload(answer)
    secret = answer.client.webhook_secret
    # The delivery log keeps neither the URL's credentials nor what the receiver echoed of them.
    delivery = WebhookDelivery(answer=answer, url=redact(answer.callback_url), attempt=attempt)
    try:
        response = callback_post(
            url=answer.callback_url, content=body, timeout=settings.WEBHOOK_TIMEOUT,
            headers={"Content-Type": "application/json",
                     "X-Signature": webhook_signature(secret=secret, body=body)},
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
    return delivery.delivered
