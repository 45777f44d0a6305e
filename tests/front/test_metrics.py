"""/metrics: who may read it, and what it counts (the real Prometheus scraping it: test_prometheus.py)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from review.models import Answer
from tests.conftest import wait_scored

REMOTE = "203.0.113.9"
TOKEN = "metrics-token-for-tests-0123456789"


def samples(response) -> dict[tuple[str, frozenset], float]:
    """{(sample name, its labels): value} of an exposition."""
    assert response.status_code == 200, response.content[:300]
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.content.decode())
            for sample in family.samples}


def value(found: dict, name: str, **labels) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


@pytest.mark.django_db
def test_metrics_are_off_unless_enabled(client, settings):
    settings.METRICS_ENABLED = False

    response = client.get("/metrics")

    assert response.status_code == 404
    assert b"console_" not in response.content


@pytest.mark.django_db
def test_a_caller_on_this_machine_reads_metrics_without_a_token(client, settings):
    settings.METRICS_TOKEN = TOKEN

    response = client.get("/metrics")  # the test client's REMOTE_ADDR is 127.0.0.1

    assert response["Content-Type"].startswith("text/plain; version=")
    assert ("console_review_queue_depth", frozenset({("risk", "high")})) in samples(response)


@pytest.mark.django_db
def test_another_address_needs_the_token_and_never_sees_the_figures_without_it(client, settings):
    settings.METRICS_TOKEN = TOKEN

    missing = client.get("/metrics", REMOTE_ADDR=REMOTE)
    wrong = client.get("/metrics", REMOTE_ADDR=REMOTE, headers={"Authorization": "Bearer not-the-token"})
    right = client.get("/metrics", REMOTE_ADDR=REMOTE, headers={"Authorization": f"Bearer {TOKEN}"})

    assert (missing.status_code, missing["WWW-Authenticate"]) == (401, 'Bearer realm="metrics"')
    assert wrong.status_code == 403
    assert b"console_" not in missing.content + wrong.content
    assert ("console_review_queue_depth", frozenset({("risk", "low")})) in samples(right)


@pytest.mark.django_db
def test_without_a_configured_token_only_this_machine_is_served(client, settings):
    settings.METRICS_TOKEN = ""

    response = client.get("/metrics", REMOTE_ADDR=REMOTE, headers={"Authorization": "Bearer "})

    assert response.status_code == 403
    assert "METRICS_TOKEN" in response.json()["detail"]


@pytest.mark.django_db
def test_a_request_forwarded_by_a_proxy_on_this_machine_is_not_local(client, settings):
    settings.METRICS_TOKEN = TOKEN

    response = client.get("/metrics", HTTP_X_FORWARDED_FOR=REMOTE)  # REMOTE_ADDR: the proxy, 127.0.0.1

    assert response.status_code == 401
    assert b"console_" not in response.content


@pytest.mark.django_db
def test_queue_depth_and_oldest_age_per_tier_match_the_dashboard(client, admin_user, make_answer):
    for risk in ("high", "medium", "medium", "low"):
        make_answer(risk=risk)
    make_answer(risk="high", status="released")  # not waiting
    sandbox = make_answer(risk="high")
    Answer.objects.filter(pk=sandbox.pk).update(sandbox=True)  # the Ask page's: counted apart
    oldest = make_answer(risk="medium")
    Answer.objects.filter(pk=oldest.pk).update(created_at=timezone.now() - timedelta(hours=2))

    found = samples(client.get("/metrics"))
    client.force_login(admin_user)
    dashboard = client.get("/").context

    depth = {risk: value(found, "console_review_queue_depth", risk=risk) for risk in ("high", "medium", "low")}
    assert depth == {"high": 1, "medium": 3, "low": 1} == dashboard["depth"]
    assert 7190 < value(found, "console_review_queue_oldest_age_seconds", risk="medium") < 7300
    assert value(found, "console_review_queue_oldest_age_seconds", risk="low") < 60
    assert value(found, "console_answers", status="pending_review", risk="medium") == 3
    assert value(found, "console_answers", status="released", risk="high") == 1


@pytest.mark.django_db
def test_the_release_decision_is_the_dashboards(client, admin_user):
    from review.learning.selectors import leak_overview

    found = samples(client.get("/metrics"))
    overview = leak_overview()

    assert value(found, "console_leak_budget") == overview.budget
    assert value(found, "console_release_threshold") == pytest.approx(overview.model.release_threshold)


@pytest.mark.django_db
def test_requests_are_counted_and_timed_per_view(client):
    before = samples(client.get("/metrics"))

    client.get("/healthz")
    client.get("/no-such-page/")

    after = samples(client.get("/metrics"))
    counted = {"view": "healthz", "method": "GET"}
    assert value(after, "console_http_requests_total", **counted, status=str(200)) + value(
        after, "console_http_requests_total", **counted, status="503") == value(
        before, "console_http_requests_total", **counted, status="200") + value(
        before, "console_http_requests_total", **counted, status="503") + 1
    assert value(after, "console_http_request_duration_seconds_count", **counted) == value(
        before, "console_http_request_duration_seconds_count", **counted) + 1
    unmatched = {"view": "unmatched", "method": "GET"}
    assert value(after, "console_http_requests_total", **unmatched, status="302") + value(
        after, "console_http_requests_total", **unmatched, status="404") > value(
        before, "console_http_requests_total", **unmatched, status="302") + value(
        before, "console_http_requests_total", **unmatched, status="404")


@pytest.mark.django_db
def test_decisions_are_counted_per_action(client, reviewer, make_answer):
    answer = make_answer(risk="high", claims=[("B is 4.", "contradicted", 0.2)])
    before = samples(client.get("/metrics"))
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")

    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "reject"})

    after = samples(client.get("/metrics"))
    assert value(after, "console_review_decisions_total", action="reject") == value(
        before, "console_review_decisions_total", action="reject") + 1
    assert value(after, "console_review_decisions_total", action="approve") == value(
        before, "console_review_decisions_total", action="approve")


def test_the_worker_records_its_tasks_checks_and_webhooks_for_the_web_to_serve(
    api, client, celery_worker, publish, receiver, release_at, settings
):
    """The worker counts in its own process in production (a prefork pool process): what it records reaches
    /metrics only through the multiprocess directory, which this run uses as production does."""
    import os

    assert os.environ.get("PROMETHEUS_MULTIPROC_DIR") == str(settings.METRICS_DIR)
    publish("# Meals\n\nThe domestic per diem is $65 per day.\n", key="meals")
    release_at(0.6)
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0
    settings.REVIEW_HIGH_RISK_TOPICS = []
    before = samples(client.get("/metrics"))
    scored = {"task": "review.tasks.answer_score", "state": "SUCCESS"}

    response = api.post("/api/v1/answers", {"question": "Per diem?", "answer": "The domestic per diem is $65 per day.",
                                            "callback_url": receiver.url + "/hook"})
    answer = wait_scored(response.json()["id"])
    receiver.wait_for(1)
    delivered = {"outcome": "delivered"}
    deadline = time.monotonic() + 15  # the attempt is counted once the worker has the receiver's answer
    while True:
        after = samples(client.get("/metrics"))
        # The task's duration is counted when the worker has finished it (after the answer is stored): wait for both.
        if ((value(after, "console_webhook_attempts_total", **delivered) > value(
                before, "console_webhook_attempts_total", **delivered)
             and value(after, "console_celery_task_duration_seconds_count", **scored) > value(
                before, "console_celery_task_duration_seconds_count", **scored)) or time.monotonic() > deadline):
            break
        time.sleep(0.1)

    assert answer.status == "released", answer.routing_reasons
    assert value(after, "console_celery_task_duration_seconds_count", **scored) == value(
        before, "console_celery_task_duration_seconds_count", **scored) + 1
    assert value(after, "console_check_duration_seconds_count") == value(
        before, "console_check_duration_seconds_count") + 1
    searches = "console_search_duration_seconds_count"
    assert value(after, searches) > value(before, searches)
    assert value(after, "console_webhook_attempts_total", **delivered) == value(
        before, "console_webhook_attempts_total", **delivered) + 1


def test_metrics_are_off_by_default_and_nothing_is_written_to_disk():
    """A process started without METRICS_ENABLED serves no /metrics and keeps its counts in memory only."""
    import os
    import subprocess
    import sys

    from tests.processes import ROOT

    environment = {k: v for k, v in os.environ.items()
                   if k not in {"METRICS_ENABLED", "METRICS_DIR", "PROMETHEUS_MULTIPROC_DIR"}}
    code = ("import django, os; django.setup(); from django.conf import settings; from django.test import Client; "
            "import prometheus_client.values as v; "
            "print(settings.METRICS_ENABLED, Client().get('/metrics').status_code, "
            "'PROMETHEUS_MULTIPROC_DIR' in os.environ, v.ValueClass is v.MutexValue)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**environment, "DJANGO_SETTINGS_MODULE": "config.settings",
                                 "ALLOWED_HOSTS": "testserver"})

    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "False 404 False True"
