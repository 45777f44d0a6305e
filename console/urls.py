from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from console import views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("healthz", views.healthz, name="healthz"),
    path("audit/", views.audit_log, name="audit_log"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("kb/", include("kb.urls")),
    path("admin/", admin.site.urls),
]
