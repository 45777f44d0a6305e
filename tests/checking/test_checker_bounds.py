"""Bounds on quantities ("no later than", "before", "after") compared with the values the evidence states."""

from functools import partial

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import FindingKind
from checking.verdicts import supported_at, uncertain_at
from tests.checking.checker_inputs import bag_of_words_embed

rules_check = partial(check_claim, fitted=False, embed=bag_of_words_embed)

RETENTION = (
    "Deleted notes stay in the trash for 30 days and can be restored during that time. After 30 days they are "
    "purged automatically. Encrypted backups are retained for 35 days, so deleted data disappears from backups "
    "no later than 35 days after purging."
)


def check(claim: str):
    return rules_check(claim=claim, candidates=[EvidenceCandidate(RETENTION)])


def test_a_bound_keeping_the_number_but_swapping_the_unit_is_contradicted():
    """"No later than 35 weeks" is true of 35 days only by arithmetic; a kept number with another unit is a
    unit swap, whichever other value of the sentence it is compared with."""
    outcome = check("Encrypted backups are retained for 35 days, so deleted data disappears from backups no later "
                    "than 35 weeks after purging.")
    assert outcome.score < uncertain_at(), outcome.reasons
    assert any("35 weeks" in r and "35 days" in r for r in outcome.reasons), outcome.reasons


def test_before_is_the_opposite_bound_of_after():
    outcome = check("Before 30 days they are purged automatically.")
    assert outcome.score < uncertain_at(), outcome.reasons
    assert any(f.kind in (FindingKind.DIRECTION, FindingKind.QUANTITY_MISMATCH) for f in outcome.findings)
    assert any(r.startswith("claim says less than 30 days") for r in outcome.reasons), outcome.reasons


def test_a_bound_the_evidence_states_too_is_supported():
    outcome = check("After 30 days deleted notes are purged automatically.")
    assert outcome.score >= supported_at(), outcome.reasons
    assert "30 days matches evidence" in " ".join(outcome.reasons)


CARRY_OVER = EvidenceCandidate("Staff may carry over up to 5 days of annual leave into the next year.")


def test_over_as_the_particle_of_carry_over_bounds_nothing():
    """"Carry over 5 days" carries 5 days; read as "more than 5 days" it contradicted the cap it states."""
    same = rules_check(claim="Staff may carry over 5 days of annual leave.", candidates=[CARRY_OVER])
    more = rules_check(claim="Staff may roll over 10 days of annual leave.", candidates=[CARRY_OVER])
    bound = rules_check(claim="The trip took more than 10 days.",
                        candidates=[EvidenceCandidate("The trip took 12 days.")])

    assert same.score >= supported_at(), same.reasons
    assert more.score < uncertain_at() and any("10 days" in r and "5 days" in r for r in more.reasons), more.reasons
    assert bound.score >= supported_at(), bound.reasons  # "more than" still bounds
