from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

from console import roles
from console.models import SecurityLevel, User

DEMO_PASSWORD = "demo-password"
# username -> (roles, clearance)
DEMO_USERS: dict[str, tuple[tuple[str, ...], str]] = {
    "curator": ((roles.CURATOR,), SecurityLevel.INTERNAL),
    "approver": ((roles.APPROVER,), SecurityLevel.CONFIDENTIAL),
    "reviewer": ((roles.REVIEWER,), SecurityLevel.INTERNAL),
    "reviewer2": ((roles.REVIEWER,), SecurityLevel.INTERNAL),
    "admin": ((roles.ADMIN,), SecurityLevel.RESTRICTED),
    "viewer": ((roles.VIEWER,), SecurityLevel.PUBLIC),
}


class Command(BaseCommand):
    help = "Create the role groups and demo users (idempotent). Existing users keep their passwords."

    def handle(self, *args, **options) -> None:
        for name in roles.ALL_ROLES:
            Group.objects.get_or_create(name=name)
        for username, (user_roles, clearance) in DEMO_USERS.items():
            user, created = User.objects.get_or_create(username=username, defaults={"clearance": clearance})
            if created:
                user.set_password(DEMO_PASSWORD)
                user.is_staff = roles.ADMIN in user_roles
                user.save()
                user.groups.set(Group.objects.filter(name__in=user_roles))
        self.stdout.write("Demo users: " + ", ".join(DEMO_USERS) + f" (password: {DEMO_PASSWORD})")
