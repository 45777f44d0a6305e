from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from console.models import AuditEvent, User


@admin.register(User)
class ConsoleUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (("Clearance and language", {"fields": ("clearance", "language")}),)
    list_display = ("username", "email", "clearance", "is_staff")


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "actor_display", "verb", "object_type", "object_id")
    list_filter = ("verb", "object_type")

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
