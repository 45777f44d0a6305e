"""Schemathesis against the API's own OpenAPI schema, in process through WSGI, with a valid bearer token:
valid and invalid requests generated from the schema never get a 5xx, and responses match the schema.

Reproducible: derandomized, no example database. /v1/check and /v1/search run on the real worker (both embed
text there); the answers operations need none (answers are stored but, inside the test's transaction, no scoring
task is sent). /v1/ask runs beside them on the worker. 1,110 requests in all."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance, response_schema_conformance, status_code_conformance,
)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
WITHOUT_WORKER = {"POST /api/v1/answers": 400, "GET /api/v1/answers/{answer_id}": 300}
ON_WORKER = {"POST /api/v1/check": 200, "GET /api/v1/search": 150,  # both embed text on the worker
             "POST /api/v1/ask": 60}  # embeds and checks; its answers are scored there too


@pytest.fixture
def api_schema(db, settings):
    """The schema served by the app, bound to the app itself. Like Django's test client, requests keep the test's
    database connection (its transaction), so close_old_connections is off while the test runs."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    settings.ALLOWED_HOSTS = ["localhost"]  # the WSGI client's Host
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/openapi.json", WSGIHandler())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _operations(schema, wanted: dict[str, int]):
    operations = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.label in wanted:
            operations[operation.label] = operation
    assert set(operations) == set(wanted), f"the schema lacks {set(wanted) - set(operations)}"
    return operations


def _fuzz(schema, wanted: dict[str, int], token: str) -> dict[str, dict[int, int]]:
    """Run each operation for its number of examples, half valid and half invalid; statuses seen per operation."""
    seen: dict[str, dict[int, int]] = {}
    for label, operation in _operations(schema, wanted).items():
        statuses = seen.setdefault(label, {})
        strategy = st.one_of(operation.as_strategy(GenerationMode.POSITIVE),
                             operation.as_strategy(GenerationMode.NEGATIVE))

        @hypothesis_settings(max_examples=wanted[label], derandomize=True, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck), phases=["explicit", "generate"])
        @given(case=strategy)
        def run(case) -> None:
            response = case.call(headers={"Authorization": f"Bearer {token}"})
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            case.validate_response(response, checks=CHECKS)

        run()
    return seen


def test_fuzzed_requests_never_get_a_server_error(api_schema, api_token):
    _, token = api_token

    seen = _fuzz(api_schema, WITHOUT_WORKER, token)

    for label, minimum in WITHOUT_WORKER.items():
        assert sum(seen[label].values()) >= minimum
        assert not [status for status in seen[label] if status >= 500]
    assert seen["POST /api/v1/answers"].get(202), "no generated answer was accepted: the fuzzing stayed shallow"
    assert seen["POST /api/v1/answers"].get(400)


def test_fuzzed_checks_and_searches_never_get_a_server_error(api_schema, api_token, celery_worker, settings):
    settings.API_CHECK_TIMEOUT = 120  # a busy shared machine must not turn a slow check into a 503 here
    _, token = api_token

    seen = _fuzz(api_schema, ON_WORKER, token)

    for label, minimum in ON_WORKER.items():
        assert sum(seen[label].values()) >= minimum
        assert not [status for status in seen[label] if status >= 500]
        assert seen[label].get(200), f"no generated request to {label} ran on the worker"
