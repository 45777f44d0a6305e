"""Where a learned model starts releasing: just above every wrong answer reviewers found, once there are enough of
them (the deployment's own evidence), never below the supported band."""

from review.learning.leak import NOTHING_RELEASED
from review.learning.refit import Label, above_every_wrong_label


def _labels(supported: list[bool], *, held_by_rule: set[int] = frozenset()) -> list[Label]:
    return [Label(features={}, supported=s, held_by_rule=k in held_by_rule) for k, s in enumerate(supported)]


def test_the_threshold_sits_just_above_the_highest_wrong_label():
    labels = _labels([False] * 30 + [True] * 10)
    scores = [0.5 + 0.01 * k for k in range(30)] + [0.99] * 10  # the highest wrong one scores 0.79

    threshold = above_every_wrong_label(scores, labels, band=0.6, min_wrong=30)

    assert 0.79 < threshold < 0.7901
    assert not any(s >= threshold for s, lab in zip(scores, labels) if not lab.supported)


def test_too_few_wrong_labels_prove_nothing():
    labels = _labels([False] * 29 + [True] * 10)
    scores = [0.1] * 29 + [0.99] * 10

    assert above_every_wrong_label(scores, labels, band=0.6, min_wrong=30) == NOTHING_RELEASED


def test_never_below_the_supported_band():
    labels = _labels([False] * 30)

    assert above_every_wrong_label([0.2] * 30, labels, band=0.6, min_wrong=30) == 0.6


def test_a_wrong_answer_a_rule_held_does_not_raise_it():
    # A rule holds that answer whatever its score, so its score says nothing about where releasing starts.
    labels = _labels([False] * 31, held_by_rule={0})
    scores = [0.99] + [0.7] * 30

    assert above_every_wrong_label(scores, labels, band=0.6, min_wrong=30) < 0.71
