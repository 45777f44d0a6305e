"""Prometheus metrics counted where things happen: requests per view, checks, searches, webhook attempts, and the
Celery tasks of each worker (README "Metrics").

Web processes (gunicorn runs several) and Celery workers (a prefork pool: several processes again) each count
their own. With METRICS_ENABLED the settings point prometheus-client's multiprocess mode at METRICS_DIR: every
process writes its values into memory-mapped files of its own there, and /metrics (front.metrics) adds up the
files of every process on the machine, the worker's among them. The mode is chosen when prometheus_client is
first imported, so this module reads the settings before importing it.

What the database already keeps (queue depth, decisions, the leak estimate) or Redis (live workers) is read when
/metrics is scraped (front.metrics), not counted here.
"""

from __future__ import annotations

import time

from celery import signals
from django.conf import settings
from django.http import HttpRequest, HttpResponse

# Loads the settings, which set PROMETHEUS_MULTIPROC_DIR when metrics are on, before prometheus_client is imported.
settings.METRICS_ENABLED  # noqa: B018
from prometheus_client import Counter, Histogram  # noqa: E402

KNOWN_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

REQUEST_SECONDS = Histogram(
    "console_http_request_duration_seconds", "Time to answer a request, per view (its URL name) and method.",
    ["view", "method"], buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
REQUESTS = Counter("console_http_requests", "Requests answered, per view, method and status code.",
                   ["view", "method", "status"])
CHECK_SECONDS = Histogram(
    "console_check_duration_seconds", "Time to check an answer against the knowledge base (claims, evidence, "
    "scores), wherever it runs: scoring on a worker, /api/v1/check, Ask.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
SEARCH_SECONDS = Histogram(
    "console_search_duration_seconds", "Time of one hybrid search (full text and vectors) of the knowledge base.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
WEBHOOK_ATTEMPTS = Counter("console_webhook_attempts", "Webhook delivery attempts, per outcome (delivered: the "
                           "receiver answered 2xx; failed: anything else, retried until WEBHOOK_MAX_ATTEMPTS).",
                           ["outcome"])
TASK_SECONDS = Histogram(
    "console_celery_task_duration_seconds", "Time a Celery task ran on a worker, per task and final state.",
    ["task", "state"], buckets=(0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900),
)


def view_label(request: HttpRequest) -> str:
    """The URL's name, or its route (bounded, unlike paths with ids in them); "unmatched" for a path no URL
    matched."""
    match = getattr(request, "resolver_match", None)
    return (match.view_name or match.route or "unnamed") if match is not None else "unmatched"


class RequestMetricsMiddleware:
    """Times every request and counts its status, per view. First in MIDDLEWARE: the time includes the rest."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        view = view_label(request)
        method = request.method if request.method in KNOWN_METHODS else "other"
        REQUEST_SECONDS.labels(view=view, method=method).observe(time.perf_counter() - started)
        REQUESTS.labels(view=view, method=method, status=str(response.status_code)).inc()
        return response


# Celery task durations, recorded in the process that runs the task (a pool process under prefork).
_task_started: dict[str, float] = {}


@signals.task_prerun.connect
def _task_start(task_id: str = "", **kwargs) -> None:
    _task_started[task_id] = time.perf_counter()


@signals.task_postrun.connect
def _task_end(task_id: str = "", task=None, state: str | None = None, **kwargs) -> None:
    started = _task_started.pop(task_id, None)
    if started is not None and task is not None:
        TASK_SECONDS.labels(task=task.name, state=state or "UNKNOWN").observe(time.perf_counter() - started)


def metrics_dir_empty() -> None:
    """Forget the files of processes gone before this start: the multiprocess mode expects an empty directory when
    the processes it adds up start (run_console empties it before starting web and worker)."""
    for path in settings.METRICS_DIR.glob("*.db"):
        path.unlink(missing_ok=True)
