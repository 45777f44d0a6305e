"""Undo a reject (as Gmail's "Undo send"): the reject is stored at once, its webhook waits REVIEW_UNDO_SECONDS,
and within that window the reviewer who rejected can take it back; after it (or once the webhook went out) the
reject is final. Never both undone and sent."""

from datetime import timedelta

import pytest
from django.utils import timezone

from console.models import AuditEvent
from review import webhooks
from review.models import Answer, Decision
from review.learning.models import ReviewLabel

pytestmark = pytest.mark.django_db

REJECTABLE = [("Refunds are paid within 45 days.", "contradicted", 0.2)]


def _reject(client, reviewer, answer, **extra):
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    return client.post(f"/review/answers/{answer.pk}/decide/", {"action": "reject", **extra})


def _undo(client, answer, follow=False, **data):
    return client.post(f"/review/answers/{answer.pk}/undo-reject/", data, follow=follow)


def test_reject_offers_an_undo_toast_and_undo_puts_the_answer_back_with_the_reviewer(
        client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=REJECTABLE)
    response = _reject(client, reviewer, answer)
    queue = client.get(response["Location"]).content.decode()
    assert 'id="undo-toast"' in queue and f"/review/answers/{answer.pk}/undo-reject/" in queue
    assert Answer.objects.get(pk=answer.pk).status == "rejected"  # stored at once: a closed tab loses nothing

    undone = _undo(client, answer)

    answer.refresh_from_db()
    assert undone.status_code == 302 and undone["Location"] == answer.get_absolute_url()
    assert (answer.status, answer.decided_by, answer.released_text, answer.webhook_state) == (
        "pending_review", None, "", "")
    assert answer.lease_holder == reviewer
    assert not Decision.objects.filter(answer=answer).exists()
    assert not ReviewLabel.objects.filter(answer=answer).exists()
    verbs = list(AuditEvent.objects.filter(object_id=str(answer.pk)).order_by("pk").values_list("verb", flat=True))
    assert verbs[-4:] == ["answer.reject", "answer.release", "answer.reject_undone", "answer.lease"]
    assert 'id="undo-toast"' not in client.get(answer.get_absolute_url()).content.decode()


def test_the_rejects_webhook_waits_for_the_undo_window(client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=REJECTABLE, callback_url="http://receiver.invalid/hook")
    _reject(client, reviewer, answer)
    answer.refresh_from_db()

    assert answer.webhook_state == "pending"
    assert answer.webhook_next_attempt_at >= answer.decided_at + timedelta(seconds=10)
    assert webhooks.webhook_attempt_take(answer_id=answer.pk) is None  # not due: nothing can go out yet


def test_undo_after_the_window_is_refused_and_the_reject_stands(client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=REJECTABLE, callback_url="http://receiver.invalid/hook")
    _reject(client, reviewer, answer)
    past = timezone.now() - timedelta(seconds=11)
    Answer.objects.filter(pk=answer.pk).update(decided_at=past, released_at=past,
                                              webhook_next_attempt_at=past + timedelta(seconds=10))

    refused = _undo(client, answer)

    assert (refused.status_code, refused["Location"]) == (303, answer.get_absolute_url())  # a reload sends nothing
    page = client.get(refused["Location"]).content.decode()
    assert f"The reject was not undone: Too late to undo: the rejection of answer {answer.pk} is final." in page
    assert "The reject was not undone" not in client.get(answer.get_absolute_url()).content.decode()  # shown once
    assert Answer.objects.get(pk=answer.pk).status == "rejected"
    assert webhooks.webhook_attempt_take(answer_id=answer.pk) == 1  # due now: it goes out once


def test_undo_once_a_webhook_attempt_was_claimed_is_refused(client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=REJECTABLE, callback_url="http://receiver.invalid/hook")
    _reject(client, reviewer, answer)
    Answer.objects.filter(pk=answer.pk).update(webhook_attempts=1)  # a worker took it (the clock disagreed)

    assert _undo(client, answer, follow=True).redirect_chain == [(answer.get_absolute_url(), 303)]
    assert Answer.objects.get(pk=answer.pk).status == "rejected"


def test_a_colleague_cannot_undo_someone_elses_reject(client, reviewer, second_reviewer, make_answer):
    answer = make_answer(risk="high", claims=REJECTABLE)
    _reject(client, reviewer, answer)
    client.force_login(second_reviewer)

    refused = _undo(client, answer, follow=True)

    assert "Only the reviewer who rejected an answer can undo it" in refused.content.decode()
    assert Answer.objects.get(pk=answer.pk).status == "rejected"


def test_an_approval_cannot_be_undone_here(client, reviewer, make_answer):
    answer = make_answer(risk="medium", claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    assert _undo(client, answer, follow=True).redirect_chain == [(answer.get_absolute_url(), 303)]
    assert Answer.objects.get(pk=answer.pk).status == "approved"


def test_an_htmx_undo_refused_is_answered_in_place(client, reviewer, make_answer):
    answer = make_answer(risk="medium", claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve"})

    refused = client.post(f"/review/answers/{answer.pk}/undo-reject/", headers={"HX-Request": "true"})

    assert refused.status_code == 409
    assert "The reject was not undone" in refused.content.decode()


def test_undo_after_then_next_gives_the_next_answer_back_to_the_queue(client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=REJECTABLE)
    following = make_answer(question="The next one?", risk="medium")
    response = _reject(client, reviewer, answer, then="next")
    assert response["Location"] == following.get_absolute_url()
    page = client.get(following.get_absolute_url()).content.decode()
    assert f'name="leaving" value="{following.pk}"' in page

    _undo(client, answer, leaving=str(following.pk))

    assert Answer.objects.get(pk=following.pk).lease_holder is None
    assert Answer.objects.get(pk=answer.pk).lease_holder == reviewer


def test_undo_needs_the_reviewer_role_and_a_post(client, reviewer, curator, make_answer):
    answer = make_answer(risk="high", claims=REJECTABLE)
    _reject(client, reviewer, answer)

    assert client.get(f"/review/answers/{answer.pk}/undo-reject/").status_code == 405
    client.force_login(curator)
    assert _undo(client, answer).status_code == 403
    assert Answer.objects.get(pk=answer.pk).status == "rejected"


def test_the_toast_belongs_to_its_answer_and_stays_reachable_on_its_page(client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=REJECTABLE)
    following = make_answer(question="The next one?", risk="medium")
    later = make_answer(question="And a later one?", risk="medium")
    undo_url = f"/review/answers/{answer.pk}/undo-reject/"

    _reject(client, reviewer, answer, then="next")
    assert undo_url in client.get(following.get_absolute_url()).content.decode()  # where the reject led
    assert undo_url in client.get(following.get_absolute_url()).content.decode()  # a reload keeps it

    for moved_on in (client.get(later.get_absolute_url()), client.get("/review/")):  # z would undo unseen
        assert 'id="undo-toast"' not in moved_on.content.decode()
        # ...but the recently-decided list keeps the Undo within reach for its window
        assert f'action="{undo_url}" class="inline-form"' in moved_on.content.decode()
    assert undo_url in client.get(answer.get_absolute_url()).content.decode()  # still reachable on its own page
