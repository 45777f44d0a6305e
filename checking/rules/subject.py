"""Subject: what the claim is about must be what the evidence is about.

A sentence's facts attach to its subject. When the evidence says the very same thing of another subject
("Laptops must lock after 5 minutes") and never mentions the claim's ("Support must lock after 5 minutes"),
the claim has moved a true statement onto something it was never said of, however well every other word
matches. A subject the evidence merely words otherwise is left to the soft measures: only the same predicate
after another subject shows the evidence is about something else.
"""

from __future__ import annotations

from collections.abc import Iterator

from checking.analysis import CLAUSE_VERBS, Unit, quantity_tokens
from checking.findings import Finding, FindingKind
from checking.languages import detect_language
from checking.rules.context import RuleContext, claim_span, said_of
from checking.rules.moved import check_moved
from checking.text import COORDINATORS, Token, is_content
from checking.windows import stem_found

_SUBJECT_REACH = 6  # tokens before the verb: a longer opening is seldom a plain subject
_DETERMINERS = frozenset({"the", "a", "an", "all", "each", "every", "any", "some", "most", "our", "its", "their",
                          "this", "these", "those", "that", "both"})
_VERB_ENDINGS = ("s", "ed")  # "the Company reserves", "the team offered": a present or past verb after its subject


def check_subject(ctx: RuleContext) -> list[Finding]:
    """English claims: the subject before a clause verb, which knows English's verbs and determiners. Other
    languages: the subject found by aligning the claim with a sentence (rules/moved.py), which on English
    conversational replies ("yes, they ...", "they've ...") takes the reply's opening for a subject."""
    if detect_language(ctx.claim.text) == "en":
        return _subject_before_verb(ctx)
    return check_moved(ctx)


def _subject_before_verb(ctx: RuleContext) -> list[Finding]:
    """Subject words the evidence gives no credit for, where it states the same verb and predicate of another
    word. Each place the subject could end is tried ("Lead times runs ...": not after "times")."""
    unsupported = set(ctx.unsupported)
    if not unsupported:
        return []
    tokens = ctx.claim.unit.tokens
    skip = quantity_tokens(ctx.claim.unit)
    for verb in _verb_positions(tokens, ctx.window.stems):
        words = _subject_words(tokens, verb=verb, skip=skip)
        missing = [t for t in words if t.stem in unsupported]
        predicate = next((t for t in tokens[verb + 1 :] if is_content(t)), None)
        if not missing or predicate is None:
            continue
        # A verb known only by its ending ("detailed", "measurements") may be no verb: then the whole subject must
        # be absent ("Lead times runs"), not one word of a longer opening ("New Horizons took detailed ...").
        if tokens[verb].lower not in CLAUSE_VERBS and len(missing) < len(words):
            continue
        for unit in ctx.window.units:
            rival = _rival_subject(unit, tokens[verb], predicate, subject={t.stem for t in tokens[:verb]})
            if rival is not None:
                said = ctx.claim.text[missing[0].start : predicate.end]
                return [Finding(FindingKind.MISSING_SUBJECT, said_of(said, rival.text),
                                claim_span=claim_span(*missing), evidence_span=ctx.token_span(unit, rival))]
    return []


def _verb_positions(tokens: list[Token], evidence_stems: set[str]) -> Iterator[int]:
    """Where the subject may end, first to last: an auxiliary or copula ("is", "must"), or a verb-like word
    ("reserves", "offered") that the evidence has too."""
    for k, tok in enumerate(tokens[1 : _SUBJECT_REACH + 1], start=1):
        if tok.lower in CLAUSE_VERBS:
            yield k
            return  # nothing after an auxiliary is still the subject
        if tok.lower.endswith(_VERB_ENDINGS) and not tok.lower.endswith("ss") and not tok.capital \
                and stem_found(tok.stem, evidence_stems):
            yield k


def _subject_words(tokens: list[Token], *, verb: int, skip: set[int]) -> list[Token]:
    """The content words of a claim's subject, when the claim opens with a plain one: determiners, nouns and
    "and"/"or" up to ``verb``. A claim opening otherwise (a fronted phrase, a pronoun, a number, "the number
    of ...") names no subject here."""
    opening = tokens[:verb]
    if not opening or any(t.kind != "word" or "'" in t.text or "’" in t.text for t in opening) \
            or any(k in skip for k in range(verb)):
        return []
    if not (is_content(opening[0]) or opening[0].lower in _DETERMINERS):
        return []  # "During the fair the cap may ...", "If approved it is ...": not a subject
    if any(not is_content(t) and t.lower not in _DETERMINERS and t.lower not in COORDINATORS for t in opening):
        return []  # a preposition or pronoun inside: not a plain noun phrase
    return [t for t in opening if is_content(t)]


def _rival_subject(unit: Unit, verb: Token, predicate: Token, *, subject: set[str]) -> Token | None:
    """The word the evidence puts before the claim's verb and predicate ("Laptops" in "Laptops must lock"),
    if it is a content word of another subject than the claim's (a reordered "b and a are ..." is the same)."""
    tokens = unit.tokens
    for k in range(1, len(tokens) - 1):
        if tokens[k].lower != verb.lower:
            continue
        following = next((t for t in tokens[k + 1 :] if is_content(t)), None)
        if following is None or not stem_found(predicate.stem, {following.stem}):
            continue
        before = tokens[k - 1]
        if is_content(before) and not stem_found(before.stem, subject):
            return before
    return None
