"""Moved statements: a sentence of the evidence said of another subject — "婚假最长为六个月，到期未续期的自动停用"
where the evidence says "外包人员账号的有效期最长为六个月，到期未续期的自动停用". Every word but the subject is in
the evidence, in the same order, so word overlap and similarity call it supported.

The claim's words are aligned with each evidence sentence's (``word_sequence``, numbers included). Where all of
the claim after a clause's opening words matches the sentence in order, and those opening words (the subject)
stand where the sentence has other words that share nothing with them, the sentence is about something else.
A subject merely worded otherwise shares a word, a stem or, in Chinese, a character (差旅 / 出差) and is left to
the soft measures. ``subject.py`` asks this rule for claims in languages other than English.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from checking.analysis import Slot
from checking.findings import Finding, FindingKind
from checking.rules.context import RuleContext, claim_span, said_of, sentence_sequences, slots_text, word_sequence
from checking.text import REPLY_WORDS, ideographs, related_stems

_SUBJECT_WORDS = 3  # claim words a subject may span
_RIVAL_WORDS = 6  # evidence words in its place ("外 包 人员 账号 的 有效期": the segmenter cuts names apart)
_MIN_REST = 3  # claim words after the subject that must all match: fewer say too little
_CLAUSE_MARKS = frozenset({",", ";", ":"})


def check_moved(ctx: RuleContext) -> list[Finding]:
    mine = word_sequence(ctx.claim.unit)
    words = [s.tok.stem for s in mine[1:-1]]
    for unit, theirs in sentence_sequences(ctx):
        moved = _moved_subject(mine, theirs, words)
        if moved is not None:
            (a, b), (c, d) = moved
            subject, rival = mine[a + 1: b + 1], theirs[c + 1: d + 1]
            return [Finding(FindingKind.MISSING_SUBJECT,
                            said_of(slots_text(subject), slots_text(rival)),
                            claim_span=claim_span(*(s.tok for s in subject)),
                            evidence_span=ctx.token_span(unit, *(s.tok for s in rival)))]
    return []


def _moved_subject(mine: list[Slot], theirs: list[Slot],
                   words: list[str]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    other = [s.tok.stem for s in theirs[1:-1]]
    ops = SequenceMatcher(None, words, other, autojunk=False).get_opcodes()
    differing = [op for op in ops if op[0] != "equal"]
    if len(differing) != 1 or differing[0][0] != "replace":
        return None  # anything else differs too: other checks judge it
    _, i1, i2, j1, j2 = differing[0]
    if i2 - i1 > _SUBJECT_WORDS or j2 - j1 > _RIVAL_WORDS or len(words) - i2 < _MIN_REST:
        return None
    if not _opens_clause(mine, i1) or any(s.tok.kind == "num" for s in mine[i1 + 1: i2 + 1]):
        return None
    subject, rival = mine[i1 + 1: i2 + 1], theirs[j1 + 1: j2 + 1]
    if any(s.tok.stem in other or s.tok.lower in REPLY_WORDS for s in subject) or _share(subject, rival):
        return None
    return (i1, i2), (j1, j2)


def _opens_clause(mine: list[Slot], i: int) -> bool:
    """Word ``i`` (a word index) starts the claim or follows a clause mark."""
    return i == 0 or bool(_CLAUSE_MARKS & set(mine[i + 1].joint))


def _share(subject: list[Slot], rival: list[Slot]) -> bool:
    """A word, a stem or an ideograph in common: a subject worded otherwise, not another one."""
    for a in subject:
        for b in rival:
            if related_stems(a.tok.stem, b.tok.stem) or ideographs(a.tok.lower) & ideographs(b.tok.lower):
                return True
    return False
