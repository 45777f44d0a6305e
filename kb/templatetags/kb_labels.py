"""Readable labels for stored status values ("pending_approval" → "Pending approval") in templates."""

from django import template

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
