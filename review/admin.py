from django.contrib import admin

from review.models import ApiClient


@admin.register(ApiClient)
class ApiClientAdmin(admin.ModelAdmin):
    """Operators deactivate or re-clear clients here; tokens are created with `create_api_client` only."""

    list_display = ("name", "token_prefix", "clearance", "is_active", "created_at")
    fields = ("name", "token_prefix", "clearance", "is_active", "created_at")
    readonly_fields = ("name", "token_prefix", "created_at")

    def has_add_permission(self, request) -> bool:
        return False
