"""Words: the vocabulary the rules use (stopwords, light words, synonyms, direction, polarity and negation
words), stemming, and tokenization with exact offsets. General English, not tied to any document, with what every
language of the language layer adds to it (``TextLanguage.cues``, its tokens, word families and ideographs)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from checking.languages import detect_language, every_language, language_for, language_of_word
from checking.languages.en import MOVE_VERBS, MOVED_VERBS, american_spelling

_LANGUAGES = every_language()
_CUES = tuple(language.cues for language in _LANGUAGES)
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
    whose whom either neither every according during therefore additionally alternatively moreover furthermore
    consequently accordingly besides likewise similarly meanwhile nevertheless nonetheless firstly secondly thirdly
    lastly finally it's let's that's there's here's what's""".split()  # noqa: SIM905 - word lists read best as text
).union(*(cues.stop_words for cues in _CUES))
# Indefinite pronouns and adverbs: they name nothing a source could state.
_INDEFINITES = frozenset("""anyone anybody anything anywhere someone somebody something somewhere everyone everybody
    everything everywhere nobody nothing nowhere elsewhere""".split())  # noqa: SIM905


_APOSTROPHE = re.compile("['’]")


def function_word(lower: str) -> bool:
    """A word that states no fact of its own: a stopword, a stopword's contraction ("you'll", "it's"), an
    indefinite ("anyone", "elsewhere"), or a function word of another language (Chinese 因为, 另外)."""
    if lower in _STOPWORDS or _APOSTROPHE.split(lower, maxsplit=1)[0] in _STOPWORDS or lower in _INDEFINITES:
        return True
    return _IDEOGRAPH.search(lower) is not None and language_of_word(lower).function_word(lower)


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
    case cases example instance matter fact point aspect past stand stands stood standing""".split()  # noqa: SIM905
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
    # a month written short is the month ("forecast for Apr" says what "forecast for April" says)
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
    "dec": "december",
}
_DERIVATIONAL_SUFFIXES = ("ment", "ation", "ition", "ion", "er", "or", "al", "ity", "ness", "ive", "ance", "ence",
                          "able", "ible", "ship", "ure", "ant", "ent", "ic", "ical", "ize", "ise", "ist")
# "edged up to 60.4" moves; "up to 2 GB", "reimbursed up to $40" cap: only a verb of movement moves
VERBISH_BEFORE_UP = re.compile(rf"^(?:{MOVED_VERBS}|{MOVE_VERBS})$")
MOVES = re.compile(rf"(?:ed|ing)$|^(?:is|was|are|were|be|been|{MOVE_VERBS})$")  # "went up"; not "made up"

# Direction words by family: +1 / -1 / 0 (unchanged)
CHANGE_WORDS = {
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
CHANGE_VERBS = frozenset(w for w, _ in CHANGE_WORDS.items() if w.endswith("ed") or w in
                          ("rose", "risen", "fell", "fallen", "grew", "grown", "lost", "shrank"))
CHANGE_STOPS = frozenset({"and", "but", "while", "whereas", "compared", "than"})
UNCHANGED_PHRASES = re.compile(r"\b(?:little changed|changed little|little change|little or no change|"
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
CHANGE_WORDS.update(pair for cues in _CUES for pair in cues.change_words.items())
_COMPARE_WORDS.update(pair for cues in _CUES for pair in cues.compare_words.items())
_SUPERLATIVE_WORDS.update(pair for cues in _CUES for pair in cues.superlative_words.items())
_ORDER_WORDS.update(pair for cues in _CUES for pair in cues.order_words.items())
# Comparisons between two values: "higher than 54,000" (a compare word before "than"), "up from 3.4 percent", and
# a language's own ("比去年的四千万元多").
COMPARED_BY = frozenset({"than"})
COMPARED_FROM = {"up": 1, "down": -1}
COMPARED_WITH = frozenset(word for cues in _CUES for word in cues.compared_with)
COMPARED_DEGREES = {word: degree for cues in _CUES for word, degree in cues.compared_degrees.items()}
DIRECTION_FAMILIES = (("change", CHANGE_WORDS), ("compare", _COMPARE_WORDS), ("superlative", _SUPERLATIVE_WORDS),
                       ("order", _ORDER_WORDS))

# Lexical polarity: a word and its opposite class; "not" flips the polarity.
POLARITY_CLASSES = {
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
# Opposites that can stand in one slot ("the approved password manager" / "the rejected ..."): general
# English pairs, matched by stem (so synonyms follow: "mandatory" is "required", "forbidden" is "prohibited").
_ANTONYM_PAIRS = (
    ("approve", "reject"), ("accept", "reject"), ("allow", "prohibit"), ("require", "optional"),
    ("include", "exclude"), ("internal", "external"), ("public", "private"), ("full", "partial"), ("full", "part"),
    ("enable", "disable"), ("permanent", "temporary"), ("domestic", "international"), ("domestic", "foreign"),
    ("free", "paid"), ("paid", "unpaid"), ("minimum", "maximum"), ("strong", "weak"), ("large", "small"),
    ("first", "last"), ("early", "late"), ("open", "closed"), ("encourage", "discourage"), ("inbound", "outbound"),
    ("import", "export"), ("primary", "secondary"), ("major", "minor"), ("senior", "junior"),
    ("manual", "automatic"), ("online", "offline"), ("valid", "invalid"), ("success", "failure"), ("pass", "fail"),
    ("secure", "insecure"), ("safe", "unsafe"), ("legal", "illegal"), ("input", "output"), ("positive", "negative"),
    ("same", "different"), ("true", "false"), ("always", "never"), ("win", "lose"), ("buy", "sell"),
    ("add", "remove"), ("entry", "exit"), ("arrive", "depart"), ("north", "south"), ("east", "west"),
)
# Words that answer or steer a conversation without stating anything: a reply made of these and stop-words ("Yes.",
# "No.", "Exactly!", "Yes, it is.") has nothing a source could confirm (general English).
# Words that ask rather than name what is asked about ("how long", "how much", "is there", "tell me").
QUESTION_WORDS = frozenset(
    """what which who whom whose when where why how long much many often far soon there anyone anybody someone
    somebody anything something tell explain know possible true please exist exists existing ahead""".split()
)


def asks(word: str) -> bool:
    """A lower-case word that asks rather than names what is asked about, in any language."""
    return word in QUESTION_WORDS or any(language.asks(word) for language in _LANGUAGES)


REPLY_WORDS = frozenset("""yes yeah yea yep yup no nope nah ok okay alright sure certainly absolutely definitely
    exactly indeed right correct true false maybe perhaps possibly probably hello hi hey greetings thanks thank
    welcome please sorry oh ah agreed""".split()).union(*(cues.reply_words for cues in _CUES))  # noqa: SIM905
# Each language's pleasantries, beside the English ones (checking.claims).
CHATTER_PATTERNS = tuple(cues.chatter for cues in _CUES if cues.chatter is not None)
FRAMING_PATTERNS = tuple(cues.framing for cues in _CUES if cues.framing is not None)
CLOSING_FRAMING_PATTERNS = tuple(cues.framing_after for cues in _CUES if cues.framing_after is not None)
META_PATTERNS = tuple(cues.meta for cues in _CUES if cues.meta is not None)
ABSENCE_PATTERNS = tuple(pattern for cues in _CUES for pattern in cues.absence)
BACK_REFERENCES = frozenset().union(*(cues.back_references for cues in _CUES))


def absence_stated(claim: str) -> tuple[int, int] | None:
    """Where in ``claim`` stands what it says the sources lack ("The passages do not mention *X*"), or None for a
    claim about the world."""
    for pattern in ABSENCE_PATTERNS:
        match = pattern.match(claim.strip())
        if match:
            offset = len(claim) - len(claim.lstrip())
            return match.start("stated") + offset, match.end("stated") + offset
    return None


NEGATION_BREAKS = frozenset({",", ";", ":", ".", "!", "?", "|", "but", "while", "whereas", "although", "because",
                              "though", "who", "which", "whose", "where", "unless", "except",
                              *(word for cues in _CUES for word in cues.negation_breaks)})
COORDINATORS = frozenset({"and", "or", *(word for cues in _CUES for word in cues.coordinators)})
LIST_JOINERS = COORDINATORS | {",", ";"}
COPULAS = frozenset().union(*(cues.copulas for cues in _CUES))
CLAUSE_JOINERS = frozenset().union(*(cues.clause_joiners for cues in _CUES))

# Numbers are ASCII digits only: "²", "½", "１" or "٣" are digits to str.isdigit() but not to float(), and
# reading them would need offsets other than the text's. They tokenize as marks.
_TOKEN = re.compile(
    r"(?:[A-Za-z]\.){2,}(?![A-Za-z])"  # initialisms: U.S., e.g.
    r"|[0-9]+(?:,[0-9]{3})+(?:\.[0-9]+)?(?![0-9])|[0-9]+(?:\.[0-9]+)?"
    r"|(?:[Nn]on|[Nn]ot)-[A-Za-z]+"  # "non-immediate" is one word, not a negated clause
    r"|[A-Za-z]+(?:['’][A-Za-z]+)*"
    r"|[^\sA-Za-z0-9]"
)
_ASCII_DIGITS = frozenset("0123456789")
# A character that is a word of its own, in any language's script (Chinese 假): one pattern, as cheap as one
# language's, for the tests below that run on every token.
_IDEOGRAPH = re.compile("|".join(language.ideograph.pattern for language in _LANGUAGES if language.ideograph)
                        or "(?!)")


def ideographs(text: str) -> set[str]:
    """The characters of ``text`` that carry a meaning of their own (Chinese 假 of 婚假 and 年假), unlike letters."""
    return set(_IDEOGRAPH.findall(text))


def words_as_written(words: Iterable[str]) -> str:
    """Words shown to a reader as their script writes them: a space between two words of a spaced script, none
    beside an ideograph (Chinese writes no spaces): "must include", "必须包含", "Mac电脑"."""
    shown = ""
    for word in words:
        if shown and not (_IDEOGRAPH.match(shown[-1]) or _IDEOGRAPH.match(word[:1])):
            shown += " "
        shown += word
    return shown


CONJUNCTIONS = frozenset({"and", "or", "but", "while", "whereas", "nor"})
# How far a conjunction (beyond its word's 1) and each punctuation mark move the next token (Token.pos), so that
# clauses stand apart; Chinese tokens (languages.zh_tokens) are placed the same way.
CONJUNCTION_GAP = 1.0
PUNCTUATION_GAPS = {",": 0.5, ";": 2.0, ":": 1.0, "(": 1.0, ")": 1.0, ".": 3.0, "!": 3.0, "?": 3.0, "|": 1.0}


def _stem_uncached(word: str) -> str:
    w = word.lower().replace("’", "'")
    w = w.removesuffix("'s")
    w = american_spelling(w.strip("'"))
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
    if w.endswith(("ies", "ied")) and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "ches", "shes", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
    elif w.endswith("ed") and len(w) > 4 or w.endswith("ly") and len(w) > 6:
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
stem_of = lru_cache(maxsize=65536)(_stem_uncached)
LIGHT_STEMS = frozenset(stem_of(w) for w in _LIGHT_WORDS)
POLARITY_BY_STEM = {stem_of(word): polar for word, polar in POLARITY_CLASSES.items()}  # "includes" -> "includ"


def _antonyms() -> dict[str, frozenset[str]]:
    opposites: dict[str, set[str]] = {}
    for a, b in (*_ANTONYM_PAIRS, *(pair for cues in _CUES for pair in cues.antonym_pairs)):
        opposites.setdefault(stem_of(a), set()).add(stem_of(b))
        opposites.setdefault(stem_of(b), set()).add(stem_of(a))
    return {stem: frozenset(others) for stem, others in opposites.items()}


ANTONYMS = _antonyms()  # stem -> the stems of its opposites

# Negating prefixes, each with the shortest rest that is still a word of its own ("unpaid" / "paid", "non-refundable"
# / "refundable", "invalid" / "valid"; not "income" / "come"). A prefixed word is an opposite only where the
# antonym rule finds it in the other's slot: "unemployment" is also a word of its own, and "unemployment was 3.5
# percent" says nothing against "payroll employment rose".
_NEGATING_PREFIXES = (("non", 4), ("not", 4), ("un", 4), ("in", 5), ("im", 6), ("ir", 5), ("il", 5))


@lru_cache(maxsize=65536)  # claim words recur across windows and checks
def negating_forms(word: str) -> frozenset[str]:
    """Lower-case words one negating prefix away from lower-case ``word``: "unpaid" and "un-paid" for "paid",
    "paid" for "unpaid"."""
    forms = set()
    for prefix, min_rest in _NEGATING_PREFIXES:
        if len(word) >= min_rest:
            forms |= {prefix + word, f"{prefix}-{word}"}
        if word.startswith(prefix) and len(rest := word[len(prefix):].removeprefix("-")) >= min_rest:
            forms.add(rest)
    return frozenset(forms)


def prefix_negates(word: str, other: str) -> bool:
    """Whether lower-case ``word`` and ``other`` differ by a negating prefix: "unpaid" and "paid"."""
    return other in negating_forms(word)


@lru_cache(maxsize=262144)  # the same stem pairs recur across windows and claims
def related_stems(a: str, b: str) -> bool:
    """Stems of one word family: "employ"/"employment", "encrypt"/"encryption"; in Chinese, 坐/乘坐."""
    if any(language.one_word_family(a, b) for language in _LANGUAGES):
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < 5 or not long.startswith(short):
        return False
    rest = long[len(short):]
    # The stemmer drops a final "e" ("reimburse" -> "reimburs") that a derived word keeps ("reimbursement").
    return len(rest) <= 2 or rest.startswith(_DERIVATIONAL_SUFFIXES) or rest[1:].startswith(_DERIVATIONAL_SUFFIXES) \
        and rest[0] == "e"




def family_member_in(stem: str, stems: set[str] | frozenset[str]) -> bool:
    """Whether another stem of ``stem``'s word family is among ``stems``, each language's candidates tested cheaply
    before the full test: English family members share their first five letters; each language adds its own (the
    English forms the suffix rules miss, growth / grow; a Chinese word and the word it heads share their last
    character)."""
    if len(stem) >= 5 and any(other.startswith(stem[:5]) and related_stems(stem, other) for other in stems):
        return True
    for language in _LANGUAGES:  # a loop, not any(): asked of every claim word in every unit
        if language.family_member_in(stem, stems):
            return True
    return False


def synonym_in(stem: str, stems: set[str] | frozenset[str]) -> bool:
    """Whether a word of the same meaning as ``stem`` is among ``stems`` (Chinese, by the thesaurus: 回来/返回).
    The gate reads it, and the antonym rule (a word whose synonym the evidence uses is no word it avoids); the
    checker's word coverage does not: the thesaurus's groups are broad (表现 / 反映), and an invented sentence finds
    some synonym of its words in any long article (UHGEval's hallucinations passed more often)."""
    return any(not language.synonyms(stem).isdisjoint(stems) for language in _LANGUAGES)


def kindred_in(stem: str, stems: set[str] | frozenset[str]) -> bool:
    """Whether a word of ``stem``'s small class in the thesaurus, other than a known opposite, is among ``stems``:
    the more general word a policy uses for what a question names (老婆 / 配偶, 爷爷 / 祖父母), or a sister. Only
    the Ask gate reads it (is the passage about what the question asks?); it is no evidence for a claim."""
    opposites = ANTONYMS.get(stem, frozenset())
    return any(word in stems for language in _LANGUAGES for word in language.kindred(stem) - opposites)


@lru_cache(maxsize=65536)  # every window's words are asked for their pieces, claim after claim
def word_pieces(stem: str) -> tuple[str, ...]:
    """The words a word is made of, itself first: Chinese writes a compound as one word (国际出差: 国际, 出差);
    an English word is its only piece."""
    return (stem, *(piece for language in _LANGUAGES for piece in language.word_parts(stem)
                    if len(piece) > 1 and piece != stem))


@dataclass(frozen=True, slots=True)
class Token:
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


def tokenize(text: str, start: int, end: int, *, table: bool) -> list[Token]:
    # A cheap pre-check, kept here for speed: only a text with ideographs is read as another language than English,
    # and detect_language counts every character of a text, most of which have none.
    if _IDEOGRAPH.search(text, start, end):
        read = language_for(detect_language(text[start:end])).tokens(text, start, end, table=table)
        if read is not None:
            return read
    tokens: list[Token] = []
    pos = 0.0
    segment = text[start:end]
    cell = -1 if segment.lstrip().startswith("|") else 0  # the leading pipe opens cell 0
    for match in _TOKEN.finditer(segment):
        raw = match.group()
        if table and raw == "|":
            cell += 1
            pos += PUNCTUATION_GAPS["|"]
            continue
        if raw in "*_`#>[]":
            continue  # Markdown markup
        if raw[0] in _ASCII_DIGITS:
            kind = "num"
        elif raw[0].isalpha():
            kind = "word"
        else:
            kind = "punct"
        if kind == "punct":
            pos += PUNCTUATION_GAPS.get(raw, 0.0)
        else:
            pos += 1.0 + CONJUNCTION_GAP * (raw.lower() in CONJUNCTIONS)
        tokens.append(
            Token(
                text=raw,
                lower=raw.lower(),
                stem=stem_of(raw) if kind == "word" else raw,
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


def is_content(tok: Token) -> bool:
    # "aren't": the negation is judged on its own; "you'll", "it's": a stopword's contraction says no more than it
    return tok.kind == "word" and tok.lower not in _STOPWORDS \
        and (len(tok.lower) > 1 or _IDEOGRAPH.match(tok.lower) is not None) \
        and not tok.lower.endswith(("n't", "n’t")) \
        and _APOSTROPHE.split(tok.lower, maxsplit=1)[0] not in _STOPWORDS
