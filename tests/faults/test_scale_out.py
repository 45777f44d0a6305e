"""Worker processes on one database and broker share 50 answers, none is scored twice, and workers killed
with SIGKILL while busy lose none: the one left scores the rest, and what the killed ones held comes back.

Everything runs as real processes — a gunicorn web process and `celery -A config worker`s — on the test
database and a Redis database of this test's own, so the session's in-process worker takes no part.
"""

import os
import re
import signal

import httpx
from django.db.models import Count

from tests.processes import BIN, free_port, own_redis_url, process_environment, start, stop, wait_until, \
    worker_heartbeats

ANSWERS = 50
WARM_UP = 10  # answers posted before the workers are killed
# A few sentences each, so that every worker is busy when two of them are killed.
ANSWER_TEXT = ("Refunds are paid within {n} days. The hotel cap in London is £220 per night. "
               "Meals are covered up to £45 a day. Taxis need a receipt. Trains go in standard class. "
               "Claims are filed within {n} weeks.")


def _scored(log) -> int:
    """Scoring tasks this worker finished (before any redelivery, each one scored an answer)."""
    return len(re.findall(r"Task review\.tasks\.answer_score\[[^\]]+\] succeeded", log.read_text(errors="replace")))


def test_two_workers_share_the_answers_and_a_killed_one_loses_none(transactional_db, tmp_path):
    from console.models import AuditEvent
    from review.models import Answer, AnswerStatus, Claim
    from review.services import api_client_create

    _, token = api_client_create(name="assistant", clearance="internal")
    redis_url = own_redis_url(3)
    env = process_environment(redis_url=redis_url, var_dir=tmp_path, CELERY_VISIBILITY_TIMEOUT="60")
    port = free_port()
    processes = {"web": start([str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}",
                               "--workers", "1", "--threads", "4"], env=env, log=tmp_path / "web.log")}
    logs = {}

    def start_worker(name: str) -> None:
        logs[name] = tmp_path / f"{name}.log"
        processes[name] = start([str(BIN / "celery"), "-A", "config", "worker", "-n", f"{name}@%h",
                                 "--concurrency", "1", "--loglevel", "INFO", "--without-mingle"],
                                env=env, log=logs[name])

    def scored_answers() -> int:
        return Answer.objects.exclude(status=AnswerStatus.SCORING).count()

    try:
        for name in ("first", "second", "third"):
            start_worker(name)
        beats = wait_until(lambda: len(worker_heartbeats(redis_url)) == 3 and worker_heartbeats(redis_url),
                           timeout=60, what="three workers", log=logs["third"])
        wait_until(lambda: _web_is_up(port), timeout=30, what="the web process", log=tmp_path / "web.log")
        health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()
        assert [name.split("@")[0] for name in health["worker"]["live"]] == ["first", "second", "third"]

        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30,
                          headers={"Authorization": f"Bearer {token}"}) as api:
            def post(n: int) -> None:
                response = api.post("/api/v1/answers", headers={"Idempotency-Key": f"scale-{n}"},
                                    json={"question": f"Question {n}?", "answer": ANSWER_TEXT.format(n=n + 2)})
                assert response.status_code == 202, response.text

            # A first batch until every worker has taken part (and loaded its model) ...
            for n in range(WARM_UP):
                post(n)
            wait_until(lambda: all(_scored(log) for log in logs.values()), timeout=90,
                       what="every worker to score", log=logs["first"])
            # ... then the rest, killing two workers while answers are still arriving, so both die with work left.
            for n in range(WARM_UP, ANSWERS):
                post(n)
                if n == (WARM_UP + ANSWERS) // 2:
                    os.kill(_pid_of(beats, "first"), signal.SIGKILL)
                    killed_first_at = scored_answers()
            os.kill(_pid_of(beats, "second"), signal.SIGKILL)
            killed_second_at = scored_answers()

        # A task a killed worker had taken comes back after the visibility timeout (60 s here).
        wait_until(lambda: scored_answers() == ANSWERS, timeout=120, what="every answer scored", log=logs["third"])
    finally:
        for process in processes.values():
            stop(process, grace=10)

    assert killed_first_at <= killed_second_at < ANSWERS  # each kill happened with work left
    scorings = AuditEvent.objects.filter(verb="answer.score").values("object_id").annotate(n=Count("id"))
    assert len(scorings) == ANSWERS and {row["n"] for row in scorings} == {1}
    duplicated_claims = (Claim.objects.values("answer_id", "ordinal").annotate(n=Count("id")).filter(n__gt=1))
    assert not duplicated_claims.exists()


def _web_is_up(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _pid_of(beats: dict[str, int], worker: str) -> int:
    (pid,) = [pid for name, pid in beats.items() if name.startswith(f"{worker}@")]
    return pid
