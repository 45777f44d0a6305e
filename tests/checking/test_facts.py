"""checking.facts: a restatement of a reviewed fact is recognised, a changed fact never is."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checking.facts import Quantity, claim_fact, facts_restated

pytestmark = pytest.mark.django_db(databases=[])  # pure functions: no database

REVIEWED_EN = "International trips must be booked at least 21 days before departure."
REVIEWED_ZH = "在北京出差，住宿费每晚最高报销六百元。"


def _restates(claim: str, reviewed: str | list[str], *, grounded=()) -> bool:
    reviewed = [reviewed] if isinstance(reviewed, str) else reviewed
    return facts_restated([claim_fact(claim)], [claim_fact(text) for text in reviewed], grounded=grounded)


@pytest.mark.parametrize("claim", [
    REVIEWED_EN,
    "International trips must be booked 21 days or more before departure.",
    "You'll need to book international trips at least 21 days before departure.",
])
def test_a_restatement_in_other_words_restates_the_fact(claim):
    assert _restates(claim, REVIEWED_EN)


@pytest.mark.parametrize(("claim", "changed"), [
    ("International trips must be booked at least 14 days before departure.", "number"),
    ("International trips must be booked at least 21 weeks before departure.", "unit"),
    ("International trips must be booked at least 21 days after departure.", "direction"),
    ("International trips must be booked more than 21 days before departure.", "strict bound"),
    ("International trips must be booked no more than 21 days before departure.", "the other bound"),
    ("International trips must not be booked at least 21 days before departure.", "negation"),
    ("Domestic trips must be booked at least 21 days before departure.", "a word in another's place"),
    ("Trips must be booked at least 21 days before departure.", "what made it specific, dropped"),
])
def test_a_changed_fact_never_restates_it(claim, changed):
    assert not _restates(claim, REVIEWED_EN), changed


def test_a_name_only_one_of_them_writes_is_another_fact():
    reviewed = "The nightly hotel cap in New York is $325."
    assert _restates("In New York the hotel cap is $325 a night.", reviewed)
    assert not _restates("The nightly hotel cap in Boston is $325.", reviewed)
    assert not _restates("The nightly hotel cap is $325.", reviewed)


def test_a_rate_per_another_unit_is_another_fact():
    reviewed = "Driving your own car is reimbursed at $0.62 per mile."
    assert not _restates("Driving your own car is reimbursed at $0.62 per kilometer.", reviewed)


def test_a_claim_may_add_an_inclusive_bound_but_never_drop_one():
    def days(bound: int) -> Quantity:
        return Quantity(kind="duration:s", value="2592000.0", bound=bound, change=0)

    assert days(-1).agrees(days(0))  # "capped at 30 days" reviewed, "up to 30 days" claimed
    assert days(-1).agrees(days(-1))
    assert not days(0).agrees(days(-1))  # "within 30 days" reviewed; "once 30 days have passed" claimed
    assert not days(2).agrees(days(0))  # a strict bound is another fact either way
    assert not days(1).agrees(days(-1))


def test_words_of_the_source_may_be_added_other_words_may_not():
    reviewed = "Alcohol is not reimbursed."
    grounded = ["alcohol", "reimburs", "meal", "dinner", "customer"]
    assert _restates("Alcohol at dinners is not reimbursed.", reviewed, grounded=grounded)
    assert not _restates("Alcohol at parties is not reimbursed.", reviewed, grounded=grounded)


def test_two_reviewed_sentences_joined_in_one_claim_restate_both():
    reviewed = ["Domestic trips must be booked at least 14 days before departure.",
                "International trips must be booked at least 21 days before departure."]
    joined = "Domestic trips must be booked at least 14 days and international trips at least 21 days before departure."
    assert _restates(joined, reviewed)
    assert not _restates(joined.replace("21", "28"), reviewed)


@pytest.mark.parametrize("claim", ["在北京出差，住宿费每晚最高报销六百元。", "在北京出差时，住宿费每晚最高可报销六百元。"])
def test_a_chinese_restatement_restates_the_fact(claim):
    assert _restates(claim, REVIEWED_ZH)


@pytest.mark.parametrize(("claim", "changed"), [
    ("在北京出差，住宿费每晚最高报销五百元。", "number"),
    ("在上海出差，住宿费每晚最高报销六百元。", "name"),
    ("在北京出差，住宿费每晚最低报销六百元。", "direction"),
    ("在北京出差，住宿费每晚不予报销六百元。", "negation"),
    ("在北京出差，餐费每晚最高报销六百元。", "a word in another's place"),
])
def test_a_changed_chinese_fact_never_restates_it(claim, changed):
    assert not _restates(claim, REVIEWED_ZH), changed


@settings(max_examples=60, deadline=None)
@given(days=st.integers(min_value=1, max_value=400).filter(lambda n: n != 21))
def test_no_other_number_of_days_restates_the_fact(days):
    assert not _restates(f"International trips must be booked at least {days} days before departure.", REVIEWED_EN)


@pytest.mark.parametrize(("claim", "reviewed"), [
    ("Access is revoked 4 hours before the last working hour.", "Access is revoked within 4 hours of the last working hour."),
    ("Passwords can be no longer than 14 characters.", "Passwords must be at least 14 characters long."),
])
def test_a_direction_only_one_of_them_writes_is_another_fact(claim, reviewed):
    assert not _restates(claim, reviewed)


def test_the_checker_reading_the_reviewed_claim_as_evidence_finds_a_contradiction_in_context():
    from checking.facts import contradicted_by

    reviewed = "The domestic per diem is $65 per day."
    assert contradicted_by(["The domestic per diem is $75 per day."], [reviewed])
    assert not contradicted_by([reviewed], [reviewed])
    assert not contradicted_by(["The per diem for domestic travel is $65 per day."], [reviewed])


@pytest.mark.parametrize(("claim", "reviewed"), [
    ("Half of the daily rate is paid on the first day.", "50 percent of the daily rate is paid on the first day."),
    ("出发当天按全天标准的四分之三发放。", "出发当天按全天标准的百分之七十五发放。"),
])
def test_a_share_and_its_percentage_are_one_fact(claim, reviewed):
    assert claim_fact(claim).values == claim_fact(reviewed).values
    assert _restates(claim, reviewed)


# The source a reviewed claim was confirmed against, and the quote it rests on: fact_within reads a claim the checker
# already found supported by that quote.
SOURCE = ("Domestic trips must be booked at least 14 days before departure. International trips must be booked at "
          "least 21 days before departure. Rail travel is booked through SkyBridge.")
QUOTE = "International trips must be booked at least 21 days before departure."


def _within(claim: str, reviewed: str = QUOTE, *, source: str = SOURCE, quote: str = QUOTE) -> bool:
    from checking.facts import fact_within, text_stems

    return fact_within(claim_fact(claim), claim_fact(reviewed), grounded=text_stems(quote),
                       source_words=text_stems(source), source_text=source)


@pytest.mark.parametrize("claim", [
    "You have to book international trips at least 21 days before you leave.",  # "leave": no word of the source
    "International trips must be booked at least 21 days ahead.",  # a part of the fact
])
def test_a_claim_within_a_reviewed_fact_in_words_the_source_does_not_offer_is_within_it(claim):
    assert _within(claim)
    assert not _restates(claim, QUOTE)  # which the word rule alone would not let out


@pytest.mark.parametrize(("claim", "changed"), [
    ("You have to book international trips at least 14 days before you leave.", "number"),
    ("You have to book international trips at least 21 weeks before you leave.", "unit"),
    ("You have to book international trips at least 21 days after you leave.", "direction"),
    ("You do not have to book international trips 21 days before you leave.", "negation"),
    ("You have to book domestic trips at least 21 days before you leave.", "a word the source offers elsewhere"),
    ("You have to book rail trips at least 21 days before you leave.", "another word the source offers"),
    ("Hotels, cars and flights abroad need booking at least 21 days before you go.", "mostly other words"),
])
def test_a_changed_fact_is_never_within_it(claim, changed):
    assert not _within(claim), changed


def test_what_a_negation_is_said_of_is_the_reviewed_claims_to_say():
    reviewed = "无法安排调休的，按本人工资的百分之二百支付加班费。"
    source = f"休息日加班优先安排调休，调休须在加班之日起三个月内使用；{reviewed}"
    assert _within("不能安排调休的，按本人工资的百分之二百支付加班费。", reviewed, source=source, quote=reviewed)
    # the condition turned into a rule of its own, in words the source writes beside it
    assert not _within("休息日加班不安排调休，一律按本人工资的百分之二百支付加班费。", reviewed, source=source,
                       quote=source)


def test_one_word_is_within_no_fact():
    """A list's item ("the colon") states nothing on its own: which list it is in is the fact."""
    reviewed = "The colon portion lies in the lower left quadrant."
    assert not _within("The colon.", reviewed, source=reviewed, quote=reviewed)
    assert _within("Book them at least 21 days ahead.")  # a word and its quantity state something


@pytest.mark.parametrize(("claim", "reviewed"), [
    ("Report it within an hour of discovery.", "Report it within 1 hour of discovery."),  # an article's bound
    ("Passwords must be 14 characters or longer.", "Passwords must be at least 14 characters long."),
    ("Passwords must be fourteen characters or more.", "Passwords must be at least 14 characters long."),
    ("You have 30 days from the end of the trip to file the report.", "File the report within 30 days."),
    ("You've got one hour from discovery to report it.", "Report it within 1 hour of discovery."),
    ("Mileage is capped at 400 miles per trip.", "Mileage is paid up to 400 miles per trip."),
    ("Seat fees are reimbursed up to $40 per flight.", "Seat fees are paid up to $40 per flight."),
    ("Rooms are limited to 2 guests.", "Rooms take at most 2 guests."),
])
def test_a_bound_written_around_the_number_is_the_same_bound(claim, reviewed):
    assert claim_fact(claim).quantities[0].bound == claim_fact(reviewed).quantities[0].bound != 0


def test_a_negation_denies_what_came_before_when_nothing_follows_it():
    """"… is never allowed": what is denied is the clause's own words, not the light word after the cue."""
    fact = claim_fact("Copying it to removable media is never allowed.")
    assert fact.negates and {"copy", "media"} <= fact.negated


def test_every_word_of_the_fact_there_lets_a_word_the_source_writes_be_added():
    """"paid" where the source says "receive": no word of the fact has another in its place, and the checker found
    the rest at the quote; a word of the fact left out for one the source offers is another fact."""
    reviewed = "On the first day of a trip you receive 75 percent of the daily rate."
    source = f"{reviewed} Approved expenses are paid with the next payroll."
    assert _within("On the first day of a trip you are paid 75 percent of the daily rate.", reviewed,
                   source=source, quote=reviewed)
    assert not _within("On the first day of a payroll you are paid 75 percent of the daily rate.", reviewed,
                       source=source, quote=reviewed)  # "trip" left out, "payroll" in its place


def _parts(claim: str, reviewed: list[str], *, source: str) -> list[str] | None:
    from checking.facts import fact_within, parts_within, text_stems

    facts = [(text, claim_fact(text)) for text in reviewed]
    return parts_within(claim, language="en", within=lambda part, fact: next(
        (text for text, other in facts if fact_within(fact, other, grounded=text_stems(source),
                                                      source_words=text_stems(source), source_text=source)), None))


def test_a_claim_joining_two_facts_is_within_them_part_by_part():
    reviewed = ["The international per diem is $95 per day.", "The domestic per diem is $65 per day."]
    source = " ".join(reviewed)
    assert _parts("It's $95 per day internationally and $65 per day for domestic trips.", reviewed,
                  source=source) == reviewed
    # no part may be a bare item of a list or stand between alternatives: each states something on its own
    assert _parts("It's $95 per day internationally and $75 per day for domestic trips.", reviewed,
                  source=source) is None
    assert _parts("It's $95 or $65 per day for domestic trips.", reviewed, source=source) is None


@pytest.mark.parametrize("text", ["The year has 12 months.", "Employees have 10 days of annual leave.",
                                  "I have 3 children to feed."])
def test_having_a_quantity_is_no_time_allowed(text):
    """Only a duration someone has *to do* something in is at most that long."""
    assert all(q.bound == 0 for q in claim_fact(text).quantities)


@pytest.mark.parametrize(("cap", "change"), [
    ("Seat fees are reimbursed up to $40 per flight.", "The fee edged up to $40 per flight."),
    ("Refunds are paid up to $500.", "The rate ticked up to 4.1 percent."),
])
def test_a_verb_of_movement_moves_a_value_any_other_verb_before_up_to_caps_it(cap, change):
    capped, moved = claim_fact(cap), claim_fact(change)
    assert (capped.quantities[0].bound, capped.quantities[0].change, capped.directions) == (-1, 0, frozenset())
    assert (moved.quantities[0].bound, moved.quantities[0].change) == (0, 1)
