"""Numbers and small charts for the dashboard: a constant handful of aggregate queries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from statistics import median

from django.db.models import Count
from django.db.models.functions import TruncDate
from django.utils import timezone

from kb.models import IndexState
from kb.selectors import versions_expiring_soon, versions_visible_to
from review.models import AnswerStatus, Decision, Risk
from review.selectors import answers_visible_to, review_queue

CHART_DAYS = 14


@dataclass
class Bar:
    label: str
    x: float
    segments: list[tuple[str, float, float, int]]  # (css class, y, height, value)
    total: int


def _stacked_bars(rows: dict, *, days: list, keys: list[str], height: float = 120.0, width: float = 560.0):
    peak = max((sum(rows.get(day, {}).values()) for day in days), default=0) or 1
    step = width / len(days)
    bars = []
    for index, day in enumerate(days):
        y = height
        segments = []
        for key in keys:
            value = rows.get(day, {}).get(key, 0)
            h = height * value / peak
            y -= h
            if value:
                segments.append((key, round(y, 1), round(h, 1), value))
        bars.append(Bar(label=day.strftime("%d %b"), x=round(index * step + 2, 1), segments=segments,
                        total=sum(rows.get(day, {}).values())))
    return {"bars": bars, "bar_width": round(step - 4, 1), "height": height, "width": width, "peak": peak}


def dashboard_data(*, user) -> dict:
    now = timezone.now()
    today = timezone.localdate()
    visible = answers_visible_to(user)
    versions = versions_visible_to(user)
    pending = visible.filter(status=AnswerStatus.PENDING_REVIEW)
    depth = dict(pending.values_list("risk").annotate(n=Count("id")))
    oldest = pending.order_by("created_at").values_list("created_at", flat=True).first()
    overdue = review_queue(user=user, overdue=True).count()

    since = now - timedelta(days=30)
    decisions = Decision.objects.filter(created_at__gte=since, answer__in=visible)
    by_action = dict(decisions.values_list("action").annotate(n=Count("id")))
    decided = by_action.get(Decision.Action.APPROVE, 0) + by_action.get(Decision.Action.EDIT, 0)
    finals = decided + by_action.get(Decision.Action.REJECT, 0)
    overrides = decisions.filter(overrides_checker=True).count()
    waits = [
        (decided_at - created_at).total_seconds() / 60
        for decided_at, created_at in visible.filter(decided_at__gte=since).values_list("decided_at", "created_at")
    ]

    first_day = today - timedelta(days=CHART_DAYS - 1)
    per_day: dict = {}
    for day, risk, n in (
        visible.filter(created_at__date__gte=first_day).annotate(day=TruncDate("created_at"))
        .values_list("day", "risk").annotate(n=Count("id"))
    ):
        per_day.setdefault(day, {})[risk or "scoring"] = n
    days = [first_day + timedelta(days=i) for i in range(CHART_DAYS)]

    return {
        "depth": {risk: depth.get(risk, 0) for risk in (Risk.HIGH, Risk.MEDIUM, Risk.LOW)},
        "pending_total": sum(depth.values()),
        "escalated": pending.filter(escalated=True).count(),
        "oldest": oldest,
        "overdue": overdue,
        "released_today": visible.filter(released_at__date=today).count(),
        "auto_released_today": visible.filter(released_at__date=today, status=AnswerStatus.RELEASED).count(),
        "reviewed_today": Decision.objects.filter(created_at__date=today, answer__in=visible).count(),
        "approval_rate": decided / finals if finals else None,
        "override_rate": overrides / sum(by_action.values()) if by_action else None,
        "median_minutes_to_decision": median(waits) if waits else None,
        "expiring": list(versions_expiring_soon(user=user)[:8]),
        "index_jobs": list(
            versions.filter(index_state__in=[IndexState.QUEUED, IndexState.INDEXING])
            .select_related("document").order_by("created_at")[:8]
        ),
        "index_failed": versions.filter(index_state=IndexState.FAILED).count(),
        "chart": _stacked_bars(per_day, days=days, keys=["high", "medium", "low", "scoring"]),
        "depth_max": max(depth.values(), default=0) or 1,
    }
