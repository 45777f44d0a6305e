"""Request bodies are judged by their declared length before anything reads them.

Django reads a body lazily (CSRF checks read request.POST, ninja reads request.body) and raises RequestDataTooBig
past DATA_UPLOAD_MAX_MEMORY_SIZE, which becomes an HTML 400; an upload is spooled to disk first. Refusing here,
from Content-Length, answers a clear 413 (JSON on API paths) without reading a byte. A chunked body without
Content-Length is refused with 411: Django reads only Content-Length bytes, so it would arrive empty.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render as django_render
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext as _

API_PATH_PREFIXES = ("/api/", "/alignscore_")
FORM_OVERHEAD_BYTES = 64 * 1024  # the other form fields and multipart boundaries around an uploaded file
BODY_METHODS = {"POST", "PUT", "PATCH"}


def _declared_length(request: HttpRequest) -> int | None:
    raw = request.META.get("CONTENT_LENGTH")
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        return 0  # as Django reads it


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PATH_PREFIXES)


def _is_upload(request: HttpRequest) -> bool:
    return request.content_type == "multipart/form-data"


def _limit(request: HttpRequest) -> int:
    if _is_api(request):
        return settings.API_MAX_BODY_BYTES
    if _is_upload(request):
        return settings.KB_MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def render(request: HttpRequest, template: str, context: dict, *, status: int) -> HttpResponse:
    """Pages rendered here come before URL resolution; the layout's navigation needs to know the section."""
    if request.resolver_match is None:
        try:
            request.resolver_match = resolve(request.path_info)
        except Resolver404:
            pass
    return django_render(request, template, context, status=status)


def _too_large(request: HttpRequest, *, size: int | None, limit: int) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"error": "too_large", "detail": f"request body is larger than {limit} bytes"},
                            status=413)
    if _is_upload(request):
        return render(request, "kb/upload_too_large.html",
                      {"limit_mb": settings.KB_MAX_UPLOAD_BYTES / 2**20, "size_mb": (size or 0) / 2**20}, status=413)
    return render(request, "request_refused.html", {
        "heading": _("That form is too large"),
        "message": _("The form sent more than %(size)s MB. Nothing was stored.") % {"size": f"{limit / 2**20:.1f}"},
    }, status=413)


def _length_required(request: HttpRequest) -> HttpResponse:
    detail = "the body was sent in chunks without Content-Length; send it with Content-Length"
    if _is_api(request):
        return JsonResponse({"error": "length_required", "detail": detail}, status=411)
    return render(request, "request_refused.html", {
        "heading": _("The upload arrived without its length"),
        "message": _("The browser or tool sent the form in chunks (Transfer-Encoding: chunked) without saying how "
                     "long it is, so it cannot be read. Nothing was stored. Submit the form from the page, or "
                     "send it with a Content-Length header (e.g. curl -F)."),
    }, status=411)


class RequestBodyLimitMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in BODY_METHODS:
            declared = _declared_length(request)
            if declared is None and "HTTP_TRANSFER_ENCODING" in request.META:
                return _length_required(request)
            if declared is not None and declared > _limit(request):
                return _too_large(request, size=declared, limit=_limit(request))
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """A view that reads a body past DATA_UPLOAD_MAX_MEMORY_SIZE (e.g. many small form fields)."""
        if isinstance(exception, RequestDataTooBig):
            return _too_large(request, size=_declared_length(request), limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        return None


class UserLanguageMiddleware:
    """A person's saved language wins over LocaleMiddleware's pick from Accept-Language; blank keeps that pick.

    API paths answer in English whatever the client sends: their error messages are read by programs and logs.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _is_api(request):
            language = settings.LANGUAGE_CODE
        else:
            user = getattr(request, "user", None)
            language = user.language if user is not None and user.is_authenticated and user.language else None
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
