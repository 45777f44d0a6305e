"""Work on many answers at once: bulk reject (one reason, each answer its own decision, audit record and webhook)
with an undo for the lot, bulk assign with its undo, and rows someone else is reviewing left as they are."""

from datetime import timedelta

import pytest
from django.utils import timezone

from console.models import AuditEvent
from review.models import Answer, Decision
from triage.models import Assignment

pytestmark = pytest.mark.django_db


def _leased_to(answer, person):
    Answer.objects.filter(pk=answer.pk).update(lease_holder=person,
                                               lease_expires_at=timezone.now() + timedelta(minutes=5))


def test_bulk_reject_decides_each_ticked_answer_and_skips_one_someone_else_reviews(
        client, reviewer, second_reviewer, make_answer):
    first, second, held = (make_answer(question=f"Q{n}?", callback_url="http://127.0.0.1:9/hook") for n in range(3))
    _leased_to(held, second_reviewer)
    client.force_login(reviewer)

    response = client.post("/review/bulk/reject/", {"answers": [first.pk, second.pk, held.pk],
                                                    "reason": "outdated policy", "query": "risk=medium"})

    assert response.status_code == 302 and response["Location"] == "/review/?risk=medium"
    statuses = dict(Answer.objects.values_list("pk", "status"))
    assert statuses == {first.pk: "rejected", second.pk: "rejected", held.pk: "pending_review"}
    decisions = Decision.objects.filter(action="reject")
    assert sorted(d.answer_id for d in decisions) == [first.pk, second.pk]
    assert {d.reason for d in decisions} == {"outdated policy"}
    assert AuditEvent.objects.filter(verb="answer.reject").count() == 2
    assert Answer.objects.get(pk=first.pk).webhook_state != "none"  # each sends its own webhook (after the window)
    page = client.get("/review/?risk=medium").content.decode()
    assert f"answer {held.pk} ({second_reviewer.username} is reviewing it)" in page
    assert 'data-bulk-undo="reject"' in page and "Rejected 2 answers." in page


def test_bulk_reject_undo_puts_every_answer_back_in_the_queue(client, reviewer, make_answer):
    answers = [make_answer(question=f"Q{n}?") for n in range(3)]
    client.force_login(reviewer)
    client.post("/review/bulk/reject/", {"answers": [a.pk for a in answers], "reason": "wrong"})

    response = client.post("/review/bulk/reject/undo/", {"query": ""}, follow=True)

    assert "Reject undone: 3 answers are back in the queue." in response.content.decode()
    for answer in Answer.objects.filter(pk__in=[a.pk for a in answers]):
        assert answer.status == "pending_review" and answer.lease_holder is None
    assert not Decision.objects.exists()
    assert AuditEvent.objects.filter(verb="answer.reject_undone").count() == 3


def test_bulk_reject_undo_after_the_window_is_refused(client, reviewer, make_answer, settings):
    answer = make_answer()
    client.force_login(reviewer)
    client.post("/review/bulk/reject/", {"answers": [answer.pk], "reason": "wrong"})
    session = client.session
    session["review_bulk_undo"]["until"] = 0
    session.save()

    response = client.post("/review/bulk/reject/undo/", follow=True)

    assert "Too late to undo" in response.content.decode()
    assert Answer.objects.get(pk=answer.pk).status == "rejected"


def test_bulk_reject_without_a_reason_or_ticks_is_refused_and_changes_nothing(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)

    no_reason = client.post("/review/bulk/reject/", {"answers": [answer.pk], "reason": "  "})
    no_ticks = client.post("/review/bulk/reject/", {"reason": "wrong"})

    assert no_reason.status_code == 400 and "Say why these answers are rejected" in no_reason.content.decode()
    assert no_ticks.status_code == 400 and "Tick the answers to reject first." in no_ticks.content.decode()
    assert Answer.objects.get(pk=answer.pk).status == "pending_review"


def test_bulk_assign_and_its_undo(client, reviewer, second_reviewer, make_user, make_answer):
    dora = make_user("dora", "reviewer")
    first, second, held = (make_answer(question=f"Q{n}?") for n in range(3))
    Assignment.objects.create(answer=first, assignee=dora, assigned_by=dora)
    _leased_to(held, dora)
    client.force_login(reviewer)

    response = client.post("/triage/bulk/assign/", {"answers": [first.pk, second.pk, held.pk],
                                                    "assignee": second_reviewer.pk}, follow=True)

    assert "Assigned 2 answers to rob." in response.content.decode()
    assert f"answer {held.pk} (dora is reviewing it)" in response.content.decode()
    assert dict(Assignment.objects.values_list("answer_id", "assignee__username")) == {
        first.pk: "rob", second.pk: "rob"}

    client.post("/triage/bulk/assign/undo/")

    assert dict(Assignment.objects.values_list("answer_id", "assignee__username")) == {first.pk: "dora"}


def test_every_waiting_row_can_be_ticked_and_the_count_names_the_rows(client, reviewer, make_answer):
    waiting = [make_answer(question=f"Q{n}?") for n in range(2)]
    make_answer(question="Done?", status="approved")
    client.force_login(reviewer)

    page = client.get("/review/").content.decode()

    for answer in waiting:
        assert f'name="answers" value="{answer.pk}" form="bulk"' in page
    assert "2 listed" in page


def test_the_bulk_actions_presence_and_search_speak_chinese(client, reviewer, second_reviewer, make_answer):
    answer = make_answer(question="出差可以报销什么？")
    reviewer.language = "zh-hans"
    reviewer.save(update_fields=["language"])
    client.force_login(second_reviewer)
    client.get(answer.get_absolute_url())  # rob is looking at it
    client.force_login(reviewer)

    page = client.get("/review/").content.decode()

    for words in ("搜索问题、回答和论断", "批量处理勾选的行", "拒绝勾选项", "拒绝勾选的 {count} 个回答？", "rob 正在查看",
                  "更多筛选", "共 1 条"):
        assert words in page, words
    for english in ("Act on ticked rows", "Reject ticked", "is looking at this", "Search questions"):
        assert english not in page, english
