"""Notes and actor labels the console itself stores in English ("approved at import", "the console on first
start"), shown in the reader's language. The stored text stays as it is (readable in the database, the audit
export and old rows); only its display is translated, so a Chinese page shows no English the console wrote."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

# Whole notes and labels, as the code that writes them spells them.
KNOWN = {
    "approved at import": _("approved at import"),
    "the console on first start": _("the console on first start"),
    "the console on upgrade": _("the console on upgrade"),
    "system": _("system"),
    "checker": _("checker"),
    "auto-release (low risk)": _("auto-release (low risk)"),
    "leak budget": _("leak budget"),
    "vocabulary auto-accept": _("vocabulary auto-accept"),
    "the document says so (replay)": _("the document says so (replay)"),
}
# Notes with a value in them: the pattern, and the message its named groups fill.
PATTERNS = [
    (re.compile(r"imported from (?P<file>\S.*)"), _("imported from %(file)s")),
    (re.compile(r"superseded by version (?P<number>\d+)"), _("superseded by version %(number)s")),
    (re.compile(r"(?P<count>\d+) failed logins in a row"), _("%(count)s failed logins in a row")),
]


def system_note_display(text: str) -> str:
    """The note in the active language when the console wrote it; anything a person wrote, unchanged."""
    if not text:
        return text
    known = KNOWN.get(text)
    if known is not None:
        return str(known)
    for pattern, message in PATTERNS:
        if match := pattern.fullmatch(text):
            return str(message) % match.groupdict()
    return text
