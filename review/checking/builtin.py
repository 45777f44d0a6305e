"""The built-in claim checker: offline, explainable, no model needed beyond an optional embedder.

A claim is compared with each evidence candidate (a KB chunk or a context string):

1. The candidate is cut into units (sentences, list items, table rows read with their
   header). The units sharing most with the claim seed windows of up to three nearby
   units; a window is what gets quoted.
2. Hard checks. Quantities (counts, money, percentages, durations, sizes, lengths,
   dates, times of day; scale words, "%"/"percent", "$1,200"/"1200 dollars", unit
   conversions) are bound to the like quantity of the candidate that sits in the most
   similar wording; a different value there is a contradiction, a value nowhere an
   unsupported addition. Directions (rose/fell, more/less, at least/at most), negation
   and antonyms, and names (absent, or in another name's place) are checked likewise. Members of a
   listed series bind by their own labels ("men (3.4 percent), women (3.1 percent)"), swapped pairs
   ("FileVault on Windows" against "BitLocker on Windows and FileVault on macOS") contradict, so does a word
   the evidence replaces between the same neighbours ("the company's arbitration procedure" against "the
   company's grievance procedure"), and an appended phrase or a superlative the evidence never states caps
   the score.
3. Soft evidence: the share of the claim's content words the window has (or paraphrases,
   judged by word embeddings), the claim-window embedding similarity, and a penalty
   per content word found nowhere.

Hard findings cap the score, so similarity alone never passes "4.5 percent" against
"3.5 percent". The best window of the best candidate is pinned as the quote. A claim
whose facts sit in two passages (a section split over two chunks) may be checked
against both, but only to fill a missing number or name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from review.checking.claims import text_segments

if TYPE_CHECKING:
    import numpy

SUPPORTED_AT = 0.6
UNCERTAIN_AT = 0.4

Embedder = Callable[[list[str]], "numpy.ndarray"]  # returns L2-normalised rows


@dataclass(frozen=True)
class EvidenceCandidate:
    text: str  # a chunk's text (or a raw context string)
    # The chunk's heading path ("Handbook > Benefits > Health insurance"): its words count as the chunk's
    # own for term matching, since chunk text leaves headings out; never quoted, so offsets stay in ``text``.
    heading: str = ""


@dataclass(frozen=True)
class CheckOutcome:
    score: float  # 0..1
    reasons: list[str]
    candidate_index: int | None  # the best evidence; None when there were no candidates
    quote_start: int  # the pinned span inside candidates[candidate_index].text
    quote_end: int


def verdict_for(score: float, has_evidence: bool) -> str:
    if not has_evidence:
        return "unverifiable"
    if score >= SUPPORTED_AT:
        return "supported"
    if score >= UNCERTAIN_AT:
        return "uncertain"
    return "contradicted"


# Caps set by hard findings: a contradiction or a fact absent from the evidence can never pass.
_CONFLICT_CAP = 0.2
_MISSING_QUANTITY_CAP = 0.3
_MISSING_ENTITY_CAP = 0.3
_ENTITY_ELSEWHERE_CAP = 0.5  # the name is only in another candidate, not beside this fact
# Soft evidence: similarity is scaled from [floor, ceiling] to [0, 1] and mixed with word coverage.
_SIMILARITY_FLOOR = 0.3
_SIMILARITY_CEILING = 0.8
_SIMILARITY_WEIGHT = 0.5
_UNSUPPORTED_TERM_PENALTY = 0.2
_UNSUPPORTED_PHRASE_CAP = 0.45  # a whole appended phrase the evidence never mentions: at best uncertain
_LIGHT_TERM_PENALTY = 0.03
_NEIGHBOUR_REACH = 2  # tokens: "Kuiper belt", "occurred in hotels"
_SUBSTITUTION_PENALTY = 0.15
_SLOT_SWAP_CAP = 0.3  # another word between the same two neighbours: as sure a swap as a missing name
_SLOT_WORDS = 2  # content words a swapped slot may span: "arbitration", "stock grants"
_VERB_CUES = frozenset({"to", "may", "might", "can", "could", "will", "would", "shall", "should", "must", "do", "does",
                        "did"})  # the next word is a verb
_SLOT_PARAPHRASE_AT = 0.45  # word embeddings this close are a rewording ("individual" / "single"), not a swap
_WEAK_MISSING_PENALTY = 0.06
_QUANTITY_MATCH_BONUS = 0.05
_RELATED_CREDIT = 0.85  # "employ" / "employment"
_ELSEWHERE_CREDIT = 0.5  # the word is in the candidate, outside the quoted window
_WORD_SIMILARITY_AT = 0.55  # word embeddings this close count as a paraphrase ("get" / "receive")
_WORD_CREDIT = 0.8
_MAX_VOCABULARY = 200
_MAX_EMBEDDED_WINDOWS = 12
# Binding a claim's number (or direction word, or name) to the evidence's: by shared nearby words.
_BINDING_MARGIN = 0.85  # a direction word agreeing with the claim must be nearly as well placed as the best
_BINDING_TOLERANCE = 0.05  # likewise an equal value against the best-placed one in another unit
_SAME_UNIT_TOLERANCE = 0.05  # word distances inside one sentence are a weak guide: doubt favours the claim
_NEARBY_WEIGHT = 0.5
_RATE_WEIGHT = 0.1
_SHARED_WEIGHT = 0.3
_LABEL_WEIGHT = 1.0  # a list member's own label ("adult women (3.1 percent)") outweighs every softer cue
_LABEL_WORDS = 4
_LABEL_LEADING_WORDS = 2  # "gain of 95,000", "50% of the premium"
_UNLABELLED_KINDS = frozenset({"date", "weekday", "time", "ordinal"})  # these say when or which, they are labels
_MIN_LABEL_CONTEXT = 0.2  # a label word counts when it sits in the claim number's own part of the claim
_MIN_PLACEMENT = 0.35  # below this the evidence number is about something else: "not in evidence", not a conflict
_MIN_MATCH_SHARE = 0.3  # an equal value counts only in a sentence that shares some of the claim's words
_SAME_TOPIC = 0.6  # ... and so it is unless its sentence has most of the claim's words around the number
_CLAIM_DECAY = 0.25
_EVIDENCE_DECAY = 0.4
_CLAIM_RIGHT_FACTOR = 0.6
_OTHER_SEGMENT_FACTOR = 0.3
_MIN_CONTEXT = 0.2
_MIN_ROLE_CONTEXT = 0.2
_ROLE_MARGIN = 1.8
_OVERRULING_MARGIN = 0.1
_JOIN_CANDIDATES = 6
_REFUTING_RELEVANCE = 0.5
# Windows: a few seed units per candidate, grown by nearby units that add coverage.
_SEEDS_PER_CANDIDATE = 3
_MAX_WINDOW_UNITS = 3
_MAX_UNIT_GAP = 3
_MIN_GAIN = 0.1
_NAME_WEIGHT = 1.5


# ---------------------------------------------------------------- vocabulary

_STOPWORDS = frozenset(
    """a an the and or but if then else of to in on at by for from with as into onto over under about
    is are was were be been being am has have had having do does did done will would shall should can
    could may might must this that these those it its they them their there here he she his her him we
    us our you your i me my mine which who whom whose what when where why how than so such very also
    just only both each either any all some most more many much few other another same own too not no
    nor never none per via up down out off again further once while whereas because since until unless
    whether though although however thus hence yet still even ever already now today s t don't let lets
    get gets got getting make makes made one ones within without including include includes included
    like well way ways etc e.g i.e vs through throughout across among along toward towards upon onto
    whose whom either neither every according during""".split()
)
# Light verbs, fillers and vague words: a paraphrase adds these freely, so they are weak evidence of an
# unsupported addition (general English, not tied to any document).
_LIGHT_WORDS = """go goes went gone going come comes came coming take takes took taken taking make makes made
    get gets got give gives gave given put puts set sets keep keeps kept let lets need needs needed use uses used
    using receive receives received provide provides provided offer offers offered issue issues issued allow
    allows allowed hold holds held run runs ran bring brings brought reach reaches reached happen happens happened
    occur occurs occurred apply applies applied remain remains remained stay stays stayed become becomes became
    seem seems show shows showed shown say says said tell tells told find finds found know knows
    known see sees saw seen look looks want wants try tries help helps start starts started begin begins began end
    ends ended turn turns move moves pass passes passed last lasts lasted lasting place places back due work works
    way ways part parts thing things time times generally usually typically normally often always sometimes around
    between outside inside overall simply really actually currently likely able certain various specific whole
    entire full own total general particular main major key basic regular standard available possible following
    respectively instead rather still even further additional other another some such kind sort type types
    case cases example instance matter fact point aspect past stand stands stood standing""".split()
# Words whose stems should compare equal; general English, not tied to any document.
_SYNONYM_GROUPS = (
    ("price", "cost", "charge", "priced", "costs"),
    ("buy", "purchase"),
    ("employee", "staff", "worker", "personnel"),
    ("company", "firm", "employer", "organization", "organisation"),
    ("customer", "client"),
    ("allow", "permit", "let"),
    ("require", "need", "mandatory", "necessary", "compulsory", "obligatory"),
    ("prohibit", "forbid", "ban", "bar", "disallow"),
    ("begin", "start", "commence", "launch"),
    ("end", "finish", "conclude"),
    ("big", "large"),
    ("help", "assist"),
    ("receive", "obtain"),
    ("offer", "provide", "give"),
    ("contain", "comprise"),
    ("keep", "retain", "store", "hold", "preserve", "retention"),
    ("delete", "remove", "erase", "purge"),
    ("notify", "inform", "alert", "tell"),
    ("discover", "detect", "notice"),
    ("approve", "authorize", "authorise", "sanction"),
    ("use", "utilize", "utilise"),
    ("month", "monthly"),
    ("year", "annual", "annually", "yearly", "anual"),
    ("week", "weekly"),
    ("day", "daily"),
    ("hour", "hourly"),
    ("quarter", "quarterly"),
    ("email", "e-mail"),
    ("rule", "policy", "regulation"),
    ("job", "position"),
    ("quick", "fast", "rapid", "prompt", "promptly"),
    ("total", "overall", "combined"),
    ("roughly", "approximately", "about", "around"),
    ("maximum", "max", "cap", "limit", "ceiling"),
    ("minimum", "min"),
    ("show", "display"),
    ("say", "state"),
    ("fix", "repair"),
    ("mistake", "error"),
    ("choose", "select", "pick"),
)
_IRREGULAR = {
    "rose": "rise", "risen": "rise", "fell": "fall", "fallen": "fall", "grew": "grow", "grown": "grow",
    "lost": "lose", "paid": "pay", "made": "make", "kept": "keep", "held": "hold", "gave": "give", "given": "give",
    "took": "take", "taken": "take", "got": "get", "gotten": "get", "went": "go", "gone": "go", "came": "come",
    "saw": "see", "seen": "see", "children": "child", "people": "person", "men": "man", "women": "woman",
    "feet": "foot", "began": "begin", "begun": "begin", "built": "build", "bought": "buy", "brought": "bring",
    "sold": "sell", "told": "tell", "spent": "spend", "sent": "send", "won": "win", "met": "meet", "ran": "run",
    "chose": "choose", "chosen": "choose", "wrote": "write", "written": "write", "knew": "know", "known": "know",
    "shown": "show", "thought": "think", "found": "find", "became": "become", "led": "lead", "shed": "shed",
    "shrank": "shrink", "shrunk": "shrink", "better": "good", "best": "good", "worse": "bad", "worst": "bad",
    "data": "data", "news": "news", "series": "series", "analysis": "analysis", "basis": "basis", "bus": "bus",
    "was": "be", "were": "be", "is": "be", "are": "be", "has": "have", "had": "have", "does": "do", "did": "do",
}
_DERIVATIONAL_SUFFIXES = ("ment", "ation", "ition", "ion", "er", "or", "al", "ity", "ness", "ive", "ance", "ence",
                          "able", "ible", "ship", "ure", "ant", "ent", "ic", "ical", "ize", "ise", "ist")

_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12,
}
_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
    "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
    "hundredth": 100,
}
_FRACTION_DENOMINATORS = {
    "half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fourth": 4, "fourths": 4,
    "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6, "seventh": 7, "sevenths": 7, "eighth": 8, "eighths": 8,
    "ninth": 9, "ninths": 9, "tenth": 10, "tenths": 10,
}
_SCALE_WORDS = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_SCALE_SUFFIXES = {"k": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "mln": 1e6, "bn": 1e9, "b": 1e9, "tn": 1e12}
_CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}
_CURRENCY_CODES = {"usd": "USD", "eur": "EUR", "gbp": "GBP", "jpy": "JPY", "cad": "CAD", "aud": "AUD",
                   "chf": "CHF", "inr": "INR", "cny": "CNY"}
_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4,
    "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MAY_CUES = frozenset({"in", "of", "by", "since", "until", "from", "early", "late", "mid", "through", "on", "before",
                       "after", "during", "last", "next", "this"})
_WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}

# unit word -> (kind, factor to the kind's base unit)
_UNITS: dict[str, tuple[str, float]] = {
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
}
_TIME_UNITS = frozenset({"second", "minute", "hour", "day", "week", "month", "year", "night", "quarter", "decade"})
_PER_YEAR = {"hour": 8760.0, "day": 365.0, "week": 52.0, "month": 12.0, "quarter": 4.0, "year": 1.0}
_FREQUENCY_ADVERBS = {"hourly": 8760.0, "daily": 365.0, "weekly": 52.0, "biweekly": 26.0, "fortnightly": 26.0,
                      "monthly": 12.0, "quarterly": 4.0, "biannually": 2.0, "semiannually": 2.0, "annually": 1.0,
                      "yearly": 1.0}
_TIMES = {"once": 1.0, "twice": 2.0, "thrice": 3.0}
_ADVERB_RATES = {"monthly": "month", "annually": "year", "yearly": "year", "weekly": "week", "daily": "day",
                 "hourly": "hour", "nightly": "night", "quarterly": "quarter"}

_BOUNDS_BEFORE: tuple[tuple[tuple[str, ...], int], ...] = (
    (("no", "less", "than"), 1), (("not", "less", "than"), 1), (("no", "fewer", "than"), 1), (("at", "least"), 1),
    (("minimum", "of"), 1), (("a", "minimum", "of"), 1), (("minimum",), 1), (("min",), 1), (("more", "than"), 2),
    (("greater", "than"), 2), (("longer", "than"), 2), (("over",), 2), (("above",), 2), (("exceeding",), 2),
    (("beyond",), 2), (("upwards", "of"), 1), (("no", "sooner", "than"), 1), (("no", "earlier", "than"), 1),
    (("not", "before"), 1), (("after",), 2), (("no", "more", "than"), -1), (("not", "more", "than"), -1),
    (("no", "later", "than"), -1), (("no", "longer", "than"), -1), (("at", "most"), -1), (("up", "to"), -1),
    (("maximum", "of"), -1), (("a", "maximum", "of"), -1), (("maximum",), -1), (("max",), -1), (("within",), -1),
    (("not", "exceed"), -1), (("not", "to", "exceed"), -1), (("as", "many", "as"), -1), (("as", "much", "as"), -1),
    (("less", "than"), -2), (("fewer", "than"), -2), (("shorter", "than"), -2), (("under",), -2), (("below",), -2),
)
_BOUNDS_AFTER: tuple[tuple[tuple[str, ...], int], ...] = (
    (("or", "more"), 1), (("or", "longer"), 1), (("or", "above"), 1), (("or", "higher"), 1), (("and", "up"), 1),
    (("or", "greater"), 1), (("+",), 1), (("or", "less"), -1), (("or", "fewer"), -1), (("or", "under"), -1),
    (("or", "below"), -1), (("or", "lower"), -1), (("or", "shorter"), -1),
)
_HEDGES = (("about",), ("approximately",), ("approx",), ("around",), ("roughly",), ("nearly",), ("almost",),
           ("some",), ("close", "to"), ("just", "over"), ("just", "under"), ("an", "estimated"), ("estimated",),
           ("~",), ("circa",), ("just",))
_PERIOD_VERB = re.compile(r"(?:ed|ing)$|^(?:vests?|spreads?|pays?|repays?|runs?|lasts?|takes?|grows?|accrues?|"
                          r"amortizes?|happens?|occurs?)$")
_MOVE_VERBS = "go|goes|went|move|moves|trend|trends|tick|ticks|edge|edges|jump|jumps|shot|shoot|crept|creep|step|steps|" \
              "ramp|ramps|came|come|comes"
_VERBISH_BEFORE_UP = re.compile(rf"(?:ed|ing)$|^(?:{_MOVE_VERBS})$")  # "edged up to 60.4" moves; "up to 2 GB" caps
_MOVES = re.compile(rf"(?:ed|ing)$|^(?:is|was|are|were|be|been|{_MOVE_VERBS})$")  # "went up"; not "made up"

# Direction words by family: +1 / -1 / 0 (unchanged)
_CHANGE_WORDS = {
    "rise": 1, "rose": 1, "risen": 1, "rising": 1, "rises": 1, "increase": 1, "increased": 1, "increases": 1,
    "increasing": 1, "grew": 1, "grow": 1, "grows": 1, "grown": 1, "growing": 1, "gain": 1, "gained": 1,
    "gains": 1, "climb": 1, "climbed": 1, "climbs": 1, "jump": 1, "jumped": 1, "jumps": 1, "added": 1, "adds": 1,
    "up": 1, "advanced": 1, "expanded": 1, "upward": 1, "higher": 1, "surged": 1, "soared": 1, "doubled": 1,
    "fall": -1, "fell": -1, "fallen": -1, "falling": -1, "falls": -1, "decrease": -1, "decreased": -1,
    "decreases": -1, "decreasing": -1, "decline": -1, "declined": -1, "declines": -1, "declining": -1,
    "drop": -1, "dropped": -1, "drops": -1, "dip": -1, "dipped": -1, "lost": -1, "lose": -1, "loses": -1,
    "losing": -1, "loss": -1, "losses": -1, "shed": -1, "shrank": -1, "shrink": -1, "cut": -1, "reduced": -1,
    "down": -1, "slipped": -1, "downward": -1, "lower": -1, "plunged": -1, "tumbled": -1, "halved": -1,
    "unchanged": 0, "steady": 0, "flat": 0, "stable": 0, "remained": 0,
}
_CHANGE_VERBS = frozenset(w for w, _ in _CHANGE_WORDS.items() if w.endswith("ed") or w in
                          ("rose", "risen", "fell", "fallen", "grew", "grown", "lost", "shrank"))
_CHANGE_STOPS = frozenset({"and", "but", "while", "whereas", "compared", "than"})
_CHANGE_REACH = 8  # words
_UNCHANGED_PHRASES = re.compile(r"\b(?:little changed|changed little|little change|little or no change|"
                                r"essentially unchanged|about the same|the same as|held steady)\b")
_COMPARE_WORDS = {
    "more": 1, "greater": 1, "larger": 1, "bigger": 1, "higher": 1, "above": 1, "longer": 1, "heavier": 1,
    "older": 1, "farther": 1, "exceeds": 1, "exceed": 1, "exceeded": 1, "less": -1, "fewer": -1, "smaller": -1,
    "lower": -1, "below": -1, "shorter": -1, "lighter": -1, "younger": -1, "closer": -1, "nearer": -1,
}
_SUPERLATIVE_WORDS = {
    "largest": 1, "biggest": 1, "greatest": 1, "highest": 1, "most": 1, "longest": 1, "heaviest": 1, "oldest": 1,
    "farthest": 1, "furthest": 1, "maximum": 1, "smallest": -1, "least": -1, "lowest": -1, "fewest": -1,
    "shortest": -1, "lightest": -1, "youngest": -1, "closest": -1, "nearest": -1, "minimum": -1,
}
_ORDER_WORDS = {"before": -1, "earlier": -1, "prior": -1, "ahead": -1, "after": 1, "later": 1, "following": 1,
                "afterwards": 1}
_DIRECTION_FAMILIES = (("change", _CHANGE_WORDS), ("compare", _COMPARE_WORDS), ("superlative", _SUPERLATIVE_WORDS),
                       ("order", _ORDER_WORDS))

# Lexical polarity: a word and its opposite class; "not" flips the polarity.
_POLARITY_CLASSES = {
    "allow": ("permission", 1), "permit": ("permission", 1), "accept": ("permission", 1),
    "prohibit": ("permission", -1), "forbid": ("permission", -1), "ban": ("permission", -1),
    "disallow": ("permission", -1), "reject": ("permission", -1), "refuse": ("permission", -1),
    "eligible": ("eligibility", 1), "ineligible": ("eligibility", -1), "require": ("obligation", 1),
    "optional": ("obligation", -1), "voluntary": ("obligation", -1), "include": ("inclusion", 1),
    "exclude": ("inclusion", -1), "always": ("frequency", 1), "never": ("frequency", -1),
    "available": ("availability", 1), "unavailable": ("availability", -1), "same": ("identity", 1),
    "different": ("identity", -1), "true": ("truth", 1), "false": ("truth", -1), "possible": ("possibility", 1),
    "impossible": ("possibility", -1), "win": ("outcome", 1), "lose": ("outcome", -1), "open": ("openness", 1),
    "close": ("openness", -1), "closed": ("openness", -1), "public": ("visibility", 1), "private": ("visibility", -1),
    "mandatory": ("obligation", 1), "compulsory": ("obligation", 1), "necessary": ("obligation", 1),
}
_NEGATION_CUES = frozenset({"not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "without", "cannot"})
_NOT_NEGATION_AFTER = frozenset({"later", "more", "less", "fewer", "longer", "only", "exceed", "than", "matter",
                                 "doubt", "sooner", "greater", "shorter"})
_NEGATING_PREFIXES = (("non", 4), ("not", 4), ("un", 4), ("in", 5), ("im", 6), ("ir", 5), ("il", 5))
_NEGATION_BREAKS = frozenset({",", ";", ":", ".", "!", "?", "|", "but", "while", "whereas", "although", "because",
                              "though", "who", "which", "whose", "where", "unless", "except"})
_NEGATION_SCOPE = 4  # content words after "not"
_LIST_JOINERS = frozenset({"and", "or", ",", ";"})
_RELATIVE_PRONOUNS = frozenset({"which", "who", "whose", "whom", "where"})
_ADDING_WORDS = frozenset({"with", "including", "plus", "mainly", "mostly", "especially", "particularly"})
_DEGREE_FAMILIES = frozenset({"compare", "superlative"})
_LIST_GAP = 3  # content words between list members
_RANGE_WORDS = frozenset({"to", "-", "–", "through"})
_NAME_JOINERS = frozenset({"of", "de", "&", "von", "van", "da", "del"})
_CHANGE_NAMES = {1: "an increase to/by", -1: "a decrease to/by", 0: "no change at"}
_BOUND_NAMES = {1: "at least", 2: "more than", -1: "at most", -2: "less than"}
_SUPERLATIVE = re.compile(r"[a-z]{3,}est")
_NOT_SUPERLATIVES = frozenset(
    {"interest", "request", "test", "forest", "honest", "rest", "west", "guest", "invest", "suggest", "contest",
     "digest", "harvest", "protest", "arrest", "manifest", "modest", "earnest", "priest", "chest", "quest", "crest",
     "conquest", "attest", "detest", "divest", "ingest", "latest", "midwest", "northwest", "southwest", "unrest",
     "behest", "bequest", "inquest", "pretest", "retest", "congest", "infest", "molest", "celest", "almost"}
)

_TOKEN = re.compile(
    r"(?:[A-Za-z]\.){2,}(?![A-Za-z])"  # initialisms: U.S., e.g.
    r"|\d+(?:,\d{3})+(?:\.\d+)?(?!\d)|\d+(?:\.\d+)?"
    r"|(?:[Nn]on|[Nn]ot)-[A-Za-z]+"  # "non-immediate" is one word, not a negated clause
    r"|[A-Za-z]+(?:['’][A-Za-z]+)*"
    r"|[^\sA-Za-z\d]"
)
_TIME_OF_DAY = re.compile(
    r"(?<![\d.:])(\d{1,2})(?::([0-5]\d))?\s?([AaPp])\.?\s?[Mm]\b\.?|(?<![\d.:])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])"
    r"|\b(noon|midday|midnight)\b",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_CONJUNCTIONS = frozenset({"and", "or", "but", "while", "whereas", "nor"})
_CONJUNCTION_GAP = 1.0
_PUNCT_GAPS = {",": 0.5, ";": 2.0, ":": 1.0, "(": 1.0, ")": 1.0, ".": 3.0, "!": 3.0, "?": 3.0, "|": 1.0}
_MARKUP = re.compile(r"\*\*|__|`|~~|\[|\]\([^)]*\)|^#+\s*", re.MULTILINE)


def _stem_uncached(word: str) -> str:
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.strip("'")
    if w in _IRREGULAR:
        return _canonical(_IRREGULAR[w])
    if "." in w:  # initialisms: "u.s." -> "us"
        return w.replace(".", "")
    if "-" in w:  # "non-immediate"
        prefix, rest = w.split("-", 1)
        return prefix + _stem_uncached(rest)
    if len(w) <= 3 or not w.isalpha():
        return _canonical(w)
    original = w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("ied") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith(("ches", "shes", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
    elif w.endswith("ed") and len(w) > 4:
        w = w[:-2]
    elif w.endswith("ly") and len(w) > 6:
        w = w[:-2]
    if w != original and len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]  # "stopp" -> "stop"
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return _canonical(w)


_SYNONYM_CANON: dict[str, str] = {}


def _canonical(stem: str) -> str:
    return _SYNONYM_CANON.get(stem, stem)


def _build_synonyms() -> None:
    for group in _SYNONYM_GROUPS:
        head = _stem_uncached(group[0])
        for member in group:
            _SYNONYM_CANON[_stem_uncached(member)] = head


_build_synonyms()
_stem = lru_cache(maxsize=65536)(_stem_uncached)
_LIGHT_STEMS = frozenset(_stem(w) for w in _LIGHT_WORDS)
_POLARITY_BY_STEM = {_stem(word): polar for word, polar in _POLARITY_CLASSES.items()}  # "includes" -> "includ"


@lru_cache(maxsize=262144)  # the same stem pairs recur across windows and claims
def _related(a: str, b: str) -> bool:
    """Stems of one word family: "employ"/"employment", "encrypt"/"encryption"."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < 5 or not long.startswith(short):
        return False
    return len(long) - len(short) <= 2 or long[len(short):].startswith(_DERIVATIONAL_SUFFIXES)


# ---------------------------------------------------------------- text analysis


@dataclass(frozen=True, slots=True)
class _Tok:
    text: str
    lower: str
    stem: str
    start: int
    end: int
    kind: str  # "word" | "num" | "punct"
    pos: float  # a distance coordinate: words advance it by 1, punctuation by more
    cell: int  # table cell index, -1 outside tables
    capital: bool
    initial: bool  # first word of its unit


@dataclass(frozen=True, slots=True)
class _Quantity:
    kind: str
    value: float | tuple[int | None, int | None, int | None]
    surface: str
    start: int
    end: int
    pos: float
    cell: int
    per: frozenset[str] = frozenset()
    bound: int = 0  # +1 at least, +2 more than, -1 at most, -2 less than
    change: int | None = None  # +1 rose, -1 fell, 0 unchanged
    change_index: int = -1  # the token saying so
    hedged: bool = False
    scale: float = 1.0
    decimals: int = 0
    strong: bool = True
    token_span: tuple[int, int] = (0, 0)  # the number with its unit: not words of the text
    lead: int = 0  # tokens of a bound phrase ("at least") just before it
    described: tuple[int, ...] = ()  # words inside the span that are words of the text: "20 *vacation* days"
    anchor: float = -1.0  # where the words before it are measured from; see _align_ranges

    def __post_init__(self) -> None:
        if self.anchor < 0:
            object.__setattr__(self, "anchor", self.pos)


@dataclass(frozen=True, slots=True)
class _Polar:
    family: str
    polarity: int
    word: str
    pos: float
    index: int


@dataclass
class _Unit:
    start: int
    end: int
    kind: str
    tokens: list[_Tok]
    quantities: list[_Quantity]
    header: list[list[_Tok]]  # table header cells, for rows
    stems: set[str] = field(default_factory=set)
    clauses: list[_Clause] = field(default_factory=list)
    negated: set[str] = field(default_factory=set)  # stems inside some negation's scope
    asserted: set[str] = field(default_factory=set)  # stems outside every negation's scope
    polars: list[_Polar] = field(default_factory=list)
    polarity_words: dict[str, int] = field(default_factory=dict)  # class -> effective polarity
    words: dict[str, str] = field(default_factory=dict)  # lower-case content word -> stem
    quantity_contexts: list[dict[str, float]] = field(default_factory=list)
    quantity_labels: list[frozenset[str]] = field(default_factory=list)  # see _list_labels
    embed_text: str = ""


def _tokenize(text: str, start: int, end: int, *, table: bool) -> list[_Tok]:
    tokens: list[_Tok] = []
    pos = 0.0
    segment = text[start:end]
    cell = -1 if segment.lstrip().startswith("|") else 0  # the leading pipe opens cell 0
    for match in _TOKEN.finditer(segment):
        raw = match.group()
        if table and raw == "|":
            cell += 1
            pos += _PUNCT_GAPS["|"]
            continue
        if raw in "*_`#>[]":
            continue  # Markdown markup
        if raw[0].isdigit():
            kind = "num"
        elif raw[0].isalpha():
            kind = "word"
        else:
            kind = "punct"
        if kind == "punct":
            pos += _PUNCT_GAPS.get(raw, 0.0)
        else:
            pos += 1.0 + _CONJUNCTION_GAP * (raw.lower() in _CONJUNCTIONS)
        tokens.append(
            _Tok(
                text=raw,
                lower=raw.lower(),
                stem=_stem(raw) if kind == "word" else raw,
                start=start + match.start(),
                end=start + match.end(),
                kind=kind,
                pos=pos,
                cell=cell if table else -1,
                capital=kind == "word" and raw[0].isupper(),
                initial=not any(t.kind == "word" for t in tokens) or (bool(tokens) and tokens[-1].text in ".!?:"),
            )
        )
    return tokens


def _is_content(tok: _Tok) -> bool:
    return tok.kind == "word" and tok.lower not in _STOPWORDS and len(tok.lower) > 1 \
        and not tok.lower.endswith(("n't", "n’t"))  # "aren't": the negation is judged on its own


# ---------------------------------------------------------------- quantities


def _number_value(raw: str) -> tuple[float, int]:
    digits = raw.replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return float(digits), decimals


def _unit_at(tokens: list[_Tok], i: int) -> tuple[str, float, int] | None:
    """The unit starting at token i: (kind, factor, tokens used)."""
    if i >= len(tokens):
        return None
    tok = tokens[i]
    lower = tok.lower
    nxt = tokens[i + 1].lower if i + 1 < len(tokens) else ""
    if lower in ("business", "working", "calendar", "school") and nxt.rstrip("s") == "day":
        return ("duration:bd" if lower != "calendar" else "duration:s", 1 if lower != "calendar" else 86400, 2)
    if lower == "percentage" and nxt.startswith("point"):
        return ("percent", 1, 2)
    if lower == "per" and nxt == "cent":
        return ("percent", 1, 2)
    if lower == "astronomical" and nxt.startswith("unit"):
        return ("length:au", 1, 2)
    if lower == "light" and nxt == "-" and i + 2 < len(tokens) and tokens[i + 2].lower.startswith("year"):
        return ("length:ly", 1, 3)
    if lower == "°" and nxt in ("c", "f"):
        return (f"temp:{nxt.upper()}", 1, 2)
    if lower in ("degree", "degrees") and nxt in ("celsius", "fahrenheit", "c", "f"):
        return (f"temp:{nxt[0].upper()}", 1, 2)
    if lower in ("pound", "pounds") and nxt == "sterling":
        return ("money:GBP", 1, 2)
    if lower in _CURRENCY_CODES:
        return (f"money:{_CURRENCY_CODES[lower]}", 1, 1)
    if lower == "m" and tok.start == tokens[i - 1].end:
        return ("length:m", 1, 1)  # "100m" right after the number; a spaced "m" is too ambiguous
    if lower == "g" and tok.start == tokens[i - 1].end:
        return ("mass:g", 1, 1)
    if lower == "h" and tok.start == tokens[i - 1].end:
        return ("duration:s", 3600, 1)
    for candidate in (lower, lower[:-1] if lower.endswith("s") else lower, lower[:-2] if lower.endswith("es") else lower):
        if candidate in _UNITS:
            kind, factor = _UNITS[candidate]
            return (kind, factor, 1)
    return None


def _match_phrase(tokens: list[_Tok], end: int, phrases) -> tuple[int, int] | None:
    """A phrase ending just before token ``end``: (value, phrase length)."""
    for phrase, value in phrases:
        n = len(phrase)
        if end - n < 0:
            continue
        if all(tokens[end - n + k].lower == phrase[k] for k in range(n)):
            return value, n
    return None


def _match_phrase_after(tokens: list[_Tok], start: int, phrases) -> tuple[int, int] | None:
    for phrase, value in phrases:
        n = len(phrase)
        if start + n > len(tokens):
            continue
        if all(tokens[start + k].lower == phrase[k] for k in range(n)):
            return value, n
    return None


def _bound_before(tokens: list[_Tok], i: int) -> tuple[int, int]:
    """(bound, number of tokens in the phrase) for "at least", "up to", "more than" ... before token i."""
    found = _match_phrase(tokens, i, _BOUNDS_BEFORE)
    if found is None:
        return 0, 0
    value, n = found
    first = i - n
    if tokens[first].lower == "over" and first > 0 and _unit_after(tokens, i).startswith("duration") \
            and _PERIOD_VERB.search(tokens[first - 1].lower):
        return 0, 0  # "vest over four years" spans a period; "journeys of over 4 hours" is a threshold
    if tokens[first].lower == "up" and first > 0 and _VERBISH_BEFORE_UP.search(tokens[first - 1].lower):
        return 0, 0  # "edged up to 60.4 percent" is a change, not a cap
    return value, n


def _unit_after(tokens: list[_Tok], i: int) -> str:
    """The kind of the unit within two tokens after token i, or ""."""
    for k in (i + 1, i + 2):
        unit = _unit_at(tokens, k) if k < len(tokens) else None
        if unit is not None:
            return unit[0]
    return ""


def _hedged_before(tokens: list[_Tok], i: int) -> bool:
    return _match_phrase(tokens, i, tuple((phrase, 1) for phrase in _HEDGES)) is not None


def _change_before(tokens: list[_Tok], i: int) -> tuple[int | None, int]:
    """The direction word governing the quantity at token i ("rose by", "decreased to", "changed little
    at"), looking back within its clause: (direction, its token index), or (None, -1)."""
    words: list[str] = []
    for j in range(i - 1, -1, -1):
        tok = tokens[j]
        if tok.text in ";.!?|" or tok.lower in _CHANGE_STOPS or len(words) == _CHANGE_REACH:
            break
        if tok.kind != "word":
            continue
        words.insert(0, tok.lower)
        if _UNCHANGED_PHRASES.search(" ".join(words)):
            return 0, j
        if tok.lower in _CHANGE_WORDS and not _is_cap_phrase(tokens, j):
            return _CHANGE_WORDS[tok.lower], j
    return None, -1


def _is_cap_phrase(tokens: list[_Tok], j: int) -> bool:
    """"up to 25 MB" caps a value; "edged up to 60.4 percent" is a change."""
    if tokens[j].lower != "up" or j + 1 >= len(tokens) or tokens[j + 1].lower != "to":
        return False
    return not (j > 0 and _VERBISH_BEFORE_UP.search(tokens[j - 1].lower))


def _change_after(tokens: list[_Tok], i: int) -> int | None:
    if i < len(tokens) and tokens[i].lower in ("higher", "more", "greater", "up", "above"):
        return 1
    if i < len(tokens) and tokens[i].lower in ("lower", "less", "fewer", "down", "below"):
        return -1
    return None


def _described_time_unit(tokens: list[_Tok], j: int) -> tuple[int, tuple[str, float, int] | None]:
    """"20 vacation days", "3 paid days": skip up to two describing words before a time unit."""
    for skipped in (1, 2):
        words = tokens[j : j + skipped]
        if len(words) < skipped or not all(w.kind == "word" and w.text.islower() and _is_content(w) for w in words):
            return j, None
        unit = _unit_at(tokens, j + skipped)
        if unit is not None and unit[0].startswith("duration"):
            return j + skipped, unit
    return j, None


def _per_after(tokens: list[_Tok], i: int) -> tuple[frozenset[str], int]:
    """Rate denominators after a quantity: "per user per month", "a day", "/month", "monthly"."""
    per: set[str] = set()
    j = i
    while j < len(tokens):
        lower = tokens[j].lower
        if lower in _ADVERB_RATES and j == i:
            per.add(_ADVERB_RATES[lower])
            j += 1
            continue
        if lower in ("per", "/", "each", "every", "a", "an") and j + 1 < len(tokens) and tokens[j + 1].kind == "word":
            target = _stem(tokens[j + 1].text)
            unit = _UNITS.get(tokens[j + 1].lower.rstrip("s"))
            is_time = target in _TIME_UNITS or (unit is not None and unit[0].startswith("duration"))
            if lower in ("a", "an") and not is_time:
                break
            per.add(target)
            j += 2
            continue
        break
    return frozenset(per), j


def _quantities(text: str, tokens: list[_Tok]) -> list[_Quantity]:
    quantities: list[_Quantity] = []
    consumed: set[int] = set()

    def token_range(char_start: int, char_end: int) -> tuple[int, int]:
        ks = [k for k, t in enumerate(tokens) if t.start >= char_start and t.end <= char_end]
        return (ks[0], ks[-1] + 1) if ks else (0, 0)

    if tokens:
        lo, hi = tokens[0].start, tokens[-1].end
        for match in _TIME_OF_DAY.finditer(text, lo, hi):
            if match.group(6):
                minutes = {"noon": 720, "midday": 720, "midnight": 0}[match.group(6).lower()]
            elif match.group(3):
                hour = int(match.group(1)) % 12 + (12 if match.group(3).lower() == "p" else 0)
                minutes = hour * 60 + int(match.group(2) or 0)
            else:
                minutes = int(match.group(4)) * 60 + int(match.group(5))
            a, b = token_range(match.start(), match.end())
            if a == b:
                continue
            consumed.update(range(a, b))
            quantities.append(_Quantity("time", minutes, match.group().strip(), match.start(), match.end(),
                                        tokens[a].pos, tokens[a].cell, token_span=(a, b)))
        for match in _ISO_DATE.finditer(text, lo, hi):
            a, b = token_range(match.start(), match.end())
            consumed.update(range(a, b))
            value = (int(match.group(1)), int(match.group(2)), int(match.group(3)))
            quantities.append(_Quantity("date", value, match.group(), match.start(), match.end(), tokens[a].pos,
                                        tokens[a].cell, token_span=(a, b)))

    i = 0
    while i < len(tokens):
        if i in consumed:
            i += 1
            continue
        parsed = _parse_quantity_at(text, tokens, i, consumed)
        if parsed is None:
            i += 1
            continue
        quantity, next_i = parsed
        quantities.append(quantity)
        consumed.update(range(quantity.token_span[0], quantity.token_span[1]))
        i = max(next_i, i + 1)
    return _align_ranges(tokens, sorted(quantities, key=lambda q: q.start))


def _align_ranges(tokens: list[_Tok], quantities: list[_Quantity]) -> list[_Quantity]:
    """Share what comes before a list of like quantities.

    "5 to 7 business days": both ends take the first one's position. "reduced by $15 for lunch and $25 for
    dinner": "reduced by" is as much $25's as $15's, so later members measure the words before the list
    from the first member, and "for lunch" is $15's label, not $25's.
    """
    aligned = list(quantities)
    for k in range(1, len(aligned)):
        before, after = aligned[k - 1], aligned[k]
        if before.kind != after.kind:
            continue
        gap = tokens[before.token_span[1] : after.token_span[0]]
        between = before.token_span[0] > 0 and tokens[before.token_span[0] - 1].lower == "between"
        if len(gap) == 1 and (gap[0].lower in _RANGE_WORDS or (between and gap[0].lower == "and")):
            aligned[k] = replace(after, pos=before.pos, anchor=before.anchor)
        elif _labels_follow(gap):
            aligned[k] = replace(after, anchor=before.anchor)
    return aligned


def _labels_follow(gap: list[_Tok]) -> bool:
    """"$15 for lunch and $25": each label follows its number (unlike "men (3.4%), women (3.1%)")."""
    joints = [k for k, t in enumerate(gap) if t.lower in _LIST_JOINERS]
    if not joints or sum(_is_content(t) for t in gap) > _LIST_GAP:
        return False
    before, after = gap[: joints[0]], gap[joints[-1] + 1 :]
    return any(_is_content(t) for t in before) and not any(_is_content(t) for t in after)


def _date_at(tokens: list[_Tok], i: int) -> tuple[tuple[int | None, int | None, int | None], int, int] | None:
    """A date starting at token i: ((year, month, day), first token, end token)."""
    tok = tokens[i]
    month = _MONTHS.get(_bare(tok.lower))
    if month is None or not tok.capital:
        return None
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    prev = tokens[i - 1] if i > 0 else None
    if tok.lower == "may" and not ((nxt and nxt.kind == "num") or (prev and prev.lower in _MAY_CUES)):
        return None
    if len(tok.lower) <= 4 and tok.lower not in ("may", "june", "july") and not (nxt and nxt.kind == "num"):
        return None  # "Mar", "Dec" alone are too ambiguous
    day = year = None
    first, j = i, i + 1
    if j < len(tokens) and tokens[j].text == "." and tokens[j].start == tok.end and len(tok.lower) <= 4 \
            and tok.lower not in ("may", "june", "july"):
        j += 1  # "Jan."
    if j < len(tokens) and tokens[j].kind == "num" and "," not in tokens[j].text and "." not in tokens[j].text:
        number = int(tokens[j].text)
        if 1 <= number <= 31 and len(tokens[j].text) <= 2:
            day = number
            j += 1
            if j < len(tokens) and tokens[j].lower in ("st", "nd", "rd", "th") and tokens[j].start == tokens[j - 1].end:
                j += 1
            if j + 1 < len(tokens) and tokens[j].text == "," and _is_year(tokens[j + 1]):
                year = int(tokens[j + 1].text)
                j += 2
        elif _is_year(tokens[j]):
            year = number
            j += 1
    elif j + 1 < len(tokens) and tokens[j].text == "," and _is_year(tokens[j + 1]):
        year = int(tokens[j + 1].text)
        j += 2
    if day is None and prev is not None and prev.kind == "num" and len(prev.text) <= 2 and 1 <= int(prev.text) <= 31:
        day = int(prev.text)  # "14 July 2015"
        first = i - 1
    if year is None and j < len(tokens) and tokens[j].lower == "of" and j + 1 < len(tokens) and _is_year(tokens[j + 1]):
        year = int(tokens[j + 1].text)
        j += 2
    return (year, month, day), first, j


def _bare(word: str) -> str:
    """"February's" -> "february", "Jan." -> "jan"."""
    return re.sub(r"['’]s$", "", word).rstrip(".")


def _is_year(tok: _Tok) -> bool:
    return tok.kind == "num" and len(tok.text) == 4 and tok.text.isdigit() and 1000 <= int(tok.text) <= 2199


def _parse_quantity_at(text: str, tokens: list[_Tok], i: int, consumed: set[int]) -> tuple[_Quantity, int] | None:
    tok = tokens[i]
    date = _date_at(tokens, i)
    if date is not None:
        value, first, end = date
        if first in consumed:
            first = i
        # month names stay words of the text too: they anchor which clause a number belongs to
        named = tuple(k for k in range(first, end) if tokens[k].kind == "word")
        return _make(text, tokens, "date", value, first, end, described=named), end
    if tok.capital and tok.lower in _WEEKDAYS:
        return _make(text, tokens, "weekday", _WEEKDAYS[tok.lower], i, i + 1, described=(i,)), i + 1
    if tok.kind == "num":
        return _parse_number(text, tokens, i)
    if tok.kind == "word":
        return _parse_word_quantity(text, tokens, i)
    return None


def _parse_number(text: str, tokens: list[_Tok], i: int) -> tuple[_Quantity, int] | None:
    tok = tokens[i]
    if i > 0 and tokens[i - 1].text in ".," and tokens[i - 1].start == tok.start - 1 and i > 1 \
            and tokens[i - 2].kind == "num" and tokens[i - 2].end == tokens[i - 1].start:
        return None  # the tail of "1.2.3" or "3,4"
    if i + 1 < len(tokens) and tokens[i + 1].capital and tokens[i + 1].lower.rstrip(".") in _MONTHS \
            and len(tok.text) <= 2:
        return None  # the day of "14 July 2015"; the month parses the date
    if i + 1 < len(tokens) and tokens[i + 1].start == tok.end and tokens[i + 1].text == "(":
        return None  # "401(k)" names a plan
    value, decimals = _number_value(tok.text)
    first = i
    currency = None
    change = None
    # a currency sign or code right before: "$12", "US$ 5", "EUR 40"
    if i > 0 and tokens[i - 1].text in _CURRENCY_SYMBOLS:
        currency = _CURRENCY_SYMBOLS[tokens[i - 1].text]
        first = i - 1
    elif i > 0 and tokens[i - 1].lower in _CURRENCY_CODES:
        currency = _CURRENCY_CODES[tokens[i - 1].lower]
        first = i - 1
    sign_index = first - 1
    if sign_index >= 0 and tokens[sign_index].text in "+-−" and tokens[sign_index].end == tokens[first].start:
        before = text[tokens[sign_index].start - 1] if tokens[sign_index].start > 0 else " "
        if not before.isalnum():
            change = 1 if tokens[sign_index].text == "+" else -1
            first = sign_index
    j = i + 1
    # ordinals "25th", "1st"
    if j < len(tokens) and tokens[j].lower in ("st", "nd", "rd", "th") and tokens[j].start == tok.end:
        return _make(text, tokens, "ordinal", value, first, j + 1), j + 1
    # the year of a bare four-digit number
    if currency is None and _is_year(tok) and not (j < len(tokens) and _unit_at(tokens, j)):
        return _make(text, tokens, "date", (int(value), None, None), i, j), j
    scale = 1.0
    if j < len(tokens):
        scale_word = tokens[j].lower
        if scale_word in _SCALE_WORDS:
            scale = _SCALE_WORDS[scale_word]
            j += 1
        elif scale_word in _SCALE_SUFFIXES and (tokens[j].start == tok.end or currency) and (
                currency or scale_word in ("k", "bn", "mn", "mln")):
            scale = _SCALE_SUFFIXES[scale_word]
            j += 1
    kind = "count"
    factor = 1.0
    if currency is not None:
        kind = f"money:{currency}"
    if scale == 1.0 and _unit_at(tokens, j) is None:
        partner = _range_partner(text, tokens, j, between=first > 0 and tokens[first - 1].lower == "between")
        if partner is not None and value < float(partner.value) / partner.scale:
            bound, lead = _bound_before(tokens, first)  # "5 to 7 business days": the near end takes the unit
            change, change_index = (change, -1) if change is not None else _change_before(tokens, first)
            return _make(text, tokens, partner.kind, value * partner.scale, first, j, core=i, lead=lead, bound=bound,
                         change=change, change_index=change_index, scale=partner.scale, decimals=decimals,
                         per=partner.per), j
    unit = None
    if j < len(tokens) and tokens[j].text == "-" and j + 1 < len(tokens) and tokens[j].start == tokens[j - 1].end:
        unit = _unit_at(tokens, j + 1)  # "40-hour", "14-day"
        if unit is not None:
            j += 1
    if unit is None:
        unit = _unit_at(tokens, j)
    described: tuple[int, ...] = ()
    if unit is None and currency is None:
        unit_index, unit = _described_time_unit(tokens, j)
        described, j = tuple(range(j, unit_index)), unit_index
    if unit is not None and (currency is None or unit[0].startswith("money")):
        unit_kind, factor, used = unit
        if currency is None or unit_kind == kind:
            kind = unit_kind
            j += used
        else:
            factor = 1.0
    elif unit is not None:
        factor = 1.0
    if currency is None and kind == "count" and len(tok.text) > 4 and tok.text.isdigit() and tok.text[0] == "0":
        return None  # zip codes, identifiers
    core_end = j
    per, j = _per_after(tokens, j)
    bound, lead = _bound_before(tokens, first)
    after = _match_phrase_after(tokens, j, _BOUNDS_AFTER)
    if after is not None:
        bound = bound or after[0]
        j += after[1]
    change_index = -1
    if change is None:
        change, change_index = _change_before(tokens, first)
        if change is None and not after:
            change = _change_after(tokens, j)
    quantity = _make(
        text, tokens, kind, value * scale * factor, first, j, core=i, core_end=core_end, lead=lead, per=per,
        bound=bound, change=change, change_index=change_index, hedged=_hedged_before(tokens, first),
        scale=scale * factor, decimals=decimals, described=described,
    )
    if kind == "count" and not per:
        quantity = replace(quantity, surface=_counted(text, tokens, first, j))
    return quantity, j


def _counted(text: str, tokens: list[_Tok], first: int, j: int) -> str:
    """A count with what it counts, for reasons: "10 failed sign-in attempts" rather than "10"."""
    end = j
    while end < len(tokens) and end - j < 5 and tokens[end].start - tokens[end - 1].end <= 1:
        tok = tokens[end]
        if tok.text == "-" and end + 1 < len(tokens) and tokens[end + 1].kind == "word":
            end += 2  # "sign-in"
        elif tok.kind == "word" and tok.text.islower() and _is_content(tok):
            end += 1
        else:
            break
    return " ".join(text[tokens[first].start : tokens[end - 1].end].split())


def _range_partner(text: str, tokens: list[_Tok], j: int, *, between: bool) -> _Quantity | None:
    """The far end of "5 to 7 business days" / "between 4.5 and 7.3 billion km", when it has the unit."""
    if j + 1 >= len(tokens) or tokens[j + 1].kind != "num":
        return None
    if tokens[j].lower not in _RANGE_WORDS and not (between and tokens[j].lower == "and"):
        return None
    parsed = _parse_number(text, tokens, j + 1)
    if parsed is None or (parsed[0].kind == "count" and parsed[0].scale == 1.0) or parsed[0].kind == "date":
        return None
    return parsed[0]


def _frequency_at(text: str, tokens: list[_Tok], i: int) -> tuple[_Quantity, int] | None:
    """How often, as times per year: "monthly", "semi-annually", "twice a year", "every quarter"."""
    lower = tokens[i].lower
    if lower in _FREQUENCY_ADVERBS:
        return _make(text, tokens, "frequency", _FREQUENCY_ADVERBS[lower], i, i + 1, strong=False), i + 1
    if lower == "semi" and i + 2 < len(tokens) and tokens[i + 1].text == "-" and tokens[i + 2].lower == "annually":
        return _make(text, tokens, "frequency", 2.0, i, i + 3, strong=False), i + 3
    times, j = _TIMES.get(lower), i + 1
    if times is None and lower in _NUMBER_WORDS and i + 1 < len(tokens) and tokens[i + 1].lower == "times":
        times, j = float(_NUMBER_WORDS[lower]), i + 2
    if times is None and lower not in ("every", "each"):
        return None
    if j + 1 < len(tokens) and tokens[j].lower in ("a", "an", "per", "every", "each"):
        j += 1
    period = tokens[j].lower.rstrip("s") if j < len(tokens) and (times or j == i + 1) else ""
    if period not in _PER_YEAR:
        return None
    return _make(text, tokens, "frequency", (times or 1.0) * _PER_YEAR[period], i, j + 1, strong=False), j + 1


def _parse_word_quantity(text: str, tokens: list[_Tok], i: int) -> tuple[_Quantity, int] | None:
    frequency = _frequency_at(text, tokens, i)
    if frequency is not None:
        return frequency
    tok = tokens[i]
    lower = tok.lower
    nxt = tokens[i + 1].lower if i + 1 < len(tokens) else ""
    after_hyphen = i + 2 < len(tokens) and nxt == "-"
    # fractions: "one sixth", "two-thirds", "a quarter"
    denominator_index = i + 2 if after_hyphen else i + 1
    if lower in ("one", "a", "two", "three", "four", "five") and denominator_index < len(tokens):
        denominator = _FRACTION_DENOMINATORS.get(tokens[denominator_index].lower)
        if denominator and not (denominator_index + 1 < len(tokens) and tokens[denominator_index + 1].text == "-"):
            numerator = 1 if lower in ("one", "a") else _NUMBER_WORDS[lower]
            if lower == "a" and tokens[denominator_index].lower not in ("half", "third", "quarter"):
                return None
            return _make(text, tokens, "fraction", numerator / denominator, i, denominator_index + 1), \
                denominator_index + 1
    if lower == "half" and not (i > 0 and tokens[i - 1].lower in ("first", "second", "a", "one")):
        return _make(text, tokens, "fraction", 0.5, i, i + 1, strong=False), i + 1
    if lower in _ORDINAL_WORDS:
        if lower == "second" and i > 0 and tokens[i - 1].kind == "num":
            return None  # "30 second" is a duration
        return _make(text, tokens, "ordinal", _ORDINAL_WORDS[lower], i, i + 1, strong=False), i + 1
    if lower in ("a", "an") and i + 1 < len(tokens):
        unit = _unit_at(tokens, i + 1)
        previous_is_quantity = i > 0 and (tokens[i - 1].kind == "num" or tokens[i - 1].lower in _UNITS
                                          or tokens[i - 1].lower in ("once", "twice", "thrice", "times"))
        if unit and unit[0].startswith("duration") and not previous_is_quantity and tokens[i + 1].lower != "second":
            per, j = _per_after(tokens, i + 1 + unit[2])
            return _make(text, tokens, unit[0], unit[1], i, i + 1 + unit[2], per=per, strong=False), \
                i + 1 + unit[2]
        return None
    if lower not in _NUMBER_WORDS:
        return None
    value = float(_NUMBER_WORDS[lower])
    j = i + 1
    if after_hyphen and tokens[i + 2].lower in _NUMBER_WORDS and value >= 20:
        value += _NUMBER_WORDS[tokens[i + 2].lower]  # "twenty-five"
        j = i + 3
    if j < len(tokens) and tokens[j].lower in _SCALE_WORDS:
        value *= _SCALE_WORDS[tokens[j].lower]
        j += 1
    unit = None
    if j + 1 < len(tokens) and tokens[j].text == "-":
        unit = _unit_at(tokens, j + 1)
        if unit is not None:
            j += 1
    if unit is None:
        unit = _unit_at(tokens, j)
    kind, factor = "count", 1.0
    if unit is not None:
        kind, factor, used = unit
        j += used
    elif lower == "one":
        return None  # "one of the largest": too often not a count
    core_end = j
    per, j = _per_after(tokens, j)
    bound, lead = _bound_before(tokens, i)
    change, change_index = _change_before(tokens, i)
    return _make(text, tokens, kind, value * factor, i, j, core_end=core_end, lead=lead, per=per, bound=bound,
                 change=change, change_index=change_index,
                 hedged=_hedged_before(tokens, i), scale=factor), j


def _make(text: str, tokens: list[_Tok], kind: str, value, first: int, end: int, *, core: int | None = None,
          core_end: int | None = None, lead: int = 0, **extra) -> _Quantity:
    """Tokens ``first``..``end`` are the surface; ``first``..``core_end`` the number and unit proper (a
    rate's "per mile" stays a word of the text). ``core`` is the number's own token (its position)."""
    start, stop = tokens[first].start, tokens[end - 1].end
    anchor = tokens[first if core is None else core]
    return _Quantity(kind=kind, value=value, surface=" ".join(text[start:stop].split()), start=start, end=stop,
                     pos=anchor.pos, cell=anchor.cell, token_span=(first, core_end or end), lead=lead, **extra)


def _compatible(claim: _Quantity, evidence: _Quantity) -> bool:
    if {claim.kind, evidence.kind} == {"fraction", "percent"}:
        return True  # "half" and "50 percent"
    if claim.kind != evidence.kind:
        return False
    if claim.kind == "date":
        return any(c is not None and e is not None for c, e in zip(claim.value, evidence.value))
    return True


def _same_value(claim: _Quantity, evidence: _Quantity) -> bool:
    if claim.kind == "date":
        return all(c is None or e is None or c == e for c, e in zip(claim.value, evidence.value))
    c, e = _as_percent(claim), _as_percent(evidence)
    if claim.bound and not evidence.bound:  # "more than 200,000" against 236,000
        if abs(claim.bound) == 2:
            return e > c if claim.bound > 0 else e < c
        return e >= c if claim.bound > 0 else e <= c
    if math.isclose(c, e, rel_tol=1e-9, abs_tol=1e-9):
        return True
    if e == 0:
        return False
    if claim.hedged:  # "about 240,000" is 236,000 rounded to its last non-zero digit; "roughly 16" is not 17
        step = _precision(claim)
        return math.isclose(round(e / step) * step, c, rel_tol=1e-9)
    rounded = round(e / claim.scale, claim.decimals) * claim.scale
    return math.isclose(rounded, c, rel_tol=1e-9) and abs(c - e) / abs(e) <= 0.015


def _precision(quantity: _Quantity) -> float:
    """The step a written number is given to: 0.1 for "5.9", 10,000 for "240,000", a million for "2 million"."""
    if quantity.decimals:
        return quantity.scale * 10.0 ** -quantity.decimals
    written = round(abs(float(quantity.value)) / quantity.scale)
    zeros = len(str(written)) - len(str(written).rstrip("0")) if written else 0
    return quantity.scale * 10.0 ** min(zeros, len(str(written)) - 1)


def _as_percent(quantity: _Quantity) -> float:
    return float(quantity.value) * (100 if quantity.kind == "fraction" else 1)


def _describe(quantity: _Quantity) -> str:
    if quantity.kind == "percent":
        number = re.search(r"[-+−]?\d[\d,]*(?:\.\d+)?", quantity.surface)
        if number:
            return f"{number.group()} percent"
    return quantity.surface


# ---------------------------------------------------------------- units


@dataclass(frozen=True, slots=True)
class _Clause:
    stems: dict[str, float]  # content stems; 0.5 for those an elliptical negation borrows from the clause before
    negated: frozenset[str]  # stems inside a negation's scope
    has_negation: bool


def _analyze_unit(text: str, start: int, end: int, kind: str, header: list[list[_Tok]]) -> _Unit:
    table = kind in ("table_row", "table_header")
    tokens = _tokenize(text, start, end, table=table)
    unit = _Unit(start=start, end=end, kind=kind, tokens=tokens, quantities=_quantities(text, tokens), header=header)
    skip = _quantity_tokens(unit)
    unit.stems = {t.stem for k, t in enumerate(tokens) if _is_content(t) and k not in skip}
    for cell in header:
        unit.stems.update(t.stem for t in cell if _is_content(t))
    unit.clauses, unit.polarity_words = _clauses(tokens, skip)
    unit.negated = set().union(*(c.negated for c in unit.clauses))
    unit.asserted = {s for c in unit.clauses for s in c.stems if s not in c.negated}
    if table:
        unit.asserted |= unit.stems
    unit.polars = _polars(tokens, skip)
    unit.embed_text = _embed_text(text, unit)
    context_skip = _context_skip(unit)
    unit.quantity_contexts = [_context(unit, q.pos, q.cell, context_skip, anchor=q.anchor) for q in unit.quantities]
    unit.quantity_labels = _list_labels(unit, skip) if not table else [frozenset()] * len(unit.quantities)
    unit.words = {t.lower: t.stem for k, t in enumerate(tokens)
                  if _is_content(t) and k not in skip and (not t.capital or (t.initial and not t.text.isupper()))}
    return unit


def _list_labels(unit: _Unit, skip: set[int]) -> list[frozenset[str]]:
    """For like quantities listed in one sentence, the words that name each one and no other.

    "adult men (3.4 percent), adult women (3.1 percent)": "men" and "women" (not the shared "adult");
    "100% of the premium for employees and 50% of the premium for dependents": "employees" and "dependents".
    Word distances cannot bind such lists (every member is near every label); the labels can.
    """
    quantities = unit.quantities
    labels: list[frozenset[str]] = [frozenset()] * len(quantities)
    for kind in {q.kind for q in quantities} - _UNLABELLED_KINDS:
        members = [k for k, q in enumerate(quantities) if q.kind == kind]
        if len(members) < 2:
            continue
        gaps = [unit.tokens[quantities[a].token_span[1] : quantities[b].token_span[0]]
                for a, b in zip(members, members[1:])]
        if not all(any(_is_content(t) for t in gap) for gap in gaps):
            continue  # a range ("from $2,000 to $10,000") names its two ends together
        step = 1 if any(_labels_follow(gap) for gap in gaps) else -1
        own = {k: _label_words(unit.tokens, quantities[k], step, skip) for k in members}
        for k in members:
            labels[k] = frozenset(own[k] - set().union(*(own[m] for m in members if m != k)))
    return labels


def _label_words(tokens: list[_Tok], q: _Quantity, step: int, skip: set[int]) -> set[str]:
    """Content words naming a quantity on one side: after any function words next to it ("gain of 95,000",
    "50% of the premium for dependents"), up to the next joiner, bracket or number; leftwards also up to the
    next function word ("rates for adult men (3.4 percent)" names "adult men")."""
    stems: set[str] = set()
    leading = 0  # function words passed before the first content word
    j = q.token_span[0] - q.lead - 1 if step < 0 else q.token_span[1]
    while 0 <= j < len(tokens) and len(stems) < _LABEL_WORDS and j not in skip:
        tok = tokens[j]
        if tok.text == "-" or (tok.text in "()" and not stems):
            j += step
            continue
        if tok.kind != "word" or tok.lower in _LIST_JOINERS or tok.lower in _CONJUNCTIONS:
            break
        if _is_content(tok):
            stems.add(tok.stem)
        elif stems and step < 0:
            break
        elif not stems:
            leading += 1
            if leading > _LABEL_LEADING_WORDS:
                break
        j += step
    return stems


def _embed_text(text: str, unit: _Unit) -> str:
    if unit.kind == "table_row" and unit.header:
        cells = [c.strip() for c in text[unit.start:unit.end].strip().strip("|").split("|")]
        names = [" ".join(t.text for t in cell) for cell in unit.header]
        parts = [f"{name}: {value}" if name else value for name, value in zip(names, cells)]
        return " ".join(_MARKUP.sub("", "; ".join(parts)).split())
    return " ".join(_MARKUP.sub("", text[unit.start:unit.end]).replace("|", " ").split())


def _clauses(tokens: list[_Tok], skip: set[int]) -> tuple[list[_Clause], dict[str, int]]:
    """Clauses with their negation scopes, and the effective polarity of polarity-class words."""
    clauses: list[_Clause] = []
    polarity: dict[str, int] = {}
    stems: dict[str, float] = {}
    negated: set[str] = set()
    has_negation = False
    scope_left = 0
    dangling = False  # a negation with nothing after it: "traffic fines are not."

    def close() -> None:
        nonlocal stems, negated, has_negation, scope_left, dangling
        if dangling and clauses:
            for stem in clauses[-1].stems:
                stems.setdefault(stem, 0.5)  # the predicate is the previous clause's
            negated = set(stems)
        if stems or has_negation:
            clauses.append(_Clause(stems, frozenset(negated), has_negation))
        stems, negated, has_negation, scope_left, dangling = {}, set(), False, 0, False

    for k, tok in enumerate(tokens):
        if tok.text in _NEGATION_BREAKS or tok.lower in _NEGATION_BREAKS:
            close()
            continue
        if _is_negation_cue(tokens, k):
            has_negation, scope_left, dangling = True, _NEGATION_SCOPE, True
            continue
        if tok.kind != "word" or k in skip:
            continue
        polar_class = _POLARITY_BY_STEM.get(tok.stem) or _POLARITY_CLASSES.get(tok.lower)
        if polar_class is not None:
            name, value = polar_class
            polarity[name] = -value if scope_left else value
        if not _is_content(tok):
            continue
        stems[tok.stem] = 1.0
        if scope_left:
            negated.add(tok.stem)
            scope_left -= 1
            dangling = False
    close()
    return clauses, polarity


def _is_negation_cue(tokens: list[_Tok], k: int) -> bool:
    lower = tokens[k].lower
    if lower.endswith(("n't", "n’t")) or lower == "never":
        return True
    if lower not in _NEGATION_CUES:
        return False
    nxt = tokens[k + 1].lower if k + 1 < len(tokens) else ""
    return nxt not in _NOT_NEGATION_AFTER and not (lower == "no" and nxt == ".")


def _polars(tokens: list[_Tok], skip: set[int]) -> list[_Polar]:
    found: list[_Polar] = []
    for k, tok in enumerate(tokens):
        if tok.kind != "word" or k in skip:
            continue
        if tok.lower == "little" and _UNCHANGED_PHRASES.search(" ".join(t.lower for t in tokens[max(0, k - 1) : k + 4])):
            found.append(_Polar("change", 0, "changed little", tok.pos, k))  # "changed little", "little or no change"
            continue
        if tok.lower in ("up", "down") and not (k > 0 and _MOVES.search(tokens[k - 1].lower)):
            continue  # "made up", "set up", "back down"
        for family, words in _DIRECTION_FAMILIES:
            if tok.lower in words:
                found.append(_Polar(family, words[tok.lower], tok.lower, tok.pos, k))
                break
        else:
            if _SUPERLATIVE.fullmatch(tok.lower) and tok.lower not in _NOT_SUPERLATIVES:
                found.append(_Polar("superlative", 1, tok.lower, tok.pos, k))  # "strictest"
    return found


@dataclass
class _Candidate:
    units: list[_Unit]
    stems: set[str]
    names: set[str]  # stems only ever written capitalised, and capitalised mid-sentence at least once
    heading_stems: frozenset[str] = frozenset()  # shared by every window of the candidate


@lru_cache(maxsize=512)
def _analyze_candidate(text: str, heading: str = "") -> _Candidate:
    units: list[_Unit] = []
    header: list[list[_Tok]] = []
    stems: set[str] = set()
    caption = ""
    for segment in text_segments(text):
        if segment.kind == "table_header":
            header_tokens = _tokenize(text, segment.start, segment.end, table=True)
            cells = max((t.cell for t in header_tokens), default=-1) + 1
            header = [[t for t in header_tokens if t.cell == c] for c in range(cells)]
            stems.update(t.stem for t in header_tokens if _is_content(t))
            continue
        if segment.kind != "table_row":
            header = []
        unit = _analyze_unit(text, segment.start, segment.end, segment.kind, header)
        if segment.kind == "table_row" and caption:
            unit.embed_text = f"{caption} {unit.embed_text}"
        elif segment.kind not in ("table_row", "heading"):
            caption = unit.embed_text
        stems.update(unit.stems)
        if segment.kind != "heading":  # headings add vocabulary, never a quote
            units.append(unit)
    tokens = [t for u in units for t in u.tokens if t.kind == "word"]
    lower = {t.stem for t in tokens if not t.capital}
    names = {t.stem for t in tokens if _looks_like_name(t) and not t.text.isupper()} - lower
    heading_stems = _heading_stems(heading)
    return _Candidate(units=units, stems=stems | heading_stems, names=names, heading_stems=heading_stems)


def _heading_stems(heading: str) -> frozenset[str]:
    """Content words of a heading path; its numbers and dates ("Jobs Report - March 2023") are left out, so
    a heading can vouch for what a chunk is about but never for a value."""
    if not heading.strip():
        return frozenset()
    unit = _analyze_unit(heading, 0, len(heading), "heading", [])
    return frozenset(unit.stems)


# ---------------------------------------------------------------- the claim


@dataclass
class _Claim:
    text: str
    unit: _Unit
    weights: dict[str, float]  # content stem -> importance
    entities: list[list[_Tok]]  # runs of capitalised words that look like names
    words: dict[str, str]  # lower-case content word -> stem, for word-level similarity
    slots: list[_Slot] = field(default_factory=list)  # content words with their joints, for _slot_swaps
    word_vectors: dict[str, numpy.ndarray] = field(default_factory=dict)  # lower-case word -> unit embedding


def _analyze_claim(claim: str, *, names: set[str]) -> _Claim:
    """``names``: stems the evidence writes capitalised mid-sentence, so "Styx is ..." starts with a name."""
    unit = _analyze_unit(claim, 0, len(claim), "claim", [])
    skip = _quantity_tokens(unit)
    weights: dict[str, float] = {}
    entities: list[list[_Tok]] = []
    run: list[_Tok] = []
    tokens = unit.tokens
    for k, tok in enumerate(tokens):
        is_name = _is_content(tok) and k not in skip and (_looks_like_name(tok) or (tok.capital and tok.stem in names))
        if is_name:
            run.append(tok)
        elif run and not (tok.lower in _NAME_JOINERS and k + 1 < len(tokens) and _looks_like_name(tokens[k + 1])):
            entities.append(run)
            run = []
        if _is_content(tok) and k not in skip:
            weights[tok.stem] = max(weights.get(tok.stem, 0.0), _NAME_WEIGHT if is_name else 1.0)
    if run:
        entities.append(run)
    for polar in unit.polars:
        weights.pop(_stem(polar.word), None)  # direction words are judged by the direction rules
    attached = {q.change_index for q in unit.quantities}
    unit.polars = [p for p in unit.polars if p.index not in attached]  # judged with their numbers
    name_stems = {t.stem for run in entities for t in run}
    words = {w: s for w, s in unit.words.items() if s in weights and s not in name_stems}
    return _Claim(text=claim, unit=unit, weights=weights, entities=entities, words=words, slots=_slot_sequence(unit))


def _looks_like_name(tok: _Tok) -> bool:
    if tok.kind != "word" or _bare(tok.lower) in _MONTHS or _bare(tok.lower) in _WEEKDAYS:
        return False
    return (tok.capital and not tok.initial) or (len(tok.text) > 1 and tok.text.isupper())


# ---------------------------------------------------------------- windows


@dataclass
class _Window:
    candidate: int
    units: list[_Unit]  # chosen units, in document order
    start: int
    end: int
    stems: set[str]
    similarity: float | None = None
    word_credit: dict[str, float] = field(default_factory=dict)  # claim stem -> credit from similar words
    joined: bool = False  # two passages checked together; see _joined


def _stem_found(stem: str, stems: set[str]) -> float:
    if stem in stems:
        return 1.0
    if len(stem) >= 5 and any(_related(stem, other) for other in stems):
        return _RELATED_CREDIT
    return 0.0


def _coverage(claim: _Claim, stems: set[str]) -> float:
    total = sum(claim.weights.values())
    if not total:
        return 1.0
    return sum(w * _stem_found(s, stems) for s, w in claim.weights.items()) / total


def _window_relevance(claim: _Claim, units: list[_Unit]) -> float:
    stems = set().union(*(u.stems for u in units))
    lexical = _coverage(claim, stems)
    if not claim.unit.quantities:
        return lexical
    pool = [q for u in units for q in u.quantities]
    hits = sum(1 for q in claim.unit.quantities if any(_compatible(q, e) and _same_value(q, e) for e in pool))
    return 0.7 * lexical + 0.3 * hits / len(claim.unit.quantities)


def _windows(claim: _Claim, index: int, candidate: _Candidate) -> list[_Window]:
    units = candidate.units
    ranked = sorted(range(len(units)), key=lambda k: -_window_relevance(claim, [units[k]]))
    windows: list[_Window] = []
    seen: set[tuple[int, ...]] = set()
    for seed in ranked[:_SEEDS_PER_CANDIDATE]:
        chosen = tuple(_grow(claim, units, seed))
        if chosen in seen:
            continue
        seen.add(chosen)
        members = [units[k] for k in chosen]
        windows.append(_Window(candidate=index, units=members, start=members[0].start, end=members[-1].end,
                               stems=set().union(candidate.heading_stems, *(u.stems for u in members))))
    return windows


def _grow(claim: _Claim, units: list[_Unit], seed: int) -> list[int]:
    """Add nearby units while they cover claim words or quantities the window still lacks."""
    chosen = [seed]
    while len(chosen) < _MAX_WINDOW_UNITS:
        current = _window_relevance(claim, [units[k] for k in chosen])
        best_gain, best_k = 0.0, None
        lo, hi = chosen[0], chosen[-1]
        for k in range(max(0, lo - _MAX_UNIT_GAP), min(len(units), hi + _MAX_UNIT_GAP + 1)):
            if k in chosen:
                continue
            gain = _window_relevance(claim, [units[m] for m in sorted([*chosen, k])]) - current
            if gain > best_gain:
                best_gain, best_k = gain, k
        if best_k is None or best_gain < _MIN_GAIN:
            break
        chosen = sorted([*chosen, best_k])
    return chosen


# ---------------------------------------------------------------- hard checks


@dataclass
class _Findings:
    conflicts: list[str] = field(default_factory=list)
    missing_quantities: list[str] = field(default_factory=list)
    weak_missing: list[str] = field(default_factory=list)
    matches: list[str] = field(default_factory=list)
    missing_entities: list[str] = field(default_factory=list)
    entities_elsewhere: list[str] = field(default_factory=list)
    unsupported_terms: list[str] = field(default_factory=list)
    substitutions: list[str] = field(default_factory=list)
    slot_swaps: list[str] = field(default_factory=list)
    unsupported_phrases: list[str] = field(default_factory=list)


def _quantity_tokens(unit: _Unit) -> set[int]:
    """Tokens that belong to numbers and units rather than to the words of the text."""
    return {k for q in unit.quantities for k in range(*q.token_span) if k not in q.described}


def _context_skip(unit: _Unit) -> set[int]:
    """Tokens left out of word contexts: numbers, units and bound phrases ("at least" says nothing of topic)."""
    return _quantity_tokens(unit) | {k for q in unit.quantities for k in range(q.token_span[0] - q.lead, q.token_span[0])}


def _context(unit: _Unit, pos: float, cell: int, skip: set[int], *, claim: bool = False, anchor: float | None = None,
             segment: tuple[float, float] | None = None) -> dict[str, float]:
    """Content stems around a position, weighted by closeness (tables: same cell, row label, column header).

    A claim is short, so its weights fall off slowly; words before a claim's number are more often its
    subject than words after it ("domestic trips ... 14 days, and international trips ... 21 days").
    """
    weights: dict[str, float] = {}
    decay = _CLAIM_DECAY if claim else _EVIDENCE_DECAY
    for k, tok in enumerate(unit.tokens):
        if k in skip or not _is_content(tok) or tok.lower in _CHANGE_VERBS:
            continue  # "rose" and "added" are judged as directions, not as topic words ("gain" still is one)
        if cell < 0:
            origin = anchor if anchor is not None and tok.pos < anchor else pos
            weight = 1.0 / (1.0 + decay * abs(tok.pos - origin))
            if anchor is not None and anchor < tok.pos < pos:
                weight *= _OTHER_SEGMENT_FACTOR  # the label of the list member before this one
            if claim and tok.pos > pos:
                weight *= _CLAIM_RIGHT_FACTOR
            if segment is not None and not segment[0] < tok.pos < segment[1]:
                weight *= _OTHER_SEGMENT_FACTOR
        elif tok.cell == cell:
            weight = 1.0 / (1.0 + 0.3 * abs(tok.pos - pos))
        else:
            weight = 0.8 if tok.cell == 0 else 0.2
        if weight > weights.get(tok.stem, 0.0):
            weights[tok.stem] = weight
    if 0 <= cell < len(unit.header):
        for tok in unit.header[cell]:
            if _is_content(tok) and weights.get(tok.stem, 0.0) < 0.8:
                weights[tok.stem] = 0.8
    return weights


def _affinity(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(w * b[s] for s, w in a.items() if s in b)


def _cosine(a: dict[str, float], b: dict[str, float]) -> float:
    norm = math.sqrt(sum(w * w for w in a.values()) * sum(w * w for w in b.values()))
    return _affinity(a, b) / norm if norm else 0.0


def _check_quantities(claim: _Claim, window: _Window, candidate: _Candidate, findings: _Findings) -> None:
    """Pair each claim quantity with the best-placed like quantity anywhere in the candidate.

    Looking past the window matters: a window can pair the claim's subject from one sentence with a
    number from a neighbouring one ("Team plan" + Pro's "250 GB").
    """
    claim_skip = _context_skip(claim.unit)
    pool = [(k, unit) for unit in candidate.units for k in range(len(unit.quantities))]
    listed = _listed_together(claim, candidate)
    for q in claim.unit.quantities:
        if q in listed:
            _compare_attributes(q, listed[q], findings)
            continue
        compatible = [(unit.quantities[k], unit, unit.quantity_contexts[k], unit.quantity_labels[k]) for k, unit in pool
                      if _compatible(q, unit.quantities[k])]
        missing = findings.missing_quantities if q.strong else findings.weak_missing
        if not compatible:
            missing.append(_describe(q))
            continue
        claim_ctx = _context(claim.unit, q.pos, -1, claim_skip, claim=True, segment=_claim_segment(claim, q))
        placement = _with_labels([_placement(claim, q, claim_ctx, e, unit, ctx) for e, unit, ctx, _ in compatible],
                                 [(unit, _label_share(claim_ctx, labels)) for _, unit, _, labels in compatible])
        best = max(range(len(compatible)), key=placement.__getitem__)
        equal = [k for k, (e, *_) in enumerate(compatible) if _same_value(q, e)]
        if equal:
            k = max(equal, key=placement.__getitem__)
            same_unit = compatible[k][1] is compatible[best][1]
            if placement[k] >= placement[best] - (_SAME_UNIT_TOLERANCE if same_unit else _BINDING_TOLERANCE):
                if _local_share(claim_ctx, compatible[k][1], window) >= _MIN_MATCH_SHARE:
                    _compare_attributes(q, compatible[k][0], findings)
                else:  # the same value, said about something else
                    missing.append(_describe(q))
                continue
        if placement[best] >= _MIN_PLACEMENT and _local_share(claim_ctx, compatible[best][1], window) >= _SAME_TOPIC:
            findings.conflicts.append(f"claim says {_describe(q)}; evidence says {_describe(compatible[best][0])}")
        else:
            missing.append(_describe(q))


def _with_labels(placement: list[float], shares: list[tuple[_Unit, float]]) -> list[float]:
    """Reorder the members of each list by their labels, leaving each unit's best placement as it was:
    labels tell list members apart, they must not draw a claim to another sentence's list."""
    adjusted = [p + _LABEL_WEIGHT * share for p, (_, share) in zip(placement, shares)]
    for unit in {id(u): u for u, _ in shares}.values():
        members = [k for k, (u, _) in enumerate(shares) if u is unit]
        excess = max(adjusted[k] for k in members) - max(placement[k] for k in members)
        for k in members:
            adjusted[k] -= excess
    return adjusted


def _label_share(claim_ctx: dict[str, float], labels: frozenset[str]) -> float:
    """How much of a list member's own label the claim puts beside its number."""
    if not labels:
        return 0.0
    return sum(1 for s in labels if claim_ctx.get(s, 0.0) >= _MIN_LABEL_CONTEXT) / len(labels)


def _local_share(claim_ctx: dict[str, float], unit: _Unit, window: _Window | None = None) -> float:
    """The weighted share of the claim's words around a number that the unit has (with the rest of the
    window, when the unit is in it: a list item leans on the sentence that introduces the list); a
    light word it lacks ("stood at") is no evidence against it."""
    in_window = window is not None and not window.joined and any(unit is member for member in window.units)
    stems = unit.stems | window.stems if in_window else unit.stems
    found = sum(w for s, w in claim_ctx.items() if _stem_found(s, stems))
    total = found + sum(w for s, w in claim_ctx.items() if not _stem_found(s, stems) and s not in _LIGHT_STEMS)
    return found / total if total else 0.0


def _specific(quantity: _Quantity) -> bool:
    """Not a bare month or weekday: "in March" sits beside half the numbers of a monthly report."""
    if quantity.kind == "date":
        return sum(part is not None for part in quantity.value) >= 2
    return quantity.kind != "weekday"


def _claim_segment(claim: _Claim, q: _Quantity) -> tuple[float, float] | None:
    """With two like quantities in a claim, each owns the words up to the conjunction between them."""
    tokens = claim.unit.tokens
    same = [o for o in claim.unit.quantities if o.kind == q.kind]
    if len(same) < 2:
        return None
    left = max((o.pos for o in same if o.pos < q.pos), default=-math.inf)
    right = min((o.pos for o in same if o.pos > q.pos), default=math.inf)
    cuts = [t.pos for t in tokens if t.lower in _LIST_JOINERS or t.lower in _CONJUNCTIONS]
    start = max((c for c in cuts if left < c < q.pos), default=left)
    end = min((c for c in cuts if q.pos < c < right), default=right)
    return start, end


def _placement(claim: _Claim, q: _Quantity, claim_ctx: dict[str, float], e: _Quantity, unit: _Unit,
               evidence_ctx: dict[str, float]) -> float:
    """How well an evidence quantity sits where the claim's does: how much of the claim's wording around
    the number its unit shares, how alike the nearby words are, and whether the rate ("per month") agrees."""
    local = _local_share(claim_ctx, unit)
    nearby = _cosine(claim_ctx, evidence_ctx)
    # a specific date beside a version number, the numbers beside a month: where those sit, this one does
    others = [o for o in claim.unit.quantities if not _compatible(q, o) and _specific(o)]
    shared = sum(max((1.0 / (1.0 + _EVIDENCE_DECAY * abs(x.pos - e.pos)) for x in unit.quantities
                      if _compatible(o, x) and _same_value(o, x)), default=0.0) for o in others)
    same_rate = bool(q.per & e.per) or (not q.per and not e.per)
    return local + _NEARBY_WEIGHT * nearby + _RATE_WEIGHT * same_rate + _SHARED_WEIGHT * shared / max(1, len(others))


def _listed_together(claim: _Claim, candidate: _Candidate) -> dict[_Quantity, _Quantity]:
    """Like quantities the claim lists ("63.3 percent and 61.1 percent") bind as a group to the first
    unit that has all their values: word distances cannot tell the members of a list apart."""
    bound: dict[_Quantity, _Quantity] = {}
    for kind in {q.kind for q in claim.unit.quantities}:
        members = [q for q in claim.unit.quantities if q.kind == kind]
        if len(members) < 2:
            continue
        for unit in candidate.units:
            pairs = {q: next((e for e in unit.quantities if _compatible(q, e) and _same_value(q, e)), None)
                     for q in members}
            if all(pairs.values()):
                bound.update(pairs)
                break
    return bound


def _compare_attributes(q: _Quantity, e: _Quantity, findings: _Findings) -> None:
    time_per_q = {p for p in q.per if p in _TIME_UNITS}
    time_per_e = {p for p in e.per if p in _TIME_UNITS}
    if time_per_q and time_per_e and time_per_q != time_per_e:
        findings.conflicts.append(f"claim says {_describe(q)}; evidence says {_describe(e)}")
    elif q.change is not None and e.change is not None and q.change != e.change:
        findings.conflicts.append(
            f"claim says {_CHANGE_NAMES[q.change]} {_describe(q)}; evidence says {_CHANGE_NAMES[e.change]} {_describe(e)}")
    elif q.bound and e.bound and (q.bound > 0) != (e.bound > 0):
        findings.conflicts.append(
            f"claim says {_BOUND_NAMES[q.bound]} {_describe(q)}; evidence says {_BOUND_NAMES[e.bound]} {_describe(e)}")
    else:
        findings.matches.append(f"{_describe(q)} matches evidence")


def _check_directions(claim: _Claim, window: _Window, findings: _Findings) -> None:
    evidence = [(p, u) for u in window.units for p in u.polars]
    claim_skip = _context_skip(claim.unit)
    for polar in claim.unit.polars:
        same_family = [(p, u) for p, u in evidence if p.family == polar.family]
        if not same_family:
            continue
        claim_ctx = _context(claim.unit, polar.pos, -1, claim_skip | {polar.index})
        ranked = sorted(((_affinity(claim_ctx, _context(u, p.pos, -1, {p.index})), p) for p, u in same_family),
                        key=lambda pair: -pair[0])
        best_score, best = ranked[0]
        agreeing = [score for score, p in ranked if p.polarity == polar.polarity]
        if best.polarity != polar.polarity and best_score > _MIN_CONTEXT and (
                not agreeing or agreeing[0] < _BINDING_MARGIN * best_score):
            findings.conflicts.append(f"claim says '{polar.word}'; evidence says '{best.word}'")


def _overlap(stems: Iterable[str], clause: _Clause) -> float:
    return sum(clause.stems.get(s, 0.0) for s in stems)


def _check_negation(claim: _Claim, window: _Window, findings: _Findings) -> None:
    prose = [u for u in window.units if u.kind != "table_row"]
    evidence = [(c, u) for u in prose for c in u.clauses if c.stems]
    if not evidence:
        return
    for clause in claim.unit.clauses:
        message = _clause_conflict(claim, clause, evidence)
        if message:
            findings.conflicts.append(message)
            return
    asserted = set().union(*(u.asserted for u in window.units))
    negated = set().union(*(u.negated for u in prose))
    names = {t.stem for run in claim.entities for t in run}
    for stem in sorted(names & claim.unit.asserted & negated - asserted):
        findings.conflicts.append(f"evidence negates '{_pretty(claim, {stem})}'; claim does not")
        return
    relevant = [u for u in prose if _coverage(claim, u.stems) >= 0.5]
    for unit in relevant:
        for name, value in claim.unit.polarity_words.items():
            if unit.polarity_words.get(name, value) != value:
                findings.conflicts.append(f"claim and evidence disagree on {name}")
                return
        message = _prefix_negation_conflict(claim, unit)
        if message:
            findings.conflicts.append(message)
            return


def _clause_conflict(claim: _Claim, clause: _Clause, evidence: list[tuple[_Clause, _Unit]]) -> str | None:
    """A claim clause against the evidence clause it lines up with: both negated, or neither."""
    if clause.negated:
        scope = clause.negated
        rest = [s for s in clause.stems if s not in scope]
        # the clause with the negated words themselves: "and vision" of "includes medical, dental, and vision"
        best, unit = max(evidence, key=lambda p: (_overlap(scope, p[0]) > 0, 2 * _overlap(scope, p[0])
                                                  + _overlap(rest, p[0]), bool(scope & p[0].negated)))
        about_the_same = not rest or any(s in unit.stems for s in rest)  # "they are tidally locked"
        if _overlap(scope, best) and about_the_same and not scope & best.negated:
            return f"claim negates '{_pretty(claim, set(scope))}'; evidence does not"
        return None
    if clause.has_negation:
        return None
    best, _ = max(evidence, key=lambda p: (_overlap(clause.stems, p[0]), p[0].has_negation))
    hit = set(clause.stems) & best.negated
    if best.has_negation and hit and _overlap(clause.stems, best) >= min(2.0, 0.5 * len(clause.stems)):
        return f"evidence negates '{_pretty(claim, hit)}'; claim does not"
    return None


def _prefix_negation_conflict(claim: _Claim, unit: _Unit) -> str | None:
    """"unpaid" against "paid", "non-refundable" against "refundable"."""
    claim_words = {t.lower for t in claim.unit.tokens if t.kind == "word"}
    unit_words = {t.lower for t in unit.tokens if t.kind == "word"}
    for mine, theirs, who, other in ((claim_words, unit_words, "claim", "evidence"),
                                     (unit_words, claim_words, "evidence", "claim")):
        for word in mine:
            for prefix, min_rest in _NEGATING_PREFIXES:
                rest = word[len(prefix):].lstrip("-")
                if word.startswith(prefix) and len(rest) >= min_rest and rest in theirs and rest not in mine \
                        and word not in theirs:
                    return f"{who} says '{word}'; {other} says '{rest}'"
    return None


def _substitutions(claim: _Claim, window: _Window, unsupported: set[str]) -> list[str]:
    """An unsupported word beside a word the evidence has, where the evidence puts a different word:
    "asteroid belt" against "Kuiper belt", "occurred in hotels" against "occurred in food services"."""
    found: list[str] = []
    tokens = claim.unit.tokens
    for k, tok in enumerate(tokens):
        if tok.kind != "word" or tok.stem not in unsupported:
            continue
        for step in (-1, 1):
            neighbour = _content_neighbour(tokens, k, step)
            if neighbour is None or neighbour.stem not in window.stems:
                continue
            rival = _evidence_neighbour(window, neighbour.stem, -step, claim)
            if rival is not None:
                pair = (f"{tok.text} {neighbour.text}", f"{rival} {neighbour.text}") if step > 0 else \
                    (f"{neighbour.text} {tok.text}", f"{neighbour.text} {rival}")
                found.append(f"claim says '{pair[0]}'; evidence says '{pair[1]}'")
                break
    return found


def _slot_swaps(claim: _Claim, window: _Window) -> list[str]:
    """Claim words the evidence replaces between the same two neighbours: "Company's arbitration procedure"
    against "Company's grievance procedure", "bonuses, and stock grants." against "bonuses, and salary
    increases.". Word similarity alone passes such swaps as paraphrases ("arbitration" is near "disputes");
    the same neighbours on both sides, joined by the same small words, show it is one slot holding another
    thing. Rewordings rarely keep every joining word ("entitled to" / "eligible for"), so they seldom align."""
    runs = _absent_runs(claim.slots, window.stems)
    found: list[str] = []
    for unit in window.units if runs else []:
        if unit.kind == "table_row":
            continue  # a row's cells are not one phrase
        evidence_slots = _slot_sequence(unit)
        for first, last in runs:
            swap = _same_slot(claim, claim.slots, first, last, evidence_slots)
            if swap is not None and swap not in found:
                found.append(swap)
    return found


@dataclass(frozen=True)
class _Slot:
    """A content word, or None at either end of the unit, with the small words and marks that lead to it."""
    tok: _Tok | None
    joint: tuple[str, ...]  # lower-case, quantities as "#": "95 percent" and "90 percent" join alike
    shown: tuple[str, ...]  # the same tokens as written, for reasons
    polar: bool = False  # a degree word: "lower" / "cheaper" is for the direction checks


def _slot_sequence(unit: _Unit) -> list[_Slot]:
    """Quantities are left out: their own checks judge them, and "95 percent" is no noun to swap."""
    skip = _quantity_tokens(unit)
    polar = {p.index for p in unit.polars if p.family != "change"}  # "salary increases" is a thing
    slots: list[_Slot] = [_Slot(None, (), ())]
    joint: list[str] = []
    shown: list[str] = []
    for k, tok in enumerate(unit.tokens):
        if k in skip or not _is_content(tok):
            joint.append(tok.lower if k not in skip else "#")
            shown.append(tok.text)
            continue
        slots.append(_Slot(tok, tuple(joint), tuple(shown), k in polar))
        joint, shown = [], []
    closing = [k for k, j in enumerate(joint) if j[0].isalnum()]  # closing marks may differ
    slots.append(_Slot(None, tuple(joint[k] for k in closing), tuple(shown[k] for k in closing)))
    return slots


def _absent_runs(slots: list[_Slot], stems: set[str]) -> list[tuple[int, int]]:
    """Runs of up to ``_SLOT_WORDS`` claim words the window lacks, between words it has. A word the window
    has elsewhere is no swap: "nonfarm jobs" where one sentence says "employment" and the next "jobs"."""
    runs: list[tuple[int, int]] = []
    k = 1
    while k < len(slots) - 1:
        if _stem_found(slots[k].tok.stem, stems):
            k += 1
            continue
        end = k
        while end + 1 < len(slots) - 1 and not _stem_found(slots[end + 1].tok.stem, stems):
            end += 1
        if end - k < _SLOT_WORDS and _bounded(slots, k, end):
            runs.append((k, end))
        k = end + 1
    return runs


def _bounded(slots: list[_Slot], first: int, last: int) -> bool:
    """Words on both sides; or, for the last member of a list, the list before it ("bonuses, and stock
    grants."). A sentence's opening or closing words alone are too loose a frame ("Monthly plans can be ...")."""
    before, after = slots[first - 1], slots[last + 1]
    if before.tok is not None and after.tok is not None:
        return True
    return before.tok is not None and bool(_LIST_JOINERS & set(slots[first].joint))


def _same_slot(claim: _Claim, claim_slots: list[_Slot], first: int, last: int,
               evidence_slots: list[_Slot]) -> str | None:
    """The evidence words between the run's two neighbours, if they are other words than the claim's."""
    before, after = claim_slots[first - 1], claim_slots[last + 1]
    mine = claim_slots[first : last + 1]
    if after.joint[:1] == ("than",) or any(s.polar for s in mine):
        return None  # "cheaper than" / "lower than": a comparison, which the direction checks judge
    if (mine[0].joint and mine[0].joint[-1] in _VERB_CUES) or any(s.tok.stem in _LIGHT_STEMS for s in mine):
        return None  # "may take legal action" / "may pursue legal action": verbs are reworded freely
    for k in range(len(evidence_slots) - 1):
        if not _same_word(evidence_slots[k].tok, before.tok):
            continue
        for end in range(k + 2, min(k + 2 + _SLOT_WORDS, len(evidence_slots))):
            theirs = evidence_slots[k + 1 : end]
            if not _same_word(evidence_slots[end].tok, after.tok) or evidence_slots[end].joint != after.joint \
                    or theirs[0].joint != mine[0].joint:
                continue
            if any(s.tok is None or s.polar or _claim_has(claim, s.tok.stem) for s in theirs) \
                    or _reworded(claim, mine, theirs):
                return None
            return (f"claim says '{_slot_text(before, mine, after)}'; "
                    f"evidence says '{_slot_text(evidence_slots[k], theirs, evidence_slots[end])}'")
    return None


def _claim_has(claim: _Claim, stem: str) -> bool:
    return stem in claim.weights or any(_related(stem, s) for s in claim.weights)


def _same_word(a: _Tok | None, b: _Tok | None) -> bool:
    return a is None and b is None or (a is not None and b is not None and _stem_found(a.stem, {b.stem}) > 0)


def _reworded(claim: _Claim, mine: list[_Slot], theirs: list[_Slot]) -> bool:
    """Some claim word of the slot is close in meaning to some evidence word of it. Without word vectors
    (no embedder) the slot is judged by its words alone."""
    for a in mine:
        for b in theirs:
            va, vb = claim.word_vectors.get(a.tok.lower), claim.word_vectors.get(b.tok.lower)
            if va is not None and vb is not None and float(va @ vb) >= _SLOT_PARAPHRASE_AT:
                return True
    return False


def _slot_text(before: _Slot, words: list[_Slot], after: _Slot) -> str:
    """The slot as written, with its joining words: "Company's arbitration procedure"."""
    parts: list[str] = [before.tok.text] if before.tok is not None else []
    for slot in [*words, after]:
        if slot.tok is not None:
            parts += [*slot.shown, slot.tok.text]
    return " ".join(parts)


def _content_neighbour(tokens: list[_Tok], k: int, step: int) -> _Tok | None:
    """The nearest content word on one side, with at most one function word between and no joiner: words
    further apart ("plan ... once they have completed") are not one phrase, so a swap there is no sign."""
    j = k + step
    while 0 <= j < len(tokens) and abs(j - k) <= _NEIGHBOUR_REACH:
        tok = tokens[j]
        if tok.kind != "word" or tok.lower in _NEGATION_BREAKS or tok.lower in _CONJUNCTIONS:
            return None
        if _is_content(tok):
            return tok
        j += step
    return None


def _evidence_neighbour(window: _Window, stem: str, step: int, claim: _Claim) -> str | None:
    """A content word the evidence puts on that side of ``stem`` that the claim does not have."""
    for unit in window.units:
        skip = _quantity_tokens(unit)
        for k, tok in enumerate(unit.tokens):
            if tok.stem != stem or tok.kind != "word":
                continue
            other = _content_neighbour(unit.tokens, k, step)
            if other is None or unit.tokens.index(other) in skip:
                return None
            if other.stem in claim.weights or other.stem in _LIGHT_STEMS \
                    or any(_related(other.stem, s) for s in claim.weights):
                return None  # a light verb ("making a flyby") is no rival to a paraphrase
            return other.text
    return None


def _pretty(claim: _Claim, stems: set[str]) -> str:
    words = [t.text for t in claim.unit.tokens if t.kind == "word" and t.stem in stems]
    return " ".join(dict.fromkeys(words)) or " ".join(sorted(stems))


def _check_entities(claim: _Claim, window: _Window, candidate: _Candidate, all_stems: set[str],
                    findings: _Findings) -> None:
    measured = any(q.strong for q in claim.unit.quantities)
    for run in claim.entities:
        missing = [t for t in run if not _stem_found(t.stem, window.stems)]
        name = " ".join(t.text for t in run)
        if not missing:
            rival = None if measured else _role_rival(claim, run, window, candidate.names)  # with numbers, binding them is surer
            if rival:
                findings.conflicts.append(f"claim names '{name}' where evidence names '{rival}'")
        elif any(not _stem_found(t.stem, all_stems) for t in missing):
            findings.missing_entities.append(name)
        elif any(not _stem_found(t.stem, candidate.stems) for t in missing):
            findings.entities_elsewhere.append(name)


def _links(tokens: list[_Tok]) -> list[tuple[_Tok, str, _Tok]]:
    """Content words joined by one function word: "FileVault on Windows", "premium for dependents"."""
    found: list[tuple[_Tok, str, _Tok]] = []
    for a, middle, b in zip(tokens, tokens[1:], tokens[2:]):
        if _is_content(a) and _is_content(b) and middle.kind == "word" and not _is_content(middle) \
                and middle.lower not in _LIST_JOINERS and middle.lower not in _NEGATION_BREAKS:
            found.append((a, middle.lower, b))
    return found


def _check_pairings(claim: _Claim, window: _Window, findings: _Findings) -> None:
    """Swapped pairs: "FileVault on Windows" where the evidence has "BitLocker on Windows" and "FileVault on
    macOS". Both words are in the evidence, so only their pairing can tell; it takes the evidence pairing
    each of them with something else the same way, and never with each other."""
    evidence = [link for unit in window.units if unit.kind != "table_row" for link in _links(unit.tokens)]
    pairs = {(a.stem, middle, b.stem) for a, middle, b in evidence}
    for a, middle, b in _links(claim.unit.tokens):
        if (a.stem, middle, b.stem) in pairs or (b.stem, middle, a.stem) in pairs:
            continue
        a_with = next((y for x, m, y in evidence if x.stem == a.stem and m == middle and y.stem != b.stem), None)
        with_b = next((x for x, m, y in evidence if y.stem == b.stem and m == middle and x.stem != a.stem), None)
        if a_with is not None and with_b is not None:
            findings.conflicts.append(f"claim pairs '{a.text} {middle} {b.text}'; evidence pairs "
                                      f"'{a.text} {middle} {a_with.text}' and '{with_b.text} {middle} {b.text}'")
            return


def _name_around(tokens: list[_Tok], k: int) -> str:
    first, last = k, k
    while first > 0 and tokens[first - 1].kind == "word" and tokens[first - 1].capital:
        first -= 1
    while last + 1 < len(tokens) and tokens[last + 1].kind == "word" and tokens[last + 1].capital:
        last += 1
    return " ".join(t.text for t in tokens[first : last + 1])


def _list_partners(claim: _Claim, run: list[_Tok]) -> set[str]:
    """Stems of the names the claim lists right beside this one ("Pluto and Nix", "Styx, Nix")."""
    tokens = claim.unit.tokens
    first, last = tokens.index(run[0]), tokens.index(run[-1])
    partners: set[str] = set()
    for other in claim.entities:
        if other is run:
            continue
        start, end = tokens.index(other[0]), tokens.index(other[-1])
        between = tokens[last + 1 : start] if start > last else tokens[end + 1 : first]
        if between and all(t.lower in _LIST_JOINERS for t in between):
            partners.add(other[-1].stem)
    return partners


def _listed_with(tokens: list[_Tok], k: int, partners: set[str]) -> bool:
    """Whether the word at ``k`` stands in a list beside one of ``partners``, across joiners only."""
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(tokens) and tokens[j].lower in _LIST_JOINERS:
            j += step
        if j != k + step and 0 <= j < len(tokens) and tokens[j].stem in partners:
            return True
    return False


def _role_rival(claim: _Claim, run: list[_Tok], window: _Window, names: set[str]) -> str | None:
    """Another name the evidence puts where the claim puts this one ("Styx is the largest" vs "Charon, the largest").

    Names the claim lists together ("Pluto and Nix are a binary system") share one role, so where the
    evidence names the partners only a name listed beside them is a rival: "Pluto and Charon are ... a
    binary system", "San Francisco, California". Other names there are not ("... closer to the Sun than
    Neptune, but a resonance prevents them from colliding"), and such a sentence is checked even when it
    lacks this name, since that is how a name moved in from another sentence shows."""
    head = run[-1]
    partners = _list_partners(claim, run)
    run_indexes = {k for k, t in enumerate(claim.unit.tokens) if t in run}
    # no claim weighting here: a name is as often the subject (left) as the object (right)
    claim_ctx = _context(claim.unit, head.pos, -1, _context_skip(claim.unit) | run_indexes)
    if not claim_ctx:
        return None
    own, rival_score, rival = 0.0, 0.0, None
    for unit in window.units:
        joint = bool(partners) and partners <= unit.stems
        if not joint and head.stem not in unit.stems:
            continue  # the evidence must name both: "Charon, the largest ...; Styx"
        skip = _context_skip(unit)
        for k, tok in enumerate(unit.tokens):
            if tok.kind != "word" or not _is_content(tok):
                continue
            if tok.stem == head.stem:
                own = max(own, _affinity(claim_ctx, _context(unit, tok.pos, tok.cell, skip | {k})))
            elif (_looks_like_name(tok) or tok.stem in names) and tok.stem not in claim.weights \
                    and tok.lower not in _MONTHS \
                    and tok.lower not in _WEEKDAYS and _unit_at([tok], 0) is None and tok.cell <= 0 \
                    and (not joint or _listed_with(unit.tokens, k, partners)):
                score = _affinity(claim_ctx, _context(unit, tok.pos, tok.cell, skip | {k}))
                if score > rival_score:
                    rival_score, rival = score, _name_around(unit.tokens, k)
    if rival is not None and rival_score >= _MIN_ROLE_CONTEXT and rival_score > _ROLE_MARGIN * own:
        return rival
    return None


# ---------------------------------------------------------------- scoring


@dataclass
class _Scored:
    window: _Window
    score: float
    relevance: float
    coverage: float
    findings: _Findings

    @property
    def refutes(self) -> bool:
        return bool(self.findings.conflicts)


def _credit(stem: str, window: _Window, candidate: _Candidate) -> float:
    found = _stem_found(stem, window.stems)
    if found:
        return found
    if stem in window.word_credit:
        return window.word_credit[stem]
    return _ELSEWHERE_CREDIT if _stem_found(stem, candidate.stems) else 0.0


def _score_window(claim: _Claim, window: _Window, candidate: _Candidate, all_stems: set[str]) -> _Scored:
    findings = _Findings()
    _check_quantities(claim, window, candidate, findings)
    _check_directions(claim, window, findings)
    _check_negation(claim, window, findings)
    _check_entities(claim, window, candidate, all_stems, findings)
    _check_pairings(claim, window, findings)
    findings.slot_swaps = _slot_swaps(claim, window)
    total = sum(claim.weights.values())
    credits = {stem: _credit(stem, window, candidate) for stem in claim.weights}
    coverage = sum(claim.weights[s] * c for s, c in credits.items()) / total if total else 1.0
    entity_stems = {t.stem for run in claim.entities for t in run}
    unsupported = [s for s, c in credits.items() if not c and s not in entity_stems]
    findings.unsupported_terms = [_pretty(claim, {s}) for s in unsupported]
    light = sum(1 for s in unsupported if s in _LIGHT_STEMS)
    substitutions = _substitutions(claim, window, {s for s in unsupported if s not in _LIGHT_STEMS})
    findings.substitutions = [s for s in substitutions if s not in findings.slot_swaps]  # reported once, as a swap
    findings.unsupported_phrases = _unsupported_phrases(claim, set(unsupported) - _LIGHT_STEMS)
    degrees = _unsupported_degrees(claim, window)
    unsupported += [p.word for p in degrees]
    findings.unsupported_phrases += [p.word for p in degrees if p.family == "superlative"]  # "a record high"
    if window.similarity is None:
        relevance = coverage
    else:
        relevance = _SIMILARITY_WEIGHT * _scaled_similarity(window.similarity) + (1 - _SIMILARITY_WEIGHT) * coverage
    score = relevance - _UNSUPPORTED_TERM_PENALTY * (len(unsupported) - light) - _LIGHT_TERM_PENALTY * light
    score -= _SUBSTITUTION_PENALTY * len(findings.substitutions)
    score -= _WEAK_MISSING_PENALTY * len(findings.weak_missing)
    if findings.matches and not (findings.conflicts or findings.missing_quantities):
        score += _QUANTITY_MATCH_BONUS
    for present, cap in ((findings.conflicts, _CONFLICT_CAP), (findings.missing_quantities, _MISSING_QUANTITY_CAP),
                         (findings.unsupported_phrases, _UNSUPPORTED_PHRASE_CAP),
                         (findings.slot_swaps, _SLOT_SWAP_CAP),
                         (findings.missing_entities, _MISSING_ENTITY_CAP),
                         (findings.entities_elsewhere, _ENTITY_ELSEWHERE_CAP)):
        if present:
            score = min(score, cap)
    return _Scored(window=window, score=round(min(1.0, max(0.0, score)), 4), relevance=relevance, coverage=coverage,
                   findings=findings)


def _unsupported_phrases(claim: _Claim, unsupported: set[str]) -> list[str]:
    """Appended phrases made only of unsupported words: ", which includes breakfast", "(driven by overtime)".

    One wrong word in a verbatim sentence costs little on coverage; a phrase of its own that the evidence
    never mentions is a whole extra fact, so it caps the score however well the rest matches."""
    phrases: list[str] = []
    for part in _appended_parts(claim.unit.tokens):
        if not _adds_a_fact(part):
            continue
        content = [t for t in part if _is_content(t) and t.stem not in _LIGHT_STEMS]
        if content and all(t.stem in unsupported for t in content):
            phrases.append(" ".join(t.text for t in part if t.kind == "word"))
    return phrases


def _adds_a_fact(part: list[_Tok]) -> bool:
    """A relative clause or a participle/"with" phrase describes something more; an adverbial such as
    "around the clock" restates how or when, often in other words than the evidence's."""
    first = part[0].lower
    return first in _RELATIVE_PRONOUNS or first in _ADDING_WORDS or (
        len(first) > 4 and first.endswith(("ing", "ed", "en")) and part[0].kind == "word")


def _appended_parts(tokens: list[_Tok]) -> list[list[_Tok]]:
    """The parts of a sentence after its first: cut at commas, semicolons, brackets and relative pronouns."""
    parts: list[list[_Tok]] = [[]]
    for tok in tokens:
        if tok.text in ",;()" or tok.lower in _RELATIVE_PRONOUNS:
            parts.append([])
        if tok.text not in ",;().":
            parts[-1].append(tok)
    return [part for part in parts[1:] if part]


def _unsupported_degrees(claim: _Claim, window: _Window) -> list[_Polar]:
    """Superlatives and comparisons ("its highest level", "larger than") the evidence makes none of: the
    direction rules can only check a degree the evidence also states, so an invented one is an addition."""
    families = {p.family for u in window.units for p in u.polars}
    return [p for p in claim.unit.polars if p.family in _DEGREE_FAMILIES and p.family not in families]


def _scaled_similarity(similarity: float) -> float:
    return min(1.0, max(0.0, (similarity - _SIMILARITY_FLOOR) / (_SIMILARITY_CEILING - _SIMILARITY_FLOOR)))


def _reasons(best: _Scored) -> list[str]:
    f = best.findings
    reasons = list(f.conflicts)
    reasons += [f"{text} not in evidence" for text in f.missing_quantities + f.weak_missing]
    reasons += [f"'{name}' not in evidence" for name in f.missing_entities]
    reasons += [f"'{name}' only in other evidence" for name in f.entities_elsewhere]
    reasons += f.slot_swaps + f.substitutions
    reasons += [f"'{phrase}' not in evidence" for phrase in f.unsupported_phrases]
    if f.unsupported_terms:
        reasons.append("not found in evidence: " + ", ".join(f.unsupported_terms))
    reasons += f.matches
    summary = f"{round(100 * best.coverage)}% of claim terms found in evidence"
    if best.window.similarity is not None:
        summary = f"semantic similarity {best.window.similarity:.2f}; " + summary
    reasons.append(summary)
    return reasons


def check_claim(*, claim: str, candidates: Sequence[EvidenceCandidate], embed: Embedder | None) -> CheckOutcome:
    if not candidates:
        return CheckOutcome(score=0.0, reasons=["no evidence found"], candidate_index=None, quote_start=0,
                            quote_end=0)
    analyzed = [_analyze_candidate(c.text, c.heading) for c in candidates]
    parsed = _analyze_claim(claim, names=set().union(*(c.names for c in analyzed)))
    windows = [w for index, candidate in enumerate(analyzed) for w in _windows(parsed, index, candidate)]
    if not windows:
        return CheckOutcome(score=0.0, reasons=["the evidence has no text"], candidate_index=0, quote_start=0,
                            quote_end=0)
    if embed is not None:
        _attach_embeddings(parsed, windows, embed)
    all_stems = set().union(*(c.stems for c in analyzed))
    scored = [_score_window(parsed, w, analyzed[w.candidate], all_stems) for w in windows]
    best = _pick(scored)
    if best.score < SUPPORTED_AT and not best.refutes:
        best = _joined(parsed, best, scored, analyzed, all_stems) or best
    return CheckOutcome(score=best.score, reasons=_reasons(best), candidate_index=best.window.candidate,
                        quote_start=best.window.start, quote_end=best.window.end)


def _attach_embeddings(claim: _Claim, all_windows: list[_Window], embed: Embedder) -> None:
    """One embed call: the claim, the lexically best windows, and the words needed for word-level
    paraphrase credit. Windows left out score as dissimilar; they share too few words to matter."""
    ranked = sorted(all_windows, key=lambda w: -_window_relevance(claim, w.units))
    windows = ranked[:_MAX_EMBEDDED_WINDOWS]
    for window in ranked[_MAX_EMBEDDED_WINDOWS:]:
        window.similarity = 0.0
    unmatched = [w for w, s in claim.words.items() if any(not _stem_found(s, win.stems) for win in windows)]
    vocabulary = sorted({w for win in windows for u in win.units for w in u.words} - set(claim.words))
    vocabulary = vocabulary[:_MAX_VOCABULARY] if unmatched else []
    texts = [" ".join(_MARKUP.sub("", claim.text).split())]
    texts += [" ".join(u.embed_text for u in win.units) for win in windows]
    texts += unmatched + vocabulary
    vectors = embed(texts)
    sims = vectors[1 : 1 + len(windows)] @ vectors[0]
    for window, sim in zip(windows, sims):
        window.similarity = float(sim)
    if not unmatched or not vocabulary:
        return
    offset = 1 + len(windows)
    claim.word_vectors = dict(zip(unmatched + vocabulary, vectors[offset:]))
    word_sims = vectors[offset : offset + len(unmatched)] @ vectors[offset + len(unmatched) :].T
    column = {w: k for k, w in enumerate(vocabulary)}
    for window in windows:
        columns = [column[w] for u in window.units for w in u.words if w in column]
        if not columns:
            continue
        best = word_sims[:, columns].max(axis=1)
        for word, sim in zip(unmatched, best):
            stem = claim.words[word]
            if sim >= _WORD_SIMILARITY_AT and not _stem_found(stem, window.stems):
                window.word_credit[stem] = max(window.word_credit.get(stem, 0.0), _WORD_CREDIT)


def _joined(claim: _Claim, first: _Scored, scored: list[_Scored], analyzed: list[_Candidate],
            all_stems: set[str]) -> _Scored | None:
    """Support split over two passages: the best one lacks a number or name of the claim that another
    has ("founded in 2010" in one chunk, "headquartered in San Francisco" in the next). Only such hard
    gaps are filled this way, so a claim's extra words never find support in unrelated evidence."""
    if not (first.findings.missing_quantities or first.findings.entities_elsewhere):
        return None
    ranked = sorted((s for s in scored if not s.refutes), key=lambda s: -s.relevance)[:_JOIN_CANDIDATES]
    best: _Scored | None = None
    for second in ranked:
        if second is first or _overlapping(first.window, second.window):
            continue
        joined = _score_window(claim, _join(first.window, second.window), _union(analyzed, first, second), all_stems)
        filled = not (joined.findings.missing_quantities or joined.findings.entities_elsewhere)
        if filled and joined.score >= SUPPORTED_AT and (best is None or joined.score > best.score):
            best = joined
    return best


def _overlapping(a: _Window, b: _Window) -> bool:
    return a.candidate == b.candidate and a.start < b.end and b.start < a.end


def _join(first: _Window, second: _Window) -> _Window:
    """Check against both; quote the first (both when they share a candidate)."""
    same = first.candidate == second.candidate
    return _Window(
        candidate=first.candidate,
        units=first.units + second.units,
        start=min(first.start, second.start) if same else first.start,
        end=max(first.end, second.end) if same else first.end,
        stems=first.stems | second.stems,
        similarity=max(first.similarity or 0.0, second.similarity or 0.0) if first.similarity is not None else None,
        word_credit={**second.word_credit, **first.word_credit},
        joined=True,
    )


def _union(analyzed: list[_Candidate], first: _Scored, second: _Scored) -> _Candidate:
    a, b = analyzed[first.window.candidate], analyzed[second.window.candidate]
    if a is b:
        return a
    return _Candidate(units=a.units + b.units, stems=a.stems | b.stems, names=a.names | b.names,
                      heading_stems=a.heading_stems | b.heading_stems)


def _pick(scored: list[_Scored]) -> _Scored:
    """Support wins unless clearly more relevant evidence refutes the claim.

    Within one candidate quantities are already bound candidate-wide, so a supporting window there has
    survived its neighbours; another candidate must be clearly more on topic to overrule it.
    """
    supporting = max(scored, key=lambda s: (s.score, s.relevance))
    refuting = [s for s in scored if s.refutes and s.relevance >= _REFUTING_RELEVANCE]
    most_relevant = max(refuting, key=lambda s: s.relevance, default=None)
    if supporting.score < SUPPORTED_AT:
        on_topic = max(scored, key=lambda s: s.relevance)
        if most_relevant is not None and most_relevant.relevance >= on_topic.relevance - _OVERRULING_MARGIN:
            return most_relevant
        return on_topic if on_topic.score >= supporting.score - _OVERRULING_MARGIN else supporting
    if most_relevant is not None and most_relevant.relevance > supporting.relevance + _OVERRULING_MARGIN:
        return most_relevant
    return supporting
