"""What two disagreeing quotes say differently: the marked words and the sentence naming both values."""

from review.conflicts import disagreement_sentence, quote_difference


def _marked(pieces) -> list[str]:
    return [p.text for p in pieces if p.differs]


def test_a_different_number_is_marked_and_keeps_its_unit_in_the_sentence():
    difference = quote_difference(first="Annual subscriptions can be refunded within 30 days of purchase.",
                                  second="Annual subscriptions can be refunded within 45 days of purchase.")

    assert (_marked(difference.first), _marked(difference.second)) == (["30"], ["45"])
    assert (difference.first_says, difference.second_says) == ("30 days", "45 days")
    assert disagreement_sentence(first_source="FAQ v1", second_source="Refund policy v2", difference=difference) \
        == "Approved sources disagree: FAQ v1 says 30 days; Refund policy v2 says 45 days."


def test_the_pieces_put_together_are_the_quote_again():
    first = "Support: Monday  through Friday, 8:00 a.m.–6:00 p.m. (CET)"
    second = "Support: Monday through Saturday, 9:00 a.m.–6:00 p.m. (CET)"
    difference = quote_difference(first=first, second=second)

    assert "".join(p.text for p in difference.first) == first
    assert "".join(p.text for p in difference.second) == second
    assert _marked(difference.first) == ["Friday", "8:00"] and _marked(difference.second) == ["Saturday", "9:00"]


def test_a_word_is_a_value_too_and_a_preposition_is_no_unit():
    days = quote_difference(first="Support is open Monday through Friday.",
                            second="Support is open Monday through Saturday.")
    money = quote_difference(first="The per diem is $65 per day.", second="The per diem is $70 per day.")

    hyphenated = quote_difference(first="Annual plans have a 30-day refund window.",
                                  second="Annual plans have a 45-day refund window.")

    assert (days.first_says, days.second_says) == ("Friday", "Saturday")
    assert (money.first_says, money.second_says) == ("$65", "$70")
    assert (hyphenated.first_says, hyphenated.second_says) == ("30-day", "45-day")


def test_reworded_quotes_mark_only_the_numbers_one_lacks():
    difference = quote_difference(
        first="Refunds are available for 30 days.",
        second="Customers on annual plans may ask for their money back up to 45 days after they bought it.")

    assert (_marked(difference.first), _marked(difference.second)) == (["30"], ["45"])
    assert (difference.first_says, difference.second_says) == ("30 days", "45 days")


def test_a_few_short_differences_are_all_named_in_words():
    """Both values in words whatever else differs: the sentence names every short difference of each source."""
    difference = quote_difference(first="Refunds take 30 days and need a receipt from the shop.",
                                  second="Refunds take 45 days and need a photo from the shop.")
    hours = quote_difference(first="Support: Monday through Friday, 8:00 a.m.–6:00 p.m.",
                             second="Support: Monday through Saturday, 9:00 a.m.–6:00 p.m.")

    assert _marked(difference.first) == ["30", "receipt"]
    assert (difference.first_says, difference.second_says) == ("30 days, receipt", "45 days, photo")
    assert disagreement_sentence(first_source="A v1", second_source="B v3", difference=difference) \
        == "Approved sources disagree: A v1 says 30 days, receipt; B v3 says 45 days, photo."
    assert (hours.first_says, hours.second_says) == ("Friday, 8:00", "Saturday, 9:00")


def test_many_differences_name_the_sources_without_a_value():
    difference = quote_difference(first="Refunds take 30 days, need a receipt, go to a card and close in May.",
                                  second="Refunds take 45 days, need a photo, go to a bank and close in June.")

    assert difference.first_says == "" and difference.second_says == ""
    assert disagreement_sentence(first_source="A v1", second_source="B v3", difference=difference) \
        == "Approved sources disagree: A v1 and B v3 say different things about this claim."


def test_case_alone_is_no_difference():
    difference = quote_difference(first="Refunds within 30 days.", second="refunds within 30 Days.")

    assert _marked(difference.first) == [] and _marked(difference.second) == []
