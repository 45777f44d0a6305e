from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from console.login_lockout import login_unlock
from console.models import AuditEvent, PersonalToken, SecurityLevel, User
from console.personal_tokens import personal_token_revoke


@admin.register(User)
class ConsoleUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + (("Clearance and language", {"fields": ("clearance", "language")}),)
    list_display = ("username", "email", "clearance", "is_staff")
    actions = ["unlock_login"]
    # Roles and clearance are changed on the console's Users page, under its rules (nobody cleared above the admin
    # changing them, the last admin kept) and audited: here they are read-only for anyone but a superuser, and so
    # is what would make one.
    ADMIN_ONLY_ON_USERS_PAGE = ("clearance", "groups", "user_permissions", "is_superuser", "is_staff")

    def get_readonly_fields(self, request: HttpRequest, obj: User | None = None) -> tuple[str, ...]:
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields if request.user.is_superuser else fields + self.ADMIN_ONLY_ON_USERS_PAGE

    def has_change_permission(self, request: HttpRequest, obj: User | None = None) -> bool:
        """Not a superuser's account, nor one cleared above the admin (its password included), unless a superuser."""
        if obj is not None and not request.user.is_superuser and (
                obj.is_superuser or SecurityLevel.rank(obj.clearance) > SecurityLevel.rank(request.user.clearance)):
            return False
        return super().has_change_permission(request, obj)

    @admin.action(description=_("Unlock login (clear failed login attempts)"), permissions=["change"])
    def unlock_login(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        unlocked = [user.username for user in queryset if login_unlock(username=user.username, actor=request.user)]
        if unlocked:
            self.message_user(request, ngettext("Unlocked %(count)d account: %(names)s.",
                                                "Unlocked %(count)d accounts: %(names)s.", len(unlocked))
                              % {"count": len(unlocked), "names": ", ".join(unlocked)}, messages.SUCCESS)
        else:
            self.message_user(request, _("None of these accounts had failed login attempts."), messages.INFO)


# django-axes' own admin lets staff delete failure records, which unlocks without a trace in the audit log:
# here unlocking is an audited action instead.
admin.site.unregister(AccessAttempt)


@admin.register(AccessAttempt)
class AuditedAccessAttemptAdmin(AccessAttemptAdmin):
    actions = ["unlock_attempts"]

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.action(description=_("Unlock (clear these failed login records)"), permissions=["change"])
    def unlock_attempts(self, request: HttpRequest, queryset: QuerySet[AccessAttempt]) -> None:
        cleared = sum(login_unlock(username=attempt.username or "", ip_address=attempt.ip_address or "",
                                   actor=request.user)
                      for attempt in queryset if attempt.username or attempt.ip_address)
        self.message_user(request, ngettext("Cleared %(count)d failed login record.",
                                            "Cleared %(count)d failed login records.", cleared) % {"count": cleared},
                          messages.SUCCESS)


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "actor_display", "verb", "object_type", "object_id")
    list_filter = ("verb", "object_type")

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PersonalToken)
class PersonalTokenAdmin(admin.ModelAdmin):
    """People's review-API tokens: seen and revoked here, never created (a token is shown only to its owner)."""

    list_display = ("user", "name", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__username", "name", "prefix")
    readonly_fields = ("user", "name", "prefix", "created_at", "last_used_at", "revoked_at")
    exclude = ("token_hash",)
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # revoked, not deleted: the list and the audit log keep saying what existed

    @admin.action(description=_("Revoke the selected tokens"), permissions=["change"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[PersonalToken]) -> None:
        live = [token for token in queryset.select_related("user") if token.revoked_at is None]
        for token in live:
            personal_token_revoke(personal_token=token, actor=request.user)
        self.message_user(request, ngettext("Revoked %(count)d token.", "Revoked %(count)d tokens.", len(live))
                          % {"count": len(live)}, messages.SUCCESS)
