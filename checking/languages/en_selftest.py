"""English for the self-test (checking.selftest): how an English version is read and how its sentences are varied.

Statements are prose sentences (checking.sentences) of 6 to 45 words ending in a full stop; names are capitalised
word runs seen mid-sentence; each kind of claim has its variant here, and `ENGLISH_VARIANTS` hands them all to the
synthesiser. Each variant returns the sentence unchanged when it cannot apply.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from checking.selftest import Section, Variants, inline_text
from checking.selftest import sections_of as markdown_sections
from checking.sentences import sentence_spans

_MIN_WORDS, _MAX_WORDS = 6, 45
# Not clock times (8:30), identifiers (AES-256, COVID-19) or names like 401(k).
_NUMBER = re.compile(r"(?<![\w.:])(?<![A-Za-z]-)\d+(?:,\d{3})*(?:\.\d+)?(?!\d|:\d|\()")
_SCALED_NUMBER = re.compile(_NUMBER.pattern + r"(?:\s+(?:thousand|million|billion))?")
_CAPITALISED_RUN = re.compile(r"\b[A-Z][A-Za-z&'’]*(?:-[A-Za-z]+)*(?:\s+[A-Z][A-Za-z&'’]*(?:-[A-Za-z]+)*)*")

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Capitalised words that are not names: sentence furniture, and dates (those belong to date_swap).
_NOT_NAMES = frozenset({
    "The", "A", "An", "This", "That", "These", "Those", "It", "Its", "If", "When", "On", "In", "For", "At", "All",
    "Every", "Each", "No", "Not", "Some", "Any", "Our", "We", "You", "Your", "They", "There", "I", "Yes", "And", "Or",
    "But", "To", "Of", "By", "With", "From", "As", "After", "Before", "During", "Within", *MONTHS, *WEEKDAYS,
})

_UNITS = {
    "days": "weeks", "day": "week", "weeks": "months", "week": "month", "months": "years", "month": "year",
    "years": "months", "year": "month", "hours": "minutes", "hour": "minute", "minutes": "hours", "minute": "hour",
    "nights": "weeks", "night": "week", "percent": "dollars", "GB": "MB", "MB": "GB", "TB": "GB", "miles": "kilometers",
    "mile": "kilometer", "seats": "users", "users": "seats", "kg": "lb", "km": "miles",
}
_PER_UNIT = {"day": "week", "week": "month", "month": "year", "year": "month", "night": "week", "hour": "day",
             "person": "team", "user": "team", "mile": "kilometer", "flight": "trip", "trip": "day"}
_CURRENCIES = {"$": "€", "€": "$", "£": "$"}
_DIRECTIONS = {
    "rose": "fell", "fell": "rose", "increased": "decreased", "decreased": "increased", "increase": "decrease",
    "decrease": "increase", "increases": "decreases", "decreases": "increases", "more": "less", "less": "more",
    "fewer": "more", "above": "below", "below": "above", "before": "after", "after": "before", "higher": "lower",
    "lower": "higher", "over": "under", "under": "over", "earlier": "later", "later": "earlier", "least": "most",
    "most": "least", "lost": "gained", "longer": "shorter", "shorter": "longer",
}
_ANTONYMS = {
    "allowed": "prohibited", "prohibited": "allowed", "permitted": "forbidden", "forbidden": "permitted",
    "required": "optional", "optional": "required", "mandatory": "optional", "minimum": "maximum",
    "maximum": "minimum", "included": "excluded", "excluded": "included", "accepted": "rejected",
    "approved": "rejected", "internal": "external", "external": "internal",
    "public": "private", "private": "public", "same": "different", "full": "partial", "partial": "full",
    "enabled": "disabled", "disabled": "enabled", "preferred": "discouraged", "always": "rarely",
    "domestic": "international", "international": "domestic", "paid": "unpaid", "unpaid": "paid",
    "free": "paid", "monthly": "weekly", "weekly": "monthly", "annual": "monthly", "daily": "weekly",
    "strong": "weak", "large": "small", "small": "large", "full-time": "part-time", "part-time": "full-time",
    "permanent": "temporary", "temporary": "permanent", "encrypted": "unencrypted", "secure": "insecure",
}
_AUXILIARIES = ("is", "are", "was", "were", "can", "must", "may", "should", "will", "would", "could", "does", "do",
                "did", "has", "have")
_NEGATED = re.compile(r"\b(is|are|was|were|can|must|may|should|will|would|could|does|do|did|has|have) not\b")
_NEGATIONS = (("cannot", "can"), ("never", "always"), ("non-refundable", "refundable"), ("no longer", "still"))
_DROPPABLE = re.compile(r"\s*\([^()]*\)|(?:,|;)\s+(?:which|where|such as|including|so|and)\b[^,;()]*$|;\s+[^;]+$")
_FRONTED = re.compile(
    r"^(?P<intro>(?:On|In|For|During|When|If|After|Before|Within|At|Once|Unless|Because|Since|While)\b[^,]{3,80}),\s+"
    r"(?P<main>[^,]+?)\.$"
)
# "a and b" swaps only where both are whole conjuncts: nothing hangs on b ("hotels and rental cars" stays).
_PAIR = re.compile(
    r"(?P<pre>^|, |\b(?:the|of|in|on|for|to|by|with|are|is|be|as) )(?P<a>[A-Za-z][a-z-]{2,}) and (?P<b>[a-z][a-z-]{2,})"
    r"(?=[.,;]| (?:are|is|were|was|can|must|may|should|will|have|has)\b)"
)
_NOT_PAIRED = frozenset({"between", "both", "the", "and", "are", "is", "was", "were", "has", "have", "can", "must"})
_LIST_CONNECTOR = re.compile(r"(?:[\s,/&]|\band\b|\bor\b)*")
_RANGE_CONNECTOR = re.compile(r"\s*(?:,|,? and|,? or|/|&|to|-|–)\s*[$€£]?")
_RELATIVE = re.compile(r"\b(?:who|that|which|whose|where)\b")
_SUBJECT = re.compile(
    r"^(?P<subject>(?:[\w'’$-]+\s+){0,4}?[\w'’-]+)\s+(?P<predicate>(?:is|are|was|were|can|cannot|must|may|should|will|"
    r"has|have|get|gets|receive|receives|need|needs|require|requires|cost|costs|run|runs|take|takes)\b.+)\.$"
)


# ---- reading the Markdown -----------------------------------------------------------------------------------------

def _sentences(paragraph: str) -> list[str]:
    return [paragraph[start:end] for start, end in sentence_spans(paragraph, 0, len(paragraph))]


def _is_statement(sentence: str) -> bool:
    return sentence.endswith(".") and _MIN_WORDS <= len(sentence.split()) <= _MAX_WORDS


def _statements(inline) -> list[str]:
    """The statements of one paragraph or list item (its inline token)."""
    text = inline_text(inline)
    if text and text[-1].isalnum():  # a list item written without its full stop
        text += "."
    return [s for s in _sentences(text) if _is_statement(s)]


def sections_of(markdown: str) -> list[Section]:
    """Prose sentences (paragraphs and list items; not headings, tables or code) grouped by their heading."""
    return markdown_sections(markdown, statements=_statements)


def _name_pattern(name: str) -> str:
    return rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.\w)"


def names_in(text: str, *, pool: frozenset[str]) -> list[str]:
    """Names from `pool` in `text`, longest first, each position used once.

    Names of one length come in alphabetical order: a set's own order changes with PYTHONHASHSEED, and the
    synthesiser picks from this list by position, so the claims (and the model fitted on them) would too."""
    found: list[str] = []
    taken: list[tuple[int, int]] = []
    for name in sorted(pool, key=lambda n: (-len(n), n)):
        for match in re.finditer(_name_pattern(name), text):
            if not any(match.start() < end and start < match.end() for start, end in taken):
                taken.append(match.span())
                if name not in found:
                    found.append(name)
    return found


def name_pool(texts: Sequence[str]) -> frozenset[str]:
    """Capitalised word runs seen mid-sentence: a sentence's first word is capitalised anyway."""
    names = set()
    for text in texts:
        for section in sections_of(text):
            for sentence in section.sentences:
                for match in _CAPITALISED_RUN.finditer(sentence):
                    if match.start() == 0:
                        continue
                    words = match.group().split()
                    while words and (words[0] in _NOT_NAMES or words[0] in _UNITS):
                        words.pop(0)
                    while words and (words[-1] in _NOT_NAMES or words[-1] in _UNITS):
                        words.pop()
                    if words and len(" ".join(words)) > 1:
                        names.add(" ".join(words))
    return frozenset(names)


# ---- supported variants -------------------------------------------------------------------------------------------

def _numbers(text: str) -> list[str]:
    return _NUMBER.findall(text)


def clause_drop(sentence: str) -> str:
    """Drop a parenthetical or a trailing non-restrictive clause that holds no number (the rest stays true)."""
    for match in _DROPPABLE.finditer(sentence.rstrip(".")):
        # ", and X" must be a clause of its own, not the last member of a list ("A, B, and C").
        if re.match(r"[,;]\s+and\b", match.group()) and "," in sentence[:match.start()]:
            continue
        if not _numbers(match.group()) and len(match.group().split()) >= 2:
            shorter = (sentence[:match.start()] + sentence.rstrip(".")[match.end():]).rstrip(" ,;") + "."
            if len(shorter.split()) >= _MIN_WORDS - 2:
                return shorter
    return sentence


def reorder(sentence: str) -> str:
    """Move a fronted phrase ("On the first day, X.") behind the main clause, or swap "a and b"."""
    fronted = _FRONTED.match(sentence)
    if fronted and len(fronted.group("main").split()) >= 3:
        main, intro = fronted.group("main"), fronted.group("intro")
        return f"{main[0].upper()}{main[1:]} {intro[0].lower()}{intro[1:]}."
    for match in _PAIR.finditer(sentence):
        a, b = match.group("a"), match.group("b")
        if a.lower() in _NOT_PAIRED or b in _NOT_PAIRED or a.lower() == b:
            continue
        if match.start("a") == 0:  # the sentence's first word
            a, b = a.lower(), b[0].upper() + b[1:]
        return f"{sentence[:match.start('a')]}{b} and {a}{sentence[match.end():]}"
    return sentence


def join(first: str, second: str, *, pool: frozenset[str]) -> str:
    opener = second.split()[0]
    starts_with_name = any(second.startswith(name) for name in names_in(second, pool=pool))
    if not starts_with_name and not opener.isupper():
        second = opener.lower() + second[len(opener):]
    return f"{first.rstrip('.')} and {second}"


# ---- unsupported variants -----------------------------------------------------------------------------------------

def _replace_word(sentence: str, table: dict[str, str], rng: random.Random,
                  keep: Callable[[re.Match[str]], bool] = lambda match: True) -> str:
    matches = [m for m in re.finditer(r"[A-Za-z][A-Za-z-]*", sentence) if m.group().lower() in table and keep(m)]
    if not matches:
        return sentence
    match = rng.choice(matches)
    word = match.group()
    new = table[word.lower()]
    if word[0].isupper():
        new = new[0].upper() + new[1:]
    return sentence[:match.start()] + new + sentence[match.end():]


def _date_spans(sentence: str) -> list[tuple[int, int]]:
    months = "|".join(MONTHS)
    return [m.span() for m in re.finditer(rf"\b(?:{months})\b(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?(?:,?\s+\d{{4}})?|"
                                          r"\b(?:19|20)\d{2}\b", sentence)]


def number_swap(sentence: str, rng: random.Random) -> str:
    dates = _date_spans(sentence)
    matches = [m for m in _NUMBER.finditer(sentence)
               if not any(start <= m.start() < end for start, end in dates)]
    if not matches:
        return sentence
    match = rng.choice(matches)
    digits = match.group().replace(",", "")
    if "." in digits:
        whole, fraction = digits.split(".")
        last = int(fraction[-1])
        new = f"{whole}.{fraction[:-1]}{last - 1 if last >= 5 else last + 2}"
    else:
        value = int(digits)
        step = rng.choice((1, 2)) if value < 10 else max(1, round(value * rng.choice((0.2, 0.3, 0.5))))
        new = f"{value + step:,}" if "," in match.group() else str(value + step)
    return sentence[:match.start()] + new + sentence[match.end():]


def unit_swap(sentence: str, rng: random.Random) -> str:
    candidates = []
    for match in re.finditer(r"(?<=\d)(\s*)([A-Za-z]+)\b", sentence):
        if match.group(2) in _UNITS:
            candidates.append((match.start(2), match.end(2), _UNITS[match.group(2)]))
    for match in re.finditer(r"\bper\s+([a-z]+)\b", sentence):
        if match.group(1) in _PER_UNIT:
            candidates.append((match.start(1), match.end(1), _PER_UNIT[match.group(1)]))
    for match in re.finditer(r"[$€£](?=\d)", sentence):
        candidates.append((match.start(), match.end(), _CURRENCIES[match.group()]))
    if not candidates:
        return sentence
    start, end, new = rng.choice(candidates)
    return sentence[:start] + new + sentence[end:]


def date_swap(sentence: str, rng: random.Random) -> str:
    for names in (MONTHS, WEEKDAYS):
        found = [m for m in re.finditer(rf"\b(?:{'|'.join(names)})\b", sentence)]
        if found:
            match = rng.choice(found)
            position = names.index(match.group())
            new = names[(position + rng.randint(1, len(names) - 2)) % len(names)]
            return sentence[:match.start()] + new + sentence[match.end():]
    years = list(re.finditer(r"\b(?:19|20)\d{2}\b", sentence))
    if not years:
        return sentence
    match = rng.choice(years)
    return sentence[:match.start()] + str(int(match.group()) + rng.choice((-2, -1, 1, 2))) + sentence[match.end():]


def name_swap(sentence: str, rng: random.Random, *, pool: frozenset[str]) -> str:
    present = names_in(sentence, pool=pool)
    if not present:
        return sentence
    old = rng.choice(present)
    lowered = sentence.lower()
    others = sorted(n for n in pool if n.lower() not in lowered and old.lower() not in n.lower())
    if not others:
        return sentence
    return re.sub(_name_pattern(old), rng.choice(others), sentence, count=1)


def direction_flip(sentence: str, rng: random.Random) -> str:
    # "over"/"under" are directions only before an amount ("trips over $10,000", not "over the month").
    def keep(match: re.Match[str]) -> bool:
        return match.group().lower() not in {"over", "under"} or bool(
            re.match(r"\s+[$€£]?\d", sentence[match.end():]))

    return _replace_word(sentence, _DIRECTIONS, rng, keep)


def negate(sentence: str, rng: random.Random) -> str:
    if _NEGATED.search(sentence):
        return _NEGATED.sub(lambda m: m.group(1), sentence, count=1)
    for negative, positive in _NEGATIONS:
        if re.search(rf"\b{negative}\b", sentence):
            return re.sub(rf"\b{negative}\b", positive, sentence, count=1)
    # "no discount" -> "some discount"; "no later than" has no such opposite.
    no = re.compile(r"\bno\b(?!\s+(?:\w+er|more|less|longer|one)\b)")
    if no.search(sentence):
        return no.sub("some", sentence, count=1)
    auxiliaries = [m for m in re.finditer(rf"\b(?:{'|'.join(_AUXILIARIES)})\b", sentence)]
    if not auxiliaries:
        return sentence
    match = auxiliaries[0]
    return f"{sentence[:match.end()]} not{sentence[match.end():]}"


def antonym(sentence: str, rng: random.Random) -> str:
    return _replace_word(sentence, _ANTONYMS, rng)


def role_swap(sentence: str, rng: random.Random, *, pool: frozenset[str]) -> str:
    """Swap two names of the sentence; failing that, two different numbers."""
    names = names_in(sentence, pool=pool)
    if len(names) >= 2:
        a, b = rng.sample(names, 2)
        spans = {a: re.search(_name_pattern(a), sentence).span(), b: re.search(_name_pattern(b), sentence).span()}
        connector = _LIST_CONNECTOR
    else:
        dates = _date_spans(sentence)
        matches = [m for m in _SCALED_NUMBER.finditer(sentence) if not any(s <= m.start() < e for s, e in dates)]
        distinct = list({m.group(): m for m in matches}.values())
        if len(distinct) < 2:
            return sentence
        first, second = rng.sample(distinct, 2)
        a, b = first.group(), second.group()
        spans = {a: first.span(), b: second.span()}
        connector = _RANGE_CONNECTOR
    (s1, e1), (s2, e2) = sorted([spans[a], spans[b]])
    between = sentence[e1:s2]
    for name in names:  # members of one list ("Memorial Day, Independence Day and Christmas Day") keep their roles
        between = re.sub(_name_pattern(name), ",", between)
    if connector.fullmatch(between):  # "Pro and Plus", "5 to 7": swapping keeps the meaning
        return sentence
    left, right = sentence[s1:e1], sentence[s2:e2]
    return sentence[:s1] + right + sentence[e1:s2] + left + sentence[e2:]


def _split_subject(sentence: str) -> tuple[str, str] | None:
    match = _SUBJECT.match(sentence)
    if not match or "," in match.group("subject") or _RELATIVE.search(match.group("subject")):
        return None
    return match.group("subject"), match.group("predicate")


def moved_sentence(sentence: str, *, subject: str) -> str:
    """Another document's sentence, re-attributed to this section's subject."""
    parts = _split_subject(sentence)
    if not parts or subject.lower() in sentence.lower():
        return sentence
    return f"{subject[0].upper()}{subject[1:]} {parts[1]}."


def appended_clause(sentence: str, *, other: str) -> str:
    """A true sentence with a predicate from another document attached as ", which ..."."""
    parts = _split_subject(other)
    if not parts or len(parts[1].split()) < 4:
        return sentence
    return f"{sentence.rstrip('.')}, which {parts[1]}."


# ---- the variants of English --------------------------------------------------------------------------------------

def _section_subject(heading: str) -> str | None:
    """A short heading ("Hotels", "Air travel") names what its section is about."""
    heading = heading.rstrip(":")
    return heading if 1 <= len(heading.split()) <= 4 and heading[0].isalpha() else None


ENGLISH_VARIANTS = Variants(
    sections_of=sections_of, name_pool=name_pool, word_count=lambda s: len(s.split()), max_words=_MAX_WORDS,
    written_together=lambda a, b: f"{a} {b}", join=lambda a, b, pool: join(a, b, pool=pool),
    clause_drop=clause_drop, reorder=reorder,
    swaps={
        "number_swap": lambda s, rng, pool: number_swap(s, rng),
        "unit_swap": lambda s, rng, pool: unit_swap(s, rng),
        "date_swap": lambda s, rng, pool: date_swap(s, rng),
        "name_swap": lambda s, rng, pool: name_swap(s, rng, pool=pool),
        "direction_flip": lambda s, rng, pool: direction_flip(s, rng),
        "negation": lambda s, rng, pool: negate(s, rng),
        "antonym": lambda s, rng, pool: antonym(s, rng),
        "role_swap": lambda s, rng, pool: role_swap(s, rng, pool=pool),
    },
    section_subject=_section_subject,
    moved_sentence=lambda s, subject: moved_sentence(s, subject=subject),
    appended_clause=lambda s, other: appended_clause(s, other=other),
    lenders=list, terms_learn=lambda texts: None,  # every document lends; words need no learning
)
