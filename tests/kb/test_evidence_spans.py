"""The evidence spans the database keeps agree with the evidence rule at every moment, after any write."""

import threading
from datetime import datetime, timedelta
from datetime import timezone as tz

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from console.models import SecurityLevel
from kb.models import Document, DocumentVersion, EvidenceSpan, IndexState, VersionStatus

BASE = datetime(2026, 6, 1, tzinfo=tz.utc)
HOUR = timedelta(hours=1)


def _reference(versions: list[DocumentVersion], *, clearance: str, at: datetime) -> set[int]:
    """The evidence rule, worked out from the rows as it was before the spans: of each unretired document within
    `clearance`, the newest approved, indexed version whose dates cover `at`."""
    newest: dict[int, DocumentVersion] = {}
    for v in versions:
        if (v.document.retired_at is None and v.document.security_level in SecurityLevel.up_to(clearance)
                and v.status == VersionStatus.APPROVED and v.index_state == IndexState.READY
                and v.effective_from <= at and (v.expires_at is None or v.expires_at > at)
                and (v.document_id not in newest or v.number > newest[v.document_id].number)):
            newest[v.document_id] = v
    return {v.pk for v in newest.values()}


def _usable(*, clearance: str, at: datetime) -> set[int]:
    return set(DocumentVersion.objects.usable_as_evidence(clearance=clearance, at=at).values_list("pk", flat=True))


def _assert_spans_agree(clearance: str) -> None:
    """At every date a version holds, a moment either side of it, and before and after them all."""
    versions = list(DocumentVersion.objects.select_related("document"))
    moments = {BASE - 100 * HOUR, BASE + 100 * HOUR}
    for moment in {v.effective_from for v in versions} | {v.expires_at for v in versions if v.expires_at}:
        moments |= {moment - timedelta(seconds=1), moment, moment + timedelta(seconds=1)}
    for at in sorted(moments):
        assert _usable(clearance=clearance, at=at) == _reference(versions, clearance=clearance, at=at), at


version_rows = st.lists(
    st.fixed_dictionaries({
        "status": st.sampled_from([VersionStatus.APPROVED] * 3 + [VersionStatus.PENDING_APPROVAL,
                                                                  VersionStatus.SUPERSEDED, VersionStatus.EXPIRED]),
        "index_state": st.sampled_from([IndexState.READY] * 3 + [IndexState.QUEUED, IndexState.INDEXING]),
        "starts": st.integers(-48, 48),
        "lasts": st.none() | st.integers(1, 96),
    }),
    min_size=1, max_size=5,
)
changes = st.lists(
    st.tuples(st.sampled_from(["status", "index_state", "dates", "retire", "unretire", "level", "delete"]),
              st.integers(0, 4), st.integers(-48, 48)),
    max_size=6,
)


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents=st.lists(st.tuples(version_rows, st.sampled_from(list(SecurityLevel.values)), st.booleans()),
                          min_size=1, max_size=3),
       steps=changes, clearance=st.sampled_from(list(SecurityLevel.values)))
def test_spans_agree_with_the_evidence_rule_after_any_writes(curator, documents, steps, clearance):
    with transaction.atomic():
        made = []
        for d, (rows, level, retired) in enumerate(documents):
            document = Document.objects.create(key=f"span-{d}", title=f"Span {d}", owner=curator,
                                               security_level=level, retired_at=BASE if retired else None)
            for number, row in enumerate(rows, start=1):
                start = BASE + row["starts"] * HOUR
                made.append(DocumentVersion.objects.create(
                    document=document, number=number, text="x", sha256="x", submitted_by=curator,
                    status=row["status"], index_state=row["index_state"], effective_from=start,
                    expires_at=None if row["lasts"] is None else start + row["lasts"] * HOUR,
                ))
        _assert_spans_agree(clearance)

        for kind, pick, hours in steps:  # writes of every kind, through the ORM as any code path would make them
            version = made[pick % len(made)]
            versions = DocumentVersion.objects.filter(pk=version.pk)
            documents_of = Document.objects.filter(pk=version.document_id)
            if kind == "status":
                versions.update(status=VersionStatus.APPROVED if hours % 2 else VersionStatus.RETIRED)
            elif kind == "index_state":
                versions.update(index_state=IndexState.READY if hours % 2 else IndexState.QUEUED)
            elif kind == "dates":
                versions.update(effective_from=BASE + hours * HOUR, expires_at=None)
            elif kind == "retire":
                documents_of.update(retired_at=BASE)
            elif kind == "unretire":
                documents_of.update(retired_at=None)
            elif kind == "level":
                documents_of.update(security_level=SecurityLevel.RESTRICTED)
            elif kind == "delete" and versions.exists():
                versions.delete()
                made.remove(version)
                if not made:
                    break
            _assert_spans_agree(clearance)
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_a_retired_document_leaves_no_span_and_a_new_version_takes_over_only_once_indexed(curator):
    document = Document.objects.create(key="leave", title="Leave", owner=curator)
    first = DocumentVersion.objects.create(document=document, number=1, text="x", sha256="1", submitted_by=curator,
                                           status=VersionStatus.APPROVED, index_state=IndexState.READY,
                                           effective_from=BASE)
    second = DocumentVersion.objects.create(document=document, number=2, text="y", sha256="2", submitted_by=curator,
                                            status=VersionStatus.APPROVED, index_state=IndexState.INDEXING,
                                            effective_from=BASE + HOUR)
    assert list(EvidenceSpan.objects.values_list("version_id", "starts_at", "ends_at")) == [(first.pk, BASE, None)]

    DocumentVersion.objects.filter(pk=second.pk).update(index_state=IndexState.READY)
    assert list(EvidenceSpan.objects.values_list("version_id", "starts_at", "ends_at")) == [
        (first.pk, BASE, BASE + HOUR), (second.pk, BASE + HOUR, None)]

    document.retired_at = BASE
    document.save()
    assert not EvidenceSpan.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_write_waits_for_another_transaction_changing_the_same_document(curator):
    """Without the triggers' lock, the version approved here would read the document as not retired (the
    retirement not committed yet) and leave a span for a retired document."""
    document = Document.objects.create(key="leave", title="Leave", owner=curator)
    pending = DocumentVersion.objects.create(document=document, number=1, text="x", sha256="1", submitted_by=curator,
                                             status=VersionStatus.PENDING_APPROVAL, index_state=IndexState.READY,
                                             effective_from=BASE)
    retired, release = threading.Event(), threading.Event()

    def retire_and_hold():
        try:
            with transaction.atomic():
                Document.objects.filter(pk=document.pk).update(retired_at=BASE)
                retired.set()
                release.wait(timeout=10)
        finally:
            from django.db import connection
            connection.close()

    holder = threading.Thread(target=retire_and_hold)
    holder.start()
    assert retired.wait(timeout=10)
    threading.Timer(0.5, release.set).start()
    with transaction.atomic():
        DocumentVersion.objects.filter(pk=pending.pk).update(status=VersionStatus.APPROVED)
    assert release.is_set()  # the approval's spans were worked out after the retirement committed
    holder.join(timeout=10)

    assert not EvidenceSpan.objects.exists()
    assert _usable(clearance=SecurityLevel.RESTRICTED, at=BASE + HOUR) == set()
