"""Audit rows carry the security level of the object they concern, so the audit log filters by clearance
with one indexed WHERE. Existing rows get their object's level now; rows about anything else (users, API
clients, deleted objects) stay null: admins only."""

from django.db import migrations, models
from django.db.models import Case, CharField, F, OuterRef, Subquery, When
from django.db.models.functions import Cast


def _answer_level(prefix: str = "") -> Case:
    """Evidence level once scored; while scoring the client's clearance (the most restrictive that could apply)."""
    return Case(
        When(**{f"{prefix}status": "scoring"}, then=F(f"{prefix}client__clearance")),
        default=F(f"{prefix}evidence_level"),
    )


def fill_levels(apps, schema_editor) -> None:
    AuditEvent = apps.get_model("console", "AuditEvent")
    sources = {
        "kb.document": (apps.get_model("kb", "Document"), F("security_level")),
        "kb.documentversion": (apps.get_model("kb", "DocumentVersion"), F("document__security_level")),
        "review.answer": (apps.get_model("review", "Answer"), _answer_level()),
        "review.claim": (apps.get_model("review", "Claim"), _answer_level("answer__")),
    }
    for object_type, (model, level) in sources.items():
        same_object = model.objects.annotate(pk_text=Cast("pk", CharField())).filter(pk_text=OuterRef("object_id"))
        AuditEvent.objects.filter(object_type=object_type).update(
            security_level=Subquery(same_object.annotate(audit_level=level).values("audit_level")[:1])
        )


class Migration(migrations.Migration):

    dependencies = [
        ("console", "0001_initial"),
        ("kb", "0001_initial"),
        ("review", "0003_claim_findings_not_found"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="security_level",
            field=models.CharField(
                blank=True, null=True, max_length=16,
                choices=[("public", "Public"), ("internal", "Internal"), ("confidential", "Confidential"),
                         ("restricted", "Restricted")],
            ),
        ),
        migrations.AddIndex(
            model_name="auditevent",
            index=models.Index(fields=["security_level", "-created_at"], name="audit_level_recent"),
        ),
        migrations.RunPython(fill_levels, migrations.RunPython.noop),
    ]
