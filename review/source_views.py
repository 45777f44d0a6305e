"""Sources to fix: what reviewers flagged in the knowledge base (review/corrections.py), for the curators,
approvers and owners who resolve it."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from console.input_text import text_problem
from review import corrections, selectors, services


def _sources_to_fix_page(request: HttpRequest, *, error: str = "", error_for: int | None = None,
                         status: int = 200) -> HttpResponse:
    mine, closed = request.GET.get("mine") == "1", request.GET.get("status") == "closed"
    entries = selectors.sources_to_fix(user=request.user, mine=mine, closed=closed)
    page = Paginator(entries, 25).get_page(request.GET.get("page"))
    for entry in page:
        entry.may_resolve = corrections.source_correction_may_resolve(correction=entry, user=request.user)
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "review/sources_to_fix.html", {
        "page": page, "mine": mine, "closed": closed, "query": query.urlencode(), "error": error,
        "error_for": error_for,
    }, status=status)


@require_GET
def sources_to_fix(request: HttpRequest) -> HttpResponse:
    if not selectors.sources_to_fix_may_view(request.user):
        raise PermissionDenied(_("Sources to fix are for curators, approvers and document owners."))
    return _sources_to_fix_page(request)


@require_POST
def source_correction_resolve(request: HttpRequest, correction_id: int) -> HttpResponse:
    if not selectors.sources_to_fix_may_view(request.user):
        raise PermissionDenied(_("Sources to fix are for curators, approvers and document owners."))
    correction = get_object_or_404(selectors.source_corrections_visible_to(request.user), pk=correction_id)
    note = request.POST.get("note", "").strip()[:2000]
    if problem := text_problem(note):
        return _sources_to_fix_page(request, error=_("The note %(problem)s.") % {"problem": problem},
                                    error_for=correction.pk, status=400)
    try:
        resolved = corrections.source_correction_resolve(correction=correction, user=request.user,
                                                         status=request.POST.get("status", ""), note=note)
    except corrections.CorrectionClosed as exc:
        return _sources_to_fix_page(request, error=str(exc), error_for=correction.pk, status=409)
    except services.DecisionInvalid as exc:
        return _sources_to_fix_page(request, error=str(exc), error_for=correction.pk, status=400)
    messages.success(request, _("%(entry)s: %(status)s.") % {
        "entry": resolved, "status": resolved.get_status_display().lower()})
    return redirect(f"{reverse('review:sources_to_fix')}?{request.GET.urlencode()}")
