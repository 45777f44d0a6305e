from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from console import roles
from console.models import SecurityLevel
from console.roles import role_required
from console.input_text import text_without_controls
from checking.languages import LANGUAGE_CHOICES, LANGUAGE_CODES
from kb import reverification, selectors, services, vocabulary
from kb.diff import version_text_diff
from kb.keys import document_key_suggest
from kb.forms import (
    DecisionForm,
    DocumentCreateForm,
    DocumentFilterForm,
    ExtensionForm,
    ReminderDaysForm,
    SynonymForm,
    VersionUploadForm,
    version_upload_initial,
)
from kb.models import Chunk, DocumentVersion, ExpiryExtension, IndexState, Synonym, VersionStatus
from kb.rendering import render_markdown
from kb.search import chunks_search

READERS = (roles.CURATOR, roles.APPROVER, roles.REVIEWER, roles.VIEWER)
@require_GET
@role_required(*READERS)
def document_list(request: HttpRequest) -> HttpResponse:
    form = DocumentFilterForm(request.GET or None)
    filters = {k: v for k, v in (form.cleaned_data if form.is_valid() else {}).items() if v}
    documents = selectors.documents_list(user=request.user, **filters)
    page = Paginator(documents, 50).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "kb/document_list.html", {
        "form": form, "page": page, "query": query.urlencode(),
        "expiring": selectors.versions_expiring_soon(user=request.user)[:10],
        "soon": timezone.now() + timezone.timedelta(days=settings.KB_EXPIRING_SOON_DAYS),
    })


def _upload_options(form: VersionUploadForm) -> dict:
    upload = form.cleaned_data["file"]
    return {
        "raw": upload.read(), "filename": upload.name, "effective_from": form.cleaned_data["effective_from"],
        "expires_at": form.cleaned_data["expires_at"], "note": form.cleaned_data["note"],
        "submit": form.cleaned_data["submit_for_approval"], "language": form.cleaned_data["language"] or None,
    }


@require_http_methods(["GET", "POST"])
@role_required(roles.CURATOR)
def document_create(request: HttpRequest) -> HttpResponse:
    form = DocumentCreateForm(request.POST or None, request.FILES or None, initial={"owner": request.user},
                              user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            version = services.document_create_with_version(
                key=form.cleaned_data["key"], title=form.cleaned_data["title"], owner=form.cleaned_data["owner"],
                security_level=form.cleaned_data["security_level"], uploaded_by=request.user,
                **_upload_options(form),
            )
        except services.UploadError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Uploaded %(title)s v%(number)s; indexing has started.") % {
                "title": version.document.title, "number": version.number})
            return redirect(version)
    form.ask_for_file_again(request.FILES)
    return render(request, "kb/upload.html", {"form": form, "document": None}, status=400 if form.errors else 200)


@require_GET
@role_required(roles.CURATOR)
def document_key_suggestion(request: HttpRequest) -> JsonResponse:
    """The key the new-document form suggests for a title the browser cannot slug itself (Chinese: pinyin)."""
    return JsonResponse({"key": document_key_suggest(title=request.GET.get("title", "")[:1000])})


@require_http_methods(["GET", "POST"])
@role_required(roles.CURATOR)
def version_upload(request: HttpRequest, key: str) -> HttpResponse:
    document = selectors.get_document_for_user(user=request.user, key=key)
    previous = document.versions.order_by("-number").first()
    form = VersionUploadForm(request.POST or None, request.FILES or None,
                             initial=version_upload_initial(previous=previous))
    if request.method == "POST" and form.is_valid():
        try:
            version = services.version_upload(document=document, uploaded_by=request.user, **_upload_options(form))
        except services.UploadError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Uploaded version %(number)s; indexing has started.") % {"number": version.number})
            return redirect(version)
    form.ask_for_file_again(request.FILES)
    return render(request, "kb/upload.html", {"form": form, "document": document, "previous": previous},
                  status=400 if form.errors else 200)


@require_GET
@role_required(*READERS)
def document_detail(request: HttpRequest, key: str) -> HttpResponse:
    document = selectors.get_document_for_user(user=request.user, key=key)
    latest = document.versions.order_by("-number").first()
    if latest is None:
        return render(request, "kb/version_detail.html", {"document": document, "version": None, "versions": []})
    return version_detail(request, key, latest.number)


@require_GET
@role_required(*READERS)
def version_detail(request: HttpRequest, key: str, number: int) -> HttpResponse:
    version = selectors.get_version_for_user(user=request.user, key=key, number=number)
    document = version.document
    versions = list(document.versions.select_related("submitted_by", "approved_by").order_by("-number"))
    chunks = list(version.chunks.order_by("ordinal").only(
        "id", "ordinal", "heading_path", "text", "char_start", "char_end", "line_start", "line_end", "version_id"
    ))
    handover = selectors.version_handover(versions=versions)
    return render(request, "kb/version_detail.html", {
        "document": document, "version": version, "versions": versions, "chunks": chunks,
        "handover": handover,
        "effective_from_approval": _effective_from_approval(version),
        "compare_with": _compare_with(version=version, versions=versions, in_use=handover.in_use),
        # Panels of the apps above (review's self-test and citations, ask's question runs) are their template tags.
        "rendered": render_markdown(version.text),
        "decision_form": DecisionForm(),
        "extension_form": ExtensionForm(),
        "reminder_form": ReminderDaysForm(initial={"reminder_days": document.reminder_days},
                                          default_days=settings.KB_EXPIRY_REMINDER_DAYS),
        "default_reminder_days": settings.KB_EXPIRY_REMINDER_DAYS,
        "extensions": list(version.extensions.select_related("requested_by", "decided_by")),
        "is_owner": document.owner_id == request.user.pk,
        "can_approve": request.user.has_role(roles.APPROVER) and version.submitted_by_id != request.user.pk,
        "is_own_upload": version.submitted_by_id == request.user.pk,
    })


def _effective_from_approval(version: DocumentVersion) -> bool:
    """A version takes effect no earlier than its approval: a start date before that reads "approval"."""
    if version.approved_at is None:
        return version.status != VersionStatus.REJECTED and version.is_effective
    return version.effective_from <= version.approved_at


def _compare_with(*, version: DocumentVersion, versions: list[DocumentVersion], in_use: DocumentVersion | None):
    """What an approver compares a version against: the version in use, else the one before it."""
    if in_use is not None and in_use.number < version.number:
        return in_use
    return next((v for v in versions if v.number < version.number), None)


@require_GET
@role_required(*READERS)
def version_progress(request: HttpRequest, key: str, number: int) -> HttpResponse:
    version = selectors.get_version_for_user(user=request.user, key=key, number=number)
    response = render(request, "kb/_index_progress.html", {"version": version})
    if request.htmx and version.index_state in {IndexState.READY, IndexState.FAILED}:
        # Reload once so the chunk inspector shows the new chunks; the reloaded page no longer polls.
        response["HX-Refresh"] = "true"
    return response


@require_GET
@role_required(*READERS)
def version_diff(request: HttpRequest, key: str) -> HttpResponse:
    document = selectors.get_document_for_user(user=request.user, key=key)
    versions = list(document.versions.order_by("-number"))
    numbers = [v.number for v in versions]
    try:
        new_number = int(request.GET.get("to") or numbers[0])
        old_number = int(request.GET.get("from") or (numbers[1] if len(numbers) > 1 else numbers[0]))
    except (ValueError, IndexError):
        old_number = new_number = None
    by_number = {v.number: v for v in versions}
    old, new = by_number.get(old_number), by_number.get(new_number)
    diff = version_text_diff(old_text=old.text, new_text=new.text) if old and new else None
    return render(request, "kb/version_diff.html", {
        "document": document, "versions": versions, "old": old, "new": new, "diff": diff,
    })


def _decide(request: HttpRequest, key: str, number: int, action) -> HttpResponse:
    version = selectors.get_version_for_user(user=request.user, key=key, number=number)
    form = DecisionForm(request.POST)
    if not form.is_valid():  # e.g. a NUL in the reason: say so rather than decide without the reason
        messages.error(request, _("The reason was not taken: %(errors)s") % {"errors": " ".join(form.errors.get("reason", []))})
        return redirect(version)
    try:
        result = action(version=version, user=request.user, reason=form.cleaned_data["reason"])
    except services.TransitionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Version %(number)s is now %(status)s.") % {
            "number": version.number, "status": result.get_status_display().lower()})
    return redirect(version)


@require_POST
@role_required(roles.CURATOR)
def version_submit(request: HttpRequest, key: str, number: int) -> HttpResponse:
    return _decide(request, key, number, lambda version, user, reason: services.version_submit(version=version, user=user))


@require_POST
@role_required(roles.APPROVER)
def version_approve(request: HttpRequest, key: str, number: int) -> HttpResponse:
    return _decide(request, key, number,
                   lambda version, user, reason: services.version_approve(version=version, approver=user, note=reason))


@require_POST
@role_required(roles.APPROVER)
def version_reject(request: HttpRequest, key: str, number: int) -> HttpResponse:
    return _decide(request, key, number,
                   lambda version, user, reason: services.version_reject(version=version, approver=user, reason=reason))


@require_POST
@role_required(roles.CURATOR, roles.APPROVER)
def version_retire(request: HttpRequest, key: str, number: int) -> HttpResponse:
    return _decide(request, key, number,
                   lambda version, user, reason: services.version_retire(version=version, user=user, reason=reason))


@require_POST
@role_required(roles.CURATOR, roles.APPROVER)
def version_index_retry(request: HttpRequest, key: str, number: int) -> HttpResponse:
    version = selectors.get_version_for_user(user=request.user, key=key, number=number)
    services.version_index_retry(version=version, user=request.user)
    messages.info(request, _("Version %(number)s is queued for indexing again.") % {"number": version.number})
    return redirect(version)


@require_POST
@role_required(roles.CURATOR, roles.APPROVER)
def document_retire(request: HttpRequest, key: str) -> HttpResponse:
    document = selectors.get_document_for_user(user=request.user, key=key)
    form = DecisionForm(request.POST)
    services.document_retire(document=document, user=request.user,
                             reason=form.cleaned_data["reason"] if form.is_valid() else "")
    messages.success(request, _("%(title)s is retired; none of its versions is evidence any more.") % {
        "title": document.title})
    return redirect(document)


@require_POST
@role_required(*READERS)
def version_extension_request(request: HttpRequest, key: str, number: int) -> HttpResponse:
    """The owner re-verifies the version (the service refuses anyone else)."""
    version = selectors.get_version_for_user(user=request.user, key=key, number=number)
    form = ExtensionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The re-verification was not taken: %(errors)s") % {
            "errors": " ".join(error for errors in form.errors.values() for error in errors)})
        return redirect(version)
    try:
        reverification.version_extension_request(version=version, user=request.user, **form.cleaned_data)
    except reverification.ExtensionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Re-verified until %(date)s; it takes effect once another approver approves it.")
                         % {"date": timezone.localtime(form.cleaned_data["expires_at"]).strftime("%Y-%m-%d %H:%M")})
    return redirect(version)


@require_POST
@role_required(*READERS)
def document_reminder_days(request: HttpRequest, key: str) -> HttpResponse:
    document = selectors.get_document_for_user(user=request.user, key=key)
    form = ReminderDaysForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(error for errors in form.errors.values() for error in errors))
        return redirect(document)
    days = form.cleaned_data["reminder_days"]
    reverification.document_reminder_days_set(document=document, user=request.user, days=days)
    messages.success(request, _("Its owner and the approvers are reminded %(days)s days before a version expires.")
                     % {"days": settings.KB_EXPIRY_REMINDER_DAYS if days is None else days})
    return redirect(document)


def _extension_for_user(request: HttpRequest, key: str, number: int, extension_id: int) -> ExpiryExtension:
    version = selectors.get_version_for_user(user=request.user, key=key, number=number)
    return get_object_or_404(ExpiryExtension, pk=extension_id, version=version)


@require_POST
@role_required(roles.APPROVER)
def version_extension_approve(request: HttpRequest, key: str, number: int, extension_id: int) -> HttpResponse:
    extension = _extension_for_user(request, key, number, extension_id)
    try:
        approved = reverification.version_extension_approve(extension=extension, approver=request.user)
    except reverification.ExtensionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Extension approved: version %(number)s is evidence until %(date)s.") % {
            "number": number, "date": timezone.localtime(approved.expires_at).strftime("%Y-%m-%d %H:%M")})
    return redirect(extension.version)


@require_POST
@role_required(*READERS)
def version_extension_reject(request: HttpRequest, key: str, number: int, extension_id: int) -> HttpResponse:
    """An approver rejects the extension, or the owner withdraws it (the service tells them apart)."""
    extension = _extension_for_user(request, key, number, extension_id)
    form = DecisionForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        decided = reverification.version_extension_reject(extension=extension, user=request.user, reason=reason)
    except reverification.ExtensionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("The extension is %(state)s; the expiry stays %(date)s.") % {
            "state": decided.get_state_display().lower(),
            "date": timezone.localtime(decided.version.expires_at).strftime("%Y-%m-%d %H:%M")})
    return redirect(extension.version)


@require_GET
@role_required(*READERS)
def search_playground(request: HttpRequest) -> HttpResponse:
    query = text_without_controls(request.GET.get("q", "")).strip()[:500]
    try:
        k = max(1, min(50, int(request.GET.get("k", 10))))
    except ValueError:
        k = 10
    result = chunks_search(query=query, clearance=request.user.clearance, k=k) if query else None
    return render(request, "kb/search.html", {"query": query, "k": k, "result": result})


@require_GET
@role_required(*READERS)
def chunk_detail(request: HttpRequest, chunk_id: int) -> HttpResponse:
    chunk = Chunk.objects.select_related("version__document").filter(
        pk=chunk_id, version__document__security_level__in=SecurityLevel.up_to(request.user.clearance)
    ).first()
    if chunk is None:
        raise Http404("No such chunk")
    return redirect(f"{chunk.version.get_absolute_url()}?chunk={chunk.pk}#L{chunk.line_start}")


VOCABULARY_MANAGERS = (roles.CURATOR, roles.APPROVER)
CANDIDATES_SHOWN = 100  # the most confirmed first; the rest wait their turn


def _vocabulary_shown(request: HttpRequest) -> str:
    """The language the page lists (empty: every language), from the query or from a form that acted on it."""
    shown = request.GET.get("language", request.POST.get("shown", ""))
    return shown if shown in LANGUAGE_CODES else ""


def _vocabulary_url(shown: str) -> str:
    return f"{reverse('kb:vocabulary')}?language={shown}" if shown else reverse("kb:vocabulary")


def _vocabulary(request: HttpRequest, *, form: SynonymForm | None = None, notice: str = "", error: str = "",
                status: int = 200) -> HttpResponse:
    """The vocabulary page, or (htmx) its lists and form, which every action on them swaps in."""
    shown = _vocabulary_shown(request)
    candidates, accepted = vocabulary.vocabulary_lists(user=request.user, language=shown)
    initial_language = shown or ("zh" if (request.LANGUAGE_CODE or "").startswith("zh") else "en")
    context = {
        "form": form or SynonymForm(initial={"language": initial_language}),
        "candidates": candidates[:CANDIDATES_SHOWN], "accepted": accepted, "shown": shown,
        "languages": LANGUAGE_CHOICES, "notice": notice, "error": error,
        "auto_accept": settings.KB_SYNONYM_AUTO_ACCEPT,
    }
    template = "kb/_vocabulary.html" if request.htmx else "kb/vocabulary.html"
    return render(request, template, context, status=status)


def _managed_synonym(request: HttpRequest, synonym_id: int) -> Synonym:
    """A pair the user's role may change (the view's decorator) and clearance may see: 404 above it, as a
    document above it is."""
    return get_object_or_404(vocabulary.synonyms_visible_to(request.user), pk=synonym_id)


def _synonym_acted(request: HttpRequest, act, *, done: str) -> HttpResponse:
    """Run one vocabulary change; answer with the lists (htmx) or the page again, saying what happened."""
    try:
        act()
    except vocabulary.VocabularyError as exc:
        if request.htmx:
            return _vocabulary(request, error=str(exc), status=409)
        messages.error(request, str(exc))
    else:
        if request.htmx:
            return _vocabulary(request, notice=done)
        messages.success(request, done)
    return redirect(_vocabulary_url(_vocabulary_shown(request)))


@require_GET
@role_required(*VOCABULARY_MANAGERS)
def vocabulary_page(request: HttpRequest) -> HttpResponse:
    return _vocabulary(request)


@require_POST
@role_required(*VOCABULARY_MANAGERS)
def synonym_accept(request: HttpRequest, synonym_id: int) -> HttpResponse:
    synonym = _managed_synonym(request, synonym_id)
    return _synonym_acted(request, lambda: vocabulary.synonym_accept(synonym=synonym, curator=request.user),
                          done=_("Accepted “%(pair)s”: the checker and the Ask gate count it from their next check.")
                          % {"pair": synonym})


@require_POST
@role_required(*VOCABULARY_MANAGERS)
def synonym_dismiss(request: HttpRequest, synonym_id: int) -> HttpResponse:
    synonym = _managed_synonym(request, synonym_id)
    return _synonym_acted(request, lambda: vocabulary.synonym_dismiss(synonym=synonym, curator=request.user),
                          done=_("Dismissed “%(pair)s”: reviews no longer suggest it.") % {"pair": synonym})


@require_POST
@role_required(*VOCABULARY_MANAGERS)
def synonym_remove(request: HttpRequest, synonym_id: int) -> HttpResponse:
    synonym = _managed_synonym(request, synonym_id)
    return _synonym_acted(request, lambda: vocabulary.synonym_remove(synonym=synonym, curator=request.user),
                          done=_("Removed “%(pair)s”: the checker and the Ask gate no longer count it.")
                          % {"pair": synonym})


@require_POST
@role_required(*VOCABULARY_MANAGERS)
def synonym_add(request: HttpRequest) -> HttpResponse:
    form = SynonymForm(request.POST)
    if form.is_valid():
        try:
            synonym = vocabulary.synonym_add(curator=request.user, **form.cleaned_data)
        except vocabulary.VocabularyError as exc:
            form.add_error(None, str(exc))
        else:
            done = _("Added “%(pair)s”: the checker and the Ask gate count it from their next check.") % {
                "pair": synonym}
            if request.htmx:
                return _vocabulary(request, notice=done)
            messages.success(request, done)
            return redirect(_vocabulary_url(_vocabulary_shown(request)))
    return _vocabulary(request, form=form, status=400)
