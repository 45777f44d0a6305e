"""OpenTelemetry traces (README "Tracing"): off unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and then opentelemetry's
official instrumentations follow a request through Django, the Celery tasks it queues (the trace context travels
in the task message's headers), their SQL (psycopg) and outbound HTTP (httpx: webhooks, checker and model
endpoints). An answer's trace runs from POST /api/v1/answers through the worker's scoring (the check and its
searches as spans of their own, `traced`) to the webhook, whose request carries the trace on (traceparent).

Nothing of opentelemetry is imported while tracing is off: `traced` is then a no-op.
"""

from __future__ import annotations

import os
from contextlib import AbstractContextManager, nullcontext

DEFAULT_SERVICE_NAME = "grounded-review-console"


class _Tracing:
    """What tracing_setup set up: the provider every instrumentation writes to, the console's own tracer, and the
    instrumentors (so tracing_teardown can take them off again)."""

    provider = None
    tracer = None
    instrumentors: list = []


def tracing_setup(*, exporter=None) -> None:
    """Instrument Django, Celery, psycopg and httpx in this process. Spans go to `exporter` as each ends (a test's
    in-memory exporter), by default in batches to the OTLP/HTTP endpoint of the OTEL_EXPORTER_OTLP_ENDPOINT setting
    (the exporter reads it and the other OTEL_EXPORTER_OTLP_* variables itself). Called by the console's
    AppConfig.ready(), before Django builds its middleware, in every web and worker process."""
    from opentelemetry import trace
    from opentelemetry.instrumentation.celery import CeleryInstrumentor
    from opentelemetry.instrumentation.django import DjangoInstrumentor
    from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor
    from opentelemetry.instrumentation.psycopg import PsycopgInstrumentor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    if _Tracing.provider is not None:
        return
    # OTEL_SERVICE_NAME (and OTEL_RESOURCE_ATTRIBUTES) win when set; the SDK's default name is "unknown_service".
    resource = Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME") or DEFAULT_SERVICE_NAME})
    provider = TracerProvider(resource=resource)
    if exporter is None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        # The batch's export thread starts again in each process a gunicorn master or Celery worker forks.
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    else:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)  # for any other library that traces; set once per process
    instrumentors = [DjangoInstrumentor(), CeleryInstrumentor(), PsycopgInstrumentor(), HTTPXClientInstrumentor()]
    for instrumentor in instrumentors:
        instrumentor.instrument(tracer_provider=provider)
    _Tracing.provider, _Tracing.tracer, _Tracing.instrumentors = provider, provider.get_tracer(__name__), instrumentors


def tracing_teardown() -> None:
    """Take the instrumentations off and flush what is left (a test that set tracing up for itself)."""
    for instrumentor in _Tracing.instrumentors:
        instrumentor.uninstrument()
    if _Tracing.provider is not None:
        _Tracing.provider.shutdown()
    _Tracing.provider, _Tracing.tracer, _Tracing.instrumentors = None, None, []


def traced(name: str, **attributes: str | int | float | bool) -> AbstractContextManager:
    """A span of the console's own around a step worth seeing in a trace (an answer's check, a search); nothing at
    all while tracing is off."""
    if _Tracing.tracer is None:
        return nullcontext()
    return _Tracing.tracer.start_as_current_span(name, attributes=attributes or None)
