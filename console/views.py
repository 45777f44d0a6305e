from __future__ import annotations

import csv
import ipaddress
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from console import login_lockout, personal_tokens, roles, user_access
from console.forms import AuditFilterForm, LanguageForm, PersonalTokenForm, UserClearanceForm, UserRolesForm
from console.models import SecurityLevel, User
from console.roles import role_required
from console.selectors import audit_event_changes, audit_events_filtered, role_granters, users_for_admin


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


USERS_PER_PAGE = 25


def _users_page_url(request: HttpRequest, user: User | None = None) -> str:
    """Back to the Users page as the admin left it (search and page), at the person's card."""
    back = request.POST.get("back", "")
    # Only a query string of this page, encoded again: never somewhere else, never a stray character in a header.
    back = "?" + QueryDict(back[1:]).urlencode() if back.startswith("?") and len(back) > 1 else ""
    return reverse("users") + back + (f"#user-{user.pk}" if user is not None else "")


@require_GET
@role_required(roles.ADMIN)
def user_list(request: HttpRequest) -> HttpResponse:
    """Admins: every person's roles, clearance, login lock and live tokens, with the actions on each. People
    cleared above the admin are shown without the role and clearance forms (user_access says why)."""
    query = request.GET.get("q", "").strip()
    page = Paginator(users_for_admin(query=query), USERS_PER_PAGE).get_page(request.GET.get("page"))
    locks = login_lockout.login_locks_for(usernames=[user.username for user in page])
    actor_rank = SecurityLevel.rank(request.user.clearance)
    for user in page:
        user.role_names = {group.name for group in user.groups.all()} | (
            {roles.ADMIN} if user.is_superuser else set())
        user.login_lock = locks.get(user.username)
        user.within_reach = SecurityLevel.rank(user.clearance) <= actor_rank
        user.roles_form = UserRolesForm(initial={"roles": sorted(user.role_names & set(roles.ALL_ROLES))},
                                        prefix=f"u{user.pk}")
        user.clearance_form = UserClearanceForm(initial={"clearance": user.clearance}, actor=request.user,
                                                prefix=f"u{user.pk}")
    return render(request, "console/users.html", {
        "page": page, "search": query, "query": urlencode({"q": query}) if query else "",
        "back": "?" + request.GET.urlencode() if request.GET else "",
        "locked_addresses": login_lockout.login_locked_addresses(),
        "failure_limit": settings.AXES_FAILURE_LIMIT, "section": "users",
    })


def _user_change(request: HttpRequest, user: User, change: Callable[[], object], done: str) -> HttpResponse:
    """Run one audited change and say what it did; a refusal is the admin's to read, on the page they came from."""
    try:
        changed = change()
    except user_access.UserChangeRefused as exc:
        messages.error(request, str(exc))
        return redirect(_users_page_url(request, user))
    if changed:
        messages.success(request, done)
    else:
        messages.info(request, _("Nothing to change for %(user)s.") % {"user": user.username})
    return redirect(_users_page_url(request, user))


@require_POST
@role_required(roles.ADMIN)
def user_roles(request: HttpRequest, user_id: int) -> HttpResponse:
    user = get_object_or_404(User, pk=user_id)
    form = UserRolesForm(request.POST, prefix=f"u{user.pk}")
    if not form.is_valid():
        return HttpResponseBadRequest(_("Unknown role."))
    return _user_change(request, user, lambda: user_access.user_roles_set(
        user=user, role_names=form.cleaned_data["roles"], actor=request.user),
        _("Saved the roles of %(user)s.") % {"user": user.username})


@require_POST
@role_required(roles.ADMIN)
def user_clearance(request: HttpRequest, user_id: int) -> HttpResponse:
    user = get_object_or_404(User, pk=user_id)
    clearance = request.POST.get(f"u{user.pk}-clearance", "")
    if clearance not in SecurityLevel.values:
        return HttpResponseBadRequest(_("Unknown security level."))
    return _user_change(request, user, lambda: user_access.user_clearance_set(
        user=user, clearance=clearance, actor=request.user),
        _("%(user)s is now cleared for %(level)s.") % {"user": user.username, "level": SecurityLevel(clearance).label})


@require_POST
@role_required(roles.ADMIN)
def user_unlock(request: HttpRequest, user_id: int) -> HttpResponse:
    """Clear the account's failed logins (any admin may: unlocking gives nobody more than they had)."""
    user = get_object_or_404(User, pk=user_id)
    return _user_change(request, user, lambda: login_lockout.login_unlock(username=user.username, actor=request.user),
                        _("Unlocked %(user)s: they can log in again.") % {"user": user.username})


@require_POST
@role_required(roles.ADMIN)
def address_unlock(request: HttpRequest) -> HttpResponse:
    address = request.POST.get("address", "").strip()
    try:
        address = str(ipaddress.ip_address(address))
    except ValueError:
        return HttpResponseBadRequest(_("Name the address to unlock."))
    if login_lockout.login_unlock(ip_address=address, actor=request.user):
        messages.success(request, _("Unlocked logins from %(address)s.") % {"address": address})
    else:
        messages.info(request, _("Logins from %(address)s were not locked.") % {"address": address})
    return redirect(_users_page_url(request))


@require_POST
@role_required(roles.ADMIN)
def user_token_revoke(request: HttpRequest, user_id: int, token_id: int) -> HttpResponse:
    user = get_object_or_404(User, pk=user_id)
    token = get_object_or_404(personal_tokens.personal_tokens_for(user=user), pk=token_id)
    if SecurityLevel.rank(user.clearance) > SecurityLevel.rank(request.user.clearance):
        messages.error(request, _("%(user)s is cleared above you: only an admin cleared as high can revoke their "
                                  "tokens.") % {"user": user.username})
        return redirect(_users_page_url(request, user))
    personal_tokens.personal_token_revoke(personal_token=token, actor=request.user)
    messages.success(request, _("Revoked the token “%(name)s” of %(user)s.") % {"name": token.name,
                                                                              "user": user.username})
    return redirect(_users_page_url(request, user))
