import time
from datetime import timedelta

import pytest
from django.utils import timezone

from console.workers import live_workers, record_worker_heartbeat


def _empty_redis_db(settings) -> None:
    """A Redis database no worker writes heartbeats to (the session worker writes to the test one)."""
    settings.REDIS_URL = settings.REDIS_URL.rsplit("/", 1)[0] + "/15"
    import redis

    redis.Redis.from_url(settings.REDIS_URL).flushdb()


def test_healthz_lists_the_live_worker_by_name(client, celery_worker):
    # The real worker's own heartbeat step writes its key when it starts and then every few seconds.
    deadline = time.monotonic() + 15
    while celery_worker.hostname not in live_workers() and time.monotonic() < deadline:
        time.sleep(0.1)

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] and body["redis"]["ok"] and body["worker"]["ok"]
    assert celery_worker.hostname in body["worker"]["live"]
    assert body["index_jobs"]["stalled"] == [] and body["scoring"]["queued"] == 0 and body["webhooks"]["backlog"] == 0


@pytest.mark.django_db
def test_healthz_is_503_when_redis_is_unreachable(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["redis"]["ok"] is False
    assert body["database"]["ok"] is True


@pytest.mark.django_db
def test_healthz_reports_worker_down_without_heartbeat(client, settings):
    _empty_redis_db(settings)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["worker"]["detail"] == "no heartbeat from any worker"
    assert response.json()["worker"]["live"] == []


@pytest.mark.django_db
def test_healthz_names_every_worker_with_a_heartbeat(client, settings):
    _empty_redis_db(settings)
    record_worker_heartbeat(hostname="alpha@box1")
    record_worker_heartbeat(hostname="beta@box2")

    body = client.get("/healthz").json()

    assert body["worker"]["live"] == ["alpha@box1", "beta@box2"]
    assert body["worker"]["detail"] == "2 live"


@pytest.mark.django_db
def test_a_heartbeat_expires_after_the_max_age(client, settings):
    _empty_redis_db(settings)
    settings.WORKER_HEARTBEAT_MAX_AGE = 1
    record_worker_heartbeat(hostname="gone@box")
    assert live_workers() == ["gone@box"]

    time.sleep(1.5)

    assert client.get("/healthz").json()["worker"]["live"] == []


def _version(curator, *, key: str):
    from kb import services

    document = services.document_create(key=key, title=key, owner=curator, security_level="internal",
                                        created_by=curator)
    return services.version_upload(document=document, raw=b"# T\n\nText.", filename="t.md", uploaded_by=curator)


@pytest.mark.django_db
def test_healthz_reports_stalled_index_jobs_without_titles(client, settings, curator):
    from kb.models import DocumentVersion, IndexState

    _empty_redis_db(settings)
    record_worker_heartbeat(hostname="w@box")
    settings.KB_INDEX_STALE_MINUTES = 10
    now = timezone.now()
    stuck = _version(curator, key="secret-plan")
    DocumentVersion.objects.filter(pk=stuck.pk).update(index_state=IndexState.INDEXING,
                                                       index_heartbeat_at=now - timedelta(minutes=11))
    waiting = _version(curator, key="waiting")
    DocumentVersion.objects.filter(pk=waiting.pk).update(index_state=IndexState.QUEUED, index_heartbeat_at=None,
                                                         index_requested_at=now - timedelta(minutes=2))
    busy = _version(curator, key="busy")
    DocumentVersion.objects.filter(pk=busy.pk).update(index_state=IndexState.INDEXING,
                                                      index_heartbeat_at=now - timedelta(minutes=3))
    _version(curator, key="just-uploaded")  # queued seconds ago: not stalled

    response = client.get("/healthz")

    assert response.status_code == 200  # stuck work degrades, it does not take the web out of rotation
    body = response.json()
    assert body["status"] == "degraded"
    assert body["index_jobs"]["ok"] is False
    assert [(job["version"], job["state"]) for job in body["index_jobs"]["stalled"]] == [
        (stuck.pk, "indexing"), (waiting.pk, "queued")]
    assert "secret-plan" not in response.content.decode()


@pytest.mark.django_db
def test_healthz_reports_the_oldest_answer_waiting_to_be_scored(client, settings, make_answer):
    from review.models import Answer

    _empty_redis_db(settings)
    record_worker_heartbeat(hostname="w@box")
    old = make_answer(status="scoring")
    Answer.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(minutes=7))
    make_answer(status="scoring")
    make_answer(status="pending_review")

    body = client.get("/healthz").json()

    assert body["scoring"]["queued"] == 2
    assert 7 * 60 <= body["scoring"]["oldest_queued_seconds"] < 8 * 60
    assert body["scoring"]["ok"] is False and body["status"] == "degraded"
    assert body["scoring"]["oldest_answer"] == old.pk
    assert body["scoring"]["detail"].startswith(f"answer {old.pk} waiting ")


@pytest.mark.django_db
def test_healthz_is_degraded_once_work_waits_longer_than_the_setting(client, settings, make_answer):
    from review.models import Answer

    _empty_redis_db(settings)
    record_worker_heartbeat(hostname="w@box")
    settings.HEALTH_WORK_WAIT_WARN_SECONDS = 60
    waiting = make_answer(status="scoring")
    Answer.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(seconds=30))
    assert client.get("/healthz").json()["status"] == "ok"

    Answer.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(seconds=90))
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["scoring"]["oldest_answer"] == waiting.pk


@pytest.mark.django_db
def test_healthz_counts_webhooks_waiting_for_delivery_and_those_given_up(client, settings, make_answer):
    from review.models import Answer

    _empty_redis_db(settings)
    record_worker_heartbeat(hostname="w@box")
    hook = "https://hooks.example.com/in"
    late = make_answer(status="released", callback_url=hook)
    Answer.objects.filter(pk=late.pk).update(webhook_state="pending",
                                             released_at=timezone.now() - timedelta(minutes=6))
    just_decided = make_answer(status="rejected", callback_url=hook)
    Answer.objects.filter(pk=just_decided.pk).update(webhook_state="pending", released_at=timezone.now())
    delivered = make_answer(status="approved", callback_url=hook)
    Answer.objects.filter(pk=delivered.pk).update(webhook_state="delivered")
    given_up = make_answer(status="approved", callback_url=hook)
    Answer.objects.filter(pk=given_up.pk).update(webhook_state="failed")
    make_answer(status="released")  # no callback URL

    body = client.get("/healthz").json()

    assert body["webhooks"]["backlog"] == 2
    assert body["webhooks"]["failed"] == 1
    assert 6 * 60 <= body["webhooks"]["oldest_seconds"] < 7 * 60
    assert body["webhooks"]["ok"] is False
    assert body["webhooks"]["oldest_answer"] == late.pk


def _heartbeat_of(pid: int, *, machine: str, started: float) -> None:
    import json

    import redis
    from django.conf import settings

    from console.workers import HEARTBEAT_PREFIX

    value = {"at": time.time(), "pid": pid, "started": started, "machine": machine}
    redis.Redis.from_url(settings.REDIS_URL).set(HEARTBEAT_PREFIX + "dead@box", json.dumps(value), ex=90)


@pytest.mark.django_db
def test_healthz_reports_a_worker_whose_process_died_before_its_heartbeat_expires(client, settings):
    import subprocess
    import sys

    from console.workers import this_machine

    _empty_redis_db(settings)
    started = time.time()
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True)
    _heartbeat_of(int(finished.stdout), machine=this_machine(), started=started)

    response = client.get("/healthz")

    assert response.status_code == 503
    worker = response.json()["worker"]
    assert worker["live"] == [] and worker["gone"] == ["dead@box"]
    assert worker["detail"] == "no live worker; process gone: dead@box"


@pytest.mark.django_db
def test_a_heartbeat_from_another_machine_lives_until_it_expires(client, settings):
    import os

    _empty_redis_db(settings)
    # A pid that exists nowhere here means nothing about a process on another machine.
    _heartbeat_of(os.getpid() + 10_000_000, machine="elsewhere pid:[1]", started=time.time())

    assert client.get("/healthz").json()["worker"]["live"] == ["dead@box"]
