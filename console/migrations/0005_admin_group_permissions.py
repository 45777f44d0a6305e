"""The admin role can do in the admin site what the console's messages promise: see and change people, see and
unlock failed logins, see the audit log and revoke tokens. Roles and clearance stay read-only there for anyone but
a superuser (console/admin.py): admins change them on the Users page, under its rules and audited."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ADMIN_GROUP = "admin"
ADMIN_PERMISSIONS = {
    "console": ["view_user", "change_user", "add_user", "view_auditevent", "view_personaltoken",
                "change_personaltoken"],
    "axes": ["view_accessattempt", "change_accessattempt", "view_accessfailurelog", "view_accesslog"],
}


def grant_admin_permissions(apps, schema_editor) -> None:
    # Permissions are otherwise created after the last migration (post_migrate): make them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=ADMIN_GROUP)
    for app_label, codenames in ADMIN_PERMISSIONS.items():
        group.permissions.add(*Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames))


class Migration(migrations.Migration):
    dependencies = [
        ("console", "0004_personaltoken"),
        ("axes", "0010_accessattemptexpiration"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant_admin_permissions, migrations.RunPython.noop)]
