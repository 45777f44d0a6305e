"""The receiver has taken a webhook, and then the worker (SIGKILL) or the database (every connection cut, none
allowed for a few seconds) is lost before the console records the outcome. The console cannot know the POST
arrived, so it posts again — under the same `webhook-id`, so the receiver can drop the repeat, and within 30 s of
the fault ending, not after a lease or a sweep. The lost attempt stays in the delivery log, marked as such."""

import os
import signal
import time

import psycopg
from psycopg.conninfo import make_conninfo
import pytest
from django.db import connection

from review.models import Answer
from tests.processes import database_url, stop, wait_until, worker_heartbeats

pytestmark = pytest.mark.django_db(transaction=True)

REPEAT_WITHIN = 30  # seconds from the fault's end: the promise
DATABASE_DOWN_FOR = 6  # seconds


def _released_with_webhook(make_answer, reviewer_web, hook: str) -> Answer:
    answer = make_answer(question="Refund window?", callback_url=hook,
                         claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    response = reviewer_web.post(f"/review/answers/{answer.pk}/decide/",
                                 {"action": "approve", "reason": "checked against the contract"})
    assert response.status_code == 302
    return answer


def _headers(request: dict) -> dict:
    return {name.lower(): value for name, value in request["headers"].items()}


def _assert_one_event_delivered(answer: Answer, receiver, stack, *, recovered_at: float) -> None:
    def delivered():
        answer.refresh_from_db()
        return answer.webhook_state == "delivered"

    wait_until(delivered, timeout=REPEAT_WITHIN + 30, what=lambda: f"webhook {answer.webhook_state}\n{stack.logs()}")
    assert len(receiver.requests) == 2, [_headers(r) for r in receiver.requests]
    first, repeat = receiver.requests
    assert _headers(first)["webhook-id"] == _headers(repeat)["webhook-id"]
    assert first["body"] == repeat["body"]
    assert repeat["at"] - recovered_at <= REPEAT_WITHIN
    log = list(answer.deliveries.order_by("attempt").values_list("attempt", "sending", "delivered", "error"))
    assert [row[:3] for row in log] == [(1, False, False), (2, False, True)]
    assert log[0][3].startswith("outcome not recorded")


def test_a_worker_killed_after_the_receivers_200_makes_one_repeat_with_the_same_webhook_id(
        stack, web_session, reviewer, make_answer, receiver):
    worker = stack.processes["worker"]
    main_pid = worker_heartbeats(stack.redis.url)[stack.worker_name]

    def kill_the_worker() -> None:  # the receiver has the webhook; the worker dies before it hears back
        os.killpg(worker.pid, signal.SIGSTOP)
        os.kill(main_pid, signal.SIGKILL)
        stop(worker, grace=0)

    receiver.before_reply.append(kill_the_worker)
    try:
        answer = _released_with_webhook(make_answer, web_session(reviewer), receiver.url + "/hook")
        wait_until(lambda: worker.poll() is not None, timeout=60, what=lambda: "the webhook\n" + stack.logs())
    finally:
        stack.start_process("worker")  # as run_console's supervisor does, under the same name

    def worker_back():
        return worker_heartbeats(stack.redis.url).get(stack.worker_name) not in {None, main_pid}

    wait_until(worker_back, timeout=90, what=lambda: "the worker to start again\n" + stack.logs())
    _assert_one_event_delivered(answer, receiver, stack, recovered_at=time.monotonic())


def test_the_database_lost_after_the_receivers_200_makes_one_repeat_with_the_same_webhook_id(
        stack, web_session, reviewer, make_answer, receiver):
    name = connection.settings_dict["NAME"]
    own_pid = connection.cursor().connection.info.backend_pid  # this test's connection stays: it reads the outcome
    # From the maintenance database: PostgreSQL will not close the database a session is connected to.
    admin = psycopg.connect(make_conninfo(database_url(), dbname="postgres"), autocommit=True)

    def cut_the_database() -> None:  # the receiver has the webhook; every console connection dies before the record
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                      "AND pid <> pg_backend_pid() AND pid <> %s", [name, own_pid])

    receiver.before_reply.append(cut_the_database)
    try:
        answer = _released_with_webhook(make_answer, web_session(reviewer), receiver.url + "/hook")
        receiver.wait_for(1, timeout=60)
        assert receiver.requests, "no webhook was sent\n" + stack.logs()
        time.sleep(DATABASE_DOWN_FOR)
        assert len(receiver.requests) == 1  # nothing can be taken while the database refuses connections
    finally:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        admin.close()
    _assert_one_event_delivered(answer, receiver, stack, recovered_at=time.monotonic())
