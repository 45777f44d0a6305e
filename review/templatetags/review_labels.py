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
