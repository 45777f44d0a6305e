"""The words and patterns of quantities: number, ordinal and scale words, currencies, units with their
conversion factors, months and weekdays, bound phrases ("at least", "up to") and hedges ("about").
English, with the Chinese words of the same roles taken in from the language layer (checking.languages.zh)."""

from __future__ import annotations

import re

from checking.languages import zh as _chinese
from checking.languages import zh_numbers

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12,
}
ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
    "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
    "hundredth": 100,
}
FRACTION_DENOMINATORS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4, "fourths": 4,
    "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8,
    "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10,
}
SCALE_WORDS = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12,
               **_chinese.SCALE_WORDS}
SCALE_SUFFIXES = {"k": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "mln": 1e6, "bn": 1e9, "b": 1e9, "tn": 1e12}
CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}
CURRENCY_CODES = {"usd": "USD", "eur": "EUR", "gbp": "GBP", "jpy": "JPY", "cad": "CAD", "aud": "AUD",
                   "chf": "CHF", "inr": "INR", "cny": "CNY"}
MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4,
    "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
MAY_CUES = frozenset({"in", "of", "by", "since", "until", "from", "early", "late", "mid", "through", "on", "before",
                       "after", "during", "last", "next", "this"})
WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}

# unit word -> (kind, factor to the kind's base unit)
UNITS: dict[str, tuple[str, float]] = {
    "%": ("percent", 1), "percent": ("percent", 1), "pct": ("percent", 1), "percentage": ("percent", 1),
    "dollar": ("money:USD", 1), "buck": ("money:USD", 1), "cent": ("money:USD", 0.01),
    "euro": ("money:EUR", 1), "yen": ("money:JPY", 1), "rupee": ("money:INR", 1),
    "second": ("duration:s", 1), "sec": ("duration:s", 1), "minute": ("duration:s", 60), "min": ("duration:s", 60),
    "hour": ("duration:s", 3600), "hr": ("duration:s", 3600), "day": ("duration:s", 86400),
    "week": ("duration:s", 604800), "wk": ("duration:s", 604800), "fortnight": ("duration:s", 1209600),
    "month": ("duration:mo", 1), "mo": ("duration:mo", 1), "year": ("duration:mo", 12), "yr": ("duration:mo", 12),
    "decade": ("duration:mo", 120), "century": ("duration:mo", 1200), "night": ("duration:night", 1),
    "byte": ("data", 1), "kb": ("data", 1e3), "kilobyte": ("data", 1e3), "mb": ("data", 1e6),
    "megabyte": ("data", 1e6), "gb": ("data", 1e9), "gigabyte": ("data", 1e9), "tb": ("data", 1e12),
    "terabyte": ("data", 1e12), "pb": ("data", 1e15), "petabyte": ("data", 1e15),
    "mm": ("length:m", 1e-3), "millimeter": ("length:m", 1e-3), "millimetre": ("length:m", 1e-3),
    "cm": ("length:m", 1e-2), "centimeter": ("length:m", 1e-2), "centimetre": ("length:m", 1e-2),
    "meter": ("length:m", 1), "metre": ("length:m", 1), "km": ("length:m", 1e3), "kilometer": ("length:m", 1e3),
    "kilometre": ("length:m", 1e3), "mile": ("length:mi", 1), "mi": ("length:mi", 1),
    "foot": ("length:mi", 1 / 5280), "ft": ("length:mi", 1 / 5280), "yard": ("length:mi", 1 / 1760),
    "inch": ("length:mi", 1 / 63360), "au": ("length:au", 1), "light-year": ("length:ly", 1),
    "mg": ("mass:g", 1e-3), "gram": ("mass:g", 1), "kg": ("mass:g", 1e3), "kilogram": ("mass:g", 1e3),
    "tonne": ("mass:g", 1e6), "lb": ("mass:lb", 1), "lbs": ("mass:lb", 1), "pound": ("mass:lb", 1),
    "ounce": ("mass:lb", 1 / 16), "oz": ("mass:lb", 1 / 16), "mph": ("speed:mph", 1), "kph": ("speed:kmh", 1),
    "celsius": ("temp:C", 1), "fahrenheit": ("temp:F", 1), "kelvin": ("temp:K", 1),
    **zh_numbers.UNITS,
}
TIME_UNITS = frozenset({"second", "minute", "hour", "day", "week", "month", "year", "night", "quarter", "decade"})
PER_YEAR = {"hour": 8760.0, "day": 365.0, "week": 52.0, "month": 12.0, "quarter": 4.0, "year": 1.0}
FREQUENCY_ADVERBS = {"hourly": 8760.0, "daily": 365.0, "weekly": 52.0, "biweekly": 26.0, "fortnightly": 26.0,
                      "monthly": 12.0, "quarterly": 4.0, "biannually": 2.0, "semiannually": 2.0, "annually": 1.0,
                      "yearly": 1.0}
TIMES = {"once": 1.0, "twice": 2.0, "thrice": 3.0}
ADVERB_RATES = {"monthly": "month", "annually": "year", "yearly": "year", "weekly": "week", "daily": "day",
                 "hourly": "hour", "nightly": "night", "quarterly": "quarter"}


def _longest_first(*phrases: tuple[tuple[str, ...], int]) -> tuple[tuple[tuple[str, ...], int], ...]:
    """A phrase table read longest phrase first: "no more than" is not the "more than" it ends with."""
    return tuple(sorted(phrases, key=lambda phrase: -len(phrase[0])))


# Words a number after which names a source, not a quantity: "passage 2", "source 3", 段落二.
REFERENCE_WORDS = frozenset({"passage", "passages", "source", "sources", "document", "documents", "reference",
                             "references", "excerpt", "excerpts", "snippet", "snippets", *_chinese.REFERENCE_WORDS})
ARTICLE_NUMERALS = _chinese.ARTICLE_NUMERALS  # numerals written as an article: a one that states no fact
BOUNDS_BEFORE: tuple[tuple[tuple[str, ...], int], ...] = _longest_first(
    (("no", "less", "than"), 1), (("not", "less", "than"), 1), (("no", "fewer", "than"), 1), (("at", "least"), 1),
    (("minimum", "of"), 1), (("a", "minimum", "of"), 1), (("minimum",), 1), (("min",), 1), (("more", "than"), 2),
    (("greater", "than"), 2), (("longer", "than"), 2), (("over",), 2), (("above",), 2), (("exceeding",), 2),
    (("beyond",), 2), (("upwards", "of"), 1), (("no", "sooner", "than"), 1), (("no", "earlier", "than"), 1),
    (("not", "before"), 1), (("after",), 2), (("before",), -2), (("no", "more", "than"), -1),
    (("not", "more", "than"), -1),
    (("no", "later", "than"), -1), (("no", "longer", "than"), -1), (("at", "most"), -1), (("up", "to"), -1),
    (("maximum", "of"), -1), (("a", "maximum", "of"), -1), (("maximum",), -1), (("max",), -1), (("within",), -1),
    (("capped", "at"), -1), (("a", "cap", "of"), -1), (("limited", "to"), -1),
    (("not", "exceed"), -1), (("not", "to", "exceed"), -1), (("as", "many", "as"), -1), (("as", "much", "as"), -1),
    (("less", "than"), -2), (("fewer", "than"), -2), (("shorter", "than"), -2), (("under",), -2), (("below",), -2),
    *_chinese.BOUNDS_BEFORE,
)
BOUNDS_AFTER: tuple[tuple[tuple[str, ...], int], ...] = _longest_first(
    (("or", "more"), 1), (("or", "longer"), 1), (("or", "above"), 1), (("or", "higher"), 1), (("and", "up"), 1),
    (("or", "greater"), 1), (("+",), 1), (("or", "less"), -1), (("or", "fewer"), -1), (("or", "under"), -1),
    (("or", "below"), -1), (("or", "lower"), -1), (("or", "shorter"), -1),
    *_chinese.BOUNDS_AFTER,
)
RATE_WORDS = _chinese.RATE_WORDS  # written before the number
RATE_REACH = _chinese.RATE_REACH
# "You have 30 days (from the end of the trip) to file it", "you've got one hour to report it": a time allowed is
# at most that long, as "within 30 days" is.
ALLOWANCE_VERBS = frozenset({"have", "has", "had", "got", "you've", "you’ve", "we've", "they've"})
ALLOWANCE_REACH = 10  # tokens after the duration within which its "to <verb>" comes
HEDGES = (("about",), ("approximately",), ("approx",), ("around",), ("roughly",), ("nearly",), ("almost",),
           ("some",), ("close", "to"), ("just", "over"), ("just", "under"), ("an", "estimated"), ("estimated",),
           ("~",), ("circa",), ("just",))
PERIOD_VERB = re.compile(r"(?:ed|ing)$|^(?:vests?|spreads?|pays?|repays?|runs?|lasts?|takes?|grows?|accrues?|"
                          r"amortizes?|happens?|occurs?)$")
# "over" as the particle of these verbs moves what follows, it bounds nothing: "carry over 5 days" carries 5 days.
OVER_PARTICLE_VERB = re.compile(r"^(?:carr(?:y|ies|ied|ying)|roll(?:s|ed|ing)?)$")
RANGE_WORDS = frozenset({"to", "-", "–", "through"})
# "2 or 3 minutes": the near number of two alternatives takes the far one's unit, as a range's near end does.
ALTERNATIVE_WORDS = frozenset({"or"})
# "raised from $20 to $25", "由四百元下调至三百五十元": the value after a from-word is what a change left behind.
CHANGE_ORIGIN_WORDS = frozenset({"from", *_chinese.CHANGE_ORIGIN_WORDS})
CHANGE_TARGET_WORDS = frozenset({"to", *_chinese.CHANGE_TARGET_WORDS})
TIME_OF_DAY = re.compile(
    r"(?<![0-9.:])([0-9]{1,2})(?::([0-5][0-9]))?\s?([AaPp])\.?\s?[Mm]\b\.?"
    r"|(?<![0-9.:])([01]?[0-9]|2[0-3]):([0-5][0-9])(?![0-9:])"
    r"|\b(noon|midday|midnight)\b",
    re.IGNORECASE,
)
ISO_DATE = re.compile(r"\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b")
