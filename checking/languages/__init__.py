"""The language layer: one text module per language behind one interface (``base.TextLanguage``).

Every consumer that reads words, sentences or numbers asks the module of the text's language instead of assuming
English: ``language_for(code)``, with the code from ``detect_language`` or set by a person. ``en`` is the checker's
English (``checking.text``, ``checking.sentences``); ``zh`` is Simplified Chinese (rjieba, cn2an, OpenCC). A consumer
that reads text of any language (the checker's cue words, dates, ordinals) takes in ``every_language()``.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import Promise
from django.utils.translation import get_language, pgettext_lazy

from checking.languages import en, zh
from checking.languages.base import Quantity, TextLanguage, Word
from checking.languages.detect import DEFAULT_LANGUAGE, LANGUAGE_CHOICES, LANGUAGE_CODES, detect_language

__all__ = ["LANGUAGE_CHOICES", "LANGUAGE_CODES", "Quantity", "TextLanguage", "Word", "detect_language",
           "document_terms", "every_language", "fulltext_form", "language_for", "language_of_word", "listed",
           "reasons_in", "reasons_in_language_of", "reasons_joined"]

# Every language the checker reads, by code (detect.LANGUAGE_CODES), English first: where two languages' tables
# share a word, the later one's entry stands.
_LANGUAGES: dict[str, TextLanguage] = {"en": en.ENGLISH, "zh": zh.CHINESE}


def language_for(code: str) -> TextLanguage:
    """The language of ``code``; any other code reads as the default language (English)."""
    return _LANGUAGES.get(code, _LANGUAGES[DEFAULT_LANGUAGE])


def every_language() -> tuple[TextLanguage, ...]:
    return tuple(_LANGUAGES.values())


def language_of_word(word: str) -> TextLanguage:
    """The language whose script ``word`` is written in (Chinese 婚假), else the default language: a question may
    mix scripts (VPN怎么连), and each of its words is read by its own."""
    for language in _LANGUAGES.values():
        if language.ideograph is not None and language.ideograph.search(word):
            return language
    return _LANGUAGES[DEFAULT_LANGUAGE]


def reasons_in(code: str):
    """A context in which the checker's reasons (gettext) are written in language ``code``: a Chinese claim's
    reasons in Chinese, whatever the console's or the API client's language."""
    from django.utils import translation

    return translation.override(language_for(code).locale)


def reasons_in_language_of(text: str):
    return reasons_in(detect_language(text))


def listed(items: Iterable[str]) -> str:
    """Words or values listed as the active language lists them: "hotel, meals"; Chinese "住宿、伙食"."""
    return _separator(_LIST_SEPARATOR).join(items)


def reasons_joined(reasons: Iterable[str]) -> str:
    """Reasons given on one line, as the active language separates clauses: "a; b"; Chinese "甲；乙"."""
    return _separator(_REASON_SEPARATOR).join(reasons)


_LIST_SEPARATOR = pgettext_lazy("separator of listed words", ", ")
_REASON_SEPARATOR = pgettext_lazy("separator of reasons", "; ")
_SEPARATORS: dict[tuple[str | None, int], str] = {}


def _separator(separator: Promise) -> str:
    """The active language's separator, looked up once per language: the checker writes reasons for every window
    it weighs, and a catalogue lookup each time cost the check 10 ms an answer."""
    key = (get_language(), id(separator))
    if key not in _SEPARATORS:
        _SEPARATORS[key] = str(separator)
    return _SEPARATORS[key]


def document_terms(text: str, *, language: str) -> list[str]:
    """The terms a document marks as its own (bold, quoted names, short table cells): never cut apart."""
    return language_for(language).document_terms(text)


def fulltext_form(text: str, *, language: str | None = None) -> str:
    """The text as the full-text index reads it. PostgreSQL's parser splits words at spaces and punctuation, so a
    Chinese run would be one "word": Chinese is segmented first, in search mode (a long word with its shorter words too: "订机票" also as
    "机票", so a query and a passage cut differently still meet), Traditional folded, joined by spaces.
    English is read as written."""
    code = language or detect_language(text)
    if code == "en":
        return text
    return " ".join(language_for(code).search_words(text))
