"""What a person or a program sees while the database or Redis is down: 503 with Retry-After, never a 500.

Django answers any exception a view or a middleware lets through with handler500. The database down (refused,
restarting, a connection cut mid-request) or Redis down is no fault of the console's and passes by itself
(`run_console` restarts both, see README "When something fails"): API paths answer the API's JSON error
`{"error": "unavailable", ...}` and UI pages a plain "try again shortly" page, both 503 with Retry-After.
The page is rendered without the request's context processors and layout: they read the database.
Nothing half-written is shown: a request's writes are in a transaction that did not commit, and an answer that
was accepted (202) was committed first, so a client retrying with its Idempotency-Key gets the same answer.
"""

from __future__ import annotations

import sys

import redis.exceptions
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views.defaults import server_error as django_server_error
from kombu.exceptions import OperationalError as BrokerError

from console.dispatch import socket_closed_under_it
from console.middleware import _is_api

OUTAGE_ERRORS = (OperationalError, InterfaceError, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
                 BrokerError)


# Options for a task whose work must survive an outage: met with the database (or Redis) down, it is sent again
# under its own id, which takes its claim back, after 2, 4, 8, 16, then every 30 s for about 20 minutes — its work
# is not marked failed for an outage, nor left to the stale sweeps.
OUTAGE_RETRY = {"autoretry_for": OUTAGE_ERRORS, "retry_backoff": 2, "retry_backoff_max": 30, "retry_jitter": False,
                "max_retries": 40}


def is_outage(exc: BaseException | None) -> bool:
    """Did the request fail because the database or Redis could not be reached (or went away during it)? Also
    redis-py's ValueError for a socket Redis closed during its connect handshake."""
    while exc is not None:
        if isinstance(exc, OUTAGE_ERRORS) or socket_closed_under_it(exc):
            return True
        exc = exc.__cause__
    return False


def outage_response(request: HttpRequest) -> HttpResponse:
    retry_after = str(settings.API_RETRY_AFTER_SECONDS)
    if _is_api(request):
        return JsonResponse({"error": "unavailable", "detail": "the database or the queue is unreachable; send the "
                             "request again shortly (with the same Idempotency-Key, if it had one)"},
                            status=503, headers={"Retry-After": retry_after})
    return HttpResponse(render_to_string("outage.html", {"retry_after": retry_after}), status=503,
                        headers={"Retry-After": retry_after})


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: an outage is a 503; any other error is a 500 — in the API's JSON shape on API paths."""
    exc = sys.exc_info()[1]
    if is_outage(exc):
        return outage_response(request)
    if _is_api(request):
        return JsonResponse({"error": "error", "detail": "internal server error"}, status=500)
    return django_server_error(request)
