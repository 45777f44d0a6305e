"""Review's panels on pages of the apps below it (the knowledge base's version page): its self-test record and the
reverse trace of which sent answers cite the version. kb's views know neither; its templates load these tags. And
the reviewer's recently decided answers, on review's own pages."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import ngettext

from kb.models import DocumentVersion, VersionStatus
from kb.rendering import paragraph_notes_insert
from console import roles
from review import citations, selectors, undo

register = template.Library()


def _may_read_citations(context) -> bool:
    return context["request"].user.has_role(*citations.CITATION_READERS)


@register.inclusion_tag("review/_version_selftest.html")
def version_selftest(version: DocumentVersion) -> dict:
    """The version's latest self-test (review/evaluation.py selftest_run), kind by kind."""
    return {"selftest": selectors.selftest_latest(version=version), "document": version.document}


@register.inclusion_tag("review/_version_cited_by.html", takes_context=True)
def version_cited_by(context, version: DocumentVersion) -> dict:
    """The link to the answers citing the version, for those who may read the reverse trace."""
    return {"version": version, "may_read_citations": _may_read_citations(context)}


EXPIRY_IMPACT_DAYS = 30  # how far back the cost of an expiry is counted


@register.inclusion_tag("review/_version_expiry_impact.html", takes_context=True)
def version_expiry_impact(context, version: DocumentVersion) -> dict:
    """Before an approved version expires: how many sent answers cited it lately (they would go to review)."""
    if (not _may_read_citations(context) or version.expires_at is None or version.is_expired
            or version.status != VersionStatus.APPROVED):
        return {"shown": False}
    count = citations.recent_sent_answers_citing(viewer=context["request"].user, version=version,
                                                 days=EXPIRY_IMPACT_DAYS)
    return {"shown": True, "count": count, "days": EXPIRY_IMPACT_DAYS, "version": version}


@register.inclusion_tag("review/_version_reviewed_facts.html", takes_context=True)
def version_reviewed_facts(context, version: DocumentVersion) -> dict:
    """The facts reviewers confirmed against this version (and any they rejected while it was the evidence): live
    ones first; approvers may revoke one. For those who may read the reverse trace (they quote answers)."""
    request = context["request"]
    if not _may_read_citations(context):
        return {"shown": False}
    facts = list(selectors.reviewed_facts_of_version(version=version))
    return {"shown": True, "facts": facts, "live": sum(f.ended_at is None for f in facts), "version": version,
            "may_revoke": request.user.has_role(roles.APPROVER), "csrf_token": context.get("csrf_token"),
            "request": request}


@register.simple_tag(takes_context=True)
def version_text_cited(context, version: DocumentVersion, rendered: str) -> SafeString:
    """The version's rendered Markdown; for those who may read the reverse trace, each paragraph that sent answers
    cite says by how many, linking to them."""
    if not _may_read_citations(context):
        return mark_safe(rendered)  # noqa: S308 - kb.rendering's sanitised HTML
    url = reverse("review:version_citations", args=[version.document.key, version.number])
    counts = citations.paragraph_citations(viewer=context["request"].user, version=version).counts
    return mark_safe(paragraph_notes_insert(rendered, {line: format_html(  # noqa: S308 - sanitised, notes escaped
        '<a class="cited-by small" href="{}?line={}" data-cited-by="{}">{}</a>', url, line, count,
        ngettext("cited by %(count)d answer", "cited by %(count)d answers", count) % {"count": count},
    ) for line, count in counts.items()}))


@register.inclusion_tag("review/_recently_decided.html", takes_context=True)
def recently_decided_panel(context) -> dict:
    """The reviewer's last decisions, with Undo on a reject while its window is open (review/undo.py)."""
    request = context["request"]
    return {"recent": undo.recently_decided(reviewer=request.user), "csrf_token": context.get("csrf_token")}
