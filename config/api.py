"""The API (v1, see DESIGN.md): one NinjaAPI built from each app's Router. Every route authenticates with an API
client's bearer token (review.api.bearer), but the review routes for people (review.review_api, triage.api), which
take a person's token (review.people_bearer); every error is `{"error": code, "detail": text}` JSON."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.openapi.schema import OpenAPISchema

from ask.api import router as ask_router
from console.api import ERROR_CODES
from kb.api import router as search_router
from review.api import bearer
from review.api import router as answers_router
from review.review_api import router as review_router
from review.services import CheckUnavailable
from review.token_throttle import Throttled
from triage.api import router as triage_router

# Every route takes a bearer token, and a 429 on the API is only ever review/token_throttle.py's refusal.
THROTTLED_DESCRIPTION = ("Too Many Requests: this address sent too many unknown bearer tokens (API_BAD_TOKEN_LIMIT), "
                         "or this token was refused (401, 403) too many times itself (API_TOKEN_FAILURE_LIMIT); "
                         "Retry-After gives the seconds left in the window")


class ConsoleApi(NinjaAPI):
    def get_openapi_schema(self, **kwargs: Any) -> OpenAPISchema:
        """ninja describes a status by its name only; a client seeing a 429 should learn why from the document."""
        schema = super().get_openapi_schema(**kwargs)
        for path in schema["paths"].values():
            for operation in path.values():
                if 429 in operation["responses"]:
                    operation["responses"][429]["description"] = THROTTLED_DESCRIPTION
        return schema


api = ConsoleApi(title="Grounded-answer review console", version="1", urls_namespace="api",
                 docs_url="/docs", openapi_url="/openapi.json", auth=bearer)
api.add_router("/v1", answers_router)
api.add_router("/v1", search_router)
api.add_router("/v1", ask_router)
api.add_router("/v1", review_router)
api.add_router("/v1", triage_router)


def _error(request: HttpRequest, status: int, detail: str) -> HttpResponse:
    return api.create_response(request, {"error": ERROR_CODES.get(status, "error"), "detail": detail}, status=status)


@api.exception_handler(ValidationError)
def _validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    details = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', [])[1:]) or 'body'}: {e.get('msg', 'invalid')}" for e in exc.errors
    )
    return _error(request, 400, details or "invalid request")


@api.exception_handler(AuthenticationError)
def _auth_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return _error(request, 401, "missing or invalid bearer token")


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    response = _error(request, 429, str(exc))
    response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    return _error(request, exc.status_code, str(exc))


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return _error(request, 404, str(exc) or "not found")


@api.exception_handler(CheckUnavailable)
def _unavailable(request: HttpRequest, exc: CheckUnavailable) -> HttpResponse:
    response = _error(request, 503, str(exc))
    response["Retry-After"] = str(settings.API_RETRY_AFTER_SECONDS)
    return response
