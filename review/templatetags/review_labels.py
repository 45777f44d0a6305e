"""Risk tiers as a person reads them: the stored values ("high") stay English in CSS classes and the API."""

from django import template
from django.utils.translation import pgettext_lazy

register = template.Library()

RISK_LABELS = {
    "high": pgettext_lazy("risk", "high"),
    "medium": pgettext_lazy("risk", "medium"),
    "low": pgettext_lazy("risk", "low"),
    "scoring": pgettext_lazy("risk", "scoring"),
}


@register.filter
def risk_label(value: str) -> str:
    return RISK_LABELS.get(value, value)


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


@register.filter
def evidence_flag(value: str) -> str:
    return EVIDENCE_FLAG_LABELS.get(value, value)
