"""Wording: a claim word the evidence replaces with another in the same place — between the same two
neighbours (a slot swap, a contradiction) or beside one shared word (a substitution, soft doubt)."""

from __future__ import annotations

from checking.analysis import Claim, Slot, Unit, quantity_tokens, slot_sequence
from checking.findings import Finding, FindingKind
from checking.rules.context import RuleContext, claim_span, says
from checking.text import (
    CONJUNCTIONS,
    LIGHT_STEMS,
    LIST_JOINERS,
    NEGATION_BREAKS,
    Token,
    is_content,
    related_stems,
    words_as_written,
)
from checking.windows import Window, stem_found

_NEIGHBOUR_REACH = 2  # tokens: "Kuiper belt", "occurred in hotels"
_SLOT_WORDS = 2  # content words a swapped slot may span: "arbitration", "stock grants"
_VERB_CUES = frozenset({"to", "may", "might", "can", "could", "will", "would", "shall", "should", "must", "do", "does",
                        "did"})  # the next word is a verb
# Word embeddings this close are a rewording ("individual" / "single") of a word in the same place, not a swap: the
# place pins down what the word is about, so a looser likeness than builtin's for a word anywhere will do.
SLOT_PARAPHRASE_AT = 0.45


def check_wording(ctx: RuleContext) -> list[Finding]:
    """Words swapped into the same slot, then other substitutions (a swap is reported once, as a swap)."""
    swaps = _slot_swaps(ctx)
    shown = {f.message for f in swaps}
    return swaps + [f for f in _substitutions(ctx) if f.message not in shown]


def _substitutions(ctx: RuleContext) -> list[Finding]:
    """An unsupported word beside a word the evidence has, where the evidence puts a different word:
    "asteroid belt" against "Kuiper belt", "occurred in hotels" against "occurred in food services"."""
    claim, window = ctx.claim, ctx.window
    doubted = {s for s in ctx.unsupported if s not in LIGHT_STEMS} | window.reworded_in_place
    found: list[Finding] = []
    for k, tok in enumerate(claim.unit.tokens):
        if tok.kind != "word" or tok.stem not in doubted:
            continue
        rival = word_in_its_place(claim, window, k)
        if rival is not None:
            other, unit, neighbour = rival
            mine, theirs = ((tok, neighbour), (other, neighbour)) if neighbour.end > tok.end \
                else ((neighbour, tok), (neighbour, other))
            found.append(Finding(FindingKind.SUBSTITUTION,
                                 says(words_as_written(t.text for t in mine), words_as_written(t.text for t in theirs)),
                                 claim_span=claim_span(tok, neighbour), evidence_span=ctx.token_span(unit, other),
                                 subject=tok.text, rival=other.text))
    return found


def word_in_its_place(claim: Claim, window: Window, k: int) -> tuple[Token, Unit, Token] | None:
    """The evidence word standing where claim token ``k`` stands, beside a content neighbour both share ("rate"
    of "the jobless rate" and "the unemployment rate"): that word, its unit, and the shared neighbour (the
    claim's)."""
    tokens = claim.unit.tokens
    for step in (-1, 1):
        neighbour = _content_neighbour(tokens, k, step)
        if neighbour is None or neighbour.stem not in window.stems:
            continue
        rival = _evidence_neighbour(window, neighbour.stem, -step, claim)
        if rival is not None:
            return (*rival, neighbour)
    return None


def _slot_swaps(ctx: RuleContext) -> list[Finding]:
    """Claim words the evidence replaces between the same two neighbours: "Company's arbitration procedure"
    against "Company's grievance procedure", "bonuses, and stock grants." against "bonuses, and salary
    increases.". Word similarity alone passes such swaps as paraphrases ("arbitration" is near "disputes");
    the same neighbours on both sides, joined by the same small words, show it is one slot holding another
    thing. Rewordings rarely keep every joining word ("entitled to" / "eligible for"), so they seldom align."""
    claim = ctx.claim
    runs = _absent_runs(claim.slots, ctx.window.stems)
    found: list[Finding] = []
    for unit in ctx.window.units if runs else []:
        if unit.kind == "table_row":
            continue  # a row's cells are not one phrase
        evidence_slots = slot_sequence(unit)
        for first, last in runs:
            swap = _same_slot(claim, claim.slots, first, last, evidence_slots)
            if swap is None or any(f.message == swap[0] for f in found):
                continue
            message, theirs = swap
            mine = claim.slots[first : last + 1]
            found.append(Finding(FindingKind.SLOT_SWAP, message, claim_span=claim_span(*(s.tok for s in mine)),
                                 evidence_span=ctx.token_span(unit, *(s.tok for s in theirs)),
                                 subject=_words(mine), rival=_words(theirs)))
    return found


def _absent_runs(slots: list[Slot], stems: set[str]) -> list[tuple[int, int]]:
    """Runs of up to ``_SLOT_WORDS`` claim words the window lacks, between words it has. A word the window
    has elsewhere is no swap: "nonfarm jobs" where one sentence says "employment" and the next "jobs"."""
    runs: list[tuple[int, int]] = []
    k = 1
    while k < len(slots) - 1:
        if stem_found(slots[k].tok.stem, stems):
            k += 1
            continue
        end = k
        while end + 1 < len(slots) - 1 and not stem_found(slots[end + 1].tok.stem, stems):
            end += 1
        if end - k < _SLOT_WORDS and _bounded(slots, k, end):
            runs.append((k, end))
        k = end + 1
    return runs


def _bounded(slots: list[Slot], first: int, last: int) -> bool:
    """Words on both sides; or, for the last member of a list, the list before it ("bonuses, and stock
    grants."). A sentence's opening or closing words alone are too loose a frame ("Monthly plans can be ...")."""
    before, after = slots[first - 1], slots[last + 1]
    if before.tok is not None and after.tok is not None:
        return True
    return before.tok is not None and bool(LIST_JOINERS & set(slots[first].joint))


def _same_slot(claim: Claim, claim_slots: list[Slot], first: int, last: int,
               evidence_slots: list[Slot]) -> tuple[str, list[Slot]] | None:
    """The evidence words between the run's two neighbours, if they are other words than the claim's: the
    reason, and those words."""
    before, after = claim_slots[first - 1], claim_slots[last + 1]
    mine = claim_slots[first : last + 1]
    if after.joint[:1] == ("than",) or any(s.polar for s in mine):
        return None  # "cheaper than" / "lower than": a comparison, which the direction checks judge
    if (mine[0].joint and mine[0].joint[-1] in _VERB_CUES) or any(s.tok.stem in LIGHT_STEMS for s in mine):
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
            message = says(_slot_text(before, mine, after), _slot_text(evidence_slots[k], theirs, evidence_slots[end]))
            return message, theirs
    return None


def _claim_has(claim: Claim, stem: str) -> bool:
    return stem in claim.weights or any(related_stems(stem, s) for s in claim.weights)


def _same_word(a: Token | None, b: Token | None) -> bool:
    return a is None and b is None or (a is not None and b is not None and stem_found(a.stem, {b.stem}) > 0)


def _reworded(claim: Claim, mine: list[Slot], theirs: list[Slot]) -> bool:
    """Some claim word of the slot is close in meaning to some evidence word of it. Without word vectors
    (no embedder) the slot is judged by its words alone."""
    for a in mine:
        for b in theirs:
            va, vb = claim.word_vectors.get(a.tok.lower), claim.word_vectors.get(b.tok.lower)
            if va is not None and vb is not None and claim.word_similarity(va, vb) >= SLOT_PARAPHRASE_AT:
                return True
    return False


def _words(slots: list[Slot]) -> str:
    """A slot's words apart, as a pair of the vocabulary writes a phrase (Chinese too: "乘坐 出租车")."""
    return " ".join(s.tok.text for s in slots)


def _slot_text(before: Slot, words: list[Slot], after: Slot) -> str:
    """The slot as written, with its joining words: "Company's arbitration procedure"."""
    parts: list[str] = [before.tok.text] if before.tok is not None else []
    for slot in [*words, after]:
        if slot.tok is not None:
            parts += [*slot.shown, slot.tok.text]
    return words_as_written(parts)


def _content_neighbour(tokens: list[Token], k: int, step: int) -> Token | None:
    """The nearest content word on one side, with at most one function word between and no joiner: words
    further apart ("plan ... once they have completed") are not one phrase, so a swap there is no sign."""
    j = k + step
    while 0 <= j < len(tokens) and abs(j - k) <= _NEIGHBOUR_REACH:
        tok = tokens[j]
        if tok.kind != "word" or tok.lower in NEGATION_BREAKS or tok.lower in CONJUNCTIONS:
            return None
        if is_content(tok):
            return tok
        j += step
    return None


def _evidence_neighbour(window: Window, stem: str, step: int, claim: Claim) -> tuple[Token, Unit] | None:
    """A content word the evidence puts on that side of ``stem`` that the claim does not have."""
    for unit in window.units:
        skip = quantity_tokens(unit)
        for k, tok in enumerate(unit.tokens):
            if tok.stem != stem or tok.kind != "word":
                continue
            other = _content_neighbour(unit.tokens, k, step)
            if other is None or unit.tokens.index(other) in skip:
                return None
            if other.stem in claim.weights or other.stem in LIGHT_STEMS \
                    or any(related_stems(other.stem, s) for s in claim.weights):
                return None  # a light verb ("making a flyby") is no rival to a paraphrase
            return other, unit
    return None
