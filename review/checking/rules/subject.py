"""Subject: what the claim is about must be what the evidence is about.

A sentence's facts attach to its subject. When the evidence says the very same thing of another subject
("Laptops must lock after 5 minutes") and never mentions the claim's ("Support must lock after 5 minutes"),
the claim has moved a true statement onto something it was never said of, however well every other word
matches. A subject the evidence merely words otherwise is left to the soft measures: only the same predicate
after another subject shows the evidence is about something else.
"""

from __future__ import annotations

from review.checking.analysis import CLAUSE_VERBS, Unit, quantity_tokens
from review.checking.findings import Finding, FindingKind
from review.checking.rules.context import RuleContext, claim_span
from review.checking.text import LIGHT_STEMS, Token, is_content
from review.checking.windows import stem_found

_SUBJECT_REACH = 6  # tokens before the verb: a longer opening is seldom a plain subject
_DETERMINERS = frozenset({"the", "a", "an", "all", "each", "every", "any", "some", "most", "our", "its", "their",
                          "this", "these", "those", "that", "both"})
_COORDINATORS = frozenset({"and", "or", "&"})
_VERB_ENDINGS = ("s", "ed")  # "the Company reserves", "the team offered": a present or past verb after its subject


def check_subject(ctx: RuleContext) -> list[Finding]:
    """Subject heads the evidence gives no credit for, where it states the same predicate of another word."""
    tokens = ctx.claim.unit.tokens
    verb = _verb_index(tokens, ctx.window.stems)
    heads = subject_heads(tokens, verb=verb, skip=quantity_tokens(ctx.claim.unit)) if verb else []
    unsupported = set(ctx.unsupported) - LIGHT_STEMS
    missing = [head for head in heads if head.stem in unsupported]
    predicate = next((t for t in tokens[verb + 1 :] if is_content(t)), None) if missing else None
    if predicate is None:
        return []
    for unit in ctx.window.units:
        rival = _rival_subject(unit, tokens[verb], predicate, subject={t.stem for t in tokens[:verb]})
        if rival is not None:
            said = " ".join(t.text for t in tokens[tokens.index(missing[-1]) : tokens.index(predicate) + 1])
            theirs = " ".join(t.text for t in unit.tokens[unit.tokens.index(rival) : unit.tokens.index(rival) + 1])
            return [Finding(FindingKind.MISSING_SUBJECT,
                            f"claim says '{said}'; the evidence says it of '{theirs}'",
                            claim_span=claim_span(*missing), evidence_span=ctx.token_span(unit, rival))]
    return []


def _verb_index(tokens: list[Token], evidence_stems: set[str]) -> int | None:
    """The claim's first auxiliary or copula ("is", "must"), or the first verb-like word ("reserves", "offered")
    that the evidence has too: where the subject ends."""
    for k, tok in enumerate(tokens[: _SUBJECT_REACH + 1]):
        if tok.lower in CLAUSE_VERBS:
            return k
        if k and tok.lower.endswith(_VERB_ENDINGS) and not tok.lower.endswith("ss") and not tok.capital \
                and stem_found(tok.stem, evidence_stems):
            return k
    return None


def subject_heads(tokens: list[Token], *, verb: int, skip: set[int]) -> list[Token]:
    """The heads of a claim's subject, when the claim opens with one: the words before its first auxiliary or
    copula (``verb``: "is", "must", "are"), split at "and"/"or", each member's last content word. A claim
    opening otherwise (a fronted phrase, a pronoun, a number, "the number of ...") names no subject here."""
    opening = tokens[:verb]
    if not opening or any(t.kind != "word" or "'" in t.text or "’" in t.text for t in opening) \
            or any(k in skip for k in range(verb)):
        return []
    if not (is_content(opening[0]) or opening[0].lower in _DETERMINERS):
        return []  # "During the fair the cap may ...", "If approved it is ...": not a subject
    heads: list[Token] = []
    member: list[Token] = []
    for tok in [*opening, None]:
        if tok is None or tok.lower in _COORDINATORS:
            content = [t for t in member if is_content(t)]
            if content:
                heads.append(content[-1])
            member = []
        elif is_content(tok) or tok.lower in _DETERMINERS:
            member.append(tok)
        else:
            return []  # a preposition or pronoun inside: not a plain noun phrase
    return heads


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
