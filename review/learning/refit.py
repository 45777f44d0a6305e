"""Refit the scoring model on the deployment's labels, and decide whether the refit may replace the current model.

Candidate families, each a way to learn from the labels:

- **threshold**: the shipped fit, its verdict threshold moved to where the labels are best told apart;
- **refit ×w**: the shipped training rows plus the labels as one more set counting w times as much as any
  other (w in ``REVIEW_LEARNING_LABEL_WEIGHTS``), with and without the threshold move;
- **labels only**: a fit on the labels alone (they come from this knowledge base and this assistant), with the
  threshold move.

Each family is judged by k-fold cross-validation on the labels: every label is scored by a model of that family
fitted without it. The family with the best cross-validated balanced accuracy is the candidate, and its release
threshold is proven the way the shipped model's is (the leak budget over every row it learns from, scored out of
fold) — or, where lower, sits just above every wrong answer the reviewers found, scored out of fold, once there are
enough of them: the pooled proof speaks mostly for the shipped sets, the wrong labels for this deployment. It is
adopted only if it beats the current model on the same held-out labels by ``margin``, the gain's one-sided 95 %
lower bound (a paired bootstrap) is above zero, and at its threshold it leaks no more of the labels
than the current model does at its own. Balanced accuracy counts each label once; the leak counts each as the
answers it stands for.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from checking.features import FEATURE_NAMES, FINDING_FEATURES
from checking.model import ScoringModel
from checking.scoring import HARD_CAPS
from checking.training import LabelledItem, Row, final_score, stratified_folds
from checking.training import fit as shipped_fit
from review.learning import leak

LABEL_SET = "reviews"
LABEL_WEIGHTS = (1.0, 3.0, 10.0)
LABELS_ONLY_L2 = 30.0  # few rows of one deployment: shrink harder than the shipped fit's 10
MAX_SHIFT = 4.0  # the most the threshold move may shift the log-odds (a factor of ~55 in the odds)


@dataclass(frozen=True)
class Label:
    features: dict[str, float]
    supported: bool
    weight: float = 1.0  # answers it stands for (the leak); fitting counts every label once
    held_by_rule: bool = False


@dataclass(frozen=True)
class Judged:
    """How a model (with its release threshold) does on labels."""

    balanced: float
    supported_kept: float
    unsupported_caught: float
    leak: float  # weighted share of unsupported labels released at the threshold
    automation: float  # weighted share of supported labels released there

    def as_dict(self) -> dict:
        return {k: round(v, 4) for k, v in vars(self).items()}


@dataclass(frozen=True)
class Candidate:
    family: str
    model: ScoringModel
    release_threshold: float
    cross_validated: Judged


@dataclass(frozen=True)
class RefitOutcome:
    adopt: bool
    reason: str
    current: Judged
    candidate: Candidate | None
    families: dict[str, Judged] = field(default_factory=dict)
    labels: int = 0

    def figures(self) -> dict:
        return {"labels": self.labels, "current": self.current.as_dict(),
                "families": {name: judged.as_dict() for name, judged in self.families.items()},
                "chosen": self.candidate.family if self.candidate else None, "reason": self.reason}


# Scores -------------------------------------------------------------------------------------------------------


def _cap(features: dict[str, float]) -> float:
    caps = [HARD_CAPS[kind] for kind, name in FINDING_FEATURES.items()
            if kind in HARD_CAPS and features.get(name, 0.0) > 0]
    return min(caps, default=1.0)


def _log_odds(model: ScoringModel, features: dict[str, float]) -> float:
    p = min(max(model.probability(features), 1e-12), 1 - 1e-12)
    return math.log(p / (1 - p))


def score(model: ScoringModel, features: dict[str, float] | None) -> float:
    """The checker's score: the model's probability under the caps of the row's hard findings (no row: no
    evidence was found, 0)."""
    return final_score(model, features or None)


def judge(model: ScoringModel, labels: Sequence[Label], *, band: float, release_threshold: float) -> Judged:
    return _judged([score(model, lab.features) for lab in labels], labels, band=band,
                   release_threshold=release_threshold)


def _judged(scores: Sequence[float], labels: Sequence[Label], *, band: float, release_threshold: float) -> Judged:
    at = max(band, release_threshold)
    right = [s >= band for s, lab in zip(scores, labels, strict=True) if lab.supported]
    wrong = [s < band for s, lab in zip(scores, labels, strict=True) if not lab.supported]
    kept = sum(right) / len(right) if right else 0.0
    caught = sum(wrong) / len(wrong) if wrong else 0.0
    return Judged(balanced=(kept + caught) / 2, supported_kept=kept, unsupported_caught=caught,
                  leak=_released_share(scores, labels, supported=False, at=at),
                  automation=_released_share(scores, labels, supported=True, at=at))


def _released_share(scores: Sequence[float], labels: Sequence[Label], *, supported: bool, at: float) -> float:
    rows = [(s, lab) for s, lab in zip(scores, labels, strict=True) if lab.supported == supported]
    total = sum(lab.weight for _, lab in rows)
    released = sum(lab.weight for s, lab in rows if s >= at and not lab.held_by_rule)
    return released / total if total else 0.0


# Fitting ------------------------------------------------------------------------------------------------------


def _rows(labels: Sequence[Label], set_name: str = LABEL_SET) -> list[Row]:
    return [Row(item=LabelledItem(set_name=set_name, text="", supported=lab.supported), features=lab.features)
            for lab in labels]


def threshold_moved(model: ScoringModel, labels: Sequence[Label], *, band: float) -> ScoringModel:
    """The model with its intercept moved so that the verdict threshold `band` falls where the labels' balanced
    accuracy is highest (of equally good places, the nearest). Claims capped below the band stay below it."""
    supported = np.array([lab.supported for lab in labels], dtype=bool)
    if supported.all() or not supported.any():
        return model
    movable = np.array([_cap(lab.features) >= band for lab in labels], dtype=bool)
    log_odds = np.array([_log_odds(model, lab.features) for lab in labels])
    right = np.sort(log_odds[movable & supported])
    wrong = np.sort(log_odds[movable & ~supported])
    target = math.log(band / (1 - band))
    values = np.unique(log_odds[movable])
    cuts = np.concatenate([[target], (values[:-1] + values[1:]) / 2, values[:1] - 1.0, values[-1:] + 1.0])
    cuts = cuts[np.abs(target - cuts) <= MAX_SHIFT]
    # Above the cut is supported: kept = right ones at or above it, caught = every wrong one below (or capped).
    kept = (len(right) - np.searchsorted(right, cuts, side="left")) / supported.sum()
    caught = (np.searchsorted(wrong, cuts, side="left") + (~movable & ~supported).sum()) / (~supported).sum()
    balanced = (kept + caught) / 2
    best = max(range(len(cuts)), key=lambda k: (round(float(balanced[k]), 9), -abs(target - cuts[k])))
    return replace(model, intercept=model.intercept + float(target - cuts[best]))


def _fit_with_labels(base: Sequence[Row], labels: Sequence[Label], *, weight: float, l2: float) -> ScoringModel:
    if weight == 0:
        return shipped_fit(base, l2=l2)
    return shipped_fit([*base, *_rows(labels)], l2=l2, set_weights={LABEL_SET: weight})


# A family learns a model from the shipped rows and the labels.
Family = Callable[[Sequence[Row], Sequence[Label]], ScoringModel]


def families(*, band: float, l2: float, label_weights: Sequence[float] = LABEL_WEIGHTS) -> dict[str, Family]:
    """Every way the learner may learn, in the order ties are broken (simplest first)."""
    found: dict[str, Family] = {
        "threshold": lambda base, labels: threshold_moved(_fit_with_labels(base, labels, weight=0, l2=l2), labels,
                                                          band=band),
    }
    for weight in label_weights:
        found[f"refit ×{weight:g}"] = lambda base, labels, w=weight: _fit_with_labels(base, labels, weight=w, l2=l2)
        found[f"refit ×{weight:g} + threshold"] = lambda base, labels, w=weight: threshold_moved(
            _fit_with_labels(base, labels, weight=w, l2=l2), labels, band=band)
    found["labels only"] = lambda base, labels: threshold_moved(shipped_fit(_rows(labels), l2=LABELS_ONLY_L2),
                                                                labels, band=band)
    return found


def above_every_wrong_label(scores: Sequence[float], labels: Sequence[Label], *, band: float,
                            min_wrong: int) -> float:
    """Just above the highest out-of-fold score of any wrong answer reviewers found (and no lower than the band):
    where a model of this family, fitted without each of them, would have released none. A new wrong answer of
    this deployment, exchangeable with the n reviewed ones, scores above all of them with probability at most
    1/(n + 1) (the conformal argument), so with `min_wrong` of them this is the deployment's own evidence for a
    threshold, where the pooled proof mostly speaks for the shipped sets. Too few wrong labels: nothing (1.01)."""
    wrong = [s for s, lab in zip(scores, labels, strict=True) if not lab.supported and not lab.held_by_rule]
    if len(wrong) < min_wrong:
        return leak.NOTHING_RELEASED
    return max(band, math.nextafter(max(wrong), 2.0))


def proven_release_threshold(learn: Family, *, base: Sequence[Row], labels: Sequence[Label], budget: float,
                             band: float, folds: int, seed: int) -> leak.LeakPolicy:
    """Where a model of this family starts releasing: the leak budget proven on every row it learns from (the
    shipped rows and the labels, all labelled: a census), each scored out of fold — as `train_checker` proves the
    shipped model's."""
    pooled = [*base, *_rows(labels)]
    fold_of = stratified_folds(pooled, folds=folds, seed=seed)
    scores = [0.0] * len(pooled)
    for fold in range(folds):
        model = learn([r for r, f in zip(base, fold_of, strict=False) if f != fold],
                      [lab for lab, f in zip(labels, fold_of[len(base):], strict=True) if f != fold])
        for k, row in enumerate(pooled):
            if fold_of[k] == fold:
                scores[k] = score(model, row.features)
    return leak.shipped_policy(scores, [r.item.supported for r in pooled], budget=budget, floor=band)


def refit_decide(
    *, labels: Sequence[Label], base: Sequence[Row], current: ScoringModel, current_threshold: float, band: float,
    l2: float, budget: float, folds: int = 5, seed: int = 0, margin: float = 0.01, min_labels: int = 30,
    min_per_class: int = 5, label_weights: Sequence[float] = LABEL_WEIGHTS,
) -> RefitOutcome:
    """Fit every family, cross-validated on the labels; the best is adopted, with the release threshold proven for
    it, if it beats the current model by `margin` and leaks no more than it at the current model's threshold."""
    current_judged = judge(current, labels, band=band, release_threshold=current_threshold)
    right = sum(lab.supported for lab in labels)
    if len(labels) < min_labels or min(right, len(labels) - right) < min_per_class:
        return RefitOutcome(adopt=False, current=current_judged, candidate=None, labels=len(labels),
                            reason=f"too few labels to learn from: {len(labels)} ({right} supported), need "
                                   f"{min_labels} with {min_per_class} of each")
    folds = max(2, min(folds, right, len(labels) - right))
    fold_of = stratified_folds(_rows(labels), folds=folds, seed=seed)
    found = families(band=band, l2=l2, label_weights=label_weights)
    held_out: dict[str, list[float]] = {}
    for name, learn in found.items():
        scores = [0.0] * len(labels)
        for fold in range(folds):
            model = learn(base, [lab for lab, f in zip(labels, fold_of, strict=True) if f != fold])
            for k, lab in enumerate(labels):
                if fold_of[k] == fold:
                    scores[k] = score(model, lab.features)
        held_out[name] = scores
    # Balanced accuracy at the verdict band picks the family; its release threshold is proven as the shipped one's.
    by_balance = {name: _judged(scores, labels, band=band, release_threshold=1.0) for name, scores in held_out.items()}
    best_name = max(by_balance, key=lambda name: by_balance[name].balanced)  # ties: the first listed
    proof = proven_release_threshold(found[best_name], base=base, labels=labels, budget=budget, band=band,
                                     folds=folds, seed=seed)
    threshold = leak.NOTHING_RELEASED if proof.threshold is None else proof.threshold
    threshold = min(threshold, above_every_wrong_label(held_out[best_name], labels, band=band,
                                                       min_wrong=min_labels))
    judged = {name: _judged(scores, labels, band=band, release_threshold=threshold)
              for name, scores in held_out.items()}
    candidate = Candidate(family=best_name, model=found[best_name](base, labels), release_threshold=threshold,
                          cross_validated=judged[best_name])
    common = {"current": current_judged, "candidate": candidate, "families": judged, "labels": len(labels)}
    best = judged[best_name]
    common = {"current": current_judged, "candidate": candidate, "families": judged, "labels": len(labels)}
    if best.balanced < current_judged.balanced + margin:
        return RefitOutcome(adopt=False, **common, reason=(
            f"no candidate beats the current model by {margin:.3f}: best {best_name} {best.balanced:.3f} against "
            f"{current_judged.balanced:.3f} (balanced, held-out labels)"))
    current_scores = [score(current, lab.features) for lab in labels]
    lower = gain_lower_bound(current=current_scores, candidate=held_out[best_name], labels=labels, band=band,
                             seed=seed)
    if lower <= 0:
        return RefitOutcome(adopt=False, **common, reason=(
            f"{best_name} gains {best.balanced - current_judged.balanced:.3f} balanced on held-out labels, but "
            f"the gain's 95 % lower bound is {lower:.3f}: too few labels to tell it from chance"))
    if best.leak > current_judged.leak + 1e-12:
        return RefitOutcome(adopt=False, **common, reason=(
            f"{best_name} would leak more: {best.leak:.3f} at {threshold:.3f} against {current_judged.leak:.3f} at "
            f"{current_threshold:.3f} (held-out labels)"))
    return RefitOutcome(adopt=True, **common, reason=(
        f"{best_name}: balanced {best.balanced:.3f} against {current_judged.balanced:.3f}, leak {best.leak:.3f} at "
        f"{threshold:.3f} against {current_judged.leak:.3f} at {current_threshold:.3f} (held-out labels)"))


GAIN_RESAMPLES = 2000


def gain_lower_bound(*, current: Sequence[float], candidate: Sequence[float], labels: Sequence[Label], band: float,
                     seed: int) -> float:
    """The one-sided 95 % lower bound on the candidate's gain in balanced accuracy over the current model, by a
    paired bootstrap of the labels (resampled within each label, as balanced accuracy weighs them): a gain that
    chance alone would often show is no gain."""
    supported = np.array([lab.supported for lab in labels], dtype=bool)
    right_now = (np.array(current) >= band) == supported
    right_then = (np.array(candidate) >= band) == supported
    difference = right_then.astype(float) - right_now.astype(float)
    rng = np.random.default_rng(seed)
    gains = np.zeros(GAIN_RESAMPLES)
    for members in (np.flatnonzero(supported), np.flatnonzero(~supported)):
        draws = rng.integers(0, len(members), size=(GAIN_RESAMPLES, len(members)))
        gains += difference[members][draws].mean(axis=1) / 2
    return float(np.quantile(gains, 0.05))


def base_rows_without(rows: Sequence[Row], set_name: str) -> list[Row]:
    return [r for r in rows if r.item.set_name != set_name]


def feature_row_complete(features: dict) -> bool:
    """A label's row was computed by this checker's features (an older release may have computed fewer)."""
    return bool(features) and all(name in features for name in FEATURE_NAMES)
