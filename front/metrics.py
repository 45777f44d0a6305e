"""/metrics in Prometheus's text format (README "Metrics"): what every process of this machine counted
(console.metrics, added up from METRICS_DIR), and the console's state read when Prometheus scrapes, with the
dashboard's and /healthz's own selectors: the review queue per tier, answers by status and tier, decisions, the
leak estimate and its bound, webhooks given up, live workers.

Who may read it: nobody unless METRICS_ENABLED (404); a caller on this machine; anyone else with METRICS_TOKEN as
a bearer token (401 without a token, 403 with a wrong one or when no token is configured). The figures are counts,
never a question, an answer or a name.
"""

from __future__ import annotations

import hmac
import ipaddress
import os

import redis
from django.conf import settings
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from console.client_address import client_address
from console.workers import live_workers
from front.health import check_webhooks
from review.learning.selectors import leak_overview
from review.models import Answer, Decision
from review.selectors import review_queue_depth

PROXY_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP")


def _from_this_machine(request: HttpRequest) -> bool:
    """A loopback caller, as login lockout counts addresses (behind TRUSTED_PROXY_COUNT proxies, the client's). A
    request a proxy forwarded while none is configured as trusted came from elsewhere, whatever REMOTE_ADDR says: a
    reverse proxy on this machine would otherwise make every caller local."""
    if settings.TRUSTED_PROXY_COUNT == 0 and any(request.headers.get(name) for name in PROXY_HEADERS):
        return False
    try:
        return ipaddress.ip_address(client_address(request)).is_loopback
    except ValueError:  # no address (a Unix socket): nothing says the caller is on this machine
        return False


def metrics_refusal(request: HttpRequest) -> HttpResponse | None:
    """The error response for a caller who may not read /metrics, or None."""
    if not settings.METRICS_ENABLED:
        return JsonResponse({"error": "not_found", "detail": "metrics are off (METRICS_ENABLED)"}, status=404)
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():  # a token given must be the right one, from anywhere
        if settings.METRICS_TOKEN and hmac.compare_digest(token.strip().encode(), settings.METRICS_TOKEN.encode()):
            return None
        return JsonResponse({"error": "forbidden", "detail": "wrong metrics token"}, status=403)
    if _from_this_machine(request):
        return None
    if not settings.METRICS_TOKEN:
        return JsonResponse({"error": "forbidden", "detail": "only callers on this machine may read metrics "
                             "(set METRICS_TOKEN to let others in with it)"}, status=403)
    return JsonResponse({"error": "unauthorized", "detail": "send METRICS_TOKEN as a bearer token"}, status=401,
                        headers={"WWW-Authenticate": 'Bearer realm="metrics"'})


class ConsoleState(Collector):
    """Gauges read from the database and Redis at each scrape: production answers only (the Ask page's are a
    sandbox), as the dashboard counts them."""

    def collect(self):
        now = timezone.now()
        production = Answer.objects.filter(sandbox=False)

        depth = GaugeMetricFamily("console_review_queue_depth", "Answers waiting for review, per risk tier.",
                                  labels=["risk"])
        oldest = GaugeMetricFamily("console_review_queue_oldest_age_seconds",
                                   "How long the longest-waiting answer of each tier has waited (0: none waits).",
                                   labels=["risk"])
        sla = GaugeMetricFamily("console_review_sla_seconds", "How long an answer of each tier may wait for review "
                                "(REVIEW_SLA_*_MINUTES): the queue-age alert compares the oldest wait with it.",
                                labels=["risk"])
        for risk, tier in review_queue_depth(answers=production).items():
            depth.add_metric([risk], tier.waiting)
            oldest.add_metric([risk], (now - tier.oldest).total_seconds() if tier.oldest else 0.0)
            sla.add_metric([risk], 60 * settings.REVIEW_SLA_MINUTES[risk])
        yield depth
        yield oldest
        yield sla

        answers = GaugeMetricFamily("console_answers", "Answers received, per status and risk tier (\"none\": not "
                                    "scored yet).", labels=["status", "risk"])
        for status, risk, n in (production.order_by().values_list("status", "risk").annotate(n=Count("id"))):
            answers.add_metric([status, risk or "none"], n)
        yield answers

        # Decisions are append-only rows, so their count is a counter that survives restarts and agrees across
        # web processes (a few per minute at most: a cheap count).
        decisions = CounterMetricFamily("console_review_decisions", "Reviewers' decisions on production answers, "
                                        "per action.", labels=["action"])
        for action, n in (Decision.objects.filter(answer__sandbox=False).order_by().values_list("action")
                          .annotate(n=Count("id"))):
            decisions.add_metric([action], n)
        yield decisions

        yield from self._learning()

        webhooks = check_webhooks()
        yield GaugeMetricFamily("console_webhooks_failed", "Webhooks given up on after every attempt (the "
                                "dashboard's webhook failures).", value=webhooks["failed"])
        yield GaugeMetricFamily("console_webhooks_pending", "Webhooks waiting to be delivered.",
                                value=webhooks["backlog"])
        yield GaugeMetricFamily("console_webhook_oldest_pending_age_seconds", "How long the oldest undelivered "
                                "webhook has been due.", value=webhooks["oldest_seconds"])
        try:
            alive = len(live_workers())
        except redis.RedisError:  # nobody can tell: no sample (the alert on no workers fires on its absence too)
            return
        yield GaugeMetricFamily("console_workers_alive", "Celery workers whose heartbeat has not expired.",
                                value=alive)

    def _learning(self):
        """The release decision as the dashboard's card shows it: the adopted model's threshold, the leak budget,
        and (once the beat job worked them out) the estimate, its bound and the automation rate there."""
        overview = leak_overview()
        yield GaugeMetricFamily("console_leak_budget", "REVIEW_LEAK_BUDGET: the share of wrong answers that may go "
                                "out without a person.", value=overview.budget)
        yield GaugeMetricFamily("console_release_threshold", "The adopted scoring model's release threshold (1 or "
                                "more: nothing is released automatically).",
                                value=overview.model.release_threshold)
        estimate = overview.estimate
        for name, value, meaning in (
            ("console_leak_estimate", estimate and estimate.estimate, "Estimated share of wrong answers released "
             "unreviewed at the release threshold."),
            ("console_leak_bound", estimate and estimate.bound, "One-sided 95 % upper bound of the leak estimate."),
            ("console_automation_rate", estimate and estimate.automation, "Share of right answers released "
             "without review at the release threshold."),
        ):
            if value is not None:  # no estimate yet, or nothing to estimate from: no sample rather than a made-up 0
                yield GaugeMetricFamily(name, meaning, value=value)


def metrics_exposition() -> bytes:
    """Every process's counters and histograms (one process's own when metrics were off at start-up), then the
    state."""
    state = CollectorRegistry(auto_describe=False)
    state.register(ConsoleState())
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        counted = CollectorRegistry()
        MultiProcessCollector(counted)
    else:
        counted = REGISTRY
    return generate_latest(counted) + generate_latest(state)

