"""Writes for learning: the leak estimate, the learning job, adoption and rollback — each step audited."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, replace

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from console.audit import audit_record
from checking.model import ScoringModel
from checking.training import shipped_rows
from checking.verdicts import supported_at
from review.learning import leak, refit
from review.learning.adopted import adopted_checker, digest_of
from review.models import Answer, AnswerStatus, ReviewedFact
from review.learning.models import CheckerModel, LeakEstimate, ReviewLabel
from review.signals import checker_model_changed

logger = logging.getLogger(__name__)


class LearningError(Exception):
    """Nothing to roll back to, or nothing to learn from."""


def _usable_labels() -> list[ReviewLabel]:
    return [label for label in ReviewLabel.objects.select_related("answer", "claim__reviewed_fact").order_by("pk")
            if refit.feature_row_complete(label.features)]


def _score_under(model: ScoringModel, label: ReviewLabel) -> float:
    """The label's claim as `model` scores it; a claim supported by review passes at any threshold (reviewed facts
    release it whatever it scores), so its wrong answers count as released at every one."""
    fact = label.claim.reviewed_fact
    if fact is not None and fact.outcome == ReviewedFact.Outcome.CONFIRMED:
        return 1.0
    return refit.score(model, label.features)


def labels_for_refit() -> list[refit.Label]:
    return [refit.Label(features=label.features, supported=label.supported, weight=label.weight,
                        held_by_rule=label.held_by_rule) for label in _usable_labels()]


def labelled_answers(*, model: ScoringModel) -> list[leak.LabelledAnswer]:
    """Each labelled answer with its claims' scores under `model`: wrong if any claim was labelled unsupported."""
    by_answer: dict[int, list[ReviewLabel]] = defaultdict(list)
    for label in _usable_labels():
        by_answer[label.answer_id].append(label)
    return [
        leak.LabelledAnswer(scores=tuple(_score_under(model, label) for label in labels),
                            supported=all(label.supported for label in labels),
                            audit_sample=labels[0].answer.sampled_for_audit,
                            held_by_rule=labels[0].held_by_rule)
        for labels in by_answer.values()
    ]


def released_unaudited_count() -> int:
    """Answers released without review that nobody audited: the stratum the audit samples stand for. All of them,
    not only those since labels began: more released answers only widen the bound."""
    return Answer.objects.filter(status=AnswerStatus.RELEASED, decided_by__isnull=True,
                                 sampled_for_audit=False).count()


@dataclass(frozen=True)
class LeakUpdate:
    estimate: LeakEstimate
    policy: leak.LeakPolicy
    moved_from: float | None  # the threshold before, when this update moved it


@transaction.atomic
def leak_estimate_update() -> LeakUpdate:
    """Work out the leak budget for the current model from every label so far; move its release threshold when
    the labels prove one (or show that none keeps within the budget). A new row only when something changed."""
    adopted = adopted_checker()
    current = CheckerModel.objects.select_for_update().get(pk=adopted.model_id)
    answers = labelled_answers(model=adopted.model)
    policy = leak.leak_policy(answers, budget=settings.REVIEW_LEAK_BUDGET, floor=supported_at(),
                              current=current.release_threshold, released_unaudited=released_unaudited_count())
    threshold = {leak.PROVEN: policy.threshold, leak.EXCEEDED: leak.NOTHING_RELEASED}.get(policy.status,
                                                                                     current.release_threshold)
    latest = current.leak_estimates.order_by("-computed_at", "-pk").first()
    unchanged = latest is not None and (
        latest.labelled_answers, latest.released_unaudited, latest.budget, latest.status, latest.threshold,
    ) == (policy.labelled_answers, policy.released_unaudited, policy.budget, policy.status, policy.threshold)
    if unchanged:
        return LeakUpdate(estimate=latest, policy=policy, moved_from=None)
    at = policy.at
    estimate = LeakEstimate.objects.create(
        checker_model=current, status=policy.status, budget=policy.budget, threshold=policy.threshold,
        estimate=at.estimate if at else None, bound=at.bound if at else None,
        automation=at.automation if at else None, wrong_reviewed=policy.wrong_reviewed, audited=policy.audited,
        released_unaudited=policy.released_unaudited, labelled_answers=policy.labelled_answers,
        curve=[p.as_dict() for p in policy.curve],
    )
    moved_from = None
    if abs(threshold - current.release_threshold) > 1e-9:
        moved_from = current.release_threshold
        current.release_threshold = threshold
        current.save(update_fields=["release_threshold"])
        audit_record(verb="checker_model.release_threshold", obj=current, actor_label="leak budget",
                     before={"release_threshold": moved_from},
                     after={"release_threshold": threshold, "status": policy.status, "budget": policy.budget,
                            "bound": at.bound if at else None})
    return LeakUpdate(estimate=estimate, policy=policy, moved_from=moved_from)


def labels_since_last_fit() -> int:
    last = CheckerModel.objects.exclude(origin=CheckerModel.Origin.SHIPPED).order_by("-created_at", "-pk").first()
    labels = ReviewLabel.objects.all()
    return labels.filter(created_at__gt=last.created_at).count() if last else labels.count()


def refit_for_current(*, seed: int = 0) -> tuple[CheckerModel, refit.RefitOutcome]:
    """The current model and what a refit on every label would do to it (nothing written)."""
    adopted = adopted_checker()
    current = CheckerModel.objects.get(pk=adopted.model_id)
    outcome = refit.refit_decide(
        labels=labels_for_refit(), base=shipped_rows(), current=adopted.model,
        current_threshold=current.release_threshold, band=supported_at(),
        l2=float(adopted.model.about.get("l2", 10.0)), budget=settings.REVIEW_LEAK_BUDGET,
        folds=settings.REVIEW_LEARNING_FOLDS, seed=seed,
        margin=settings.REVIEW_LEARNING_MARGIN, min_labels=settings.REVIEW_LEARNING_MIN_LABELS,
        label_weights=settings.REVIEW_LEARNING_LABEL_WEIGHTS,
    )
    return current, outcome


@dataclass(frozen=True)
class LearningResult:
    outcome: refit.RefitOutcome
    model: CheckerModel | None  # the candidate's row (adopted or refused); None when too few labels


@transaction.atomic
def checker_learning_run(*, origin: str, actor=None, actor_label: str = "", seed: int = 0) -> LearningResult:
    """Fit the candidates on the shipped training sets plus every label, cross-validated on the labels; keep the
    best as a row, adopted if it passes the guard, refused (with the reason) otherwise."""
    CheckerModel.objects.select_for_update().filter(is_current=True).first()  # one learning run at a time
    current, outcome = refit_for_current(seed=seed)
    label = actor_label or ("learning job" if actor is None else "")
    if outcome.candidate is None:
        logger.info("learning: %s", outcome.reason)
        audit_record(verb="checker_model.refit_skipped", obj=current, actor=actor, actor_label=label,
                     note=outcome.reason)
        return LearningResult(outcome=outcome, model=None)
    candidate = outcome.candidate
    model = replace(candidate.model, about={"family": candidate.family, "based_on": current.pk,
                                            "l2": float(candidate.model.about.get("l2", 10.0)),
                                            "refit": outcome.figures()})
    text = model.as_json()
    row = CheckerModel.objects.create(
        origin=origin, model_json=text, digest=digest_of(text), shipped_digest=current.shipped_digest,
        family=candidate.family, release_threshold=candidate.release_threshold, figures=outcome.figures(),
        labels_used=outcome.labels, refusal="" if outcome.adopt else outcome.reason,
    )
    if outcome.adopt:
        checker_model_adopt(model=row, actor=actor, actor_label=label, note=outcome.reason)
    else:
        audit_record(verb="checker_model.refuse", obj=row, actor=actor, actor_label=label, note=outcome.reason,
                     after={"family": candidate.family, "labels": outcome.labels})
    return LearningResult(outcome=outcome, model=row)


def checker_model_adopt(*, model: CheckerModel, actor=None, actor_label: str = "", note: str = "") -> CheckerModel:
    """Make `model` current (the caller is in a transaction); review.signals.checker_model_changed follows."""
    current = CheckerModel.objects.select_for_update().filter(is_current=True).first()
    if current is not None:
        CheckerModel.objects.filter(pk=current.pk).update(is_current=False)
    model.is_current, model.replaced, model.rolled_back_at = True, current, None
    model.adopted_at, model.adopted_by, model.adopted_label = timezone.now(), actor, actor_label
    model.save(update_fields=["is_current", "replaced", "rolled_back_at", "adopted_at", "adopted_by",
                              "adopted_label"])
    audit_record(verb="checker_model.adopt", obj=model, actor=actor, actor_label=actor_label, note=note,
                 before={"model": current.pk if current else None},
                 after={"model": model.pk, "family": model.family, "release_threshold": model.release_threshold})
    _checker_model_changed_send(model)
    return model


@transaction.atomic
def checker_model_rollback(*, actor=None, actor_label: str = "") -> CheckerModel:
    """Restore the model the current one replaced; the current one is kept, marked rolled back."""
    current = CheckerModel.objects.select_for_update().filter(is_current=True).first()
    if current is None or current.replaced_id is None:
        raise LearningError("there is no earlier model to roll back to")
    previous = CheckerModel.objects.select_for_update().get(pk=current.replaced_id)
    if previous.shipped_digest != current.shipped_digest:
        raise LearningError("the model before was fitted for an earlier release of the checker (its features may "
                            "differ): refit with train_checker --from-reviews instead")
    CheckerModel.objects.filter(pk=current.pk).update(is_current=False, rolled_back_at=timezone.now())
    CheckerModel.objects.filter(pk=previous.pk).update(is_current=True)
    previous.refresh_from_db()
    audit_record(verb="checker_model.rollback", obj=previous, actor=actor, actor_label=actor_label,
                 before={"model": current.pk}, after={"model": previous.pk})
    _checker_model_changed_send(previous)
    return previous


def _checker_model_changed_send(model: CheckerModel) -> None:
    transaction.on_commit(lambda: checker_model_changed.send(sender=CheckerModel, model=model))


def checker_learning_tick() -> None:
    """The beat job: the leak estimate always; a refit when learning is on and enough new labels came in."""
    leak_estimate_update()
    if settings.REVIEW_LEARNING and labels_since_last_fit() >= settings.REVIEW_LEARNING_EVERY:
        checker_learning_run(origin=CheckerModel.Origin.LEARNING_JOB)
        leak_estimate_update()
