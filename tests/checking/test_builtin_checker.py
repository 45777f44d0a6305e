from functools import partial

import numpy as np
import pytest

from checking.base import CheckOutcome, EvidenceCandidate
from checking.builtin import check_claim
from checking.findings import Finding, FindingKind
from checking.verdicts import supported_at, uncertain_at, verdict_for
from tests.checking.checker_inputs import bag_of_words_embed

# These tests pin the rules (findings, quotes and the rules' own score); the fitted score on top of them is
# covered by tests/checking/test_scoring_model.py and, with the real embedder, by the end-to-end tests.
rules_check = partial(check_claim, fitted=False)

REPORT = (
    "Total nonfarm payroll employment rose by 236,000 in March, and the unemployment rate changed little "
    "at 3.5 percent. Average hourly earnings rose by 9 cents to $33.18. The New Horizons spacecraft "
    "flew past the dwarf planet on July 14, 2015."
)
PLANS = """## Plans

| Plan | Monthly price | Storage |
|---|---|---|
| Plus | $6 per month | 50 GB |
| Pro | $12 per month | 250 GB |
| Team | $18 per user per month | 1 TB |

**Refunds** are available within 14 days of the charge. Refunds are not available for add-ons.
"""
POLICY = (
    "Passwords must be at least 14 characters long. Lost laptops must be reported within 2 hours. "
    "SMS codes are not accepted as a second factor. The company is headquartered in San Francisco, "
    "with satellite offices in New York City and London."
)


def identical_embed(queries: list[str], passages: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Says every text means exactly the same thing."""
    return np.full((len(queries), 4), 0.5), np.full((len(passages), 4), 0.5)


def check(claim: str, *evidence: str, embed=bag_of_words_embed) -> CheckOutcome:
    return rules_check(claim=claim, candidates=[EvidenceCandidate(text) for text in evidence], embed=embed)


def quote(outcome: CheckOutcome, *evidence: str) -> str:
    assert outcome.candidate_index is not None
    return evidence[outcome.candidate_index][outcome.quote_start : outcome.quote_end]


def test_verdict_bands():
    contradiction = Finding(FindingKind.QUANTITY_MISMATCH, "claim says 4.5 percent; evidence says 3.5 percent")
    assert (supported_at(), uncertain_at()) == (0.6, 0.4)
    assert verdict_for(score=0.6, findings=[], has_evidence=True) == "supported"
    assert verdict_for(score=0.59, findings=[], has_evidence=True) == "uncertain"
    assert verdict_for(score=0.4, findings=[], has_evidence=True) == "uncertain"
    assert verdict_for(score=0.2, findings=[contradiction], has_evidence=True) == "contradicted"
    assert verdict_for(score=0.9, findings=[], has_evidence=False) == "not_found"


def test_verdict_bands_are_the_settings_as_they_are_now(settings):
    settings.REVIEW_SUPPORTED_AT = 0.8
    assert verdict_for(score=0.7, findings=[], has_evidence=True) == "uncertain"
    settings.REVIEW_UNCERTAIN_AT = 0.75
    assert verdict_for(score=0.7, findings=[], has_evidence=True) == "not_found"


def test_a_low_score_without_a_contradiction_is_not_found_not_contradicted():
    missing = Finding(FindingKind.UNSUPPORTED_TERM, "not found in evidence: teleportation")
    assert verdict_for(score=0.39, findings=[missing], has_evidence=True) == "not_found"


def test_no_candidates_is_not_found():
    outcome = rules_check(claim="The rate was 3.5 percent.", candidates=[], embed=bag_of_words_embed)
    assert outcome.candidate_index is None
    assert verdict_for(score=outcome.score, findings=outcome.findings,
                       has_evidence=outcome.candidate_index is not None) == "not_found"


@pytest.mark.parametrize("embed", [None, bag_of_words_embed])
def test_verbatim_claim_is_supported_and_quoted_exactly(embed):
    outcome = check("Average hourly earnings rose by 9 cents to $33.18.", REPORT, embed=embed)
    assert outcome.score >= supported_at()
    assert quote(outcome, REPORT) == "Average hourly earnings rose by 9 cents to $33.18."
    assert "$33.18 matches evidence" in outcome.reasons


def test_number_swap_is_contradicted_and_both_numbers_are_named():
    outcome = check("The unemployment rate was 4.5 percent in March.", REPORT)
    assert outcome.score < uncertain_at()
    assert "claim says 4.5 percent; evidence says 3.5 percent" in outcome.reasons
    assert "3.5 percent" in quote(outcome, REPORT)


def test_similarity_alone_never_passes_a_wrong_number():
    outcome = check("Total nonfarm payroll employment rose by 263,000 in March.", REPORT, embed=identical_embed)
    assert outcome.score < uncertain_at()
    assert "claim says 263,000; evidence says 236,000" in outcome.reasons


@pytest.mark.parametrize(
    ("claim", "evidence", "matched"),
    [
        ("The rate was 3.5% in March.", "The rate was 3.5 percent in March.", "3.5 percent"),
        ("The laptop costs $1,200.", "The laptop costs 1200 dollars.", "$1,200"),
        ("Payrolls rose by 236 thousand in March.", "Payrolls rose by 236,000 in March.", "236 thousand"),
        ("The fund holds $1.2 million.", "The fund holds $1,200,000.", "$1.2 million"),
        ("Earnings rose by $0.09 an hour.", "Earnings rose by 9 cents an hour.", "$0.09 an hour"),
        ("Incidents must be reported within 48 hours.", "Incidents must be reported within 2 days.", "48 hours"),
        ("Notice is given two weeks ahead.", "Notice is given 14 days ahead.", "two weeks"),
        ("Each file can be up to 2,000 MB.", "Each file can be up to 2 GB.", "2,000 MB"),
        ("The contract runs for 12 months.", "The contract runs for 1 year.", "12 months"),
        ("The office opens at 9 a.m.", "The office opens at 9:00 AM.", "9 a.m."),
        ("It has one sixth of the mass.", "It has one-sixth of the mass.", "one sixth"),
        ("It pays half of the premium.", "It pays 50% of the premium.", "half"),
        ("Reviews take place twice a year.", "Reviews take place semi-annually.", "twice a year"),
        # a range's near end written as a word takes its far end's unit, as one written in digits does
        ("Let the yogurt incubate for 5-7 hours.", "Let the yogurt incubate for five to seven hours.", "7 hours"),
        # two alternatives share the unit of the second, as a range's two ends do
        ("Let the paste rest for 2-3 minutes.", "Let the paste rest for 2 or 3 minutes.", "3 minutes"),
        ("It takes one or two days.", "It takes one or two days.", "two days"),
        # a second day written without its month is that month's
        ("The office is closed on April 24th and 25th.", "The office is closed on April 24 and April 25.", "25th"),
    ],
)
def test_quantities_are_normalised(claim, evidence, matched):
    outcome = check(claim, evidence)
    assert outcome.score >= supported_at(), outcome.reasons
    assert f"{matched} matches evidence" in outcome.reasons
    assert not any(r.startswith("claim says") for r in outcome.reasons)  # no end of a range set against another


@pytest.mark.parametrize(("claim", "evidence", "reason"), [
    ("Let the yogurt incubate for 6 to 7 hours.", "Let the yogurt incubate for five to seven hours.",
     "claim says 6; evidence says five"),
    ("Let the paste rest for 2 hours.", "Let the paste rest for 2 or 3 minutes.", "claim says 2 hours; evidence says"),
    ("The office is closed on April 24th and 26th.", "The office is closed on April 24 and April 25.",
     "claim says 26th; evidence says"),
])
def test_a_range_end_of_another_value_or_unit_is_still_contradicted(claim, evidence, reason):
    outcome = check(claim, evidence)
    assert outcome.score < uncertain_at()
    assert any(r.startswith(reason) for r in outcome.reasons), outcome.reasons


def test_table_rows_bind_numbers_to_their_row():
    supported = check("The Pro plan costs $12 per month.", PLANS)
    assert supported.score >= supported_at()
    assert quote(supported, PLANS) == "| Pro | $12 per month | 250 GB |"

    swapped = check("The Pro plan costs $18 per month.", PLANS)
    assert swapped.score < uncertain_at()
    assert "claim says $18 per month; evidence says $12 per month" in swapped.reasons

    wrong_row = check("The Team plan includes 250 GB of storage.", PLANS)
    assert wrong_row.score < uncertain_at()
    assert "claim says 250 GB; evidence says 1 TB" in wrong_row.reasons


def test_hedged_numbers_match_at_their_written_precision():
    assert check("Payrolls rose by about 240,000 in March.", REPORT).score >= supported_at()
    outcome = check("A yearly plan saves roughly 16 percent.", "A yearly plan saves roughly 17 percent.")
    assert outcome.score < uncertain_at()
    assert "claim says 16 percent; evidence says 17 percent" in outcome.reasons


def test_frequency_must_agree():
    outcome = check("Sick leave accrues weekly.", "Sick leave: 15 days per year, accrued monthly.")
    assert outcome.score < uncertain_at()
    assert "claim says weekly; evidence says monthly" in outcome.reasons


def test_rate_period_must_agree():
    outcome = check("The Pro plan costs $12 per year.", PLANS)
    assert outcome.score < uncertain_at()
    assert "claim says $12 per year; evidence says $12 per month" in outcome.reasons


def test_what_a_rate_is_per_must_agree_beside_its_period():
    outcome = check("The Team plan costs $18 per team per month.", PLANS)
    assert outcome.score < uncertain_at()
    assert any(r.startswith("claim says $18 per team per month; evidence says $18 per user per month")
               for r in outcome.reasons), outcome.reasons
    assert check("The Team plan costs $18 per user per month.", PLANS).score >= supported_at()


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        ("Average hourly earnings fell by 9 cents to $33.18.", "claim says a decrease to/by 9 cents"),
        ("Passwords must be at most 14 characters long.", "claim says at most 14 characters long"),
        ("Passwords must be no more than 14 characters long.", "claim says at most 14 characters long"),
        ("Lost laptops must be reported no sooner than 2 hours after the loss.", "claim says at least 2 hours"),
    ],
)
def test_direction_flip_is_contradicted(claim, reason):
    outcome = check(claim, REPORT, POLICY)
    assert outcome.score < uncertain_at()
    assert any(r.startswith(reason) for r in outcome.reasons), outcome.reasons


def test_direction_words_without_numbers_must_agree():
    evidence = "Pluto is slightly less massive than Eris and much smaller than the inner planets."
    assert check("Pluto is slightly less massive than Eris.", evidence).score >= supported_at()
    flipped = check("Pluto is slightly more massive than Eris.", evidence)
    assert flipped.score < uncertain_at()
    assert "claim says 'more'; evidence says 'less'" in flipped.reasons


@pytest.mark.parametrize(
    "claim",
    [
        "SMS codes are accepted as a second factor.",
        "Refunds are available for add-ons.",
        "Refunds are not available within 14 days of the charge.",
    ],
)
def test_negation_mismatch_is_contradicted(claim):
    outcome = check(claim, PLANS, POLICY)
    assert outcome.score < uncertain_at(), outcome.reasons
    assert any("negates" in r for r in outcome.reasons), outcome.reasons


def test_a_second_negation_the_evidence_lacks_is_contradicted():
    """Both sentences negate "extra approval"; only the claim negates "exceeded"."""
    evidence = "During major trade fairs the cap may be exceeded by up to 25 percent without extra approval."
    outcome = check("During major trade fairs the cap may not be exceeded by up to 25 percent without extra approval.",
                    evidence)
    assert outcome.score < uncertain_at()
    assert "claim negates 'exceeded'; evidence does not" in outcome.reasons
    assert check(evidence, evidence).score >= supported_at()


def test_a_negation_of_what_the_evidence_never_says_is_no_contradiction():
    """The evidence shares one word of what the claim denies ("cutting"): it says nothing of covering the molding,
    so there is nothing the claim contradicts (the missing words are for coverage to weigh)."""
    evidence = "Here is a cheat sheet to help you miter cut your baseboards based on the corner type you need."
    outcome = check("The cheat sheet helps you miter cut baseboards, but it does not cover cutting the molding itself.",
                    evidence)
    assert not any(f.kind is FindingKind.NEGATION for f in outcome.findings), outcome.reasons
    denied = check("The cheat sheet does not help you miter cut your baseboards.", evidence)
    assert "claim negates 'help miter cut baseboards'; evidence does not" in denied.reasons


def test_a_negation_written_without_its_apostrophe_is_a_negation():
    evidence = "Very important: you dont resize the downloaded photo for the printer software."
    assert check("It is important not to resize the downloaded photo for the printer software.",
                 evidence).score >= supported_at()
    flipped = check("You should resize the downloaded photo for the printer software.", evidence)
    assert any(f.kind is FindingKind.NEGATION for f in flipped.findings), flipped.reasons


def test_one_negation_placed_elsewhere_is_a_rewording():
    outcome = check("No refunds are given for partial months.", "Refunds are not given for partial months.")
    assert not any(f.kind is FindingKind.NEGATION for f in outcome.findings), outcome.reasons


def test_matching_negation_is_supported():
    assert check("SMS codes are not accepted as a second factor.", POLICY).score >= supported_at()
    assert check("SMS codes aren't accepted as a second factor.", POLICY).score >= supported_at()


ESTABLISHMENT = ("Total nonfarm payroll employment increased by 236,000 in March, compared with the average monthly "
                 "gain of 334,000 over the prior 6 months.")


def test_a_word_inside_a_longer_word_is_not_its_antonym():
    """"unemployment" holds "employment" behind a negating prefix, but it names a thing of its own: the claim's
    "unemployment was 3.5 percent" and the evidence's "payroll employment increased" stand in different places."""
    outcome = check("Payrolls rose by 236,000 and unemployment was 3.5 percent.", ESTABLISHMENT)
    assert not any(f.kind is FindingKind.NEGATION for f in outcome.findings), outcome.reasons
    assert verdict_for(score=outcome.score, findings=outcome.findings, has_evidence=True) != "contradicted"
    assert not any(f.is_contradiction for f in check("Unemployment was 3.5 percent in March.", REPORT).findings)


@pytest.mark.parametrize(("claim", "evidence", "reason"), [
    ("Parental leave is unpaid.", "Parental leave is paid.", "claim says 'unpaid'; evidence says 'paid'"),
    ("Parental leave is paid.", "Parental leave is unpaid.", "claim says 'paid'; evidence says 'unpaid'"),
    ("The unemployment rate was 3.5 percent.", "The employment rate was 3.5 percent.",
     "claim says 'unemployment'; evidence says 'employment'"),
    ("Annual plans are refundable within 30 days.", "Annual plans are non-refundable within 30 days.",
     "claim says 'refundable'; evidence says 'non-refundable'"),
])
def test_a_prefixed_opposite_in_the_same_place_is_contradicted(claim, evidence, reason):
    outcome = check(claim, evidence)
    assert reason in outcome.reasons
    assert verdict_for(score=outcome.score, findings=outcome.findings, has_evidence=True) == "contradicted"


def test_entity_not_in_evidence_is_caught():
    outcome = check("The company is headquartered in Seattle.", POLICY)
    assert outcome.score < uncertain_at()
    assert "'Seattle' not in evidence" in outcome.reasons


def test_entity_in_the_wrong_role_is_caught():
    supported = check("The company has satellite offices in New York City and London.", POLICY)
    assert supported.score >= supported_at()
    swapped = check("The company is headquartered in New York City.", POLICY)
    assert swapped.score < uncertain_at()
    assert "claim names 'New York City' where evidence names 'San Francisco'" in swapped.reasons


def test_hard_findings_hold_even_with_perfect_similarity():
    for claim in (
        "Average hourly earnings fell by 9 cents to $33.18.",
        "SMS codes are accepted as a second factor.",
        "The company is headquartered in Seattle.",
    ):
        assert check(claim, REPORT, POLICY, embed=identical_embed).score < uncertain_at(), claim


def test_unsupported_addition_lowers_the_score():
    addition = "Average hourly earnings rose by 9 cents to $33.18, driven by overtime bonuses."
    outcome = check(addition, REPORT)
    assert outcome.score < supported_at()
    assert any(r.startswith("not found in evidence:") and "overtime" in r for r in outcome.reasons)

    extra_number = check("Average hourly earnings rose by 9 cents to $33.18, a 4 percent gain.", REPORT)
    assert extra_number.score < uncertain_at()
    assert "4 percent not in evidence" in extra_number.reasons


def test_wrong_date_is_contradicted():
    outcome = check("The spacecraft flew past the dwarf planet on July 14, 2016.", REPORT)
    assert outcome.score < uncertain_at()
    assert "claim says July 14, 2016; evidence says July 14, 2015" in outcome.reasons
    assert check("The spacecraft flew past the dwarf planet in July 2015.", REPORT).score >= supported_at()


@pytest.mark.parametrize(("claim", "evidence"), [
    ("The forecast for April calls for rain in Stuttgart.", "Stuttgart weather forecast for Apr: rain most days."),
    ("Enrolment closes in September.", "Enrolment closes in Sept."),
])
def test_a_month_written_short_is_the_month(claim, evidence):
    outcome = check(claim, evidence)
    assert not any(f.kind in (FindingKind.MISSING_QUANTITY, FindingKind.QUANTITY_MISMATCH) for f in outcome.findings)
    assert any(r.endswith("matches evidence") for r in outcome.reasons), outcome.reasons
    later = check(claim.replace("April", "June").replace("September", "October"), evidence)
    assert later.score < uncertain_at(), later.reasons  # another month is still another month


def test_best_candidate_is_pinned_and_quote_offsets_slice_the_text():
    evidence = (POLICY, REPORT, PLANS)
    outcome = check("Refunds are available within 14 days of the charge.", *evidence)
    assert outcome.candidate_index == 2
    assert quote(outcome, *evidence) == "**Refunds** are available within 14 days of the charge."


def test_embedder_is_called_once_per_claim():
    calls: list[int] = []

    def counting_embed(queries: list[str], passages: list[str]) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(queries) + len(passages))
        return bag_of_words_embed(queries, passages)

    check("The unemployment rate was 3.5 percent.", REPORT, PLANS, POLICY, embed=counting_embed)
    assert len(calls) == 1


def test_empty_evidence_text_does_not_break():
    outcome = check("The rate was 3.5 percent.", "", "   ")
    assert outcome.score < uncertain_at()


LISTED = (
    "The unemployment rates for adult men (3.4 percent), adult women (3.1 percent), teenagers (9.8 percent), "
    "and Asians (2.8 percent) showed little or no change over the month."
)
PREMIUM = "* The company pays 100% of the premium for employees and 50% of the premium for dependents."
APPROVALS = (
    "- Trips from $2,000 to $10,000 are approved by a department director.\n"
    "- Trips over $10,000 are approved by the Chief Financial Officer."
)


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        ("The unemployment rate for adult women was 3.1 percent.", LISTED),
        ("Asians had an unemployment rate of 2.8 percent.", LISTED),
        ("The company pays half of the premium for dependents.", PREMIUM),
        ("Trips over $10,000 are approved by the Chief Financial Officer.", APPROVALS),
    ],
)
def test_listed_values_bind_to_their_own_label(claim, evidence):
    assert check(claim, evidence).score >= supported_at()


@pytest.mark.parametrize(
    ("claim", "evidence", "reason"),
    [
        ("The unemployment rate for adult women was 3.4 percent.", LISTED,
         "claim says 3.4 percent; evidence says 3.1 percent"),
        ("The company pays 50% of the premium for employees.", PREMIUM,
         "claim says 50 percent; evidence says 100 percent"),
        ("The company pays 100% of the premium for dependents.", PREMIUM,
         "claim says 100 percent; evidence says 50 percent"),
    ],
)
def test_a_listed_value_under_another_label_is_contradicted(claim, evidence, reason):
    outcome = check(claim, evidence)
    assert outcome.score < uncertain_at()
    assert reason in outcome.reasons


def test_swapped_pairs_are_contradicted():
    evidence = "Full-disk encryption is mandatory: BitLocker on Windows and FileVault on macOS."
    assert check("Full-disk encryption uses BitLocker on Windows.", evidence).score >= supported_at()
    swapped = check("Full-disk encryption uses FileVault on Windows.", evidence)
    assert swapped.score < uncertain_at()
    assert "claim pairs 'FileVault on Windows'; evidence pairs 'FileVault on macOS' and 'BitLocker on Windows'" \
        in swapped.reasons


def test_an_appended_unsupported_phrase_cannot_pass():
    evidence = "Paris has a nightly hotel cap of €230. London hotels are capped at £220 per night."
    assert check("Paris has a nightly hotel cap of €230.", evidence).score >= supported_at()
    added = check("Paris has a nightly hotel cap of €230, which includes breakfast.", evidence)
    assert added.score < supported_at()
    assert "'which includes breakfast' not in evidence" in added.reasons


def test_the_last_of_two_alternative_quantities_is_no_appended_phrase():
    evidence = "Refunds take one or two days."
    stated = check("Refunds take one or two days.", evidence)
    assert stated.score >= supported_at(), stated.reasons
    assert not any("not in evidence" in reason for reason in stated.reasons)
    assert check("Refunds take one or two weeks.", evidence).score < uncertain_at()


def test_an_invented_last_list_member_cannot_pass():
    evidence = "Version 4.0 is planned for 2026 and will add real-time whiteboards."
    assert check("Version 4.0 is planned for 2026 and will add real-time whiteboards.", evidence).score \
        >= supported_at()
    added = check("Version 4.0 is planned for 2026 and will add real-time whiteboards and video calls.", evidence)
    assert added.score < supported_at()
    assert "'and video calls' not in evidence" in added.reasons
    reworded = check("Version 4.0 is planned for 2026 and will add whiteboards and real-time work.", evidence)
    assert not any(r.startswith("'and real-time work'") for r in reworded.reasons)  # "real-time" is in evidence


def test_an_invented_superlative_cannot_pass():
    evidence = "The labor force participation rate, at 62.6 percent, continued to trend up in March."
    outcome = check("The participation rate rose to 62.6 percent in March, its highest level.", evidence)
    assert outcome.score < supported_at()
    assert "'highest' not in evidence" in outcome.reasons


def test_heading_words_count_as_the_chunks_but_are_never_quoted():
    text = "* Employees are eligible to participate after 90 days of service."
    claim = "Employees are eligible to participate in the retirement savings plan after 90 days of service."
    plain = rules_check(claim=claim, candidates=[EvidenceCandidate(text)], embed=bag_of_words_embed)
    headed_candidate = EvidenceCandidate(text, heading="Benefits > Retirement savings plan")
    headed = rules_check(claim=claim, candidates=[headed_candidate], embed=bag_of_words_embed)
    assert plain.score < supported_at() <= headed.score
    assert text[headed.quote_start : headed.quote_end] == text[2:]


def test_headings_never_vouch_for_values():
    candidate = EvidenceCandidate("The report covers the month.", heading="Jobs report > March 2023")
    outcome = rules_check(claim="The report covers March 2024.", candidates=[candidate], embed=bag_of_words_embed)
    assert outcome.score < uncertain_at()


def test_negating_one_member_of_a_list_is_contradicted():
    evidence = "* Coverage includes medical, dental, and vision."
    outcome = check("Health coverage does not include vision.", evidence)
    assert outcome.score < uncertain_at()
    assert "claim negates 'vision'; evidence does not" in outcome.reasons


def test_paraphrased_light_verbs_are_not_substitutions():
    evidence = "The New Horizons mission made a flyby on July 14, 2015, taking detailed measurements and observations."
    outcome = check("New Horizons took detailed measurements and observations during its flyby.", evidence)
    assert outcome.score >= supported_at()
    assert not any(r.startswith("claim says '") for r in outcome.reasons), outcome.reasons


GRIEVANCE = "If a dispute arises, the employee must follow the company's grievance procedure."


def test_a_word_swapped_between_the_same_neighbours_is_contradicted():
    outcome = check("If a dispute arises, the employee must follow the company's arbitration procedure.", GRIEVANCE)
    assert outcome.score < uncertain_at()
    assert "claim says 'company's arbitration procedure'; evidence says 'company's grievance procedure'" \
        in outcome.reasons


def test_the_last_list_member_swapped_is_contradicted():
    evidence = "* Audits are used to check invoices, contracts, and travel receipts."
    outcome = check("Audits are used to check invoices, contracts, and expense reports.", evidence)
    assert outcome.score < uncertain_at()
    assert "claim says 'contracts , and expense reports'; evidence says 'contracts , and travel receipts'" \
        in outcome.reasons


def test_a_slot_reworded_in_similar_words_is_no_swap():
    # identical_embed says the two words mean the same: a rewording, as "individual file" / "single file"
    outcome = check("If a dispute arises, the employee must follow the company's arbitration procedure.", GRIEVANCE,
                    embed=identical_embed)
    assert outcome.score >= supported_at()


def test_a_reworded_verb_is_no_slot_swap():
    outcome = check("Employees may take legal action.", "Employees may pursue legal action.")
    assert not any("claim says 'Employees" in r for r in outcome.reasons), outcome.reasons


MOONS = "The planet Vega has three moons: Ardo, Bex, and Corin. Vega and Ardo are sometimes considered a double system."


def test_a_name_moved_in_from_another_sentence_is_contradicted():
    outcome = check("Vega and Bex are sometimes considered a double system.", MOONS)
    assert outcome.score < uncertain_at()
    assert "claim names 'Bex' where evidence names 'Ardo'" in outcome.reasons


def test_names_listed_together_share_a_role_given_by_a_pronoun():
    evidence = ("Ardo's orbit sometimes brings it closer to the star Vega than Corin, but a stable resonance "
                "prevents them from colliding.")
    outcome = check("A stable resonance prevents Ardo and Corin from colliding.", evidence)
    assert not any(r.startswith("claim names") for r in outcome.reasons), outcome.reasons
    assert outcome.score >= supported_at()


FILES = "Free accounts can attach files of up to 25 MB each. On every paid plan a single file can be up to 2 GB."
PER_DIEM = "The domestic per diem is $65 per day and the international per diem is $95 per day."


@pytest.mark.parametrize(("claim", "evidence", "reason"), [
    ("Paid accounts can attach files of up to 25 MB each.", FILES, "claim says 'Paid'; evidence says 'Free'"),
    ("The domestic per diem is $65 per day and the domestic per diem is $95 per day.", PER_DIEM,
     "claim says 'domestic'; evidence says 'international'"),
    ("Trips over $10,000 are rejected by the Chief Financial Officer.",
     "Trips over $10,000 are approved by the Chief Financial Officer.", "claim says 'rejected'; evidence says 'approved'"),
    ("Refunds are not available for full months.", "Refunds are not available for partial months.",
     "claim says 'full'; evidence says 'partial'"),
])
def test_an_opposite_in_the_same_slot_is_contradicted(claim, evidence, reason):
    outcome = check(claim, evidence)
    assert outcome.score < uncertain_at()
    assert reason in outcome.reasons


@pytest.mark.parametrize(("claim", "evidence"), [
    ("Free accounts can attach files of up to 25 MB each.", FILES),  # "paid" is there, in another slot
    ("The international per diem is $95 per day.", PER_DIEM),
    ("The domestic per diem is $65 per day.", PER_DIEM),
])
def test_an_opposite_elsewhere_in_the_evidence_is_no_contradiction(claim, evidence):
    outcome = check(claim, evidence)
    assert outcome.score >= supported_at(), outcome.reasons


MEALS = "When a meal is provided by a client, the per diem is reduced by $15 for lunch and $25 for dinner."


@pytest.mark.parametrize("claim", [
    "When a meal is provided by a client, the per diem is reduced by $25 for lunch and $15 for dinner.",
    "The domestic per diem is $95 per day and the international per diem is $65 per day.",
])
def test_listed_values_in_each_others_places_are_a_role_swap(claim):
    outcome = check(claim, MEALS, PER_DIEM)
    assert outcome.score < uncertain_at()
    assert any(f.kind is FindingKind.ROLE_SWAP for f in outcome.findings), outcome.reasons


@pytest.mark.parametrize("claim", [
    "The per diem is reduced by $25 for dinner and $15 for lunch when a client provides the meal.",
    "The international per diem is $95 per day and the domestic per diem is $65 per day.",
])
def test_a_reordered_list_keeps_its_roles(claim):
    outcome = check(claim, MEALS, PER_DIEM)
    assert outcome.score >= supported_at(), outcome.reasons


@pytest.mark.parametrize(("heading", "supported"), [
    ("Lumen FAQ > Company", True),  # the section went on in the next chunk
    ("Travel Policy > Hotels", False),  # another document lends the number
])
def test_a_missing_fact_is_joined_only_from_the_same_section(heading, supported):
    candidates = [EvidenceCandidate("Lumen Labs is headquartered in Lisbon, Portugal.", heading="Lumen FAQ > Company"),
                  EvidenceCandidate("The office was founded in 2019 near the river.", heading=heading)]
    outcome = rules_check(claim="Lumen Labs is headquartered in Lisbon, Portugal, and was founded in 2019.",
                          candidates=candidates, embed=bag_of_words_embed)
    assert (outcome.score >= supported_at()) is supported, outcome.reasons


REPORTS = ("Reports submitted more than 60 days after the trip are not reimbursed. Approved expenses are paid with "
           "the next monthly payroll run.")


def test_a_negation_ends_where_and_starts_another_clause():
    joined = ("Reports submitted more than 60 days after the trip are not reimbursed and approved expenses are paid "
              "with the next monthly payroll run.")
    outcome = check(joined, REPORTS)
    assert outcome.score >= supported_at(), outcome.reasons
    # without a verb of its own, what follows "and" is another member of the negated list
    listed = check("Coverage does not include dental and vision.", "* Coverage includes medical, dental, and vision.")
    assert "claim negates 'dental vision'; evidence does not" in listed.reasons, listed.reasons


COBRA = "ABC Company will provide information about COBRA benefits to employees who are terminated."


@pytest.mark.parametrize(("claim", "evidence"), [
    ("COBRA will provide information about ABC Company benefits to employees who are terminated.", COBRA),
    ("The company is headquartered in London, with satellite offices in New York City and San Francisco.", POLICY),
])
def test_two_names_in_each_others_places_are_a_role_swap(claim, evidence):
    outcome = check(claim, evidence)
    assert outcome.score < uncertain_at()
    assert any(f.kind is FindingKind.ROLE_SWAP for f in outcome.findings), outcome.reasons


@pytest.mark.parametrize(("claim", "evidence"), [
    ("Terminated employees get information about COBRA benefits from ABC Company.", COBRA),
    ("The company has satellite offices in London and New York City and is headquartered in San Francisco.", POLICY),
])
def test_names_in_their_own_places_are_no_role_swap(claim, evidence):
    outcome = check(claim, evidence)
    assert not any(f.kind is FindingKind.ROLE_SWAP for f in outcome.findings), outcome.reasons
    assert outcome.score >= supported_at(), outcome.reasons


def test_a_comparison_between_two_values_is_a_direction_of_its_own():
    evidence = "Retail trade added 20,000 jobs in May, lower than its average monthly gain of 30,000 last year."
    flipped = rules_check(claim="Retail trade added 20,000 jobs, higher than its average monthly gain of 30,000.",
                          candidates=[EvidenceCandidate(evidence)], embed=None)
    assert "claim says 'higher'; evidence says 'lower'" in flipped.reasons
    same = rules_check(claim="Retail trade added 20,000 jobs, lower than its average monthly gain of 30,000.",
                       candidates=[EvidenceCandidate(evidence)], embed=None)
    assert not any(f.kind is FindingKind.DIRECTION for f in same.findings), same.reasons  # "lower" is no fall


def test_a_time_before_or_after_an_event_is_not_a_window_up_to_it():
    evidence = "When someone leaves, their access is revoked within 4 hours of their last working hour."
    outcome = check("Their access is revoked 4 hours before their last working hour.", evidence)
    assert outcome.score < uncertain_at()
    assert "claim says 4 hours before; evidence says at most 4 hours" in outcome.reasons
    assert check("Their access is revoked within 4 hours of their last working hour.", evidence).score >= supported_at()
    assert check("Their access is revoked no later than 4 hours after their last working hour.",
                 evidence).score >= supported_at()


def test_a_negation_after_a_copula_with_nothing_after_it_denies_its_subject():
    """"(live chat isn't included)": what is denied is the clause's own words before it; a negation with content
    after it ("are not needed for meals") keeps its scope."""
    evidence = "Pro: email and live chat support, Monday to Friday."
    outcome = check("On Pro you get email support only (live chat isn't included), Monday to Friday.", evidence)
    assert outcome.score < uncertain_at()
    assert any(r.startswith("claim negates") for r in outcome.reasons), outcome.reasons
    assert check("On Pro you get email and live chat support, Monday to Friday.", evidence).score >= supported_at()
