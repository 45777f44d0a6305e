"""What admins change about people on the console's Users page: their roles and their clearance (unlocking a login
is console/login_lockout.py, revoking a token console/personal_tokens.py). Every change is audited.

Two rules keep an admin from giving more than they hold or locking everyone out: nobody's clearance is raised
above the acting admin's own, nor changed when it already is above it; and the last active admin keeps the admin
role. Admins are staff, and their group holds the admin site's permissions for people, failed logins, the audit
log and tokens (granted after every migrate and flush), so the admin site lets them in; its own rules keep roles
and clearance read-only there for anyone but a superuser (console/admin.py).
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from console import roles
from console.audit import audit_record
from console.models import SecurityLevel, User

# What the admin role may do in the admin site: what the console's messages promise (see people, unlock logins).
ADMIN_SITE_PERMISSIONS = {
    "console": ["view_user", "change_user", "add_user", "view_auditevent", "view_personaltoken",
                "change_personaltoken"],
    "axes": ["view_accessattempt", "change_accessattempt", "view_accessfailurelog", "view_accesslog"],
}


def admin_group_permissions_ensure(*, using: str = DEFAULT_DB_ALIAS) -> None:
    """Give the admin role's group its admin-site permissions (console/apps.py runs this after every migrate)."""
    group, _created = Group.objects.using(using).get_or_create(name=roles.ADMIN)
    for app_label, codenames in ADMIN_SITE_PERMISSIONS.items():
        group.permissions.add(*Permission.objects.using(using).filter(content_type__app_label=app_label,
                                                                      codename__in=codenames))


class UserChangeRefused(ValueError):
    """The change breaks one of the rules above: the message says which, in the admin's words."""



def _check_clearance_reach(*, user: User, actor: User) -> None:
    if SecurityLevel.rank(user.clearance) > SecurityLevel.rank(actor.clearance):
        raise UserChangeRefused(_("%(user)s is cleared above you (%(level)s): only an admin cleared as high can "
                                  "change their roles or clearance.")
                                % {"user": user.username, "level": user.get_clearance_display()})


@transaction.atomic
def user_roles_set(*, user: User, role_names: list[str], actor: User) -> bool:
    """Give `user` exactly `role_names` (a subset of roles.ALL_ROLES); False when nothing changed."""
    # Every active admin and the person, locked in one order: two admins taking the role from each other at once
    # wait for each other instead of both succeeding (and leaving nobody).
    admins = User.objects.filter(Q(is_superuser=True) | Q(groups__name=roles.ADMIN), is_active=True).values("pk")
    locked = {row.pk: row for row in User.objects.select_for_update()
              .filter(Q(pk__in=admins) | Q(pk=user.pk)).order_by("pk")}
    user = locked[user.pk]
    _check_clearance_reach(user=user, actor=actor)
    unknown = set(role_names) - set(roles.ALL_ROLES)
    if unknown:
        raise UserChangeRefused(_("Unknown role: %(roles)s.") % {"roles": ", ".join(sorted(unknown))})
    before = sorted(user.groups.filter(name__in=roles.ALL_ROLES).values_list("name", flat=True))
    after = sorted(set(role_names))
    if before == after:
        return False
    last_admin = set(locked) == {user.pk}
    if roles.ADMIN in before and roles.ADMIN not in after and not user.is_superuser and last_admin:
        raise UserChangeRefused(_("%(user)s is the last admin: grant the admin role to someone else first, or "
                                  "nobody could unlock logins or grant roles.") % {"user": user.username})
    for name in after:
        Group.objects.get_or_create(name=name)
    kept = [group for group in user.groups.all() if group.name not in roles.ALL_ROLES]  # groups that are no role
    user.groups.set([*kept, *Group.objects.filter(name__in=after)])
    staff = user.is_superuser or roles.ADMIN in after  # admins use the admin site too
    if user.is_staff != staff:
        user.is_staff = staff
        user.save(update_fields=["is_staff"])
    audit_record(verb="user.roles", obj=user, actor=actor, before={"roles": before}, after={"roles": after})
    return True


@transaction.atomic
def user_clearance_set(*, user: User, clearance: str, actor: User) -> bool:
    """Set `user`'s clearance; False when it already was that."""
    user = User.objects.select_for_update().get(pk=user.pk)
    if clearance not in SecurityLevel.values:
        raise UserChangeRefused(_("Unknown security level: %(level)s.") % {"level": clearance})
    _check_clearance_reach(user=user, actor=actor)
    if SecurityLevel.rank(clearance) > SecurityLevel.rank(actor.clearance):
        raise UserChangeRefused(_("You can clear people up to your own clearance (%(level)s), not above it.")
                                % {"level": actor.get_clearance_display()})
    if user.clearance == clearance:
        return False
    before = user.clearance
    user.clearance = clearance
    user.save(update_fields=["clearance"])
    audit_record(verb="user.clearance", obj=user, actor=actor, before={"clearance": before},
                 after={"clearance": clearance})
    return True
