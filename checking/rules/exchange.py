"""Exchanges: two terms of one sentence put in each other's places — "the approver fills in the request" against
"the applicant fills in the request ... the approver", "A reports to B" against "B reports to A", "level 1 is the
least severe, level 4 the most" against the reverse. Every word of the claim is in the evidence, so word overlap
and similarity call it supported; only the order says otherwise.

The claim's content words are aligned with each evidence sentence's, in order (difflib). Where the sentence holds
most of the claim's words, two replaced runs that hold each other's words are an exchange (numbers take part in
the alignment, so two clauses in the other order are no exchange). The words around each run must be joined alike
on both sides (the same small words lead to the word after it), so a passive rewording ("B is paid by A" / "A pays
B"), whose joining words differ, is not one; nor is a list in another order.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from django.utils.translation import gettext as _

from checking.analysis import Slot
from checking.findings import Finding, FindingKind
from checking.rules.context import RuleContext, claim_span, sentence_sequences, slots_text, word_sequence
from checking.text import LIST_JOINERS

_MIN_ALIGNED = 0.5  # of the claim's content words in the sentence: below this the sentences say other things
_MIN_WORDS = 3
_EXTRA_WORDS = 2  # words one side may add between the exchanged terms
_TERM_WORDS = 3  # "部门经理 及以上 人员"


def check_exchanges(ctx: RuleContext) -> list[Finding]:
    mine = word_sequence(ctx.claim.unit)
    words = [s.tok.stem for s in mine[1:-1]]
    if len(words) < _MIN_WORDS:
        return []
    for unit, theirs in sentence_sequences(ctx):
        exchange = _exchange(mine, theirs, words)
        if exchange is not None:
            (a, b), (c, d) = exchange
            first, second = slots_text(mine[a:b]), slots_text(mine[c:d])
            return [Finding(FindingKind.ROLE_SWAP,
                            _("claim puts '%(first)s' and '%(second)s' the other way round from evidence")
                            % {"first": first, "second": second},
                            claim_span=claim_span(*(s.tok for s in (*mine[a:b], *mine[c:d]))),
                            evidence_span=ctx.token_span(unit, *(s.tok for s in theirs[1:-1])))]
    return []


def _exchange(mine: list[Slot], theirs: list[Slot],
              words: list[str]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The claim's two exchanged runs as slot ranges, if ``theirs`` states the same sentence with them swapped."""
    other = [s.tok.stem for s in theirs[1:-1]]
    matcher = SequenceMatcher(None, words, other, autojunk=False)
    present = set(other)
    if sum(word in present for word in words) < max(_MIN_WORDS, _MIN_ALIGNED * len(words)):
        return None
    ops = matcher.get_opcodes()
    for pair in _replaced_pairs(ops, words, other, mine, theirs) + _moves(ops, words, other, mine, theirs):
        (a, b), (c, d) = pair
        if _terms(mine[a + 1: b + 1]) and _terms(mine[c + 1: d + 1]) and not _one_list(mine, a, d):
            return (a + 1, b + 1), (c + 1, d + 1)  # slots hold an empty end at 0
    return None


def _replaced_pairs(ops, words, other, mine, theirs) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Two replaced runs holding each other's words, A … B against B … A, each followed by the same small words
    on both sides."""
    replaced = [(i1, i2, j1, j2) for op, i1, i2, j1, j2 in ops if op == "replace"]
    found = []
    for n, (i1, i2, j1, j2) in enumerate(replaced):
        for k1, k2, l1, l2 in replaced[n + 1:]:
            if set(words[i1:i2]) == set(other[l1:l2]) and set(words[k1:k2]) == set(other[j1:j2]) \
                    and _joined_alike(mine, theirs, i2, j2) and _joined_alike(mine, theirs, k2, l2):
                found.append(((i1, i2), (k1, k2)))
    return found


def _moves(ops, words, other, mine, theirs) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The same exchange where one term is longer than what lies between: the alignment keeps the longer term
    and moves the rest around it. The claim's A M [E] against the evidence's [E] M A (or the mirror image), M
    joined alike on both sides (one side may have a word or two more in it: "高铁" / "高铁、动车")."""
    found = []
    for (op1, i1, i2, j1, j2), (op2, k1, k2, _j1, _j2), (op3, m1, m2, n1, n2) in zip(ops, ops[1:], ops[2:]):
        if op2 != "equal":
            continue
        if op1 == "delete" and op3 == "insert":  # claim: A M E; evidence: E M A
            size = _rotation(words[i1:i2], other[n1:n2])
            if size and _middle_alike(mine[i1 + size + 1: i2 + 1], theirs[n1 + 1: n2 - size + 1]):
                found.append(((i1, i1 + size), (k1, k2)))
        elif op1 == "insert" and op3 == "delete":  # claim: E M A; evidence: A M E
            size = _rotation(other[j1:j2], words[m1:m2])
            if size and _middle_alike(mine[m1 + 1: m2 - size + 1], theirs[j1 + size + 1: j2 + 1]):
                found.append(((k1, k2), (m2 - size, m2)))
    return found


def _rotation(first: list[str], second: list[str]) -> int:
    """How many leading words of ``first`` (A) end ``second``, the rest of ``first`` (M) and of ``second`` being
    the same words but for up to two more on one side, with M not empty: an empty M is two neighbours in
    another order, as lists and rewordings often are."""
    for size in range(1, len(first)):
        if first[:size] == second[len(second) - size:] and _within(first[size:], second[: len(second) - size]):
            return size
    return 0


def _within(a: list[str], b: list[str]) -> bool:
    shorter, longer = sorted((a, b), key=len)
    return bool(shorter) and len(longer) - len(shorter) <= _EXTRA_WORDS and bool(_paired(shorter, longer))


def _paired(shorter: list, longer: list, key=lambda x: x) -> list[tuple[int, int]] | None:
    """Each item of ``shorter`` with the next equal one in ``longer``, in order; None if some has none."""
    pairs, at = [], 0
    for k, item in enumerate(shorter):
        while at < len(longer) and key(longer[at]) != key(item):
            at += 1
        if at == len(longer):
            return None
        pairs.append((k, at))
        at += 1
    return pairs


def _middle_alike(mine: list[Slot], theirs: list[Slot]) -> bool:
    """The words between the exchanged terms are led to by the same small words on both sides (a passive
    rewording, "is paid by" / "must pay", is not)."""
    swap = len(mine) > len(theirs)
    shorter, longer = (theirs, mine) if swap else (mine, theirs)
    pairs = _paired(shorter, longer, key=lambda s: s.tok.stem)
    return pairs is not None and all(shorter[a].joint == longer[b].joint for a, b in pairs)


def _terms(slots: list[Slot]) -> bool:
    """A run is a term (a role, a name, a degree), not a clause: a few words, no number (clauses stated in the
    other order carry their numbers along, and the quantity rules bind numbers)."""
    return len(slots) <= _TERM_WORDS and all(s.tok.kind != "num" for s in slots)


def _one_list(mine: list[Slot], start: int, end: int) -> bool:
    """Words ``start``..``end`` are items of one list ("A, B and C"): their order is no claim."""
    return all(s.joint and set(s.joint) <= LIST_JOINERS for s in mine[start + 2: end + 1])


def _joined_alike(mine: list[Slot], theirs: list[Slot], i: int, j: int) -> bool:
    """The words leading to the slot after a replaced run are the same in both (``i``, ``j``: word indexes)."""
    return mine[i + 1].joint == theirs[j + 1].joint
