"""The structure an answer is written in, by kind: how the checker's figures are broken down (`evaluate`), so a
reviewer of the checker sees where it stands on the way real assistants write.

- ``framing``: a statement opened by attribution ("Based on the given passages,", 根据以上段落，);
- ``passage_reference``: a source named by its number ("passage 2", 段落二);
- ``quote``: quoted material of a few words or more;
- ``meta``: the assistant's words about itself or its answer ("Unable to answer based on given passages.");
- ``absence``: a claim that the sources lack something ("The passages do not mention …");
- ``list``: list items;
- ``pronoun``: a claim that opens by leaning on the one before ("These symptoms …", 它…);
- ``synthesis``: a claim whose support the check put together from two passages (found by the check, not in the
  text: `answer_structure` never returns it).
"""

from __future__ import annotations

import re

from checking.claims import split_claims, text_segments
from checking.quantity_words import REFERENCE_WORDS
from checking.text import BACK_REFERENCES, FRAMING_PATTERNS, META_PATTERNS, absence_stated, tokenize

STRUCTURE_KINDS = ("framing", "passage_reference", "quote", "meta", "absence", "list", "pronoun", "synthesis")

_REFERENCES = "|".join(sorted(map(re.escape, REFERENCE_WORDS), key=len, reverse=True))
_REFERENCE = re.compile(rf"(?:{_REFERENCES}) ?(?:number )?(?:\d|[一二三四五六七八九十])", re.IGNORECASE)
_QUOTE = re.compile(r"[\"“][^\"”\n]{12,}[\"”]")


def answer_structure(text: str) -> frozenset[str]:
    """The kinds of STRUCTURE_KINDS that ``text`` is written with."""
    kinds: set[str] = set()
    for segment in text_segments(text, quotations=True):
        sentence = text[segment.start:segment.end]
        if segment.kind == "item":
            kinds.add("list")
        if any(pattern.match(sentence) for pattern in FRAMING_PATTERNS):
            kinds.add("framing")
        if any(pattern.match(sentence) for pattern in META_PATTERNS):
            kinds.add("meta")
    if _REFERENCE.search(text):
        kinds.add("passage_reference")
    if _QUOTE.search(text):
        kinds.add("quote")
    for claim in split_claims(text):
        if absence_stated(claim.text) is not None:
            kinds.add("absence")
        words = [t for t in tokenize(claim.text, 0, len(claim.text), table=False) if t.kind == "word"]
        if words and words[0].lower in BACK_REFERENCES:  # the segmenter cuts 它 from 它不能拆分 as "these" from English
            kinds.add("pronoun")
    return frozenset(kinds)
