"""Stored English codes as a person reads them: risk tiers and evidence flags stay English in the database, CSS
classes and the API, and are shown in the reader's language."""

from django.utils.translation import pgettext_lazy

RISK_LABELS = {
    "high": pgettext_lazy("risk", "high"),
    "medium": pgettext_lazy("risk", "medium"),
    "low": pgettext_lazy("risk", "low"),
    "scoring": pgettext_lazy("risk", "scoring"),
}

# Evidence flags are stored as English codes (review/pipeline.py); the page reads "this source is <flag>".
EVIDENCE_FLAG_LABELS = {
    "superseded": pgettext_lazy("evidence flag", "superseded"),
    "expired": pgettext_lazy("evidence flag", "expired"),
    "unapproved": pgettext_lazy("evidence flag", "unapproved"),
    "not yet effective": pgettext_lazy("evidence flag", "not yet effective"),
    "conflicting": pgettext_lazy("evidence flag", "conflicting"),
    "public": pgettext_lazy("evidence flag", "public"),
    "internal": pgettext_lazy("evidence flag", "internal"),
    "confidential": pgettext_lazy("evidence flag", "confidential"),
    "restricted": pgettext_lazy("evidence flag", "restricted"),
}
