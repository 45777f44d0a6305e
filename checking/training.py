"""Fit the scoring model on labelled claims and report cross-validated figures.

Each labelled item (a claim or answer, its label, and either its own evidence or the knowledge base) goes
through the real pipeline; the features of its weakest claim (by the rules' own score, which the model does not
change) become one row. Every set counts equally in the fit, and within a set both labels count equally, so a
large synthetic set cannot drown a small human-labelled one. Figures are k-fold: each item is scored by a model
that never saw it.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from checking.features import FEATURE_NAMES, FINDING_FEATURES
from checking.model import ScoringModel, logistic_fit
from checking.scoring import capped

# A balanced fit puts "as likely supported as not" at 0.5; the supported band starts at 0.6 (settings), so the
# intercept moves by logit(0.6) to put that point on the band's edge instead of inside the uncertain band.
BAND_SHIFT = float(np.log(0.6 / 0.4))


@dataclass(frozen=True)
class LabelledItem:
    set_name: str
    text: str  # the claim or answer
    supported: bool
    question: str = ""
    contexts: tuple[str, ...] = ()  # evidence given with the item; empty means "retrieve from the knowledge base"
    kind: str = ""


@dataclass(frozen=True)
class Row:
    item: LabelledItem
    features: dict[str, float] | None  # None: no checkable claim


def matrix(rows: Sequence[Row]) -> np.ndarray:
    return np.array([[(r.features or {}).get(name, 0.0) for name in FEATURE_NAMES] for r in rows], dtype=float)


def _sample_weights(rows: Sequence[Row], set_weights: Mapping[str, float]) -> np.ndarray:
    groups: dict[tuple[str, bool], int] = {}
    for r in rows:
        key = (r.item.set_name, r.item.supported)
        groups[key] = groups.get(key, 0) + 1
    return np.array([len(rows) * set_weights.get(r.item.set_name, 1.0)
                     / (len(groups) * groups[(r.item.set_name, r.item.supported)]) for r in rows])


def fit(rows: Sequence[Row], *, l2: float, about: dict | None = None,
        set_weights: Mapping[str, float] | None = None) -> ScoringModel:
    """`set_weights`: a set counting that many times as much as the others (a deployment's own labels)."""
    usable = [r for r in rows if r.features is not None]
    weights = _sample_weights(usable, set_weights or {})
    # Duplicating rows by weight would be exact for integers; scaling the labels' weights is the same fit.
    model = logistic_fit(rows=matrix(usable), labels=np.array([r.item.supported for r in usable]),
                         names=FEATURE_NAMES, l2=l2, sample_weight=weights, about=about)
    return ScoringModel(features=model.features, mean=model.mean, scale=model.scale, weights=model.weights,
                        intercept=model.intercept + BAND_SHIFT, about=model.about)


def stratified_folds(rows: Sequence[Row], *, folds: int, seed: int) -> list[int]:
    """Each row's fold: every (set, label) group dealt round-robin in a seeded random order."""
    rng = np.random.default_rng(seed)
    fold_of = [0] * len(rows)
    by_group: dict[tuple[str, bool], list[int]] = {}
    for k, r in enumerate(rows):
        by_group.setdefault((r.item.set_name, r.item.supported), []).append(k)
    for members in by_group.values():
        for position, k in enumerate(rng.permutation(members)):
            fold_of[k] = position % folds
    return fold_of


def cross_validated_scores(rows: Sequence[Row], *, folds: int, seed: int, l2: float) -> list[float]:
    """Each row's final score from a model fitted on the other folds."""
    fold_of = stratified_folds(rows, folds=folds, seed=seed)
    scores = [0.0] * len(rows)
    for fold in range(folds):
        model = fit([r for r, f in zip(rows, fold_of, strict=True) if f != fold], l2=l2)
        for k, r in enumerate(rows):
            if fold_of[k] == fold:
                scores[k] = final_score(model, r.features)
    return scores


def final_score(model: ScoringModel, features: dict[str, float] | None) -> float:
    """What the checker would score: the model's probability under the caps of the row's hard findings."""
    if features is None:
        return 0.0
    kinds = {kind for kind, name in FINDING_FEATURES.items() if features.get(name, 0.0) > 0}
    return capped(model.probability(features), kinds=kinds)


@dataclass(frozen=True)
class Figures:
    supported_accepted: float
    unsupported_caught: float

    @property
    def balanced(self) -> float:
        return (self.supported_accepted + self.unsupported_caught) / 2


def figures(rows: Sequence[Row], scores: Sequence[float], *, threshold: float) -> Figures:
    positives = [s >= threshold for r, s in zip(rows, scores, strict=True) if r.item.supported]
    negatives = [s < threshold for r, s in zip(rows, scores, strict=True) if not r.item.supported]
    return Figures(supported_accepted=sum(positives) / len(positives) if positives else 0.0,
                   unsupported_caught=sum(negatives) / len(negatives) if negatives else 0.0)


def collect_rows(items: Sequence[LabelledItem], *, featurize: Callable[[LabelledItem], dict[str, float] | None],
                 progress: Callable[[int, int], None] | None = None) -> list[Row]:
    rows = []
    for k, item in enumerate(items):
        rows.append(Row(item=item, features=featurize(item)))
        if progress:
            progress(k + 1, len(items))
    return rows


# The rows the shipped model was fitted on (numbers only, no text), so a deployment can refit with its own labels
# without re-running every set through the pipeline. Written by `train_checker` beside model.json.
ROWS_PATH = Path(__file__).with_name("model_rows.jsonl.gz")


def rows_write(rows: Sequence[Row], path: Path = ROWS_PATH) -> None:
    lines = [json.dumps({"set": r.item.set_name, "supported": r.item.supported, "kind": r.item.kind,
                         "features": {name: round(value, 6) for name, value in r.features.items()}})
             for r in rows if r.features is not None]
    # mtime=0: the same rows give the same bytes, so an unchanged fit leaves the file unchanged.
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), mtime=0))


@cache
def shipped_rows(path: Path = ROWS_PATH) -> tuple[Row, ...]:
    rows = []
    for line in gzip.decompress(path.read_bytes()).decode("utf-8").splitlines():
        entry = json.loads(line)
        item = LabelledItem(set_name=entry["set"], text="", supported=entry["supported"], kind=entry.get("kind", ""))
        rows.append(Row(item=item, features=entry["features"]))
    return tuple(rows)
