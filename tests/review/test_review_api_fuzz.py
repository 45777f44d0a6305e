"""Schemathesis against the review API's part of the OpenAPI schema, in process, with a reviewer's personal token
(and some answers to find): valid and invalid requests generated from the schema never get a 5xx, and every
response is one the schema documents. Reproducible: derandomized, no example database. No worker runs: an edit
that got as far as its re-check would be a documented 503 after API_CHECK_TIMEOUT."""

from __future__ import annotations

from tests.review.test_api_fuzz import _fuzz, api_schema  # noqa: F401  (the schema fixture, shared)

REVIEW_ROUTES = {
    "GET /api/v1/review/queue": 150, "POST /api/v1/review/next": 40, "GET /api/v1/review/answers/{answer_id}": 60,
    "POST /api/v1/review/answers/{answer_id}/lease": 40, "DELETE /api/v1/review/answers/{answer_id}/lease": 30,
    "POST /api/v1/review/answers/{answer_id}/lease/release": 20,
    "POST /api/v1/review/answers/{answer_id}/decision": 150, "POST /api/v1/review/answers/{answer_id}/undo": 30,
    "GET /api/v1/review/answers/{answer_id}/comments": 30, "POST /api/v1/review/answers/{answer_id}/comments": 60,
    "POST /api/v1/review/answers/{answer_id}/assignment": 60,
}


def test_fuzzed_review_requests_never_get_a_server_error(request, person_token, reviewer, make_answer, settings):
    schema = request.getfixturevalue("api_schema")
    settings.API_CHECK_TIMEOUT = 1.0
    for risk in ("high", "medium", "low"):
        make_answer(risk=risk, claims=[("Refunds take 14 days.", "uncertain", 0.5), ("Shipping is free.",
                                                                                   "contradicted", 0.2)])

    seen = _fuzz(schema, REVIEW_ROUTES, person_token(reviewer))

    for label, minimum in REVIEW_ROUTES.items():
        assert sum(seen[label].values()) >= minimum, label
        assert not [status for status in seen[label] if status >= 500], (label, seen[label])
    assert seen["GET /api/v1/review/queue"].get(200), "no generated queue request was served"
    assert seen["POST /api/v1/review/answers/{answer_id}/decision"].get(400)
