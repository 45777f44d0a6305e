"""Leases only while reviewing: reading an answer takes none; Start review takes it, Skip hands it back and moves
on, closing the page releases it; the page says where the answer stands in the queue."""

import pytest

from review.models import Answer

pytestmark = pytest.mark.django_db


def test_opening_an_answer_is_read_only_and_takes_no_lease(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)

    page = client.get(answer.get_absolute_url()).content.decode()

    answer.refresh_from_db()
    assert answer.lease_holder is None
    assert 'id="start-review"' in page
    assert 'data-shortcut="confirm"' not in page and 'id="approve-button"' not in page


def test_start_review_takes_the_lease_and_shows_the_actions(client, reviewer, second_reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)

    response = client.post(f"/review/answers/{answer.pk}/start/")
    page = client.get(answer.get_absolute_url()).content.decode()
    client.force_login(second_reviewer)
    refused = client.post(f"/review/answers/{answer.pk}/start/", follow=True).content.decode()

    assert response["Location"] == answer.get_absolute_url()
    assert 'id="approve-button"' in page and 'data-shortcut="skip"' in page
    assert f'data-release-url="/review/answers/{answer.pk}/lease/release/"' in page
    assert f"{reviewer.username} is reviewing this answer until" in refused
    assert Answer.objects.get(pk=answer.pk).lease_holder == reviewer


def test_the_closing_page_beacon_releases_quietly(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")

    response = client.post(f"/review/answers/{answer.pk}/lease/release/", {"quiet": "1"})

    assert response.status_code == 204
    assert Answer.objects.get(pk=answer.pk).lease_holder is None
    assert "Released answer" not in client.get("/review/").content.decode()  # no message left behind


def test_skip_releases_the_answer_and_opens_the_next_without_coming_back(client, reviewer, make_answer):
    first = make_answer(question="First?", risk="high")
    second = make_answer(question="Second?", risk="medium")
    client.force_login(reviewer)
    assert client.post("/review/next/")["Location"] == first.get_absolute_url()

    skipped = client.post(f"/review/answers/{first.pk}/skip/")
    after_last = client.post(f"/review/answers/{second.pk}/skip/", follow=True)

    assert skipped["Location"] == second.get_absolute_url()
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.lease_holder is None and second.lease_holder is None
    assert "Nothing else is waiting apart from the 2 you skipped." in after_last.content.decode()
    assert client.post("/review/next/")["Location"] == first.get_absolute_url()  # they come round again


def test_the_page_shows_the_position_in_the_queue_and_its_neighbours(client, reviewer, make_answer):
    high = make_answer(question="High?", risk="high")
    middle = make_answer(question="Middle?", risk="medium")
    last = make_answer(question="Last?", risk="medium")
    make_answer(question="Done?", status="approved")
    client.force_login(reviewer)

    page = client.get(middle.get_absolute_url()).content.decode()

    assert '<span class="queue-progress" id="queue-progress">2 of 3 waiting</span>' in page
    assert f'href="/review/answers/{high.pk}/" data-shortcut="previous-item"' in page
    assert f'href="/review/answers/{last.pk}/" data-shortcut="next-item"' in page


def test_a_claim_mark_can_be_undone(client, reviewer, make_answer):
    answer = make_answer(claims=[("Refunds take 30 days.", "contradicted", 0.1)])
    claim = answer.claims.get()
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    client.post(f"/review/claims/{claim.pk}/review/", {"state": "confirmed", "note": "finance says so"})

    undone = client.post(f"/review/claims/{claim.pk}/review/", {"state": "open"}, headers={"HX-Request": "true"})

    claim.refresh_from_db()
    assert undone.status_code == 200
    assert (claim.review_state, claim.review_note, claim.overrides_checker, claim.reviewed_by) == \
        ("open", "", False, None)
    assert 'data-review-state="open"' in undone.content.decode()


def test_previous_and_next_walk_the_queue_in_its_order_across_risks_and_equal_times(reviewer, make_answer):
    from review.models import Answer
    from review.selectors import queue_position

    answers = [make_answer(question=f"Q{i}?", risk=risk) for i, risk in enumerate(
        ["medium", "high", "medium", "high", "medium", "low"])]
    same_time = answers[0].created_at
    Answer.objects.filter(pk__in=[a.pk for a in answers[:5]]).update(created_at=same_time)  # ties: the id decides
    make_answer(question="Decided?", risk="high", status="approved")
    queue = list(Answer.objects.filter(status="pending_review").order_by("risk_order", "created_at", "pk"))

    for number, answer in enumerate(queue):
        position = queue_position(user=reviewer, answer=answer)
        assert position.position == number + 1 and position.waiting == len(queue)
        assert position.previous_id == (queue[number - 1].pk if number else None)
        assert position.next_id == (queue[number + 1].pk if number + 1 < len(queue) else None)
