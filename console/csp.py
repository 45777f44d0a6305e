"""Content-Security-Policy on every response.

Our own few lines rather than django-csp: the console needs one fixed policy (no nonces, no per-view
variants, since no page has inline script or style), which this sets without another dependency.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = settings.CONTENT_SECURITY_POLICY
        return response
