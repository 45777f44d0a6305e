"""Work claimed by a worker that is gone — no heartbeat, or restarted since it took the work — goes back to the
queue at once (console/work_claims.py), once, and only when Redis can say which workers are alive."""

from datetime import UTC, datetime, timedelta

import psutil
import pytest
from django.utils import timezone

from console.work_claims import lost_claims_release
from console.workers import forget_worker, record_worker_heartbeat
from tests.processes import wait_until


@pytest.fixture
def restarted_worker():
    """A worker named "again@box" whose running process is this one: (its name, when the process started). Its
    heartbeat names this process, so the start is the process's own (an earlier one would read as a pid reused)."""
    started = psutil.Process().create_time()
    record_worker_heartbeat(hostname="again@box", started=started)
    yield "again@box", started
    forget_worker(hostname="again@box")


def _claimed_answer(make_answer, *, worker: str, claimed_at, **fields):
    from review.models import Answer

    answer = make_answer(status="scoring")
    Answer.objects.filter(pk=answer.pk).update(scoring_worker=worker, scoring_started_at=claimed_at,
                                               scoring_task_id=f"task-{answer.pk}", **fields)
    return answer


def test_an_answer_claimed_by_a_worker_without_heartbeat_is_scored_at_once_by_a_live_one(
        celery_worker, api_token):
    from review.models import Answer

    client, _ = api_token
    answer = Answer.objects.create(client=client, question="What is the hotel cap?", status="scoring",
                                   text="The nightly hotel cap is $220 in London.", scoring_worker="gone@box",
                                   scoring_started_at=timezone.now(), scoring_task_id="lost-task")

    assert lost_claims_release() == 1
    assert lost_claims_release() == 0  # handed back once: the second sweep finds it unclaimed or claimed anew

    def scored():
        answer.refresh_from_db()
        return answer.status != "scoring"

    wait_until(scored, timeout=60, what="the handed-back answer to be scored")
    assert answer.scoring_worker == celery_worker.hostname  # the live worker's claim names it, as in its heartbeat


def test_claims_from_before_the_worker_restarted_are_handed_back_and_its_current_claims_kept(
        db, make_answer, restarted_worker):
    from review.models import Answer

    worker, started = restarted_worker
    now = timezone.now()
    before_restart = _claimed_answer(make_answer, worker=worker,
                                     claimed_at=datetime.fromtimestamp(started - 30, tz=UTC))
    current = _claimed_answer(make_answer, worker=worker, claimed_at=now)

    assert lost_claims_release() == 1

    before_restart.refresh_from_db()
    current.refresh_from_db()
    assert (before_restart.scoring_worker, before_restart.scoring_started_at, before_restart.scoring_task_id) == (
        "", None, "")
    assert before_restart.scoring_requested_at >= now
    assert (current.scoring_worker, current.scoring_task_id) == (worker, f"task-{current.pk}")
    assert Answer.objects.get(pk=current.pk).scoring_started_at == now


def test_nothing_is_handed_back_while_redis_cannot_say_which_workers_live(db, make_answer, settings):
    answer = _claimed_answer(make_answer, worker="gone@box", claimed_at=timezone.now())
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    assert lost_claims_release() == 0

    answer.refresh_from_db()
    assert answer.scoring_worker == "gone@box" and answer.scoring_task_id == f"task-{answer.pk}"


def test_a_webhook_attempt_of_a_dead_worker_is_sent_again_now_and_arrives_once(
        celery_worker, make_answer, receiver):
    from review.models import Answer

    answer = make_answer(status="released", callback_url=receiver.url + "/hook")
    now = timezone.now()
    Answer.objects.filter(pk=answer.pk).update(
        webhook_state="pending", webhook_attempts=1, webhook_worker="gone@box", webhook_claimed_at=now,
        webhook_next_attempt_at=now + timedelta(seconds=40))  # its lease would hold it back 40 s

    assert lost_claims_release() == 1

    def delivered():
        answer.refresh_from_db()
        return answer.webhook_state == "delivered"

    wait_until(delivered, timeout=30, what="the webhook handed back to be delivered")
    assert [request["path"] for request in receiver.requests] == ["/hook"]
    assert answer.webhook_attempts == 2 and answer.webhook_worker == ""


def test_an_indexing_job_of_a_dead_worker_is_queued_again_with_an_audit_event(db, curator):
    from console.models import AuditEvent
    from kb import services
    from kb.models import DocumentVersion

    document = services.document_create(key="handbook", title="Handbook", owner=curator,
                                        security_level="internal", created_by=curator)
    version = services.version_upload(document=document, raw=b"# H\n\nText.", filename="h.md", uploaded_by=curator)
    DocumentVersion.objects.filter(pk=version.pk).update(
        index_state="indexing", index_worker="gone@box", index_task_id="lost-task", index_done=3, index_total=9,
        index_heartbeat_at=timezone.now())

    assert lost_claims_release() == 1
    assert lost_claims_release() == 0

    version.refresh_from_db()
    assert (version.index_state, version.index_worker, version.index_task_id, version.index_done) == (
        "queued", "", "", 0)
    assert AuditEvent.objects.filter(verb="version.index_retry", object_id=str(version.pk)).count() == 1


def test_a_question_run_of_a_dead_worker_is_queued_again(db, restarted_worker):
    from ask.models import QuestionRun, QuestionSet

    question_set = QuestionSet.objects.create(name="Travel", slug="travel", source_filename="travel.jsonl",
                                              clearance="internal")
    worker, started = restarted_worker
    run = QuestionRun.objects.create(question_set=question_set, clearance="internal", state="running",
                                     task_id="lost-task", worker=worker,  # taken before the worker's restart
                                     started_at=datetime.fromtimestamp(started - 120, tz=UTC))

    assert lost_claims_release() == 1

    run.refresh_from_db()
    assert (run.state, run.worker, run.task_id, run.started_at) == ("queued", "", "", None)
