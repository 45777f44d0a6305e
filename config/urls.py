from django.contrib import admin
from django.urls import include, path

from config.api import api
from console import views
from console.login_views import ConsoleLoginView, ConsoleLogoutView, SsoCallbackView, SsoStartView
from front import views as front_views
from review.api import alignscore


def _public(patterns: list) -> list:
    """The API authenticates with bearer tokens, not sessions: exempt it from LoginRequiredMiddleware."""
    for pattern in patterns:
        if hasattr(pattern, "url_patterns"):
            _public(pattern.url_patterns)
        else:
            pattern.callback.login_required = False
    return patterns


handler500 = "console.outage.server_error"
handler403 = "console.views.permission_denied"

urlpatterns = [
    path("", front_views.dashboard, name="dashboard"),
    path("healthz", front_views.healthz, name="healthz"),
    path("metrics", front_views.metrics, name="metrics"),
    path("audit/", views.audit_log, name="audit_log"),
    path("users/", views.user_list, name="users"),
    path("users/<int:user_id>/roles/", views.user_roles, name="user_roles"),
    path("users/<int:user_id>/clearance/", views.user_clearance, name="user_clearance"),
    path("users/<int:user_id>/unlock/", views.user_unlock, name="user_unlock"),
    path("users/<int:user_id>/tokens/<int:token_id>/revoke/", views.user_token_revoke, name="user_token_revoke"),
    path("users/addresses/unlock/", views.address_unlock, name="address_unlock"),
    path("account/language/", views.language, name="language"),
    path("account/tokens/", views.personal_token_list, name="personal_tokens"),
    path("account/tokens/<int:token_id>/revoke/", views.personal_token_revoke, name="personal_token_revoke"),
    path("login/", ConsoleLoginView.as_view(), name="login"),
    path("logout/", ConsoleLogoutView.as_view(), name="logout"),
    # mozilla-django-oidc's names: its views reverse the callback by this one.
    path("login/sso/", SsoStartView.as_view(), name="oidc_authentication_init"),
    path("login/sso/callback/", SsoCallbackView.as_view(), name="oidc_authentication_callback"),
    path("kb/", include("kb.urls")),
    path("review/", include("review.urls")),
    path("triage/", include("triage.urls")),
    path("ask/", include("ask.urls")),
    path("api/", (_public(api.urls[0]), api.urls[1], api.urls[2])),
    path("alignscore_base", alignscore, name="alignscore_base"),
    path("alignscore_large", alignscore, name="alignscore_large"),
    path("admin/", admin.site.urls),
]
