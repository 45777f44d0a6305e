"""The login page (passwords and/or single sign-on), the way to the identity provider and back, and logout
(README "Single sign-on"; console/oidc.py does the signing in)."""

from __future__ import annotations

import logging

import requests
from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.generic import View
from mozilla_django_oidc.views import OIDCAuthenticationCallbackView, OIDCAuthenticationRequestView, OIDCLogoutView

from console.oidc import ProviderUnavailable, oidc_enabled, oidc_setting, sign_in_context

logger = logging.getLogger(__name__)


def login_page(request: HttpRequest, *, error: str, status: int) -> HttpResponse:
    """The login page again with `error` said in words (a refused or failed sign-in)."""
    next_url = request.session.get("oidc_login_next") or ""
    return render(request, "registration/login.html", {
        "form": AuthenticationForm(request), "sign_in_error": error, "next": next_url, **sign_in_context(),
    }, status=status)


class ConsoleLoginView(LoginView):
    """Django's login page, with the provider's button when single sign-on is on; with LOCAL_LOGIN_ENABLED=0 the
    password form is gone and a password post is refused before any password is checked."""

    redirect_authenticated_user = True

    def get_context_data(self, **kwargs: object) -> dict[str, object]:
        return super().get_context_data(**kwargs) | sign_in_context()

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not settings.LOCAL_LOGIN_ENABLED:
            return login_page(request, status=403, error=_(
                "Logging in with a password is turned off here: sign in through your organisation's identity "
                "provider with the button above."))
        return super().post(request, *args, **kwargs)


def _unavailable(request: HttpRequest, error: Exception) -> HttpResponse:
    logger.warning("single sign-on failed: %s", error)
    return login_page(request, status=502, error=_(
        "The identity provider could not be reached. Try again in a minute; if it goes on, tell an administrator."))


@method_decorator(login_not_required, name="dispatch")
class SsoStartView(OIDCAuthenticationRequestView):
    """Sends the browser to the provider's authorization endpoint (with state, nonce and PKCE)."""

    get_settings = staticmethod(oidc_setting)

    def __init__(self, **kwargs: object) -> None:
        View.__init__(self, **kwargs)  # the library reads the endpoint here; we do it per request, see get()

    def get(self, request: HttpRequest) -> HttpResponse:
        if not oidc_enabled():
            raise Http404
        try:
            self.OIDC_OP_AUTH_ENDPOINT = oidc_setting("OIDC_OP_AUTHORIZATION_ENDPOINT")
            self.OIDC_RP_CLIENT_ID = settings.OIDC_RP_CLIENT_ID
        except ProviderUnavailable as error:
            return _unavailable(request, error)
        return super().get(request)


@method_decorator(login_not_required, name="dispatch")
class SsoCallbackView(OIDCAuthenticationCallbackView):
    """Where the provider sends the browser back: signs the person in, or says in words why not."""

    get_settings = staticmethod(oidc_setting)

    def get(self, request: HttpRequest) -> HttpResponse:
        if not oidc_enabled():
            raise Http404
        try:
            return super().get(request)
        except (ProviderUnavailable, requests.RequestException) as error:
            return _unavailable(request, error)
        except SuspiciousOperation as error:  # a replayed, forged or stale answer (state or nonce not ours)
            logger.warning("single sign-on answer refused: %s", error)
            return login_page(request, status=400, error=_(
                "This sign-in could not be completed (it was used already or has expired). Sign in again."))

    def login_failure(self) -> HttpResponse:
        refusal = getattr(self.request, "oidc_refusal", "")
        return login_page(self.request, status=403, error=refusal or _(
            "Single sign-on did not complete. Try again, or ask an administrator."))


class ConsoleLogoutView(OIDCLogoutView):
    """Logs out here, then (for a person who signed in through the provider) ends their session there too, when the
    provider has an end-session endpoint (console.oidc.provider_logout_url)."""

    get_settings = staticmethod(oidc_setting)
