"""Text the database can store and a person meant to send."""

from __future__ import annotations

import re

from django.utils.translation import gettext

# C0 controls other than tab, line feed and carriage return, and lone surrogates ("\ud800" is valid JSON but not
# Unicode): PostgreSQL cannot store NUL or unencodable text, and no question or answer means any of them.
_UNSTORABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    """Why this text cannot be taken as it is, or None."""
    found = _UNSTORABLE.search(value)
    if found is None:
        return None
    char = found.group()
    if "\ud800" <= char <= "\udfff":
        problem = gettext("contains a lone surrogate (U+%(code)s) at position %(position)s")
    else:
        problem = gettext("contains a control character (U+%(code)s) at position %(position)s")
    return problem % {"code": f"{ord(char):04X}", "position": found.start()}


def text_without_controls(value: str) -> str:
    """For read-only inputs (a search box): what cannot be meant is dropped."""
    return _UNSTORABLE.sub("", value)
