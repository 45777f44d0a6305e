from __future__ import annotations

import csv

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from console import personal_tokens, roles
from console.forms import AuditFilterForm, LanguageForm, PersonalTokenForm
from console.roles import role_required
from console.selectors import audit_event_changes, audit_events_filtered, role_granters


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 403 page: what was refused, and for a page of other roles which role it needs, the roles the person
    holds and who can grant them — no bare refusal at the end of a link."""
    needed = getattr(exception, "needed", ())
    held = roles.user_roles(request.user)
    return render(request, "403.html", {
        "exception": str(exception) if exception else "",
        "needed_roles": [roles.ROLE_LABELS[role] for role in needed],
        "held_roles": [label for role, label in roles.ROLE_LABELS.items() if role in held],
        "granted_by": role_granters() if needed else [],
    }, status=403)


class _Echo:
    def write(self, value: str) -> str:
        return value


# A spreadsheet runs a cell starting with one of these as a formula (=HYPERLINK(...) exfiltrates data).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    """The value as a spreadsheet shows it, never as a formula: a leading quote makes it plain text."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


@require_GET
@role_required(roles.ADMIN, roles.APPROVER)
def audit_log(request: HttpRequest) -> HttpResponse:
    form = AuditFilterForm(request.GET or None, viewer=request.user)
    filters = form.cleaned_data if form.is_valid() else {}
    events = audit_events_filtered(viewer=request.user, **{key: value for key, value in filters.items() if value})
    if request.GET.get("format") == "csv":
        writer = csv.writer(_Echo())
        header = ["time", "actor", "verb", "object_type", "object_id", "object", "before", "after", "note"]
        rows = (
            writer.writerow([csv_cell(value) for value in (
                e.created_at.isoformat(), e.actor_display, e.verb, e.object_type, e.object_id, e.object_repr,
                e.before, e.after, e.note,
            )])
            for e in events.iterator()
        )
        response = StreamingHttpResponse((row for part in ([writer.writerow(header)], rows) for row in part),
                                         content_type="text/csv")
        response["Content-Disposition"] = 'attachment; filename="audit-log.csv"'
        return response
    page = Paginator(events, 50).get_page(request.GET.get("page"))
    for event in page:
        event.changes = audit_event_changes(event)
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "console/audit_log.html", {"form": form, "page": page, "query": query.urlencode()})


@require_http_methods(["GET", "POST"])
def language(request: HttpRequest) -> HttpResponse:
    """The person's own console language; blank follows the browser. Any logged-in person may set their own."""
    back = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = ""
    form = LanguageForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        # The confirmation is written in the language just chosen, not the one the request came in.
        translation.activate(request.user.language or translation.get_language_from_request(request))
        messages.success(request, _("Language saved."))
        return redirect(back or "language")
    return render(request, "console/language.html", {"form": form, "next": back})


def _personal_tokens_page(request: HttpRequest, *, form: PersonalTokenForm | None = None, new_token: str = "",
                          status: int = 200) -> HttpResponse:
    return render(request, "console/personal_tokens.html", {
        "form": form or PersonalTokenForm(), "new_token": new_token,
        "tokens": personal_tokens.personal_tokens_for(user=request.user),
        "is_reviewer": request.user.has_role(roles.REVIEWER),
    }, status=status)


@never_cache  # the page that shows a new token must not be kept by a browser or proxy
@require_http_methods(["GET", "POST"])
def personal_token_list(request: HttpRequest) -> HttpResponse:
    """Any logged-in person's own tokens for the review API; a POST creates one and shows it, this once."""
    if request.method == "GET":
        return _personal_tokens_page(request)
    form = PersonalTokenForm(request.POST)
    if form.is_valid():
        try:
            _created, token = personal_tokens.personal_token_create(user=request.user, name=form.cleaned_data["name"],
                                                                    actor=request.user)
        except personal_tokens.PersonalTokenInvalid as exc:
            form.add_error("name", str(exc))
        else:
            # Rendered, not redirected: the token is in no session or message store, only on this page.
            return _personal_tokens_page(request, new_token=token)
    return _personal_tokens_page(request, form=form, status=400)


@require_POST
def personal_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    personal_token = get_object_or_404(personal_tokens.personal_tokens_for(user=request.user), pk=token_id)
    personal_tokens.personal_token_revoke(personal_token=personal_token, actor=request.user)
    messages.success(request, _("Revoked the token “%(name)s”: it no longer works.") % {"name": personal_token.name})
    return redirect("personal_tokens")
