"""Evidence and claims analysed for the rules: units (sentences, list items, table rows read with their
header), their clauses and negation scopes, direction words, quantity contexts and list labels; a candidate's
units and names; a claim's weighted words, names and slots."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from checking.claims import text_segments
from checking.dates import bare_word
from checking.languages import en as _english
from checking.languages import zh as _chinese
from checking.quantities import Quantity, find_quantities, header_unit, labels_follow, with_header_units
from checking.quantity_cues import is_cap_phrase
from checking.quantity_words import MONTHS, WEEKDAYS
from checking.text import (
    CHANGE_VERBS,
    CONJUNCTIONS,
    COPULAS,
    DIRECTION_FAMILIES,
    LIST_JOINERS,
    MOVES,
    NEGATION_BREAKS,
    POLARITY_BY_STEM,
    POLARITY_CLASSES,
    UNCHANGED_PHRASES,
    Token,
    is_content,
    stem_of,
    tokenize,
    words_as_written,
)

if TYPE_CHECKING:
    import numpy

_LABEL_WORDS = 4
_LABEL_LEADING_WORDS = 2  # "gain of 95,000", "50% of the premium"
_UNLABELLED_KINDS = frozenset({"date", "weekday", "time", "ordinal"})  # these say when or which, they are labels
_CLAIM_DECAY = 0.25
EVIDENCE_DECAY = 0.4
_CLAIM_RIGHT_FACTOR = 0.6
_OTHER_SEGMENT_FACTOR = 0.3
# A table row's section heading and caption in a cell's word context: the heading names what the table is about as
# a column header names a column (both 0.8, like the row label); the sentence introducing it says more besides.
_SECTION_WEIGHT = 0.8
_CAPTION_WEIGHT = 0.5
_NAME_WEIGHT = 1.5
NEGATION_CUES = frozenset({"not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "without", "cannot",
                           *_english.UNMARKED_CONTRACTIONS, *_chinese.NEGATION_CUES})
_NOT_NEGATION_AFTER = frozenset({"later", "more", "less", "fewer", "longer", "only", "exceed", "than", "matter",
                                 "doubt", "sooner", "greater", "shorter"})
_NEGATION_SCOPE = 4  # content words after "not"
CLAUSE_VERBS = frozenset({"is", "are", "was", "were", "be", "been", "has", "have", "had", "do", "does", "did", "can",
                          "cannot", "could", "may", "might", "must", "shall", "should", "will", "would"})
_CLAUSE_VERB_REACH = 5  # words from "and" to the verb of a clause it starts: "and approved expenses are paid"
_NAME_JOINERS = frozenset({"of", "de", "&", "von", "van", "da", "del"})
_SUPERLATIVE = re.compile(r"[a-z]{3,}est")
_NOT_SUPERLATIVES = frozenset(
    {"interest", "request", "test", "forest", "honest", "rest", "west", "guest", "invest", "suggest", "contest",
     "digest", "harvest", "protest", "arrest", "manifest", "modest", "earnest", "priest", "chest", "quest", "crest",
     "conquest", "attest", "detest", "divest", "ingest", "latest", "midwest", "northwest", "southwest", "unrest",
     "behest", "bequest", "inquest", "pretest", "retest", "congest", "infest", "molest", "celest", "almost"}
)
HEADING_SEPARATOR = ">"  # of a chunk's heading path: "Travel Policy > Meals > Per diem" (kb.chunking)
MARKUP = re.compile(r"\*\*|__|`|~~|\[|\]\([^)]*\)|^#+\s*", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Polar:
    family: str
    polarity: int
    word: str
    pos: float
    index: int


@dataclass
class Unit:
    start: int
    end: int
    kind: str
    tokens: list[Token]
    quantities: list[Quantity]
    header: list[list[Token]]  # table header cells, for rows
    stems: set[str] = field(default_factory=set)
    clauses: list[Clause] = field(default_factory=list)
    negated: set[str] = field(default_factory=set)  # stems inside some negation's scope
    asserted: set[str] = field(default_factory=set)  # stems outside every negation's scope
    polars: list[Polar] = field(default_factory=list)
    polarity_words: dict[str, int] = field(default_factory=dict)  # class -> effective polarity
    words: dict[str, str] = field(default_factory=dict)  # lower-case content word -> stem
    quantity_contexts: list[dict[str, float]] = field(default_factory=list)
    quantity_labels: list[frozenset[str]] = field(default_factory=list)  # see _list_labels
    embed_text: str = ""
    # claim stem -> how far this unit has it (windows.stem_found): a cached unit meets the same stems per claim
    stem_credit: dict[str, float] = field(default_factory=dict, repr=False, compare=False)
    slots: list[Slot] | None = field(default=None, repr=False, compare=False)  # slot_sequence's, once computed
    aligned: list[Slot] | None = field(default=None, repr=False, compare=False)  # rules.context.word_sequence's




@dataclass(frozen=True, slots=True)
class Clause:
    stems: dict[str, float]  # content stems; 0.5 for those an elliptical negation borrows from the clause before
    negated: frozenset[str]  # stems inside a negation's scope
    has_negation: bool
    leads: frozenset[str] = frozenset()  # the first word each negation applies to: "exceed" of "may not be exceeded"


def _analyze_unit(text: str, start: int, end: int, kind: str, header: list[list[Token]], *,
                  about: dict[str, float] | None = None) -> Unit:
    """One sentence, list item, heading or table row. A row's words include its column headers' and those of what
    it is ``about`` (stem -> weight in its cells' contexts): its section's heading and the sentence introducing the
    table ("住宿费在下表标准以内…", "Prices per month:")."""
    table = kind in ("table_row", "table_header")
    tokens = tokenize(text, start, end, table=table)
    quantities = find_quantities(text, tokens)
    if kind == "table_row" and header:
        quantities = with_header_units(quantities, [header_unit(text[cell[0].start:cell[-1].end]) if cell else None
                                                    for cell in header])
    unit = Unit(start=start, end=end, kind=kind, tokens=tokens, quantities=quantities, header=header)
    skip = quantity_tokens(unit)
    unit.stems = {t.stem for k, t in enumerate(tokens) if is_content(t) and k not in skip}
    for cell in header:
        unit.stems.update(t.stem for t in cell if is_content(t))
    unit.stems |= set(about or ())
    unit.clauses, unit.polarity_words = _clauses(tokens, skip)
    unit.negated = set().union(*(c.negated for c in unit.clauses))
    unit.asserted = {s for c in unit.clauses for s in c.stems if s not in c.negated}
    if table:
        unit.asserted |= unit.stems
    unit.polars = _polars(tokens, skip)
    unit.embed_text = _embed_text(text, unit)
    context_skip = context_skip_tokens(unit)
    unit.quantity_contexts = [word_context(unit, q.pos, q.cell, context_skip, anchor=q.anchor) for q in unit.quantities]
    for context in unit.quantity_contexts:
        for stem, weight in (about or {}).items():
            context[stem] = max(context.get(stem, 0.0), weight)
    unit.quantity_labels = _list_labels(unit, skip) if not table else [frozenset()] * len(unit.quantities)
    unit.words = {t.lower: t.stem for k, t in enumerate(tokens)
                  if is_content(t) and k not in skip and (not t.capital or (t.initial and not t.text.isupper()))}
    return unit


def _list_labels(unit: Unit, skip: set[int]) -> list[frozenset[str]]:
    """For like quantities listed in one sentence, the words that name each one and no other.

    "adult men (3.4 percent), adult women (3.1 percent)": "men" and "women" (not the shared "adult");
    "100% of the premium for employees and 50% of the premium for dependents": "employees" and "dependents".
    Word distances cannot bind such lists (every member is near every label); the labels can.
    """
    quantities = unit.quantities
    labels: list[frozenset[str]] = [frozenset()] * len(quantities)
    for kind in {q.kind for q in quantities} - _UNLABELLED_KINDS:
        # the value a change started from is no member of its own ("由四百元下调至三百五十元" states one value)
        members = [k for k, q in enumerate(quantities) if q.kind == kind and not q.superseded]
        if len(members) < 2:
            continue
        gaps = [unit.tokens[quantities[a].token_span[1] : quantities[b].token_span[0]]
                for a, b in itertools.pairwise(members)]
        if not all(any(is_content(t) for t in gap) for gap in gaps):
            continue  # a range ("from $2,000 to $10,000") names its two ends together
        step = 1 if any(labels_follow(gap) for gap in gaps) else -1
        own = {k: _label_words(unit.tokens, quantities[k], step, skip) for k in members}
        for k in members:
            labels[k] = frozenset(own[k] - set().union(*(own[m] for m in members if m != k)))
    return labels


def _label_words(tokens: list[Token], q: Quantity, step: int, skip: set[int]) -> set[str]:
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
        if tok.kind != "word" or tok.lower in LIST_JOINERS or tok.lower in CONJUNCTIONS:
            break
        if is_content(tok):
            stems.add(tok.stem)
        elif stems and step < 0:
            break
        elif not stems:
            leading += 1
            if leading > _LABEL_LEADING_WORDS:
                break
        j += step
    return stems


def _embed_text(text: str, unit: Unit) -> str:
    if unit.kind == "table_row" and unit.header:
        cells = [c.strip() for c in text[unit.start:unit.end].strip().strip("|").split("|")]
        names = [" ".join(t.text for t in cell) for cell in unit.header]
        parts = [f"{name}: {value}" if name else value for name, value in zip(names, cells)]
        return " ".join(MARKUP.sub("", "; ".join(parts)).split())
    return " ".join(MARKUP.sub("", text[unit.start:unit.end]).replace("|", " ").split())


def _clauses(tokens: list[Token], skip: set[int]) -> tuple[list[Clause], dict[str, int]]:
    """Clauses with their negation scopes, and the effective polarity of polarity-class words."""
    clauses: list[Clause] = []
    polarity: dict[str, int] = {}
    stems: dict[str, float] = {}
    negated: set[str] = set()
    leads: set[str] = set()
    has_negation = False
    scope_left = 0
    dangling = False  # a negation with nothing after it: "traffic fines are not."
    predicate = False  # that negation follows a copula: "live chat isn't included" denies what came before

    def close() -> None:
        nonlocal stems, negated, leads, has_negation, scope_left, dangling, predicate
        if dangling and clauses:
            for stem in clauses[-1].stems:
                stems.setdefault(stem, 0.5)  # the predicate is the previous clause's
            negated = set(stems)
        elif dangling and predicate:
            negated = set(stems)
        if stems or has_negation:
            clauses.append(Clause(stems, frozenset(negated), has_negation, frozenset(leads)))
        stems, negated, leads, has_negation, scope_left, dangling, predicate = {}, set(), set(), False, 0, False, False

    for k, tok in enumerate(tokens):
        if breaks_clause(tok):
            close()
            continue
        if _is_negation_cue(tokens, k):
            has_negation, scope_left, dangling = True, _NEGATION_SCOPE, True
            predicate = tok.lower in COPULAS or (k > 0 and tokens[k - 1].lower in COPULAS)
            continue
        if scope_left and not dangling and _joins_a_clause(tokens, k):
            scope_left = 0  # "are not reimbursed and approved expenses are paid": the second clause is asserted
        if tok.kind != "word" or k in skip:
            continue
        polar_class = POLARITY_BY_STEM.get(tok.stem) or POLARITY_CLASSES.get(tok.lower)
        if polar_class is not None:
            name, value = polar_class
            polarity[name] = -value if scope_left else value
        if not is_content(tok):
            continue
        stems[tok.stem] = 1.0
        if scope_left:
            if dangling:  # the first word of this negation's scope
                leads.add(tok.stem)
            negated.add(tok.stem)
            scope_left -= 1
            dangling = False
    close()
    return clauses, polarity


def breaks_clause(tok: Token) -> bool:
    """A mark or word ending a clause: ",", ";", "but", "because", 但是 (text.NEGATION_BREAKS)."""
    return tok.text in NEGATION_BREAKS or tok.lower in NEGATION_BREAKS


def clause_spans(tokens: list[Token]) -> list[tuple[int, int]]:
    """Token index ranges of the clauses ``tokens`` make, cut where ``breaks_clause`` (the breaks left out)."""
    spans, start = [], 0
    for k, tok in enumerate(tokens):
        if breaks_clause(tok):
            spans.append((start, k))
            start = k + 1
    spans.append((start, len(tokens)))
    return [(a, b) for a, b in spans if a < b]


def _joins_a_clause(tokens: list[Token], k: int) -> bool:
    """"and" / "or" followed shortly by a verb of its own: a second clause, not another member of a list."""
    if tokens[k].lower not in ("and", "or"):
        return False
    for tok in tokens[k + 1 : k + 1 + _CLAUSE_VERB_REACH]:
        if tok.kind != "word" or tok.lower in CONJUNCTIONS:
            return False
        if tok.lower in CLAUSE_VERBS:
            return True
    return False


def _is_negation_cue(tokens: list[Token], k: int) -> bool:
    lower = tokens[k].lower
    if lower.endswith(("n't", "n’t")) or lower == "never":
        return True
    if lower not in NEGATION_CUES:
        return False
    nxt = tokens[k + 1].lower if k + 1 < len(tokens) else ""
    return nxt not in _NOT_NEGATION_AFTER and not (lower == "no" and nxt == ".")


_COMPARING = dict(DIRECTION_FAMILIES)["compare"]


def _polars(tokens: list[Token], skip: set[int]) -> list[Polar]:
    found: list[Polar] = []
    for k, tok in enumerate(tokens):
        if tok.kind != "word" or k in skip:
            continue
        if tok.lower == "little" and UNCHANGED_PHRASES.search(" ".join(t.lower for t in tokens[max(0, k - 1) : k + 4])):
            found.append(Polar("change", 0, "changed little", tok.pos, k))  # "changed little", "little or no change"
            continue
        if tok.lower in ("up", "down") and (not (k > 0 and MOVES.search(tokens[k - 1].lower))
                                            or is_cap_phrase(tokens, k)):
            continue  # "made up", "set up", "back down"; "reimbursed up to $40" caps it
        if k + 1 < len(tokens) and tokens[k + 1].lower == "than" and tok.lower in _COMPARING:
            # "higher than its average": a comparison between two values, not a change ("higher" alone may be one)
            found.append(Polar("compare", _COMPARING[tok.lower], tok.lower, tok.pos, k))
            continue
        for family, words in DIRECTION_FAMILIES:
            if tok.lower in words:
                polarity = words[tok.lower]
                if family == "compare" and k > 0 and tokens[k - 1].lower in NEGATION_CUES:
                    polarity = -polarity  # "不得少于" / "no more than": the negated comparison is the other bound
                found.append(Polar(family, polarity, tok.lower, tok.pos, k))
                break
        else:
            if _SUPERLATIVE.fullmatch(tok.lower) and tok.lower not in _NOT_SUPERLATIVES:
                found.append(Polar("superlative", 1, tok.lower, tok.pos, k))  # "strictest"
    return found


@dataclass
class Candidate:
    units: list[Unit]
    stems: set[str]
    names: set[str]  # stems only ever written capitalised, and capitalised mid-sentence at least once
    heading_stems: frozenset[str] = frozenset()  # shared by every window of the candidate
    section: tuple[str, ...] = ()  # the heading path's first two levels (document title, section), if any
    # rules.rows' tables with the words naming each row, once computed (a cached candidate meets every claim)
    row_names: list[tuple[list[Unit], list[set[str]]]] | None = field(default=None, repr=False, compare=False)


@lru_cache(maxsize=512)
def analyze_candidate(text: str, heading: str = "") -> Candidate:
    units: list[Unit] = []
    header: list[list[Token]] = []
    stems: set[str] = set()
    caption, caption_stems = "", frozenset()
    # The words a table row is about beyond its own cells: its section's heading and the sentence introducing it.
    section_stems = _heading_stems(heading.rsplit(HEADING_SEPARATOR, 1)[-1])
    for segment in text_segments(text):
        if segment.kind == "table_header":
            header_tokens = tokenize(text, segment.start, segment.end, table=True)
            cells = max((t.cell for t in header_tokens), default=-1) + 1
            header = [[t for t in header_tokens if t.cell == c] for c in range(cells)]
            stems.update(t.stem for t in header_tokens if is_content(t))
            continue
        if segment.kind != "table_row":
            header = []
        row = segment.kind == "table_row"
        unit = _analyze_unit(text, segment.start, segment.end, segment.kind, header,
                             about=_table_context(section_stems, caption_stems) if row else None)
        if row and caption:
            unit.embed_text = f"{caption} {unit.embed_text}"
        elif segment.kind == "heading":
            section_stems, caption_stems = frozenset(unit.stems), frozenset()
        elif not row:
            caption, caption_stems = unit.embed_text, frozenset(unit.stems)
        stems.update(unit.stems)
        if segment.kind != "heading":  # headings add vocabulary, never a quote
            units.append(unit)
    tokens = [t for u in units for t in u.tokens if t.kind == "word"]
    lower = {t.stem for t in tokens if not t.capital}
    names = {t.stem for t in tokens if looks_like_name(t) and not t.text.isupper()} - lower
    heading_stems = _heading_stems(heading)
    return Candidate(units=units, stems=stems | heading_stems, names=names, heading_stems=heading_stems,
                     section=tuple(part.strip().lower() for part in heading.split(HEADING_SEPARATOR)[:2] if part.strip()))


def _table_context(section: frozenset[str], caption: frozenset[str]) -> dict[str, float]:
    return {**dict.fromkeys(caption, _CAPTION_WEIGHT), **dict.fromkeys(section, _SECTION_WEIGHT)}


def _heading_stems(heading: str) -> frozenset[str]:
    """Content words of a heading path; its numbers and dates ("Jobs Report - March 2023") are left out, so
    a heading can vouch for what a chunk is about but never for a value."""
    if not heading.strip():
        return frozenset()
    unit = _analyze_unit(heading, 0, len(heading), "heading", [])
    return frozenset(unit.stems)




@dataclass
class Claim:
    text: str
    unit: Unit
    weights: dict[str, float]  # content stem -> importance
    entities: list[list[Token]]  # runs of capitalised words that look like names
    words: dict[str, str]  # lower-case content word -> stem, for word-level similarity
    slots: list[Slot] = field(default_factory=list)  # content words with their joints, for slot_swaps
    word_vectors: dict[str, numpy.ndarray] = field(default_factory=dict)  # lower-case word -> unit embedding
    # two word vectors' likeness on the scale the thresholds were set on (builtin._attach_embeddings sets it)
    word_similarity: Callable[[numpy.ndarray, numpy.ndarray], float] = lambda a, b: float(a @ b)


@lru_cache(maxsize=16)  # a claim is checked against its evidence, then against each other candidate alone
def _claim_unit(claim: str) -> tuple[Unit, tuple[str, ...]]:
    """The claim parsed (read only from here on) and the stems of its direction words, which its weights leave to
    the direction rules; the unit keeps only the direction words not judged with a number."""
    unit = _analyze_unit(claim, 0, len(claim), "claim", [])
    polar_stems = tuple(stem_of(polar.word) for polar in unit.polars)
    attached = {q.change_index for q in unit.quantities}
    unit.polars = [p for p in unit.polars if p.index not in attached]  # judged with their numbers
    return unit, polar_stems


def analyze_claim(claim: str, *, names: set[str]) -> Claim:
    """``names``: stems the evidence writes capitalised mid-sentence, so "Styx is ..." starts with a name."""
    unit, polar_stems = _claim_unit(claim)
    skip = quantity_tokens(unit)
    weights: dict[str, float] = {}
    entities: list[list[Token]] = []
    run: list[Token] = []
    tokens = unit.tokens
    for k, tok in enumerate(tokens):
        is_name = is_content(tok) and k not in skip and (looks_like_name(tok) or (tok.capital and tok.stem in names))
        if is_name:
            run.append(tok)
        elif run and not (tok.lower in _NAME_JOINERS and k + 1 < len(tokens) and looks_like_name(tokens[k + 1])):
            entities.append(run)
            run = []
        if is_content(tok) and k not in skip:
            weights[tok.stem] = max(weights.get(tok.stem, 0.0), _NAME_WEIGHT if is_name else 1.0)
    if run:
        entities.append(run)
    for stem in polar_stems:
        weights.pop(stem, None)  # direction words are judged by the direction rules
    name_stems = {t.stem for run in entities for t in run}
    words = {w: s for w, s in unit.words.items() if s in weights and s not in name_stems}
    return Claim(text=claim, unit=unit, weights=weights, entities=entities, words=words, slots=slot_sequence(unit))


def looks_like_name(tok: Token) -> bool:
    if tok.kind != "word" or bare_word(tok.lower) in MONTHS or bare_word(tok.lower) in WEEKDAYS:
        return False
    return (tok.capital and not tok.initial) or (len(tok.text) > 1 and tok.text.isupper())


def quantity_tokens(unit: Unit) -> set[int]:
    """Tokens that belong to numbers and units rather than to the words of the text."""
    return {k for q in unit.quantities for k in range(*q.token_span) if k not in q.described}


def bound_leads(quantity: Quantity) -> range:
    """The tokens of a quantity's bound phrase ("at least", "最多"), just before its number."""
    return range(quantity.token_span[0] - quantity.lead, quantity.token_span[0])


def context_skip_tokens(unit: Unit) -> set[int]:
    """Tokens left out of word contexts: numbers, units and bound phrases ("at least" says nothing of topic)."""
    return quantity_tokens(unit) | {k for q in unit.quantities for k in bound_leads(q)}


def word_context(unit: Unit, pos: float, cell: int, skip: set[int], *, claim: bool = False, anchor: float | None = None,
             segment: tuple[float, float] | None = None) -> dict[str, float]:
    """Content stems around a position, weighted by closeness (tables: same cell, row label, column header).

    A claim is short, so its weights fall off slowly; words before a claim's number are more often its
    subject than words after it ("domestic trips ... 14 days, and international trips ... 21 days").
    """
    weights: dict[str, float] = {}
    decay = _CLAIM_DECAY if claim else EVIDENCE_DECAY
    for k, tok in enumerate(unit.tokens):
        if k in skip or not is_content(tok) or tok.lower in CHANGE_VERBS:
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
            if is_content(tok) and weights.get(tok.stem, 0.0) < 0.8:
                weights[tok.stem] = 0.8
    return weights


def affinity(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(w * b[s] for s, w in a.items() if s in b)


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    norm = math.sqrt(sum(w * w for w in a.values()) * sum(w * w for w in b.values()))
    return affinity(a, b) / norm if norm else 0.0


@dataclass(frozen=True)
class Slot:
    """A content word, or None at either end of the unit, with the small words and marks that lead to it."""
    tok: Token | None
    joint: tuple[str, ...]  # lower-case, quantities as "#": "95 percent" and "90 percent" join alike
    shown: tuple[str, ...]  # the same tokens as written, for reasons
    polar: bool = False  # a degree word: "lower" / "cheaper" is for the direction checks


def slot_sequence(unit: Unit) -> list[Slot]:
    """Quantities are left out: their own checks judge them, and "95 percent" is no noun to swap. Computed once
    per unit (the rules ask for it per window, and a cached candidate's units meet every claim); read only."""
    if unit.slots is None:
        unit.slots = _slot_sequence(unit)
    return unit.slots


def _slot_sequence(unit: Unit) -> list[Slot]:
    skip = quantity_tokens(unit)
    polar = {p.index for p in unit.polars if p.family != "change"}  # "salary increases" is a thing
    slots: list[Slot] = [Slot(None, (), ())]
    joint: list[str] = []
    shown: list[str] = []
    for k, tok in enumerate(unit.tokens):
        if k in skip or not is_content(tok):
            joint.append(tok.lower if k not in skip else "#")
            shown.append(tok.text)
            continue
        slots.append(Slot(tok, tuple(joint), tuple(shown), k in polar))
        joint, shown = [], []
    closing = [k for k, j in enumerate(joint) if j[0].isalnum()]  # closing marks may differ
    slots.append(Slot(None, tuple(joint[k] for k in closing), tuple(shown[k] for k in closing)))
    return slots


def pretty(claim: Claim, stems: set[str]) -> str:
    words = [t.text for t in claim.unit.tokens if t.kind == "word" and t.stem in stems]
    return words_as_written(dict.fromkeys(words)) or words_as_written(sorted(stems))


def stem_span(claim: Claim, stems: set[str]) -> tuple[int, int] | None:
    """The claim text from the first to the last word with one of ``stems``."""
    tokens = [t for t in claim.unit.tokens if t.kind == "word" and t.stem in stems]
    return (tokens[0].start, tokens[-1].end) if tokens else None
