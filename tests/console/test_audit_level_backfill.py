"""Audit rows written before rows carried a security level get their object's level from the migration."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from console.models import AuditEvent

pytestmark = pytest.mark.django_db

backfill = importlib.import_module("console.migrations.0002_auditevent_security_level")


def test_backfill_gives_each_row_its_objects_level(admin_user, reviewer, make_answer, api_token):
    from kb import services

    document = services.document_create(key="merger", title="Merger plan", owner=admin_user,
                                        security_level="restricted", created_by=admin_user)
    version = services.version_upload(document=document, raw=b"# M\n\ntext\n", filename="m.md",
                                      uploaded_by=admin_user)
    scored = make_answer(evidence_level="confidential")
    scoring = make_answer(status="scoring", evidence_level="public")  # client (api_token) is internal
    objects = {
        ("kb.document", document.pk): "restricted",
        ("kb.documentversion", version.pk): "restricted",
        ("review.answer", scored.pk): "confidential",
        ("review.answer", scoring.pk): "internal",
        ("review.claim", scored.claims.get().pk): "confidential",
        ("console.user", reviewer.pk): None,
        ("review.answer", 10**9): None,  # deleted since
    }
    apps = MigrationLoader(connection).project_state(("console", "0002_auditevent_security_level")).apps
    old_rows = apps.get_model("console", "AuditEvent")
    old_rows.objects.all().delete()
    for object_type, object_id in objects:
        old_rows.objects.create(verb="old", object_type=object_type, object_id=str(object_id))

    backfill.fill_levels(apps, None)

    levels = {(e.object_type, int(e.object_id)): e.security_level for e in AuditEvent.objects.all()}
    assert levels == objects
