"""The words around a number that qualify it: a bound before or after it ("at least", "or more"), a hedge
("about"), a change ("rose by", "up to"), a rate ("per month"), the unit that follows."""

from __future__ import annotations

from checking.quantity_words import (
    ADVERB_RATES,
    ALLOWANCE_REACH,
    ALLOWANCE_VERBS,
    BOUNDS_AFTER,
    BOUNDS_BEFORE,
    CURRENCY_CODES,
    HEDGES,
    OVER_PARTICLE_VERB,
    PERIOD_VERB,
    RATE_REACH,
    RATE_WORDS,
    TIME_UNITS,
    UNITS,
)
from checking.text import (
    CHANGE_STOPS,
    CHANGE_WORDS,
    UNCHANGED_PHRASES,
    VERBISH_BEFORE_UP,
    Token,
    is_content,
    stem_of,
)

_CHANGE_REACH = 8  # words


def unit_at(tokens: list[Token], i: int) -> tuple[str, float, int] | None:
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
    if lower in CURRENCY_CODES:
        return (f"money:{CURRENCY_CODES[lower]}", 1, 1)
    if lower == "m" and tok.start == tokens[i - 1].end:
        return ("length:m", 1, 1)  # "100m" right after the number; a spaced "m" is too ambiguous
    if lower == "g" and tok.start == tokens[i - 1].end:
        return ("mass:g", 1, 1)
    if lower == "h" and tok.start == tokens[i - 1].end:
        return ("duration:s", 3600, 1)
    for candidate in (lower, lower.removesuffix("s"), lower.removesuffix("es")):
        if candidate in UNITS:
            kind, factor = UNITS[candidate]
            return (kind, factor, 1)
    return None


def match_phrase(tokens: list[Token], end: int, phrases) -> tuple[int, int] | None:
    """A phrase ending just before token ``end``: (value, phrase length)."""
    for phrase, value in phrases:
        n = len(phrase)
        if end - n < 0:
            continue
        if all(tokens[end - n + k].lower == phrase[k] for k in range(n)):
            return value, n
    return None


def match_phrase_after(tokens: list[Token], start: int, phrases) -> tuple[int, int] | None:
    for phrase, value in phrases:
        n = len(phrase)
        if start + n > len(tokens):
            continue
        if all(tokens[start + k].lower == phrase[k] for k in range(n)):
            return value, n
    return None


def bound_after(tokens: list[Token], j: int, *, counted: bool) -> tuple[int, int] | None:
    """(bound, tokens used) for "or more", "or longer" ... at token j, or after the one word a count counts
    ("14 characters or longer")."""
    found = match_phrase_after(tokens, j, BOUNDS_AFTER)
    if found is None and counted and j < len(tokens) and tokens[j].kind == "word":
        later = match_phrase_after(tokens, j + 1, BOUNDS_AFTER)
        found = None if later is None else (later[0], later[1] + 1)
    return found


def bound_before(tokens: list[Token], i: int) -> tuple[int, int]:
    """(bound, number of tokens in the phrase) for "at least", "up to", "more than" ... before token i."""
    found = match_phrase(tokens, i, BOUNDS_BEFORE)
    if found is None:
        return (-1, 0) if _allowed_time(tokens, i) else (0, 0)
    value, n = found
    first = i - n
    if tokens[first].lower == "over" and first > 0 and unit_after(tokens, i).startswith("duration") \
            and PERIOD_VERB.search(tokens[first - 1].lower):
        return 0, 0  # "vest over four years" spans a period; "journeys of over 4 hours" is a threshold
    if tokens[first].lower == "over" and first > 0 and OVER_PARTICLE_VERB.search(tokens[first - 1].lower):
        return 0, 0  # "carry over 5 days": a particle
    if tokens[first].lower == "up" and first > 0 and VERBISH_BEFORE_UP.search(tokens[first - 1].lower):
        return 0, 0  # "edged up to 60.4 percent" is a change, not a cap
    return value, n


def _allowed_time(tokens: list[Token], i: int) -> bool:
    """A duration someone has to do something in ("you have 30 days ... to file"): at most that long."""
    if i == 0 or tokens[i - 1].lower not in ALLOWANCE_VERBS or not unit_after(tokens, i).startswith("duration"):
        return False
    after = tokens[i + 1 : i + 1 + ALLOWANCE_REACH]
    return any(tok.lower == "to" and k + 1 < len(after) and after[k + 1].kind == "word" for k, tok in enumerate(after))


def unit_after(tokens: list[Token], i: int) -> str:
    """The kind of the unit within two tokens after token i, or ""."""
    for k in (i + 1, i + 2):
        unit = unit_at(tokens, k) if k < len(tokens) else None
        if unit is not None:
            return unit[0]
    return ""


def hedged_before(tokens: list[Token], i: int) -> bool:
    return match_phrase(tokens, i, tuple((phrase, 1) for phrase in HEDGES)) is not None


def change_before(tokens: list[Token], i: int) -> tuple[int | None, int]:
    """The direction word governing the quantity at token i ("rose by", "decreased to", "changed little
    at"), looking back within its clause: (direction, its token index), or (None, -1)."""
    words: list[str] = []
    for j in range(i - 1, -1, -1):
        tok = tokens[j]
        if tok.text in ";.!?|" or tok.lower in CHANGE_STOPS or len(words) == _CHANGE_REACH:
            break
        if tok.kind != "word":
            continue
        words.insert(0, tok.lower)
        if UNCHANGED_PHRASES.search(" ".join(words)):
            return 0, j
        if tok.lower in CHANGE_WORDS and not is_cap_phrase(tokens, j):
            return CHANGE_WORDS[tok.lower], j
    return None, -1


def is_cap_phrase(tokens: list[Token], j: int) -> bool:
    """"up to 25 MB" caps a value; "edged up to 60.4 percent" is a change."""
    if tokens[j].lower != "up" or j + 1 >= len(tokens) or tokens[j + 1].lower != "to":
        return False
    return not (j > 0 and VERBISH_BEFORE_UP.search(tokens[j - 1].lower))


def change_after(tokens: list[Token], i: int) -> int | None:
    if i < len(tokens) and tokens[i].lower in ("higher", "more", "greater", "up", "above"):
        return 1
    if i < len(tokens) and tokens[i].lower in ("lower", "less", "fewer", "down", "below"):
        return -1
    return None


def described_time_unit(tokens: list[Token], j: int) -> tuple[int, tuple[str, float, int] | None]:
    """"20 vacation days", "3 paid days": skip up to two describing words before a time unit."""
    for skipped in (1, 2):
        words = tokens[j : j + skipped]
        if len(words) < skipped or not all(w.kind == "word" and w.text.islower() and is_content(w) for w in words):
            return j, None
        unit = unit_at(tokens, j + skipped)
        if unit is not None and unit[0].startswith("duration"):
            return j + skipped, unit
    return j, None


def per_before(tokens: list[Token], first: int) -> frozenset[str]:
    """Rate denominators written before the number, as Chinese does ("每晚五百元", "每人每月2000元")."""
    per: set[str] = set()
    for k in range(first - 1, max(-1, first - 1 - RATE_REACH), -1):
        lower = tokens[k].lower
        if lower in RATE_WORDS:
            per.add(stem_of(RATE_WORDS[lower]))
        elif tokens[k].kind == "punct" and lower in ",;.!?:":
            break
    return frozenset(per)


def per_after(tokens: list[Token], i: int) -> tuple[frozenset[str], int]:
    """Rate denominators after a quantity: "per user per month", "a day", "/month", "monthly"."""
    per: set[str] = set()
    j = i
    while j < len(tokens):
        lower = tokens[j].lower
        if lower in ADVERB_RATES and j == i:
            per.add(ADVERB_RATES[lower])
            j += 1
            continue
        if lower in ("per", "/", "each", "every", "a", "an") and j + 1 < len(tokens) and tokens[j + 1].kind == "word":
            target = stem_of(tokens[j + 1].text)
            unit = UNITS.get(tokens[j + 1].lower.rstrip("s"))
            is_time = target in TIME_UNITS or (unit is not None and unit[0].startswith("duration"))
            if lower in ("a", "an") and not is_time:
                break
            per.add(target)
            j += 2
            continue
        break
    return frozenset(per), j
