"""Pages that compose the apps for people: the dashboard (the home page); /healthz for load balancers and /metrics
for Prometheus."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from front.dashboard import dashboard_data
from front.health import health_report
from front.metrics import metrics_exposition, metrics_refusal


@require_GET
@login_not_required
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    serving, report = health_report()
    status = "ok" if all(part["ok"] for part in report.values()) else "degraded"
    return JsonResponse({"status": status, **report}, status=200 if serving else 503)


@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "front/dashboard.html", dashboard_data(user=request.user))


@require_GET
@login_not_required
@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus's scrape (front/metrics.py says who may read it)."""
    refusal = metrics_refusal(request)
    if refusal is not None:
        return refusal
    return HttpResponse(metrics_exposition(), content_type=CONTENT_TYPE_LATEST)
