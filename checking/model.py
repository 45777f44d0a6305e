"""The fitted scoring model: a logistic regression over ``features.FEATURE_NAMES``, kept as readable JSON.

``model.json`` beside this file is written by ``python manage.py train_checker`` (see ``training.py``) and read
once per process. Its probability is the claim's score: the verdict bands (settings) apply to it directly.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

MODEL_PATH = Path(__file__).with_name("model.json")


@dataclass(frozen=True)
class ScoringModel:
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    about: dict = field(default_factory=dict, compare=False)  # provenance: sets, sizes, seed, cross-validation

    def probability(self, row: Mapping[str, float]) -> float:
        z = self.intercept
        for name, mean, scale, weight in zip(self.features, self.mean, self.scale, self.weights, strict=True):
            value = row.get(name, 0.0)
            if not math.isfinite(value):
                value = 0.0
            z += weight * (value - mean) / scale
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))

    def as_json(self) -> str:
        payload = {
            "kind": "logistic_regression",
            "features": [
                {"name": n, "mean": round(m, 6), "scale": round(s, 6), "weight": round(w, 6)}
                for n, m, s, w in zip(self.features, self.mean, self.scale, self.weights, strict=True)
            ],
            "intercept": round(self.intercept, 6),
            "about": self.about,
        }
        return json.dumps(payload, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> ScoringModel:
        data = json.loads(text)
        rows = data["features"]
        return cls(features=tuple(r["name"] for r in rows), mean=tuple(r["mean"] for r in rows),
                   scale=tuple(r["scale"] for r in rows), weights=tuple(r["weight"] for r in rows),
                   intercept=data["intercept"], about=data.get("about", {}))


@cache
def scoring_model() -> ScoringModel | None:
    """The committed model, or None before one has been trained (the rules' own score is used then)."""
    if not MODEL_PATH.exists():
        return None
    return ScoringModel.from_json(MODEL_PATH.read_text(encoding="utf-8"))


def logistic_fit(*, rows: np.ndarray, labels: np.ndarray, names: Sequence[str], l2: float = 1.0,
                 sample_weight: np.ndarray | None = None, about: dict | None = None) -> ScoringModel:
    """L2-regularised logistic regression by Newton's method; without weights, both classes count equally.

    Standardised features keep the weights comparable and the fit well conditioned; balancing the classes
    makes 0.5 the point where a supported and an unsupported claim are equally likely."""
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = (rows - mean) / scale
    y = labels.astype(float)
    positives = max(1.0, y.sum())
    negatives = max(1.0, len(y) - y.sum())
    if sample_weight is None:
        sample_weight = np.where(y > 0, 0.5 * len(y) / positives, 0.5 * len(y) / negatives)
    x1 = np.hstack([x, np.ones((len(x), 1))])
    theta = np.zeros(x1.shape[1])
    penalty = np.full(x1.shape[1], l2)
    penalty[-1] = 0.0  # the intercept is not shrunk
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(x1 @ theta, -40, 40)))
        gradient = x1.T @ (sample_weight * (p - y)) + penalty * theta
        hessian = (x1.T * (sample_weight * p * (1 - p))) @ x1 + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return ScoringModel(features=tuple(names), mean=tuple(float(v) for v in mean),
                        scale=tuple(float(v) for v in scale), weights=tuple(float(v) for v in theta[:-1]),
                        intercept=float(theta[-1]), about=about or {})
