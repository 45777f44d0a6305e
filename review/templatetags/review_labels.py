"""Risk tiers and evidence flags in the reader's language (review/labels.py)."""

from django import template

from review.labels import EVIDENCE_FLAG_LABELS, RISK_LABELS

register = template.Library()


@register.filter
def risk_label(value: str) -> str:
    return RISK_LABELS.get(value, value)


@register.filter
def evidence_flag(value: str) -> str:
    return EVIDENCE_FLAG_LABELS.get(value, value)
