"""One sentence splitter, shared by the claim checker (answers and evidence), the self-test, kb's chunking (long
paragraphs) and ask's composer: English's sentences, as ``checking.languages.en`` reads them.

A sentence ends at terminal punctuation (plus closing quotes, brackets or emphasis) followed by whitespace
or the end of the text, unless what follows continues it: a lower-case word or a comma ("approx. three",
"e.g. the", "3 p.m., after"), a name after a title ("Dr. Okafor", "J. Smith"), or anything but an obvious
sentence opener after a soft abbreviation or an initialism ("Lumen Labs Inc. The company ..." ends;
"approx. 1,200" does not). CJK full stops need no whitespace after them.

Offsets are ``str`` indices into the text, so ``text[start:end]`` is the sentence, whitespace-trimmed.
"""

from __future__ import annotations

import re
from itertools import pairwise

_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’»)\]*_]*(?=\s|$)|[。！？]+[」』）]*")
_NEXT_WORD = re.compile(r"\s*([^\s]+)")
_WORD_OPENERS = "([\"'“‘"  # a word before a full stop starts after whitespace or one of these
_INITIALISM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]?")  # U.S, e.g, a.m, i.e
# Titles never end a sentence in practice; the soft ones end it only when an
# obvious sentence opener follows ("... Lumen Labs Inc. The company ...").
_TITLES = frozenset({"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "gen", "col", "lt", "sgt", "rev", "hon"})
_SOFT_ABBREVIATIONS = frozenset(
    {"inc", "ltd", "co", "corp", "etc", "vs", "no", "nos", "fig", "approx", "dept", "est", "vol", "ca", "cf", "al",
     "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "ave", "min", "max"}
)
_SENTENCE_OPENERS = frozenset(
    {"the", "a", "an", "this", "these", "that", "those", "it", "its", "in", "on", "at", "we", "you", "they", "he",
     "she", "there", "our", "their", "for", "if", "when", "all", "each", "every", "some", "most", "after", "before",
     "however", "also", "as", "by", "from", "i", "to", "with"}
)


def sentence_spans(text: str, start: int, end: int, *, quotations: bool = False) -> list[tuple[int, int]]:
    """Trimmed, non-empty sentence spans inside ``text[start:end]``, in order. With ``quotations``, a quotation is
    one sentence with the one quoting it ("reply with: "Unable to answer. Sorry."", a quoted recipe step): an
    answer's quote is checked as the quote it is, not cut at its own full stops. Evidence is cut at every sentence
    (web text is full of quotation marks)."""
    cuts = [start]
    quotes = _Quotes(text, start, end) if quotations else None
    for match in _SENTENCE_END.finditer(text, start, end):
        if _ends_sentence(text, match.start(), match.end(), end) and not (quotes and quotes.open_at(match.end())):
            cuts.append(match.end())
    cuts.append(end)
    spans = (strip_span(text, a, b) for a, b in pairwise(cuts))
    return [(a, b) for a, b in spans if a < b]


_MAX_QUOTE_CHARS = 600


class _Quotes:
    """Whether a position is inside a double quotation that closes later in the text, counted as the cuts go (one
    pass: evidence paragraphs are long)."""

    def __init__(self, text: str, start: int, end: int) -> None:
        self.text, self.position, self.depth, self.straight, self.opened = text, start, 0, False, start
        self.last_straight, self.last_closing = text.rfind('"', start, end), text.rfind("”", start, end)

    def open_at(self, position: int) -> bool:
        for offset, char in enumerate(self.text[self.position:position], self.position):
            if char == "“":
                self.depth += 1
                self.opened = offset if self.depth == 1 else self.opened
            elif char == "”":
                self.depth = max(self.depth - 1, 0)
            elif char == '"':
                self.straight = not self.straight
                self.opened = offset if self.straight else self.opened
        self.position = position
        if position - self.opened > _MAX_QUOTE_CHARS:
            return False  # a stray quotation mark, not a quotation
        return (self.straight and self.last_straight >= position) or (self.depth > 0 and self.last_closing >= position)


def strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    """``start``..``end`` without leading and trailing whitespace."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _ends_sentence(text: str, punct_start: int, punct_end: int, limit: int) -> bool:
    if text[punct_start] in "。！？":
        return True
    following = _NEXT_WORD.match(text, punct_end, limit)
    if following is None:
        return True
    next_word = following.group(1)
    if next_word[0].islower() or next_word[0] in ",;:":
        return False  # "approx. three", "e.g. the", "3 p.m., after"
    if text[punct_start] != ".":
        return True
    word = _word_before(text, punct_start)
    bare = word.lower().rstrip(".")
    if bare in _TITLES or (len(word) == 1 and word.isupper()):
        return False  # "Dr. Okafor", "J. Smith"
    if bare in _SOFT_ABBREVIATIONS or _INITIALISM.fullmatch(word):
        return next_word.strip("\"'“‘(*_").lower() in _SENTENCE_OPENERS
    return True


def _word_before(text: str, end: int) -> str:
    """The word ending at ``end``; scanned backwards, since a regex search from 0 is quadratic in long texts."""
    start = end
    while start > 0 and not text[start - 1].isspace() and text[start - 1] not in _WORD_OPENERS:
        start -= 1
    return text[start:end]
