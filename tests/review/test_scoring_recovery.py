"""Scoring asked for by committed state: the sweep sends answers whose message was lost, and a task redelivered
after its worker process died takes its own claim back."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from review import services
from review.models import Answer
from console.work_claims import work_claim_take, work_claims_requeue


def _answer_whose_message_was_lost(client, *, requested_minutes_ago: float) -> Answer:
    """What an intake committed while the broker was down leaves behind: an answer scoring, and no message."""
    return Answer.objects.create(
        client=client, question="Where is the office?", text="The office is on the moon.", evidence_level="internal",
        scoring_requested_at=timezone.now() - timedelta(minutes=requested_minutes_ago),
    )


def test_the_sweep_scores_answers_whose_message_was_lost(celery_worker, api_token, settings):
    settings.DISPATCH_RESEND_AFTER_SECONDS = 60
    client, _ = api_token
    lost = _answer_whose_message_was_lost(client, requested_minutes_ago=2)
    just_sent = _answer_whose_message_was_lost(client, requested_minutes_ago=0)

    assert work_claims_requeue(kind=services.ANSWER_SCORING) == 1

    deadline = time.monotonic() + 60
    while Answer.objects.get(pk=lost.pk).status == "scoring" and time.monotonic() < deadline:
        time.sleep(0.1)
    lost.refresh_from_db()
    assert (lost.status, lost.risk) == ("pending_review", "medium")  # nothing in the KB supports it: not found
    assert lost.claims.count() == 1
    assert Answer.objects.get(pk=just_sent.pk).scoring_started_at is None  # its own message may be on its way


def test_a_redelivered_scoring_task_takes_its_own_claim_back_and_no_other_task_does(db, api_token):
    client, _ = api_token
    answer = _answer_whose_message_was_lost(client, requested_minutes_ago=0)

    assert work_claim_take(kind=services.ANSWER_SCORING, pk=answer.pk, task_id="first")
    assert not work_claim_take(kind=services.ANSWER_SCORING, pk=answer.pk, task_id="second")
    assert work_claim_take(kind=services.ANSWER_SCORING, pk=answer.pk, task_id="first")  # its worker died: redelivered
    assert not work_claim_take(kind=services.ANSWER_SCORING, pk=answer.pk)  # a plain second message neither


@pytest.mark.django_db
def test_a_stalled_scoring_is_claimed_again_by_another_task(api_token):
    client, _ = api_token
    answer = _answer_whose_message_was_lost(client, requested_minutes_ago=10)
    assert work_claim_take(kind=services.ANSWER_SCORING, pk=answer.pk, task_id="stalled")
    Answer.objects.filter(pk=answer.pk).update(scoring_started_at=timezone.now() - timedelta(minutes=6))

    assert work_claim_take(kind=services.ANSWER_SCORING, pk=answer.pk, task_id="sweep")
    assert Answer.objects.get(pk=answer.pk).scoring_task_id == "sweep"
