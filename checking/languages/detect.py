"""Which language a text is written in: Chinese when Han characters make up a good share of its letters."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy

LANGUAGE_CODES = ("en", "zh")
DEFAULT_LANGUAGE = "en"  # what a text without enough Han characters is read as
LANGUAGE_CHOICES = [("en", gettext_lazy("English")), ("zh", gettext_lazy("Chinese (Simplified)"))]
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
# A Han character carries about as much as a short English word: compare characters with words' letters / 4.
_LETTERS_PER_HAN = 4.0
_HAN_SHARE = 0.3


def detect_language(text: str) -> str:
    han = len(_HAN.findall(text))
    latin = len(_LATIN.findall(text)) / _LETTERS_PER_HAN
    if han and han / (han + latin) >= _HAN_SHARE:
        return "zh"
    return DEFAULT_LANGUAGE
