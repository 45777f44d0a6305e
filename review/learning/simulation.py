"""What learning from reviews would do for a new customer: `evaluate --simulate-reviews`.

The labelled set plays the customer's traffic. The *start* model is the shipped fit with the set's own family left
out of training (what a customer whose data we never saw gets). Items arrive in a seeded random order and are
routed by the start policy: each held item is reviewed, each released one is sampled for audit at the audit rate,
until N reviews are in. Those reviews are the labels: the learner runs on them as the job would (candidates,
cross-validation on the labels, the guard), and the leak budget is worked out from them alone. Both policies are
then scored on the items nobody reviewed — and the learned one again with reviewed facts (review.reviewed_facts):
each reviewed item's claims kept as facts (confirmed when the item is right, rejected when it is wrong: the label
does not say which claim was), so a later item that restates them against the same quote of the same passage is
released, or held, on them; and one the scores put in the supported band that says no more than a confirmed fact
at its quote (checking.facts.fact_within) is released on it, as in the console.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from checking.facts import Fact, fact_within, facts_restated, parts_within, text_stems
from checking.model import ScoringModel
from checking.training import Row, cross_validated_scores, fit, shipped_rows
from review.learning import leak, refit


@dataclass(frozen=True)
class ClaimFactRow:
    """What reviewed facts read of one checked claim: the fact it states, and its best evidence — the passage
    ("" without one) and the quote in it, with the quote's words."""

    fact: Fact
    source: str
    start: int
    end: int
    grounded: frozenset[str]
    text: str = ""  # the source's text: the words a paraphrase within a fact may not borrow from it
    claim: str = ""  # the claim's own text: its parts may each be within a fact

    def same_quote(self, other: ClaimFactRow) -> bool:
        return bool(self.source) and self.source == other.source and self.start < other.end and other.start < self.end


@dataclass(frozen=True)
class Item:
    supported: bool
    claims: tuple[dict, ...]  # each claim's feature row ({} when no evidence was found for it)
    held_by_rule: bool
    weakest: dict | None  # the claim a training row is made of: the weakest by the rules' own score
    facts: tuple[ClaimFactRow, ...] = ()  # each claim's, in order

    def scores(self, model: ScoringModel) -> tuple[float, ...]:
        return tuple(refit.score(model, features) for features in self.claims)


@dataclass(frozen=True)
class Policy:
    model: ScoringModel
    threshold: float  # release threshold (the tiers' "low" needs this and the supported band)
    leak_bound: float | None  # the policy's own one-sided 95 % bound at that threshold, from its labels
    status: str  # the leak budget's: proven, insufficient, exceeded
    family: str = "start"


def item_of(*, supported: bool, claims: Sequence[dict], held_by_rule: bool,
            facts: Sequence[ClaimFactRow] = ()) -> Item:
    rows = [c for c in claims if c]
    weakest = min(rows, key=lambda f: f["rule_score"]) if rows else None
    return Item(supported=supported, claims=tuple(claims), held_by_rule=held_by_rule, weakest=weakest,
                facts=tuple(facts))


@dataclass(frozen=True)
class Memory:
    """The facts of the reviewed items: confirmed (their item was right) and rejected (it was wrong)."""

    confirmed: tuple[ClaimFactRow, ...] = ()
    rejected: tuple[ClaimFactRow, ...] = ()

    def restated(self, claim: ClaimFactRow, kept: Sequence[ClaimFactRow]) -> bool:
        return any(claim.same_quote(row) and facts_restated([claim.fact], [row.fact], grounded=row.grounded)
                   for row in kept)

    def within(self, claim: ClaimFactRow) -> bool:
        """A confirmed fact at the claim's quote that it says no more than, or one for each of its parts (the claim
        is in the supported band)."""
        at_quote = [row for row in self.confirmed if claim.same_quote(row)]

        def within(fact: Fact) -> bool:
            return any(fact_within(fact, row.fact, grounded=row.grounded, source_words=text_stems(row.text),
                                   source_text=row.text) for row in at_quote)

        return bool(at_quote) and (within(claim.fact) or parts_within(
            claim.claim, language=claim.fact.language, within=lambda part, fact: within(fact) or None) is not None)


def memory_of(items: Sequence[Item], indexes: Sequence[int]) -> Memory:
    confirmed = tuple(row for i in indexes if items[i].supported for row in items[i].facts)
    rejected = tuple(row for i in indexes if not items[i].supported for row in items[i].facts)
    return Memory(confirmed=confirmed, rejected=rejected)


def released(item: Item, policy: Policy, *, band: float, memory: Memory | None = None) -> bool:
    """Whether the policy releases the item: not held by a rule, and every claim at or above its threshold — or,
    with reviewed facts, supported by one (restating it, or in the supported band and within it) — and none
    restating a rejected one."""
    if item.held_by_rule:
        return False
    scores = item.scores(policy.model)
    if not scores:
        return False
    at = max(band, policy.threshold)
    if memory is None or len(item.facts) != len(scores):
        return min(scores) >= at
    if any(memory.restated(claim, memory.rejected) for claim in item.facts):
        return False
    return all(score >= at or memory.restated(claim, memory.confirmed) or (score >= band and memory.within(claim))
               for score, claim in zip(scores, item.facts))


def figures(items: Sequence[Item], policy: Policy, *, band: float, memory: Memory | None = None) -> dict:
    right = [i for i in items if i.supported]
    wrong = [i for i in items if not i.supported]

    def predicted_supported(item: Item) -> bool:
        scores = item.scores(policy.model)
        return bool(scores) and min(scores) >= band

    kept = sum(predicted_supported(i) for i in right) / len(right) if right else 0.0
    caught = sum(not predicted_supported(i) for i in wrong) / len(wrong) if wrong else 0.0
    return {
        "balanced": round((kept + caught) / 2, 4), "supported_kept": round(kept, 4),
        "unsupported_caught": round(caught, 4),
        "automation": round(sum(released(i, policy, band=band, memory=memory) for i in right) / len(right), 4)
        if right else 0.0,
        "leak": round(sum(released(i, policy, band=band, memory=memory) for i in wrong) / len(wrong), 4)
        if wrong else 0.0,
        "leak_bound": None if policy.leak_bound is None else round(policy.leak_bound, 4),
        "threshold": round(policy.threshold, 4), "budget_status": policy.status, "family": policy.family,
    }


def queue_reviews(items: Sequence[Item], start: Policy, *, reviews: int, seed: int, audit_rate: float,
                  band: float) -> tuple[list[tuple[int, float]], int]:
    """(item index, weight) of the first `reviews` items a queue would put before a person, in arrival order: every
    held one, and released ones sampled for audit (each standing for 1 / the audit rate); and how many items
    were released meanwhile without an audit."""
    rng = random.Random(seed)
    order = list(range(len(items)))
    rng.shuffle(order)
    chosen: list[tuple[int, float]] = []
    unaudited = 0
    for index in order:
        if len(chosen) >= reviews:
            break
        if not released(items[index], start, band=band):
            chosen.append((index, 1.0))
        elif audit_rate > 0 and rng.random() < audit_rate:
            chosen.append((index, 1.0 / audit_rate))
        else:
            unaudited += 1
    return chosen, unaudited


def budget_policy(*, model: ScoringModel, threshold: float, answers: Sequence[leak.LabelledAnswer], budget: float,
                  band: float, family: str, released_unaudited: int = 0) -> Policy:
    """The release threshold the leak budget allows from these labels, starting from `threshold`."""
    found = leak.leak_policy(answers, budget=budget, floor=band, current=threshold,
                             released_unaudited=released_unaudited)
    if found.status == leak.PROVEN:
        return Policy(model=model, threshold=found.threshold, leak_bound=found.at.bound, status=found.status,
                      family=family)
    if found.status == leak.EXCEEDED:
        return Policy(model=model, threshold=leak.NOTHING_RELEASED, leak_bound=0.0, status=found.status, family=family)
    return Policy(model=model, threshold=threshold, leak_bound=found.at.bound if found.at else None,
                  status=found.status, family=family)


def simulate(
    items: Sequence[Item], *, family: str, reviews: int, seed: int, audit_rate: float, budget: float, band: float,
    margin: float, folds: int, min_labels: int, label_weights: Sequence[float],
    base: Sequence[Row] | None = None, progress: Callable[[str], None] | None = None,
) -> dict:
    base_rows = refit.base_rows_without(shipped_rows() if base is None else base, family)
    l2 = 10.0
    start_model = fit(base_rows, l2=l2)
    # Where the start releases: what train_checker would ship it with (the budget proven on its own rows).
    shipped = leak.shipped_policy(cross_validated_scores(base_rows, folds=5, seed=0, l2=l2),
                                  [r.item.supported for r in base_rows], budget=budget, floor=band)
    start_threshold = leak.NOTHING_RELEASED if shipped.threshold is None else shipped.threshold
    start = budget_policy(model=start_model, threshold=start_threshold, answers=[], budget=budget, band=band,
                          family="start")
    chosen, released_unaudited = queue_reviews(items, start, reviews=reviews, seed=seed, audit_rate=audit_rate,
                                               band=band)
    reviewed = {index for index, _ in chosen}
    labels = [refit.Label(features=items[i].weakest, supported=items[i].supported, weight=w,
                          held_by_rule=items[i].held_by_rule) for i, w in chosen if items[i].weakest]
    outcome = refit.refit_decide(labels=labels, base=base_rows, current=start_model, current_threshold=start_threshold,
                                 band=band, l2=l2, budget=budget, folds=folds, seed=seed, margin=margin,
                                 min_labels=min_labels,
                                 label_weights=label_weights)
    if progress:
        progress(outcome.reason)
    model, threshold, family_name = start_model, start_threshold, "start (not replaced)"
    if outcome.adopt and outcome.candidate is not None:
        model, family_name = outcome.candidate.model, outcome.candidate.family
        threshold = outcome.candidate.release_threshold
    answers = [leak.LabelledAnswer(scores=items[i].scores(model), supported=items[i].supported,
                                   audit_sample=w > 1, held_by_rule=items[i].held_by_rule) for i, w in chosen]
    learned = budget_policy(model=model, threshold=threshold, answers=answers, budget=budget, band=band,
                            family=family_name, released_unaudited=released_unaudited)
    remaining = [item for k, item in enumerate(items) if k not in reviewed]
    return {
        "reviews": len(chosen), "remaining": len(remaining), "seed": seed, "left_out_of_training": family,
        "audit_samples": sum(w > 1 for _, w in chosen), "released_unaudited": released_unaudited,
        "start": figures(remaining, start, band=band), "learned": figures(remaining, learned, band=band),
        "learned_with_reviewed_facts": figures(remaining, learned, band=band,
                                               memory=memory_of(items, [i for i, _ in chosen])),
        "adopted": outcome.adopt, "reason": outcome.reason,
    }
