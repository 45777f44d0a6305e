"""The leak bound: Clopper–Pearson against closed forms, the two strata, and the threshold the budget allows."""

import math

import pytest

from review.learning.leak import (
    EXCEEDED, INSUFFICIENT, PROVEN, LabelledAnswer, Strata, leak_policy, shipped_policy, upper_bound,
)


@pytest.mark.parametrize("total", [1, 10, 75, 299, 1000])
def test_with_no_leak_the_bound_is_the_closed_form(total):
    assert upper_bound(0, total) == pytest.approx(1 - 0.05 ** (1 / total), abs=1e-9)


@pytest.mark.parametrize(("leaked", "total"), [(1, 10), (5, 100), (3, 40), (20, 60)])
def test_the_bound_is_where_the_binomial_tail_falls_to_five_percent(leaked, total):
    bound = upper_bound(leaked, total)
    tail = sum(math.comb(total, k) * bound ** k * (1 - bound) ** (total - k) for k in range(leaked + 1))
    assert tail == pytest.approx(0.05, abs=1e-6)


def wrong(score: float, *, audited: bool = False) -> LabelledAnswer:
    return LabelledAnswer(scores=(score,), supported=False, audit_sample=audited)


def right(score: float, *, audited: bool = False) -> LabelledAnswer:
    return LabelledAnswer(scores=(score,), supported=True, audit_sample=audited)


def test_reviewed_answers_alone_give_the_plain_binomial_bound():
    answers = [wrong(0.2)] * 97 + [wrong(0.9)] * 3 + [right(0.95)] * 20
    strata = Strata.of(answers, released_unaudited=0)
    assert strata.point(0.8).estimate == pytest.approx(0.03)
    assert strata.bound(0.8) == pytest.approx(upper_bound(3, 100, confidence=0.95))


def test_released_answers_nobody_audited_count_as_wrong_and_released():
    answers = [wrong(0.2)] * 100
    strata = Strata.of(answers, released_unaudited=25)
    assert strata.bound(0.9) == pytest.approx((upper_bound(0, 100, confidence=0.95) * 100 + 25) / 125)


def test_audit_samples_bound_what_the_released_answers_hold():
    # 400 reviewed wrong answers, none released at 0.9; 1,000 released, 500 of them audited, 2 audited wrong
    # answers still released at 0.9.
    answers = [wrong(0.2)] * 400 + [wrong(0.95, audited=True)] * 2 + [right(0.97, audited=True)] * 498
    strata = Strata.of(answers, released_unaudited=500)
    released_part = 1000 * upper_bound(2, 500, confidence=0.975)
    held_part = 400 * upper_bound(0, 400, confidence=0.975)
    assert strata.bound(0.9) == pytest.approx((held_part + released_part) / (400 + released_part))
    # The estimate scales the audited answers up to the 1,000 released: 4 wrong answers leak of 404.
    assert strata.point(0.9).estimate == pytest.approx(4 / 404)


def test_too_few_wrong_answers_leave_the_threshold_where_it_is_and_say_so():
    answers = [wrong(0.1)] * 100 + [right(0.9)] * 50
    policy = leak_policy(answers, budget=0.01, floor=0.6, current=0.7)
    assert policy.status == INSUFFICIENT and policy.threshold == 0.7
    assert policy.at.estimate == 0 and policy.at.bound == pytest.approx(upper_bound(0, 100, confidence=0.95))


def test_enough_labels_prove_the_lowest_threshold_within_budget():
    answers = [wrong(0.2)] * 496 + [wrong(0.65), wrong(0.66), wrong(0.67), wrong(0.68)]
    answers += [right(s / 100) for s in range(60, 100)]
    policy = leak_policy(answers, budget=0.01, floor=0.6, current=0.6)
    assert policy.status == PROVEN
    # At 0.68 one of 500 wrong answers leaks: bound 0.0095; at 0.67 two do: bound 0.0126 > 1 %.
    assert upper_bound(2, 500) > 0.01 >= upper_bound(1, 500)
    assert policy.threshold == pytest.approx(0.68)
    assert policy.at.automation == pytest.approx(32 / 40)


def test_when_no_threshold_keeps_within_budget_nothing_is_released():
    answers = [wrong(0.99)] * 20 + [wrong(0.1)] * 480 + [right(0.9)] * 10
    assert leak_policy(answers, budget=0.01, floor=0.6, current=0.6).status == EXCEEDED


def test_answers_held_by_a_rule_never_leak():
    held = LabelledAnswer(scores=(0.95,), supported=False, held_by_rule=True)
    assert Strata.of([held, wrong(0.1)], released_unaudited=0).point(0.6).estimate == 0


def test_the_shipped_threshold_is_proven_on_every_training_row():
    # Three of 603 wrong rows at 0.7 are over budget there (bound 1.3 %); above them none leaks.
    policy = shipped_policy([0.2] * 600 + [0.7] * 3 + [0.9] * 100, [False] * 603 + [True] * 100, budget=0.01,
                            floor=0.6)
    assert policy.status == PROVEN and policy.threshold == pytest.approx(0.9)
