"""Names: each name of the claim must be in the evidence, in the same role (not where the evidence puts
another name), and pairs of words must be paired as the evidence pairs them."""

from __future__ import annotations

import itertools

from django.utils.translation import gettext as _

from checking.analysis import (
    Claim,
    Slot,
    Unit,
    affinity,
    clause_spans,
    context_skip_tokens,
    looks_like_name,
    slot_sequence,
    word_context,
)
from checking.findings import Finding, FindingKind
from checking.quantity_cues import unit_at
from checking.quantity_words import MONTHS, WEEKDAYS
from checking.rules.additions import not_in_evidence
from checking.rules.context import RuleContext, claim_span, frame_shared
from checking.languages import detect_language, language_for
from checking.text import LIST_JOINERS, NEGATION_BREAKS, Token, is_content, words_as_written
from checking.windows import Window, stem_found

_MIN_ROLE_CONTEXT = 0.2
_ROLE_MARGIN = 1.8


def check_entities(ctx: RuleContext) -> list[Finding]:
    """Each name of the claim must be in the window; in its place there, not another name's."""
    claim, window, candidate = ctx.claim, ctx.window, ctx.candidate
    measured = any(q.strong for q in claim.unit.quantities)
    findings: list[Finding] = []
    for run in claim.entities:
        missing = [t for t in run if not stem_found(t.stem, window.stems)]
        span = claim_span(*run)
        name = claim.text[span[0]:span[1]]  # as written: "钉钉" is one name though cut 钉 + 钉
        if not missing:
            # with numbers, binding them is surer
            rival = None if measured else _role_rival(claim, run, window, candidate.names)
            if rival:
                rival_name, unit, tokens = rival
                findings.append(Finding(FindingKind.ENTITY_SWAP,
                                        _("claim names '%(claim)s' where evidence names '%(evidence)s'")
                                        % {"claim": name, "evidence": rival_name},
                                        claim_span=span, evidence_span=ctx.token_span(unit, *tokens)))
        elif any(not stem_found(t.stem, ctx.all_stems) for t in missing):
            findings.append(Finding(FindingKind.MISSING_ENTITY, not_in_evidence(name), claim_span=span))
        elif any(not stem_found(t.stem, candidate.stems) for t in missing):
            findings.append(Finding(FindingKind.ENTITY_ELSEWHERE,
                                    _("'%(name)s' only in other evidence") % {"name": name},
                                    claim_span=span))
    return findings


def _links(tokens: list[Token]) -> list[tuple[Token, str, Token]]:
    """Content words joined by one function word: "FileVault on Windows", "premium for dependents"."""
    found: list[tuple[Token, str, Token]] = []
    for a, middle, b in zip(tokens, tokens[1:], tokens[2:]):
        if is_content(a) and is_content(b) and middle.kind == "word" and not is_content(middle) \
                and middle.lower not in LIST_JOINERS and middle.lower not in NEGATION_BREAKS:
            found.append((a, middle.lower, b))
    return found


def check_pairings(ctx: RuleContext) -> list[Finding]:
    """Swapped pairs: "FileVault on Windows" where the evidence has "BitLocker on Windows" and "FileVault on
    macOS". Both words are in the evidence, so only their pairing can tell; it takes the evidence pairing
    each of them with something else the same way, and never with each other."""
    evidence = [(*link, unit) for unit in ctx.window.units if unit.kind != "table_row" for link in _links(unit.tokens)]
    pairs = {(a.stem, middle, b.stem) for a, middle, b, _ in evidence}
    for a, middle, b in _links(ctx.claim.unit.tokens):
        if (a.stem, middle, b.stem) in pairs or (b.stem, middle, a.stem) in pairs:
            continue
        a_with = next(((x, y, u) for x, m, y, u in evidence if x.stem == a.stem and m == middle and y.stem != b.stem),
                      None)
        with_b = next((x for x, m, y, _ in evidence if y.stem == b.stem and m == middle and x.stem != a.stem), None)
        if a_with is not None and with_b is not None:
            first, partner, unit = a_with
            message = _("claim pairs '%(claim)s'; evidence pairs '%(first)s' and '%(second)s'") % {
                "claim": words_as_written([a.text, middle, b.text]),
                "first": words_as_written([a.text, middle, partner.text]),
                "second": words_as_written([with_b.text, middle, b.text])}
            return [Finding(FindingKind.ROLE_SWAP, message, claim_span=claim_span(a, b),
                            evidence_span=ctx.token_span(unit, first, partner))]
    return _clause_pairings(ctx)


def _clause_pairings(ctx: RuleContext) -> list[Finding]:
    """Two names of one claim clause that a sentence of the evidence names in two parallel clauses, each with
    another name: "Mac电脑使用BitLocker" against "Windows电脑使用BitLocker，Mac电脑使用FileVault", where no
    function word links the pair as "on" does in English (the claim's language says whether its clauses pair
    names)."""
    if not language_for(detect_language(ctx.claim.text)).names_paired_by_clause:
        return []
    evidence = [(names, unit) for unit in ctx.window.units if unit.kind != "table_row"
                for names in _clause_names(unit.tokens)]
    for names in _clause_names(ctx.claim.unit.tokens):
        for a, b in itertools.combinations(sorted(names.values(), key=lambda t: t.start), 2):
            if any(a.stem in theirs and b.stem in theirs for theirs, _ in evidence):
                continue
            with_a = [(theirs, unit) for theirs, unit in evidence if a.stem in theirs and len(theirs) > 1]
            for theirs_a, unit in with_a:
                with_b = next((theirs for theirs, other in evidence if other is unit and b.stem in theirs
                               and len(theirs) > 1 and theirs is not theirs_a), None)
                if with_b is None:
                    continue
                partner = next(t for stem, t in theirs_a.items() if stem != a.stem)
                rival = next(t for stem, t in with_b.items() if stem != b.stem)
                message = _("claim pairs '%(claim)s'; evidence pairs '%(first)s' and '%(second)s'") % {
                    "claim": f"{a.text} … {b.text}", "first": f"{a.text} … {partner.text}",
                    "second": f"{rival.text} … {b.text}"}
                return [Finding(FindingKind.ROLE_SWAP, message, claim_span=claim_span(a, b),
                                evidence_span=ctx.token_span(unit, partner, partner))]
    return []


def _clause_names(tokens: list[Token]) -> list[dict[str, Token]]:
    """Per clause of Chinese text, its names (stem -> first token), for clauses naming any: Chinese capitalises no
    sentence's first word, so a name opening the sentence ("Mac电脑…") is a name too."""
    clauses = [{t.stem: t for t in reversed(tokens[a:b]) if t.kind == "word" and t.capital}
               for a, b in clause_spans(tokens)]
    return [names for names in clauses if names]


def check_name_roles(ctx: RuleContext) -> list[Finding]:
    """Two names of the claim in each other's places: "COBRA will provide information about ABC Company
    benefits" against "ABC Company will provide information about COBRA benefits". Both names are in the
    evidence, so only where they stand can tell: each must sit between the other's claim neighbours there, and
    nearer them than where it stands itself. Names merely listed in another order share no neighbours."""
    claim = ctx.claim
    runs = [span for span in (_slot_run(claim.slots, run) for run in claim.entities) if span is not None]
    units = [(u, slot_sequence(u)) for u in ctx.window.units if u.kind != "table_row"]
    for (a, a_end), (b, b_end) in itertools.combinations(runs, 2):
        stems_a, stems_b = _run_stems(claim.slots, a, a_end), _run_stems(claim.slots, b, b_end)
        if stems_a == stems_b:
            continue
        frame_a = (claim.slots[a - 1].tok, claim.slots[a_end + 1].tok)
        frame_b = (claim.slots[b - 1].tok, claim.slots[b_end + 1].tok)
        for unit, seq in units:
            at_a, at_b = _run_at(seq, stems_a), _run_at(seq, stems_b)
            if at_a is None or at_b is None:
                continue
            if frame_shared(frame_a, seq, *at_b) > frame_shared(frame_a, seq, *at_a) \
                    and frame_shared(frame_b, seq, *at_a) > frame_shared(frame_b, seq, *at_b):
                name_a, name_b = _slot_text(claim.slots, a, a_end), _slot_text(claim.slots, b, b_end)
                return [Finding(FindingKind.ROLE_SWAP, f"claim puts '{name_a}' where evidence puts '{name_b}', and "
                                                       "the other way round",
                                claim_span=claim_span(claim.slots[a].tok, claim.slots[b_end].tok),
                                evidence_span=ctx.token_span(unit, seq[at_a[0]].tok, seq[at_b[0]].tok))]
    return []


def _slot_run(slots: list[Slot], run: list[Token]) -> tuple[int, int] | None:
    """The first and last slot of a name, if each of its words is a slot of its own."""
    indexes = [k for k, slot in enumerate(slots) if slot.tok is not None and any(slot.tok is t for t in run)]
    if len(indexes) != len(run) or indexes != list(range(indexes[0], indexes[0] + len(run))):
        return None
    return indexes[0], indexes[-1]


def _run_stems(slots: list[Slot], first: int, last: int) -> tuple[str, ...]:
    return tuple(slot.tok.stem for slot in slots[first : last + 1])


def _run_at(seq: list[Slot], stems: tuple[str, ...]) -> tuple[int, int] | None:
    """Where the evidence names the same words in a row (the first time)."""
    for k in range(1, len(seq) - len(stems)):
        if all(seq[k + j].tok is not None and seq[k + j].tok.stem == stem for j, stem in enumerate(stems)):
            return k, k + len(stems) - 1
    return None


def _slot_text(slots: list[Slot], first: int, last: int) -> str:
    return words_as_written(slot.tok.text for slot in slots[first : last + 1])


def _name_around(tokens: list[Token], k: int) -> tuple[str, Token, Token]:
    first, last = k, k
    while first > 0 and tokens[first - 1].kind == "word" and tokens[first - 1].capital:
        first -= 1
    while last + 1 < len(tokens) and tokens[last + 1].kind == "word" and tokens[last + 1].capital:
        last += 1
    return words_as_written(t.text for t in tokens[first : last + 1]), tokens[first], tokens[last]


def _list_partners(claim: Claim, run: list[Token]) -> set[str]:
    """Stems of the names the claim lists right beside this one ("Pluto and Nix", "Styx, Nix")."""
    tokens = claim.unit.tokens
    first, last = tokens.index(run[0]), tokens.index(run[-1])
    partners: set[str] = set()
    for other in claim.entities:
        if other is run:
            continue
        start, end = tokens.index(other[0]), tokens.index(other[-1])
        between = tokens[last + 1 : start] if start > last else tokens[end + 1 : first]
        if between and all(t.lower in LIST_JOINERS for t in between):
            partners.add(other[-1].stem)
    return partners


def _listed_with(tokens: list[Token], k: int, partners: set[str]) -> bool:
    """Whether the word at ``k`` stands in a list beside one of ``partners``, across joiners only."""
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(tokens) and tokens[j].lower in LIST_JOINERS:
            j += step
        if j != k + step and 0 <= j < len(tokens) and tokens[j].stem in partners:
            return True
    return False


def _role_rival(claim: Claim, run: list[Token], window: Window,
                names: set[str]) -> tuple[str, Unit, tuple[Token, Token]] | None:
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
    claim_ctx = word_context(claim.unit, head.pos, -1, context_skip_tokens(claim.unit) | run_indexes)
    if not claim_ctx:
        return None
    own, rival_score, rival = 0.0, 0.0, None
    for unit in window.units:
        joint = bool(partners) and partners <= unit.stems
        if not joint and head.stem not in unit.stems:
            continue  # the evidence must name both: "Charon, the largest ...; Styx"
        skip = context_skip_tokens(unit)
        for k, tok in enumerate(unit.tokens):
            if tok.kind != "word" or not is_content(tok):
                continue
            if tok.stem == head.stem:
                own = max(own, affinity(claim_ctx, word_context(unit, tok.pos, tok.cell, skip | {k})))
            elif (looks_like_name(tok) or tok.stem in names) and tok.stem not in claim.weights \
                    and tok.lower not in MONTHS \
                    and tok.lower not in WEEKDAYS and unit_at([tok], 0) is None and tok.cell <= 0 \
                    and (not joint or _listed_with(unit.tokens, k, partners)):
                score = affinity(claim_ctx, word_context(unit, tok.pos, tok.cell, skip | {k}))
                if score > rival_score:
                    name, first, last = _name_around(unit.tokens, k)
                    rival_score, rival = score, (name, unit, (first, last))
    if rival is not None and rival_score >= _MIN_ROLE_CONTEXT and rival_score > _ROLE_MARGIN * own:
        return rival
    return None
