"""Accepted synonyms: the word and phrase pairs people said mean the same (the console's vocabulary, kept by kb),
which the checker's word coverage (``windows.stem_found``) and the Ask gate credit as the same word.

The checker reads no database: the app that keeps the pairs registers a source (kb/apps.py), and each check
(review.pipeline.answer_check; ask.services.ask_draft before its gate) calls ``vocabulary_refresh``, which asks the
source one cheap question — has anything changed since this process read the pairs? — and reads them again only
then. So a pair accepted in the web process counts in every worker at its next check, and one removed stops
counting there.

A side of a pair is its content words' stems, read as the checker reads a claim. A phrase side ("unemployment
rate") is found only where the text has all of its words; Chinese, written without spaces, separates a phrase's
words with spaces ("乘坐 出租车"), and each word is one word to the segmenter (a dictionary that cuts it apart is
given it as a term, as the knowledge base's own terms are).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass

from checking.languages import language_of_word
from checking.text import is_content, tokenize


@dataclass(frozen=True)
class VocabularyPair:
    words: str  # as a person wrote them: "jobless", "乘坐 出租车"
    other_words: str


@dataclass(frozen=True)
class VocabularySource:
    """Where accepted pairs come from: ``version`` is cheap and changes whenever the accepted pairs change;
    ``pairs`` reads them all."""

    version: Callable[[], Hashable]
    pairs: Callable[[], Iterable[VocabularyPair]]


_UNREAD = object()
_source: VocabularySource | None = None
_version: object = _UNREAD
# stem -> the other sides it is paired with (each a set of stems, all of which the text must have)
_partners: dict[str, tuple[frozenset[str], ...]] = {}


def vocabulary_source_register(source: VocabularySource | None) -> None:
    """The app keeping the vocabulary says where it is (None: none, as in a checker run on its own)."""
    global _source, _version, _partners
    _source, _version, _partners = source, _UNREAD, {}


def vocabulary_refresh() -> None:
    """Read the accepted pairs again if they changed since this process last read them (one cheap query)."""
    global _version, _partners
    if _source is None:
        return
    version = _source.version()
    if version == _version:
        return
    _partners = _table(_source.pairs())
    _version = version


def vocabulary_in(stem: str, stems: Collection[str]) -> bool:
    """Whether an accepted synonym of ``stem`` is among ``stems``: a whole other side of one of its pairs."""
    partners = _partners.get(stem)
    return partners is not None and any(all(s in stems for s in other) for other in partners)


def phrase_stems(words: str) -> tuple[str, ...]:
    """The stems the checker compares for one side of a pair, in order: "Unemployment rates" -> ("unemploy...",
    "rate"); empty when it has no content word ("the", "的")."""
    stems: list[str] = []
    for piece in words.split():
        language = language_of_word(piece)
        if len(language.words(piece)) > 1:
            language.terms_add([piece])  # a Chinese word the dictionary cuts apart stays one word
        tokens = tokenize(piece, 0, len(piece), table=False)
        stems += [token.stem for token in tokens if is_content(token) and token.stem not in stems]
    return tuple(stems)


def _table(pairs: Iterable[VocabularyPair]) -> dict[str, tuple[frozenset[str], ...]]:
    partners: dict[str, list[frozenset[str]]] = {}
    for pair in pairs:
        one, other = frozenset(phrase_stems(pair.words)), frozenset(phrase_stems(pair.other_words))
        if not one or not other:
            continue
        # A word both sides share ("rate" of "jobless rate" / "unemployment rate") is found as itself.
        for mine, theirs in ((one, other), (other, one)):
            for stem in mine - theirs:
                partners.setdefault(stem, []).append(theirs)
    return {stem: tuple(others) for stem, others in partners.items()}
