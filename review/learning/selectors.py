"""Reads for learning: what the dashboard shows of the adopted model and the leak budget."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from review.learning.adopted import adopted_checker
from review.learning.leak import NOTHING_RELEASED
from review.learning.models import CheckerModel, LeakEstimate, ReviewLabel


@dataclass(frozen=True)
class LeakOverview:
    model: CheckerModel
    estimate: LeakEstimate | None  # None until the beat job first works it out for this model
    budget: float
    labels: int
    learning: bool  # REVIEW_LEARNING: the job refits on reviewers' labels
    last_attempt: CheckerModel | None  # the newest refit, adopted or refused (None: none yet)

    @property
    def budget_percent(self) -> str:
        return f"{100 * self.budget:g} %"

    @property
    def releases_nothing(self) -> bool:
        return self.model.release_threshold >= NOTHING_RELEASED


def leak_overview() -> LeakOverview:
    model = CheckerModel.objects.select_related("adopted_by").get(pk=adopted_checker().model_id)
    last_attempt = (CheckerModel.objects.exclude(origin=CheckerModel.Origin.SHIPPED)
                    .order_by("-created_at", "-pk").first())
    return LeakOverview(model=model, estimate=model.leak_estimates.order_by("-computed_at", "-pk").first(),
                        budget=settings.REVIEW_LEAK_BUDGET, labels=ReviewLabel.objects.count(),
                        learning=settings.REVIEW_LEARNING, last_attempt=last_attempt)
