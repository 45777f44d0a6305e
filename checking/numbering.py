"""Numbers that name or number something rather than measure it, so ``checking.quantities`` reads no quantity
in them: a source's number ("passage 2", 段落二) and a list item's number in text flattened from HTML.
"""

from __future__ import annotations

import re

from checking.quantity_words import REFERENCE_WORDS
from checking.text import Token

# What joins the numbers of several sources named together: "passages 1, 2 and 3", 段落一、二.
REFERENCE_JOINERS = frozenset({",", "and", "&", "or", "、", "和", "与", "及"})


def names_a_source(tokens: list[Token], i: int) -> bool:
    """Whether the number at ``i`` names which source ("passage 2", "passages 1 and 3", 段落二): a reference to the
    evidence, not a quantity of the claim."""
    k = i - 1
    while k > 0 and tokens[k].lower in REFERENCE_JOINERS and tokens[k - 1].kind == "num":
        k -= 2  # "passages 1, 2 and 3": back over each earlier number to the word naming them
    return tokens[i].kind == "num" and k >= 0 and tokens[k].lower in REFERENCE_WORDS


# An item's number in a list run into one paragraph, as web text flattened from HTML has it ("may include: 1  A new
# lump. 2  Frequent fevers. 3  Night sweats.", "1. Fever 2. Cough"): a word of its own, set off from the item by a
# full stop, a bracket or a wider gap than a word's ("1 Cup of flour" is a quantity), before a capital.
_ENUMERATOR = re.compile(r"(?<![\w,.$€£¥/-])([1-9][0-9]?)(?:[.)]\s+|\s{2,})(?=[A-Z])")


def inline_enumerators(text: str, tokens: list[Token]) -> set[int]:
    """The tokens numbering such a list. One opening the text is one (the checker reads evidence a sentence at a
    time, so an item's sentence holds its own number only); further in, a number placed as an item's is one only
    beside the next or previous item's number (1 … 2)."""
    if not tokens:
        return set()
    placed = {m.start(1): int(m.group(1)) for m in _ENUMERATOR.finditer(text, tokens[0].start, tokens[-1].end)}
    numbers = set(placed.values())
    return {k for k, t in enumerate(tokens) if t.kind == "num" and t.start in placed
            and (k == 0 or {placed[t.start] - 1, placed[t.start] + 1} & numbers)}
