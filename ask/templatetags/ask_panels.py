"""Ask's panel on the knowledge base's version page: the saved question sets' runs that the version's approval,
retirement or expiry asked for. kb's views know nothing of it; its template loads this tag."""

from __future__ import annotations

from django import template

from ask import selectors
from kb.models import DocumentVersion

register = template.Library()


@register.inclusion_tag("ask/_version_runs_panel.html", takes_context=True)
def version_question_runs(context, version: DocumentVersion) -> dict:
    user = context["request"].user
    if not user.has_role(*selectors.RUN_READERS):
        return {"question_runs": None}
    return {"version": version, **selectors.version_question_runs(user=user, version=version)}
