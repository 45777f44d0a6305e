"""Numbers and small charts for the dashboard: a constant handful of aggregate queries."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from statistics import median

from django.db.models import Count, Q
from django.db.models.functions import Coalesce, TruncDate
from django.http import HttpRequest
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

from ask import selectors as ask_selectors
from console import roles
from console.models import User
from kb.models import IndexState, VersionStatus
from kb.selectors import versions_awaiting_approval, versions_expiring_soon, versions_visible_to
from review.learning.selectors import leak_overview
from review.agreement import reviewer_agreement
from review.gold import gold_accuracy
from review.models import (
    AnswerStatus, Claim, ClaimReview, Decision, ErrorKind, Evidence, GoldItem, Verdict, WebhookState,
)
from review.selectors import answers_visible_to, review_queue, review_queue_depth, sources_to_fix_count

CHART_DAYS = 14
WINDOW_DAYS = 30
FINAL_ACTIONS = (Decision.Action.APPROVE, Decision.Action.EDIT, Decision.Action.REJECT)

# What a reviewer's claim mark says about the checker's verdict: the mark that overrules it.
OVERRULING_MARK = {
    Verdict.SUPPORTED: ClaimReview.REJECTED,
    Verdict.CONTRADICTED: ClaimReview.CONFIRMED,
    Verdict.NOT_FOUND: ClaimReview.CONFIRMED,
}


@dataclass
class Bar:
    label: str
    x: float
    segments: list[tuple[str, float, float, int]]  # (css class, y, height, value)
    total: int
    labelled: bool  # every other day carries its date under the bar


@dataclass
class ReviewerFigures:
    username: str
    decisions: int
    overrides: int
    median_minutes: float | None


@dataclass
class VerdictAgreement:
    verdict: str
    label: str
    reviewed: int
    confirmed: int
    rejected: int
    overruled: int | None  # None: the checker took no side (uncertain), so no mark overrules it

    @property
    def overruled_percent(self) -> int | None:
        return round(100 * self.overruled / self.reviewed) if self.overruled is not None and self.reviewed else None


# The answers chart: plot area and the margins that hold the axes' numbers and titles (SVG user units).
PLOT_LEFT, PLOT_TOP, PLOT_WIDTH, PLOT_HEIGHT = 40.0, 8.0, 520.0, 120.0


def _stacked_bars(rows: dict, *, days: list[date], keys: list[str]) -> dict:
    peak = max((sum(rows.get(day, {}).values()) for day in days), default=0) or 1
    step = PLOT_WIDTH / len(days)
    bottom = PLOT_TOP + PLOT_HEIGHT
    bars = []
    for index, day in enumerate(days):
        y = bottom
        segments = []
        for key in keys:
            value = rows.get(day, {}).get(key, 0)
            h = PLOT_HEIGHT * value / peak
            y -= h
            if value:
                segments.append((key, round(y, 1), round(h, 1), value))
        # Translators: a date format (Django's `date` filter letters) for the chart's days, e.g. "20 Nov".
        label = date_format(day, gettext("d M"))
        bars.append(Bar(label=label, x=round(PLOT_LEFT + index * step + 2, 1), segments=segments,
                        total=sum(rows.get(day, {}).values()), labelled=(len(days) - 1 - index) % 2 == 0))
    # Whole-number ticks only: 0, the peak and (when it is a whole number) half of it.
    values = sorted({0, peak, *([peak // 2] if peak % 2 == 0 and peak > 2 else [])})
    ticks = [(round(bottom - PLOT_HEIGHT * v / peak, 1), v) for v in values]
    return {
        "bars": bars, "bar_width": round(step - 4, 1), "ticks": ticks, "peak": peak,
        "left": PLOT_LEFT, "top": PLOT_TOP, "right": PLOT_LEFT + PLOT_WIDTH, "bottom": bottom,
        "mid_x": PLOT_LEFT + PLOT_WIDTH / 2, "mid_y": PLOT_TOP + PLOT_HEIGHT / 2,
        "width": PLOT_LEFT + PLOT_WIDTH + 8, "height": bottom + 36,
        "first": days[0], "last": days[-1],
    }


# The leak chart: two plots over the release threshold, the leak (estimate and bound) above, automation below.
LEAK_LEFT, LEAK_TOP, LEAK_WIDTH, LEAK_PLOT_HEIGHT, LEAK_GAP = 44.0, 8.0, 500.0, 90.0, 34.0


def _leak_chart(*, curve: list[dict], budget: float, threshold: float | None) -> dict | None:
    """Polylines of the leak estimate, its bound and the automation rate against the threshold, the budget as a
    line, and the threshold in force marked."""
    points = [p for p in curve if p["threshold"] <= 1.0]
    if len(points) < 2:
        return None
    low, high = points[0]["threshold"], points[-1]["threshold"]
    span = (high - low) or 1.0
    # The leak plot's scale: up to the largest bound shown, but never so low that the budget line sits at the top.
    leak_top = min(1.0, max(3 * budget, max(p["bound"] for p in points)))
    upper_bottom = LEAK_TOP + LEAK_PLOT_HEIGHT
    lower_top = upper_bottom + LEAK_GAP
    lower_bottom = lower_top + LEAK_PLOT_HEIGHT

    def x(value: float) -> float:
        return round(LEAK_LEFT + LEAK_WIDTH * (value - low) / span, 1)

    def leak_y(value: float) -> float:
        return round(upper_bottom - LEAK_PLOT_HEIGHT * min(value, leak_top) / leak_top, 1)

    def automation_y(value: float) -> float:
        return round(lower_bottom - LEAK_PLOT_HEIGHT * value, 1)

    def line(key: str, y) -> str:
        return " ".join(f"{x(p['threshold'])},{y(p[key])}" for p in points if p[key] is not None)

    marked = threshold if threshold is not None and low <= threshold <= high else None
    return {
        "estimate": line("estimate", leak_y), "bound": line("bound", leak_y),
        "automation": line("automation", automation_y),
        "budget_y": leak_y(budget), "leak_top": leak_top, "left": LEAK_LEFT, "right": LEAK_LEFT + LEAK_WIDTH,
        "upper_top": LEAK_TOP, "upper_bottom": upper_bottom, "lower_top": lower_top, "lower_bottom": lower_bottom,
        "threshold_x": None if marked is None else x(marked),
        "x_ticks": [(x(v), f"{v:.2f}") for v in (low, (low + high) / 2, high)],
        "width": LEAK_LEFT + LEAK_WIDTH + 10, "height": lower_bottom + 34, "mid_x": LEAK_LEFT + LEAK_WIDTH / 2,
    }


def _learning() -> dict:
    """The adopted model and the leak budget behind the release threshold (aggregates only: no answer's text)."""
    overview = leak_overview()
    estimate = overview.estimate
    chart = (_leak_chart(curve=estimate.curve, budget=overview.budget, threshold=estimate.threshold)
             if estimate else None)
    return {"leak": overview, "leak_chart": chart}


def _minutes(start, end) -> float:
    return (end - start).total_seconds() / 60


def _reviewer_figures(*, visible, since) -> list[ReviewerFigures]:
    """Final decisions per reviewer in the window, their overrides, and the median wait from queue to decision."""
    decisions = (
        Decision.objects.filter(created_at__gte=since, answer__in=visible, action__in=FINAL_ACTIONS)
        .values_list("reviewer__username", "overrides_checker", "created_at",
                     Coalesce("answer__scored_at", "answer__created_at"))
    )
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    waits: dict[str, list[float]] = defaultdict(list)
    for username, overrides, decided_at, queued_at in decisions:
        counts[username][0] += 1
        counts[username][1] += int(overrides)
        waits[username].append(_minutes(queued_at, decided_at))
    return sorted(
        (ReviewerFigures(username=name, decisions=n, overrides=o, median_minutes=median(waits[name]))
         for name, (n, o) in counts.items()),
        key=lambda row: (-row.decisions, row.username),
    )


def _agreement(*, visible, since) -> list[VerdictAgreement]:
    """For each checker verdict, how reviewers marked those claims: how often they overruled the checker."""
    marks = dict(
        ((verdict, state), n) for verdict, state, n in
        Claim.objects.filter(answer__in=visible, reviewed_at__gte=since).exclude(review_state=ClaimReview.OPEN)
        .values_list("verdict", "review_state").annotate(n=Count("id"))
    )
    rows = []
    for verdict, label in Verdict.choices:
        confirmed = marks.get((verdict, ClaimReview.CONFIRMED), 0)
        rejected = marks.get((verdict, ClaimReview.REJECTED), 0)
        overruling = OVERRULING_MARK.get(verdict)
        rows.append(VerdictAgreement(
            verdict=verdict, label=label, reviewed=confirmed + rejected, confirmed=confirmed, rejected=rejected,
            overruled=None if overruling is None else marks.get((verdict, overruling), 0),
        ))
    return rows


@dataclass
class WrongRow:
    key: str
    label: str
    claims: int


def _wrong_claims(*, visible, since) -> dict:
    """Claims reviewers marked wrong in the window: by why they are wrong, and by the source each rested on."""
    wrong = Claim.objects.filter(answer__in=visible, reviewed_at__gte=since, review_state=ClaimReview.REJECTED,
                                 from_edit=False)
    by_kind = dict(wrong.values_list("error_kind").annotate(n=Count("id")))
    kinds = [WrongRow(key=kind, label=str(label), claims=by_kind.get(kind, 0)) for kind, label in ErrorKind.choices]
    by_source = [
        WrongRow(key=key, label=title, claims=n) for key, title, n in
        Evidence.objects.filter(claim__in=wrong, rank=1, chunk__isnull=False)
        .values_list("chunk__version__document__key", "chunk__version__document__title")
        .annotate(n=Count("claim", distinct=True)).order_by("-n", "chunk__version__document__title")[:8]
    ]
    return {"wrong_total": sum(by_kind.values()), "wrong_by_kind": kinds, "wrong_unsaid": by_kind.get("", 0),
            "wrong_by_source": by_source}


def _calibration(*, user: User, visible, since) -> dict:
    """For leads only (approvers, admins): agreement between reviewers on double-reviewed claims, and each
    reviewer's accuracy on gold items. Everyone else gets no such figures (None: the card is not shown)."""
    if not user.has_role(roles.APPROVER):
        return {"calibration": None}
    copies = answers_visible_to(user).filter(gold_copy_of__isnull=False)
    return {"calibration": {"agreement": reviewer_agreement(answers=visible, since=since),
                            "gold": gold_accuracy(answers=copies),
                            "gold_items": GoldItem.objects.filter(retired_at__isnull=True).count()}}


def _today_outcomes(*, visible, today: date) -> dict[str, int]:
    """Today's answers by what went out: the answer itself, the fallback text, or nothing at all."""
    sent_today = visible.filter(released_at__date=today)
    rejected = Q(status=AnswerStatus.REJECTED)
    return sent_today.aggregate(
        auto_released=Count("id", filter=Q(status=AnswerStatus.RELEASED)),
        approved=Count("id", filter=Q(status=AnswerStatus.APPROVED)),
        fallback=Count("id", filter=rejected & ~Q(released_text="")),
        rejected_silent=Count("id", filter=rejected & Q(released_text="")),
    )


def _sandbox_figures(*, user: User, today: date) -> dict[str, int]:
    """The Ask page's answers (people trying questions), apart from production: asked and sent today, waiting."""
    sandbox = answers_visible_to(user).filter(sandbox=True)
    return sandbox.aggregate(
        asked_today=Count("id", filter=Q(created_at__date=today)),
        released_today=Count("id", filter=Q(released_at__date=today, status__in=[AnswerStatus.RELEASED,
                                                                                  AnswerStatus.APPROVED])),
        waiting=Count("id", filter=Q(status=AnswerStatus.PENDING_REVIEW)),
    )


def dashboard_data(*, user: User) -> dict:
    now = timezone.now()
    today = timezone.localdate()
    # Production figures: what applications sent. The Ask page's answers are counted apart (_sandbox_figures).
    # Gold items' calibration copies are no production answers either: never sent, they measure reviewers.
    visible = answers_visible_to(user).filter(sandbox=False, gold_copy_of__isnull=True)
    versions = versions_visible_to(user)
    pending = visible.filter(status=AnswerStatus.PENDING_REVIEW)
    queue = review_queue_depth(answers=visible)
    depth = {risk: tier.waiting for risk, tier in queue.items()}
    oldest = min((tier.oldest for tier in queue.values() if tier.oldest), default=None)
    overdue = review_queue(user=user, overdue=True).filter(sandbox=False).count()

    since = now - timedelta(days=WINDOW_DAYS)
    decisions = Decision.objects.filter(created_at__gte=since, answer__in=visible, action__in=FINAL_ACTIONS)
    by_action = dict(decisions.values_list("action").annotate(n=Count("id")))
    finals = sum(by_action.values())
    sent = by_action.get(Decision.Action.APPROVE, 0) + by_action.get(Decision.Action.EDIT, 0)
    overrides = decisions.filter(overrides_checker=True).count()
    reviewers = _reviewer_figures(visible=visible, since=since)
    waits = [
        _minutes(queued_at, decided_at)
        for decided_at, queued_at in visible.filter(decided_at__gte=since)
        .values_list("decided_at", Coalesce("scored_at", "created_at"))
    ]
    outcomes = _today_outcomes(visible=visible, today=today)

    first_day = today - timedelta(days=CHART_DAYS - 1)
    per_day: dict = {}
    for day, risk, n in (
        visible.filter(created_at__date__gte=first_day).annotate(day=TruncDate("created_at"))
        .values_list("day", "risk").annotate(n=Count("id"))
    ):
        per_day.setdefault(day, {})[risk or "scoring"] = n
    days = [first_day + timedelta(days=i) for i in range(CHART_DAYS)]

    return {
        "depth": depth,
        "pending_total": sum(depth.values()),
        "escalated": pending.filter(escalated=True).count(),
        "oldest": oldest,
        "overdue": overdue,
        "released_today": outcomes["auto_released"] + outcomes["approved"],
        "auto_released_today": outcomes["auto_released"],
        "approved_today": outcomes["approved"],
        "fallback_today": outcomes["fallback"],
        "rejected_silent_today": outcomes["rejected_silent"],
        "decisions_today": Decision.objects.filter(created_at__date=today, answer__in=visible).count(),
        "today": today,
        "window_days": WINDOW_DAYS,
        "final_decisions": finals,
        "approval_rate": sent / finals if finals else None,
        "overrides": overrides,
        "override_rate": overrides / finals if finals else None,
        "median_minutes_to_decision": median(waits) if waits else None,
        "reviewers": reviewers,
        "agreement": _agreement(visible=visible, since=since),
        "webhook_failed": visible.filter(webhook_state=WebhookState.FAILED).count(),
        "pending_approvals": versions.filter(status=VersionStatus.PENDING_APPROVAL).count(),
        "awaiting_approval": (
            list(versions_awaiting_approval(user=user)[:10]) if user.has_role(roles.APPROVER) else []
        ),
        "expiring": list(versions_expiring_soon(user=user)[:8]),
        "expiring_documents": versions_expiring_soon(user=user).values("document").distinct().count(),
        "index_jobs": list(
            versions.filter(index_state__in=[IndexState.QUEUED, IndexState.INDEXING])
            .select_related("document").order_by("created_at")[:8]
        ),
        "index_failed": versions.filter(index_state=IndexState.FAILED).count(),
        "chart": _stacked_bars(per_day, days=days, keys=["high", "medium", "low", "scoring"]),
        "sandbox": _sandbox_figures(user=user, today=today),
        "depth_max": max(depth.values(), default=0) or 1,
        **_question_sets(user=user),
        **_wrong_claims(visible=visible, since=since),
        **_calibration(user=user, visible=visible, since=since),
        **_learning(),
    }


def _question_sets(*, user: User) -> dict:
    """The saved question sets' latest runs, for those who may read runs (None: the card is not shown)."""
    if not user.has_role(*ask_selectors.RUN_READERS):
        return {"question_sets": None}
    statuses = ask_selectors.question_sets_status(user=user)
    worse = sum(len(s.last_done.regressions) for s in statuses if s.last_done)
    return {"question_sets": statuses, "question_sets_worse": worse}


def approvals_context(request: HttpRequest) -> dict[str, object]:
    """The nav's "To approve" count: versions waiting for this approver. Lazy: counted only when a page with
    the nav renders (htmx partials never ask), and only for approvers."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_role(roles.APPROVER):
        return {"approvals_waiting": 0}
    return {"approvals_waiting": SimpleLazyObject(lambda: versions_awaiting_approval(user=user).count())}


def sources_to_fix_context(request: HttpRequest) -> dict[str, object]:
    """The nav's "Sources to fix" count: entries reviewers left on this user's documents. Lazy, like the above."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"sources_to_fix_waiting": 0}
    return {"sources_to_fix_waiting": SimpleLazyObject(lambda: sources_to_fix_count(user=user))}
