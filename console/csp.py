"""Content-Security-Policy on every response.

Our own few lines rather than django-csp: the console needs one fixed policy (no nonces, no per-view
variants, since no page has inline script or style), which this sets without another dependency.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from console.oidc import provider_origins

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = content_security_policy()
        return response


def content_security_policy() -> str:
    """The policy, letting the logout form's redirect reach the identity provider's end-session endpoint when
    single sign-on is on (browsers hold form redirects to form-action)."""
    origins = provider_origins()
    if not origins:
        return settings.CONTENT_SECURITY_POLICY
    return settings.CONTENT_SECURITY_POLICY.replace("form-action 'self'", " ".join(["form-action 'self'", *origins]))
