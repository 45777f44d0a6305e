import pytest

from review.models import Answer

pytestmark = pytest.mark.django_db


def test_queue_lists_pending_answers_highest_risk_first(client, reviewer, make_answer):
    medium = make_answer(question="Medium question?", risk="medium")
    high = make_answer(question="High question?", risk="high")
    make_answer(question="Already released?", risk="low", status="released")
    client.force_login(reviewer)

    page = client.get("/review/").content.decode()

    assert page.index("High question?") < page.index("Medium question?")
    assert "Already released?" not in page
    assert f'id="answer-{high.pk}"' in page and f'id="answer-{medium.pk}"' in page


def test_queue_filters_by_risk_and_status(client, reviewer, make_answer):
    make_answer(question="Medium question?", risk="medium")
    make_answer(question="High question?", risk="high")
    make_answer(question="Released one?", risk="low", status="released")
    client.force_login(reviewer)

    assert "Medium question?" not in client.get("/review/?risk=high").content.decode()
    assert "Released one?" in client.get("/review/?status=released").content.decode()


def test_empty_queue_says_so(client, reviewer):
    client.force_login(reviewer)

    assert "Nothing is waiting for review." in client.get("/review/").content.decode()


def test_htmx_refresh_returns_only_the_rows(client, reviewer, make_answer):
    make_answer(question="High question?", risk="high")
    client.force_login(reviewer)

    response = client.get("/review/", headers={"HX-Request": "true", "HX-Target": "queue-rows"})

    body = response.content.decode()
    assert body.lstrip().startswith('<tbody id="queue-rows"')
    assert "<html" not in body


def test_reviewer_does_not_see_answers_whose_evidence_is_above_clearance(client, reviewer, make_answer):
    make_answer(question="Confidential matter?", evidence_level="confidential")
    make_answer(question="Public matter?", evidence_level="public")
    client.force_login(reviewer)  # internal clearance

    page = client.get("/review/").content.decode()

    assert "Public matter?" in page
    assert "Confidential matter?" not in page


def test_queue_query_count_does_not_grow_with_rows(client, reviewer, make_answer, django_assert_max_num_queries):
    client.force_login(reviewer)
    for i in range(3):
        make_answer(question=f"Question {i}?")
    with django_assert_max_num_queries(13) as few:  # 13: the reviewers the bulk assign offers
        client.get("/review/")
    for i in range(30):
        make_answer(question=f"More {i}?", claims=[("A.", "uncertain", 0.5), ("B.", "contradicted", 0.2)])

    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get("/review/")
    assert response.content.decode().count('id="answer-') == 25  # one page


def test_curator_without_reviewer_role_gets_403(client, curator):
    client.force_login(curator)

    assert client.get("/review/").status_code == 403


def test_review_next_leases_the_oldest_highest_risk_item(client, reviewer, second_reviewer, make_answer):
    make_answer(question="Medium?", risk="medium")
    first_high = make_answer(question="First high?", risk="high")
    second_high = make_answer(question="Second high?", risk="high")
    client.force_login(reviewer)

    response = client.post("/review/next/")

    assert response["Location"] == first_high.get_absolute_url()
    first_high.refresh_from_db()
    assert first_high.lease_holder == reviewer

    client.force_login(second_reviewer)
    assert client.post("/review/next/")["Location"] == second_high.get_absolute_url()


def test_review_next_with_an_empty_queue_says_so(client, reviewer):
    client.force_login(reviewer)

    response = client.post("/review/next/", follow=True)

    assert "Nothing is waiting for review" in response.content.decode()


def test_leased_item_cannot_be_decided_by_another_reviewer(client, reviewer, second_reviewer, make_answer):
    answer = make_answer(risk="medium")
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")  # starting the review takes the lease
    client.force_login(second_reviewer)

    page = client.get(answer.get_absolute_url()).content.decode()
    response = client.post(f"/review/answers/{answer.pk}/decide/", {"action": "approve", "reason": "fine"},
                           follow=True)

    assert f"{reviewer.username} is reviewing this answer until" in page
    assert "Approve &amp; send" not in page
    assert response.redirect_chain == [(answer.get_absolute_url(), 303)]
    assert f"Your decision was not recorded: {reviewer.username} holds the lease" in response.content.decode()
    assert 'id="decision-panel" class="card decision" data-live>' in response.content.decode()  # not hidden
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"


def test_expired_lease_can_be_taken_over(client, reviewer, second_reviewer, make_answer):
    from datetime import timedelta

    from django.utils import timezone

    answer = make_answer()
    Answer.objects.filter(pk=answer.pk).update(lease_holder=reviewer,
                                               lease_expires_at=timezone.now() - timedelta(seconds=1))
    client.force_login(second_reviewer)

    client.post(f"/review/answers/{answer.pk}/start/")

    answer.refresh_from_db()
    assert answer.lease_holder == second_reviewer
