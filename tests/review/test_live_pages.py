"""Live pages: the answer page's fingerprint changes with what a teammate does (and only then), presence says who
else is looking (and fails quietly without Redis), the queue answers 204 while nothing changed, and one lease
warning."""

from datetime import timedelta

import pytest
from django.utils import timezone

from review import presence
from review.models import Answer
from triage.models import Comment

pytestmark = pytest.mark.django_db


def _live(client, answer):
    response = client.get(f"/review/answers/{answer.pk}/live/")
    assert response.status_code == 200
    return response.json()


def test_the_answer_fingerprint_follows_a_comment_a_lease_and_a_decision_but_not_a_lease_renewal(
        client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)
    start = _live(client, answer)["fingerprint"]
    assert _live(client, answer)["fingerprint"] == start

    Comment.objects.create(answer=answer, author=second_reviewer, text="Looks off")
    commented = _live(client, answer)["fingerprint"]
    until = timezone.now() + timedelta(minutes=5)
    Answer.objects.filter(pk=answer.pk).update(lease_holder=second_reviewer, lease_expires_at=until)
    leased = _live(client, answer)["fingerprint"]
    Answer.objects.filter(pk=answer.pk).update(lease_expires_at=until + timedelta(minutes=1))
    renewed = _live(client, answer)["fingerprint"]
    Answer.objects.filter(pk=answer.pk).update(status="rejected", decided_by=second_reviewer)
    decided = _live(client, answer)["fingerprint"]

    assert len({start, commented, leased, decided}) == 4
    assert renewed == leased


def test_presence_names_the_other_reviewer_looking(client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    client.force_login(second_reviewer)
    client.get(answer.get_absolute_url())
    client.force_login(reviewer)

    state = _live(client, answer)
    queue = client.get("/review/").content.decode()

    assert f"{second_reviewer.username} is looking at this" in state["presence"]
    assert f"{reviewer.username} is looking" not in state["presence"]
    assert f"{second_reviewer.username} is looking at this" in queue


def test_without_redis_presence_is_empty_and_the_page_still_works(client, reviewer, make_answer, settings,
                                                                   monkeypatch):
    answer = make_answer()
    monkeypatch.setattr(presence, "_client", None)
    monkeypatch.setattr(presence, "_redis_down_until", 0.0)
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    client.force_login(reviewer)

    page = client.get(answer.get_absolute_url())
    state = _live(client, answer)

    assert page.status_code == 200 and state["presence"].strip() == ""
    monkeypatch.setattr(presence, "_client", None)
    monkeypatch.setattr(presence, "_redis_down_until", 0.0)


def test_the_queue_refresh_is_204_until_something_changes_and_then_brings_the_count(
        client, reviewer, second_reviewer, make_answer):
    first, second = make_answer(question="One?"), make_answer(question="Two?")
    client.force_login(reviewer)
    page = client.get("/review/").content.decode()
    seen = page.split("&seen=")[1].split('"')[0]
    headers = {"HX-Request": "true", "HX-Target": "queue-rows"}

    unchanged = client.get(f"/review/?seen={seen}", headers=headers)
    Answer.objects.filter(pk=first.pk).update(status="approved", decided_by=second_reviewer)
    changed = client.get(f"/review/?seen={seen}", headers=headers)

    assert unchanged.status_code == 204
    body = changed.content.decode()
    assert changed.status_code == 200 and f'id="answer-{second.pk}"' in body and f'id="answer-{first.pk}"' not in body
    assert 'id="queue-total" hx-swap-oob="true">1 listed' in body


def test_a_second_reviewer_sees_one_lease_warning(client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    client.force_login(second_reviewer)

    page = client.post(f"/review/answers/{answer.pk}/start/", follow=True).content.decode()

    assert page.count(f"{reviewer.username} is reviewing this answer") == 1
    assert "Someone else is reviewing" not in page and 'id="read-only-hint"' not in page

