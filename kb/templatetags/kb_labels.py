"""Readable labels for stored status values ("pending_approval" → "Pending approval") in templates."""

from django import template

from console.deferred_text import deferred_text_read
from django.utils.translation import pgettext_lazy

from kb.models import IndexState, VersionStatus

register = template.Library()

VERSION_STATUS_LABELS = dict(VersionStatus.choices)
INDEX_STATE_LABELS = dict(IndexState.choices)


@register.filter
def version_status(value: str) -> str:
    return VERSION_STATUS_LABELS.get(value, value)


@register.filter
def index_state(value: str) -> str:
    return INDEX_STATE_LABELS.get(value, value)


# How a search hit was found (kb.search.SearchHit.matched_by): the codes read as words in the person's language.
MATCH_LABELS = {"full text": pgettext_lazy("search match", "full text"), "vector": pgettext_lazy("search match", "vector")}


@register.filter
def match_kind(value: str) -> str:
    return MATCH_LABELS.get(value, value)


@register.filter
def deferred_text(stored) -> str:
    """Words a worker stored (a sync's errors) in the reader's language (console.deferred_text)."""
    return deferred_text_read(stored)
