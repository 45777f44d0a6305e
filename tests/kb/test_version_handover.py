"""Evidence never disappears: an approved version stays evidence until its successor is indexed and effective."""

from datetime import timedelta

import pytest
from django.utils import timezone

from console.models import AuditEvent
from kb import services
from kb.models import DocumentVersion, IndexState, VersionStatus
from kb.search import chunks_search
from console.work_claims import work_claim_take

pytestmark = pytest.mark.django_db

FIRST = "# Leave\n\nAnnual leave is 25 days for every employee.\n"
SECOND = "# Leave\n\nAnnual leave is 28 days for every employee.\n"


def _upload(version, curator, text, **dates):
    return services.version_upload(document=version.document, raw=text.encode(), filename="leave.md",
                                   uploaded_by=curator, **dates)


def _index(version):
    """Index in this process, as a worker would (the test's transaction is never committed, so no task runs)."""
    assert work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk)
    services.version_index_run(version_id=version.pk)
    version.refresh_from_db()
    return version


def _evidence_numbers():
    return list(DocumentVersion.objects.usable_as_evidence(clearance="internal").values_list("number", flat=True))


def _search_numbers(query="annual leave days"):
    return {hit.chunk.version.number for hit in chunks_search(query=query, clearance="internal").hits}


def test_previous_version_stays_evidence_until_the_approved_successor_is_indexed(
        publish, client, curator, approver):
    first = publish(FIRST, key="leave")
    second = services.version_approve(version=_upload(first, curator, SECOND), approver=approver)

    first.refresh_from_db()
    assert (first.status, second.index_state) == (VersionStatus.APPROVED, IndexState.QUEUED)
    assert _evidence_numbers() == [1]
    assert _search_numbers() == {1}
    client.force_login(curator)
    assert "Still in use as evidence until v2 is indexed." in client.get(first.get_absolute_url()).content.decode()
    assert ("v1 stays in use as evidence until this version is indexed."
            in client.get(second.get_absolute_url()).content.decode())

    _index(second)

    first.refresh_from_db()
    assert first.status == VersionStatus.SUPERSEDED
    assert _evidence_numbers() == [2]
    assert _search_numbers() == {2}
    supersede = AuditEvent.objects.get(verb="version.supersede", object_id=str(first.pk))
    assert supersede.note == "superseded by version 2"
    page = client.get(first.get_absolute_url()).content.decode()
    assert "Still in use as evidence" not in page


def test_a_successor_whose_indexing_fails_leaves_the_previous_version_in_use(publish, curator, approver):
    first = publish(FIRST, key="leave")
    second = services.version_approve(version=_upload(first, curator, SECOND), approver=approver)
    assert work_claim_take(kind=services.VERSION_INDEXING, pk=second.pk)
    services.version_index_fail(version_id=second.pk, error="EmbeddingError: endpoint down")

    assert services.versions_activate_due() == 0
    first.refresh_from_db()
    assert first.status == VersionStatus.APPROVED
    assert _evidence_numbers() == [1]


def test_a_version_indexed_before_approval_takes_over_when_approved(publish, curator, approver):
    first = publish(FIRST, key="leave")
    second = _index(_upload(first, curator, SECOND))
    first.refresh_from_db()
    assert first.status == VersionStatus.APPROVED  # indexed but not approved: not evidence

    services.version_approve(version=second, approver=approver)

    first.refresh_from_db()
    assert first.status == VersionStatus.SUPERSEDED
    assert _evidence_numbers() == [2]


def test_a_future_version_takes_over_once_effective_and_indexed(publish, curator, approver):
    first = publish(FIRST, key="leave")
    later = timezone.now() + timedelta(days=3)
    second = _index(services.version_approve(version=_upload(first, curator, SECOND, effective_from=later),
                                             approver=approver))
    first.refresh_from_db()
    assert first.status == VersionStatus.APPROVED
    assert _evidence_numbers() == [1]

    DocumentVersion.objects.filter(pk=second.pk).update(effective_from=timezone.now() - timedelta(seconds=1))
    assert _evidence_numbers() == [2]  # retrieval checks dates itself, before the beat task runs
    assert services.versions_activate_due() == 1

    first.refresh_from_db()
    assert first.status == VersionStatus.SUPERSEDED
    assert services.versions_activate_due() == 0
