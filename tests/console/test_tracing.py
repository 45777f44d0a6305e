"""OpenTelemetry traces: an answer's trace from POST /api/v1/answers through the worker's check to the webhook.

The instrumentation is the production path (console.tracing.tracing_setup, as ConsoleConfig.ready() calls it when
OTEL_EXPORTER_OTLP_ENDPOINT is set); only the exporter is the SDK's in-memory one instead of OTLP over HTTP. The web
(Django's test client) and the worker (the real Celery worker, threads of this process) write to it alike.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from console.tracing import tracing_setup, tracing_teardown
from tests.conftest import wait_scored
from tests.processes import ROOT

POLICY = "# Meals\n\nThe domestic per diem is $65 per day.\n"


@pytest.fixture
def spans():
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    tracing_setup(exporter=exporter)
    yield exporter
    tracing_teardown()


def _wait_for_span(exporter, name: str, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [span for span in exporter.get_finished_spans() if span.name == name]
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"no span {name!r} among {sorted({s.name for s in exporter.get_finished_spans()})}")


@pytest.mark.django_db(transaction=True)
def test_an_answers_trace_runs_from_the_api_through_the_worker_to_the_webhook(
    publish, celery_worker, receiver, release_at, settings, spans, api
):
    from opentelemetry.trace import SpanKind

    publish(POLICY, key="meals")
    release_at(0.6)
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0
    settings.REVIEW_HIGH_RISK_TOPICS = []
    spans.clear()

    response = api.post("/api/v1/answers", {"question": "Per diem?", "answer": "The domestic per diem is $65 per day.",
                                            "callback_url": receiver.url + "/hook"})
    assert response.status_code == 202
    answer = wait_scored(response.json()["id"])
    assert answer.status == "released", answer.routing_reasons
    (delivered,) = receiver.wait_for(1)
    _wait_for_span(spans, "run/review.tasks.webhook_deliver")

    finished = spans.get_finished_spans()
    (request,) = [s for s in finished
                  if s.kind == SpanKind.SERVER and s.attributes.get("http.route") == "api/v1/answers"]
    trace_id = request.context.trace_id
    in_trace = [s for s in finished if s.context.trace_id == trace_id]
    by_id = {s.context.span_id: s for s in in_trace}

    def ancestry(span) -> list[str]:
        names = []
        while span.parent is not None and span.parent.span_id in by_id:
            span = by_id[span.parent.span_id]
            names.append(span.name)
        return names

    def one(name: str, kind=None):
        found = [s for s in in_trace if s.name == name and (kind is None or s.kind == kind)]
        assert found, f"no {name!r} in the answer's trace: {sorted({s.name for s in in_trace})}"
        return found[0]

    # The web queued the scoring under its request; the worker's check and its search ran under that message.
    scoring = one("run/review.tasks.answer_score", SpanKind.CONSUMER)
    assert ancestry(scoring) == ["apply_async/review.tasks.answer_score", request.name]
    check = one("answer check")
    assert "run/review.tasks.answer_score" in ancestry(check)
    assert "answer check" in ancestry(one("knowledge base search"))
    # The worker's SQL is in the trace (psycopg), under the scoring task.
    assert any(s.kind == SpanKind.CLIENT and s.attributes.get("db.system") == "postgresql"
               and "run/review.tasks.answer_score" in ancestry(s) for s in in_trace)
    # Released, the scoring queued the webhook; its worker's POST (httpx) ends the trace and carries it on.
    (post,) = [s for s in in_trace if s.kind == SpanKind.CLIENT and s.name == "POST"]
    assert ancestry(post)[:3] == ["run/review.tasks.webhook_deliver", "apply_async/review.tasks.webhook_deliver",
                                  "run/review.tasks.answer_score"]
    assert ancestry(post)[-1] == request.name
    assert delivered["headers"]["traceparent"].split("-")[1] == f"{trace_id:032x}"


def test_tracing_is_off_without_an_endpoint_and_imports_none_of_it():
    """A process with no OTEL_EXPORTER_OTLP_ENDPOINT pays nothing for tracing: no instrumentation, no SDK tracing,
    no exporter imported, and the console's own spans are no-ops. (redis-py imports opentelemetry's API for its
    own optional observability: that is not ours to avoid.)"""
    code = ("import django, sys; django.setup(); "
            "from django.test import Client; Client().get('/healthz'); "
            "import contextlib, review.pipeline, kb.search; from console.tracing import traced; "
            "print(isinstance(traced('x'), contextlib.nullcontext), sorted(m for m in sys.modules if m.startswith("
            "('opentelemetry.instrumentation', 'opentelemetry.sdk.trace', 'opentelemetry.exporter'))))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env=_environment())

    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "True []"


def _environment() -> dict[str, str]:
    import os

    return {**{k: v for k, v in os.environ.items() if k != "OTEL_EXPORTER_OTLP_ENDPOINT"},
            "DJANGO_SETTINGS_MODULE": "config.settings"}
