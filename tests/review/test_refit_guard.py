"""The refit's guard, on labels alone: a gain chance could show is no gain; a clear one is."""

from review.learning.refit import Label, gain_lower_bound


def _labels(count: int) -> list[Label]:
    return [Label(features={}, supported=k % 2 == 0) for k in range(count)]


def test_a_gain_of_a_few_labels_is_not_told_from_chance():
    labels = _labels(100)
    current = [0.9 if lab.supported else 0.2 for lab in labels]
    current[1] = current[3] = 0.9  # two wrong answers the current model lets through...
    candidate = list(current)
    candidate[1] = 0.2  # ...of which the candidate catches one: +0.02 balanced

    assert gain_lower_bound(current=current, candidate=candidate, labels=labels, band=0.6, seed=0) <= 0


def test_a_gain_on_many_labels_is():
    labels = _labels(200)
    current = [0.9 for _ in labels]  # lets every wrong answer through: balanced 0.5
    candidate = [0.9 if lab.supported or k % 4 == 1 else 0.2 for k, lab in enumerate(labels)]  # catches half

    lower = gain_lower_bound(current=current, candidate=candidate, labels=labels, band=0.6, seed=0)

    assert 0.15 < lower < 0.25  # the gain itself is 0.25
