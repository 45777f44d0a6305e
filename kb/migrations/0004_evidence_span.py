"""Evidence spans: which version is each document's evidence when, kept by triggers (see kb.models.EvidenceSpan)."""

import django.db.models.deletion
from django.db import migrations, models

# Of a document's approved, indexed versions (document not retired), the newest whose dates cover a moment is
# its evidence then. The moments where that can change are the versions' effective and expiry dates: between two
# of them the newest covering version is the same, so each such piece becomes one span.
REFRESH = """
CREATE FUNCTION kb_evidence_spans_refresh(doc bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    -- One transaction at a time per document; each statement below then reads what the one before committed.
    PERFORM pg_advisory_xact_lock('kb_evidencespan'::regclass::oid::int, hashint8(doc));
    DELETE FROM kb_evidencespan WHERE document_id = doc;
    INSERT INTO kb_evidencespan (document_id, version_id, security_level, starts_at, ends_at)
    WITH candidate AS (
        SELECT v.id, v.number, v.effective_from, v.expires_at
        FROM kb_documentversion v JOIN kb_document d ON d.id = v.document_id
        WHERE v.document_id = doc AND d.retired_at IS NULL AND v.status = 'approved' AND v.index_state = 'ready'
    ), bound AS (
        SELECT effective_from AS at FROM candidate
        UNION SELECT expires_at FROM candidate WHERE expires_at IS NOT NULL
    ), piece AS (
        SELECT at AS starts_at, lead(at) OVER (ORDER BY at) AS ends_at FROM bound
    )
    SELECT doc, newest.id, d.security_level, piece.starts_at, piece.ends_at
    FROM piece
    CROSS JOIN LATERAL (
        SELECT c.id FROM candidate c
        WHERE c.effective_from <= piece.starts_at AND (c.expires_at IS NULL OR c.expires_at > piece.starts_at)
        ORDER BY c.number DESC
        LIMIT 1
    ) newest
    JOIN kb_document d ON d.id = doc;
END $$;

CREATE FUNCTION kb_evidence_version_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM kb_evidence_spans_refresh(OLD.document_id);
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.document_id <> OLD.document_id) THEN
        PERFORM kb_evidence_spans_refresh(NEW.document_id);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION kb_evidence_document_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM kb_evidence_spans_refresh(NEW.id);
    RETURN NULL;
END $$;

CREATE TRIGGER kb_evidence_version_written AFTER INSERT OR DELETE ON kb_documentversion
    FOR EACH ROW EXECUTE FUNCTION kb_evidence_version_changed();
CREATE TRIGGER kb_evidence_version_changed
    AFTER UPDATE OF status, index_state, effective_from, expires_at, number, document_id ON kb_documentversion
    FOR EACH ROW WHEN (
        OLD.status IS DISTINCT FROM NEW.status OR OLD.index_state IS DISTINCT FROM NEW.index_state
        OR OLD.effective_from IS DISTINCT FROM NEW.effective_from OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
        OR OLD.number IS DISTINCT FROM NEW.number OR OLD.document_id IS DISTINCT FROM NEW.document_id
    ) EXECUTE FUNCTION kb_evidence_version_changed();
CREATE TRIGGER kb_evidence_document_changed AFTER UPDATE OF retired_at, security_level ON kb_document
    FOR EACH ROW WHEN (
        OLD.retired_at IS DISTINCT FROM NEW.retired_at OR OLD.security_level IS DISTINCT FROM NEW.security_level
    ) EXECUTE FUNCTION kb_evidence_document_changed();

SELECT kb_evidence_spans_refresh(id) FROM kb_document;
"""

DROP = """
DROP TRIGGER kb_evidence_document_changed ON kb_document;
DROP TRIGGER kb_evidence_version_changed ON kb_documentversion;
DROP TRIGGER kb_evidence_version_written ON kb_documentversion;
DROP FUNCTION kb_evidence_document_changed();
DROP FUNCTION kb_evidence_version_changed();
DROP FUNCTION kb_evidence_spans_refresh(bigint);
"""


class Migration(migrations.Migration):

    dependencies = [
        ('kb', '0003_chunk_units'),
    ]

    operations = [
        migrations.CreateModel(
            name='EvidenceSpan',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('security_level', models.CharField(choices=[('public', 'Public'), ('internal', 'Internal'), ('confidential', 'Confidential'), ('restricted', 'Restricted')], max_length=16)),
                ('starts_at', models.DateTimeField()),
                ('ends_at', models.DateTimeField(null=True)),
                ('document', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='kb.document')),
                ('version', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='evidence_spans', to='kb.documentversion')),
            ],
            options={
                'ordering': ['document', 'starts_at'],
            },
        ),
        migrations.RunSQL(REFRESH, DROP),
    ]
