"""Git sources' pages (curators and approvers) and their push webhook (GitHub, GitLab, Gitea; HMAC-verified)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from console import roles
from console.models import SecurityLevel
from console.roles import role_required
from kb import sources
from kb.forms import SourceForm
from kb.models import Source

SOURCE_READERS = (roles.CURATOR, roles.APPROVER)


def _source_for_user(request: HttpRequest, source_id: int) -> Source:
    """A source above the viewer's clearance is not there for them (its documents would be)."""
    return get_object_or_404(Source, pk=source_id, security_level__in=SecurityLevel.up_to(request.user.clearance))


@require_http_methods(["GET", "POST"])
@role_required(*SOURCE_READERS)
def source_list(request: HttpRequest) -> HttpResponse:
    form = SourceForm(request.POST or None)
    if request.method == "POST":
        if not request.user.has_role(roles.CURATOR):
            raise roles.RoleRequired((roles.CURATOR,))
        if form.is_valid():
            try:
                source = sources.source_create(created_by=request.user, **form.cleaned_data)
            except (sources.SourceError, PermissionDenied) as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("Source added; its first sync is under way."))
                return redirect(source)
    listed = Source.objects.filter(security_level__in=SecurityLevel.up_to(request.user.clearance))
    return render(request, "kb/source_list.html", {"sources": listed.select_related("default_owner"), "form": form},
                  status=400 if form.errors else 200)


@require_GET
@role_required(*SOURCE_READERS)
def source_detail(request: HttpRequest, source_id: int) -> HttpResponse:
    source = _source_for_user(request, source_id)
    return render(request, "kb/source_detail.html", {
        "source": source, "documents": source.documents.select_related("owner").order_by("key"),
        "push_url": request.build_absolute_uri(reverse("kb:source_push", args=[source.pk])),
    })


@require_GET
@role_required(*SOURCE_READERS)
def source_progress(request: HttpRequest, source_id: int) -> HttpResponse:
    source = _source_for_user(request, source_id)
    response = render(request, "kb/_source_sync_state.html", {"source": source})
    if request.htmx and source.sync_state == Source.SyncState.IDLE:
        response["HX-Refresh"] = "true"  # the report below changed: show it
    return response


@require_POST
@role_required(roles.CURATOR)
def source_sync(request: HttpRequest, source_id: int) -> HttpResponse:
    source = _source_for_user(request, source_id)
    if sources.source_sync_request(source=source, user=request.user):
        messages.success(request, _("Sync queued."))
    else:
        messages.info(request, _("A sync is already queued or running."))
    return redirect(source)


@csrf_exempt  # a Git host signs the body instead (sources.push_signature_valid)
@login_not_required
@require_POST
def source_push(request: HttpRequest, source_id: int) -> JsonResponse:
    source = Source.objects.filter(pk=source_id).first()
    if source is None or not sources.push_signature_valid(source=source, headers=request.headers, body=request.body):
        return JsonResponse({"error": "forbidden", "detail": "No source with that id takes this signature."},
                            status=403)
    if request.headers.get("X-GitHub-Event") == "ping":
        return JsonResponse({"status": "pong"})
    try:
        outcome = sources.push_received(source=source, body=request.body)
    except sources.SourceError as exc:
        return JsonResponse({"error": "bad_request", "detail": str(exc)}, status=400)
    return JsonResponse({"status": outcome}, status=202)
