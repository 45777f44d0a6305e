"""Additions: what the claim says beyond the evidence — an appended phrase, an invented superlative or
comparison, a content word found nowhere."""

from __future__ import annotations

from django.utils.translation import gettext as _

from checking.analysis import Claim, Polar, bound_leads, pretty, stem_span
from checking.findings import Finding, FindingKind
from checking.languages import listed
from checking.languages import zh as _chinese
from checking.rules.context import RuleContext, claim_span
from checking.text import COORDINATORS, LIGHT_STEMS, Token, is_content, words_as_written
from checking.windows import Window, stem_found

_RELATIVE_PRONOUNS = frozenset({"which", "who", "whose", "whom", "where"})
_ADDING_WORDS = frozenset({"with", "including", "plus", "mainly", "mostly", "especially", "particularly",
                           *_chinese.ADDING_WORDS})


def not_in_evidence(words: str) -> str:
    return _("'%(words)s' not in evidence") % {"words": words}


def unsupported_terms(terms: list[str]) -> str:
    """One line for the words found nowhere (reasons_for lists a claim's on one line)."""
    return _("not found in evidence: %(terms)s") % {"terms": listed(terms)}

_DEGREE_FAMILIES = frozenset({"compare", "superlative"})


def check_additions(ctx: RuleContext) -> list[Finding]:
    """Appended phrases and superlatives the evidence never states, then every claim word it lacks."""
    claim = ctx.claim
    findings = _unsupported_phrases(claim, set(ctx.unsupported) - LIGHT_STEMS) or _appended_to_a_sentence(ctx)
    for polar in unsupported_degrees(claim, ctx.window):
        if polar.family == "superlative":  # "a record high"; an invented comparison only costs as a word
            tok = claim.unit.tokens[polar.index]
            findings.append(Finding(FindingKind.UNSUPPORTED_ADDITION, not_in_evidence(polar.word),
                                    claim_span=(tok.start, tok.end)))
    findings += [Finding(FindingKind.UNSUPPORTED_TERM, unsupported_terms([pretty(claim, {s})]),
                         claim_span=stem_span(claim, {s}), subject=pretty(claim, {s})) for s in ctx.unsupported]
    return findings


def _unsupported_phrases(claim: Claim, unsupported: set[str]) -> list[Finding]:
    """Appended phrases made only of unsupported words: ", which includes breakfast", "(driven by overtime)".

    One wrong word in a verbatim sentence costs little on coverage; a phrase of its own that the evidence
    never mentions is a whole extra fact, so it caps the score however well the rest matches."""
    phrases: list[Finding] = []
    for part in _appended_parts(claim.unit.tokens):
        if not _adds_a_fact(part):
            continue
        content = [t for t in part if is_content(t) and t.stem not in LIGHT_STEMS]
        if content and all(t.stem in unsupported for t in content):
            words = [t for t in part if t.kind == "word"]
            phrases.append(Finding(FindingKind.UNSUPPORTED_ADDITION,
                                   not_in_evidence(words_as_written(t.text for t in words)),
                                   claim_span=claim_span(*words)))
    return phrases


def _appended_to_a_sentence(ctx: RuleContext) -> list[Finding]:
    """A phrase appended to a sentence the evidence states whole, whose words no one sentence of the evidence
    states together ("…最小权限原则，且按各自的协议执行": 协议 and 执行 are in other sentences, about other things).
    A claim joining two sentences of the evidence keeps the second's words together, so it is not one."""
    tokens = ctx.claim.unit.tokens
    units = ctx.window.units
    # A quantity's words ("two days" of "one or two days") are the quantity rule's to check: units hold no stems of
    # theirs, so here they would be words no sentence states.
    spans = [(q.start, q.end) for q in ctx.claim.unit.quantities]

    def worded(t: Token) -> bool:
        return is_content(t) and t.stem not in LIGHT_STEMS and not any(a <= t.start < b for a, b in spans)

    for part in _appended_parts(tokens):
        if not _adds_a_fact(part):
            continue
        head = [t for t in tokens if t.end <= part[0].start and worded(t)]
        added = [t for t in part if worded(t)]
        if not head or len(added) < 2 or not any(all(stem_found(t.stem, u.stems) for t in head) for u in units):
            continue
        if all(sum(stem_found(t.stem, u.stems) > 0 for t in added) * 2 < len(added) for u in units):
            words = [t for t in part if t.kind == "word"]
            return [Finding(FindingKind.UNSUPPORTED_ADDITION, not_in_evidence(words_as_written(t.text for t in words)),
                            claim_span=claim_span(*words))]
    return []


def _adds_a_fact(part: list[Token]) -> bool:
    """A relative clause, a participle/"with" phrase or a last list member ("... whiteboards and video calls")
    describes something more; an adverbial such as "around the clock" restates how or when, often in other words
    than the evidence's."""
    first = part[0].lower
    return first in _RELATIVE_PRONOUNS or first in _ADDING_WORDS or first in COORDINATORS or (
        len(first) > 4 and first.endswith(("ing", "ed", "en")) and part[0].kind == "word")


def _appended_parts(tokens: list[Token]) -> list[list[Token]]:
    """The parts of a sentence after its first: cut at commas, semicolons, brackets, relative pronouns and its
    last "and"/"or" (which stays at the head of its part)."""
    last_joiner = max((k for k, t in enumerate(tokens) if t.lower in COORDINATORS), default=-1)
    parts: list[list[Token]] = [[]]
    for k, tok in enumerate(tokens):
        if tok.lower in ",;()" or tok.lower in _RELATIVE_PRONOUNS or (k == last_joiner and parts[-1]):
            parts.append([])
        if tok.lower not in ",;().":  # lower: Chinese marks read as their ASCII twins
            parts[-1].append(tok)
    return [part for part in parts[1:] if part]


def unsupported_degrees(claim: Claim, window: Window) -> list[Polar]:
    """Superlatives and comparisons ("its highest level", "larger than") the evidence makes none of: the
    direction rules can only check a degree the evidence also states, so an invented one is an addition."""
    families = {p.family for u in window.units for p in u.polars}
    bounds = {k for q in claim.unit.quantities for k in bound_leads(q)}  # "最多3天" bounds a number; the quantity rule
    return [p for p in claim.unit.polars
            if p.family in _DEGREE_FAMILIES and p.family not in families and p.index not in bounds]
