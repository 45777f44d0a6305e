import time

import pytest
import redis

from console.health import HEARTBEAT_KEY
from console.tasks import worker_heartbeat


def test_healthz_reports_all_parts_ok_with_a_live_worker(client, celery_worker, settings):
    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.delete(HEARTBEAT_KEY)

    # The heartbeat is a real task, carried by Redis and executed by the real worker.
    worker_heartbeat.delay()
    deadline = time.monotonic() + 15
    while broker.get(HEARTBEAT_KEY) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] and body["redis"]["ok"] and body["worker"]["ok"]


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
    redis.Redis.from_url(settings.REDIS_URL).delete(HEARTBEAT_KEY)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["worker"]["detail"] == "no heartbeat from any worker"
