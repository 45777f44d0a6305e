"""The fitted scoring model: the fit, its readable JSON, cross-validation that never scores an item it trained on."""

import json
import math

import numpy as np

from checking.features import FEATURE_NAMES, text_features
from checking.findings import Finding, FindingKind
from checking.model import MODEL_PATH, ScoringModel, logistic_fit
from checking.scoring import fitted_score
from checking.training import (
    LabelledItem,
    Row,
    cross_validated_scores,
    figures,
    final_score,
    fit,
    stratified_folds,
)


def _toy_rows(n: int = 80, *, seed: int = 0, sets: tuple[str, ...] = ("a",)) -> list[Row]:
    """Supported items have high coverage; unsupported ones low: a learnable rule plus noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for k in range(n):
        supported = k % 2 == 0
        coverage = float(np.clip(rng.normal(0.8 if supported else 0.3, 0.15), 0, 1))
        features = {name: 0.0 for name in FEATURE_NAMES} | {"coverage": coverage, "rule_score": coverage}
        rows.append(Row(item=LabelledItem(set_name=sets[(k // 2) % len(sets)], text=f"claim {k}", supported=supported),
                        features=features))
    return rows


def test_logistic_fit_learns_which_way_a_feature_points():
    rows = _toy_rows()
    model = fit(rows, l2=1.0)
    weight = dict(zip(model.features, model.weights, strict=True))
    assert weight["coverage"] > 0.5
    high = {name: 0.0 for name in FEATURE_NAMES} | {"coverage": 0.95, "rule_score": 0.95}
    low = {name: 0.0 for name in FEATURE_NAMES} | {"coverage": 0.1, "rule_score": 0.1}
    assert model.probability(high) > 0.9 and model.probability(low) < 0.1


def test_cross_validated_scores_come_from_models_that_never_saw_the_item():
    rows = _toy_rows(40, sets=("a", "b"))
    folds = stratified_folds(rows, folds=5, seed=0)
    scores = cross_validated_scores(rows, folds=5, seed=0, l2=1.0)

    assert figures(rows, scores, threshold=0.6).balanced > 0.85
    for fold in range(5):
        members = [k for k, f in enumerate(folds) if f == fold]
        # Stratified: each fold holds both labels of both sets.
        assert {(rows[k].item.set_name, rows[k].item.supported) for k in members} == {
            ("a", True), ("a", False), ("b", True), ("b", False)}
        held_out = fit([r for r, f in zip(rows, folds, strict=True) if f != fold], l2=1.0)
        assert [scores[k] for k in members] == [final_score(held_out, rows[k].features) for k in members]
    everything = fit(rows, l2=1.0)
    assert scores != [final_score(everything, r.features) for r in rows]  # not the model that saw them all


def test_each_set_counts_equally_whatever_its_size():
    big = _toy_rows(200, sets=("big",))
    # A small set where the rule is reversed: it must still move the fit, not drown.
    small = [Row(item=LabelledItem(set_name="small", text=r.item.text + "s", supported=not r.item.supported),
                 features=r.features) for r in _toy_rows(20, seed=1)]
    alone = fit(big, l2=1.0)
    weight_alone = dict(zip(alone.features, alone.weights, strict=True))["coverage"]
    model = fit(big + small, l2=1.0)
    assert dict(zip(model.features, model.weights, strict=True))["coverage"] < 0.5 * weight_alone


def test_model_json_round_trips_and_stays_readable():
    model = logistic_fit(rows=np.array([[0.0, 1.0], [1.0, 0.0], [0.2, 0.9], [0.9, 0.1]]),
                         labels=np.array([False, True, False, True]), names=["a", "b"], about={"seed": 0})
    text = model.as_json()
    data = json.loads(text)
    assert [f["name"] for f in data["features"]] == ["a", "b"] and data["about"] == {"seed": 0}
    again = ScoringModel.from_json(text)
    assert math.isclose(again.probability({"a": 0.7, "b": 0.2}), model.probability({"a": 0.7, "b": 0.2}),
                        abs_tol=1e-5)


def test_probability_is_finite_for_any_input():
    model = ScoringModel(features=("a",), mean=(0.0,), scale=(1.0,), weights=(1e6,), intercept=0.0)
    for value in (float("nan"), float("inf"), -1e308, 1e308):
        assert 0.0 <= model.probability({"a": value}) <= 1.0


def test_the_committed_model_reads_every_feature_the_checker_computes():
    model = ScoringModel.from_json(MODEL_PATH.read_text(encoding="utf-8"))
    assert set(model.features) == set(FEATURE_NAMES)
    assert model.about["cross_validated"], "model.json must record its cross-validated figures"


def test_a_hard_contradiction_caps_whatever_the_model_says():
    confident = ScoringModel(features=("coverage",), mean=(0.0,), scale=(1.0,), weights=(50.0,), intercept=0.0)
    contradiction = Finding(FindingKind.QUANTITY_MISMATCH, "claim says 45 days; evidence says 30 days")
    assert fitted_score(model=confident, features={"coverage": 1.0}, findings=[]) > 0.99
    assert fitted_score(model=confident, features={"coverage": 1.0}, findings=[contradiction]) <= 0.2


def test_text_features_measure_copying_and_novel_words():
    copied = text_features(claim="Yes, the hotel cap is $220 in London.", evidence="The hotel cap is $220 in London.")
    invented = text_features(claim="I think it was great fun.", evidence="The hotel cap is $220 in London.")
    assert copied["novel_share"] == 0.0 and copied["longest_run"] == 1.0
    assert invented["novel_share"] == 1.0 and invented["personal_words"] == 1.0 and invented["novel_pronouns"] == 1.0
