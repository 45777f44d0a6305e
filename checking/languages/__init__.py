"""The language layer: one text module per language behind one interface (``base.TextLanguage``).

Every consumer that reads words, sentences or numbers asks the module of the text's language instead of assuming
English: ``language_for(code)``, with the code from ``detect_language`` or set by a person. ``en`` is the checker's
English (``checking.text``, ``kb.sentences``); ``zh`` is Simplified Chinese (rjieba, cn2an, OpenCC).
"""

from __future__ import annotations

from checking.languages.base import Quantity, TextLanguage, Word
from checking.languages.detect import LANGUAGE_CHOICES, LANGUAGE_CODES, detect_language

__all__ = ["LANGUAGE_CHOICES", "LANGUAGE_CODES", "Quantity", "TextLanguage", "Word", "detect_language",
           "language_for"]


def language_for(code: str) -> TextLanguage:
    if code == "zh":
        from checking.languages import zh

        return zh.CHINESE
    from checking.languages import en

    return en.ENGLISH
