from django.db import migrations, models


def unverifiable_to_not_found(apps, schema_editor):
    apps.get_model("review", "Claim").objects.filter(verdict="unverifiable").update(verdict="not_found")


def not_found_to_unverifiable(apps, schema_editor):
    apps.get_model("review", "Claim").objects.filter(verdict="not_found").update(verdict="unverifiable")


class Migration(migrations.Migration):
    dependencies = [("review", "0002_selftestrun")]

    operations = [
        migrations.AddField(model_name="claim", name="findings", field=models.JSONField(blank=True, default=list)),
        migrations.AlterField(
            model_name="claim", name="verdict",
            field=models.CharField(choices=[("supported", "Supported"), ("uncertain", "Uncertain"),
                                            ("contradicted", "Contradicted"), ("not_found", "Not found")],
                                   max_length=16),
        ),
        migrations.RunPython(unverifiable_to_not_found, not_found_to_unverifiable),
    ]
