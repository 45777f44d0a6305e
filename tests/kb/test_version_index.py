"""Indexing with the real worker: offsets, headings, progress, re-delivery and the embedding cache."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from kb import services
from kb.models import Chunk, DocumentVersion, EmbeddingCache, IndexState
from checking.units import evidence_units
from console.work_claims import work_claim_take, work_claims_requeue

HANDBOOK = """# Employee handbook

Welcome to Northwind. This handbook explains how we work.

## Benefits

### Health insurance

Full-time employees join the health plan on their first day. The company pays 80 percent of the premium.

Dependants can be added within 30 days of a life event.

### Pension

We match pension contributions up to 5 percent of salary.

| Years of service | Match |
|---|---|
| 0-2 | 3% |
| 3+ | 5% |

## Leave

- Annual leave: 25 days
- Sick leave: 10 days paid
- Parental leave: 16 weeks

```
leave-code: PL-16
```

## Travel

Book economy class for flights under 6 hours.
"""


def _wait_until_indexed(version, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version.refresh_from_db()
        if version.index_state in {IndexState.READY, IndexState.FAILED}:
            return version
        time.sleep(0.2)
    raise AssertionError(f"indexing did not finish: {version.index_state} {version.index_done}/{version.index_total}")


@pytest.fixture
def document(transactional_db, curator):
    return services.document_create(key="handbook", title="Handbook", owner=curator, security_level="internal",
                                    created_by=curator)


def test_worker_indexes_every_chunk_at_exact_offsets_without_crossing_headings(celery_worker, curator, document):
    version = services.version_upload(document=document, raw=HANDBOOK.encode(), filename="handbook.md",
                                      uploaded_by=curator)

    version = _wait_until_indexed(version)

    assert version.index_state == IndexState.READY, version.index_error
    chunks = list(version.chunks.order_by("ordinal"))
    assert len(chunks) >= 5
    assert version.index_done == version.index_total == len(chunks)
    heading_lines = {i + 1 for i, line in enumerate(HANDBOOK.splitlines()) if line.startswith("#")}
    for chunk in chunks:
        assert HANDBOOK[chunk.char_start:chunk.char_end] == chunk.text
        assert not heading_lines & set(range(chunk.line_start, chunk.line_end + 1))
        assert chunk.embedding is not None and len(chunk.embedding) == 384
        assert chunk.search_vector
        for start, end in chunk.paragraphs:
            assert chunk.char_start <= start < end <= chunk.char_end
    table_chunk = next(c for c in chunks if "| 0-2 | 3% |" in c.text)
    assert table_chunk.heading_path == "Employee handbook > Benefits > Pension"
    assert "| 3+ | 5% |" in table_chunk.text  # the table stays whole


def test_redelivered_index_task_is_a_no_op(transactional_db, curator, document, publish):
    version = publish(HANDBOOK, key="handbook")
    chunk_ids = set(version.chunks.values_list("id", flat=True))

    # A second delivery of the same message finds nothing to claim.
    assert work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk) is False
    assert set(version.chunks.values_list("id", flat=True)) == chunk_ids


def test_interrupted_index_is_invisible_and_requeued(transactional_db, curator, approver, document, publish, settings):
    version = publish(HANDBOOK, key="handbook")
    # Simulate a worker killed mid-task: the version is "indexing" with a stale heartbeat and partial chunks.
    DocumentVersion.objects.filter(pk=version.pk).update(
        index_state=IndexState.INDEXING, index_heartbeat_at="2000-01-01T00:00:00Z"
    )
    Chunk.objects.filter(version=version, ordinal__gt=1).delete()
    from kb.search import chunks_search

    assert chunks_search(query="pension contributions", clearance="internal").hits == []

    assert work_claims_requeue(kind=services.VERSION_INDEXING) == 1
    # The re-queued job goes to the real worker, which may claim it at once: wait for it to finish.
    deadline = time.monotonic() + 60
    version.refresh_from_db()
    while version.index_state != IndexState.READY and time.monotonic() < deadline:
        assert version.index_state in {IndexState.QUEUED, IndexState.INDEXING}, version.index_error
        time.sleep(0.1)
        version.refresh_from_db()
    assert version.index_state == IndexState.READY
    assert version.chunks.count() == version.index_total
    assert chunks_search(query="pension contributions", clearance="internal").hits


def _unit_texts(version) -> set[str]:
    return {u.text for chunk in version.chunks.all() for u in evidence_units(chunk.text)}


def test_new_version_changing_one_paragraph_embeds_only_what_changed(transactional_db, document, publish):
    first = publish(HANDBOOK, key="handbook")
    cached_before = EmbeddingCache.objects.count()
    # Each chunk, and each distinct unit the checker compares (embedded once for every check to come).
    assert cached_before == first.chunks.count() + len(_unit_texts(first))

    changed = HANDBOOK.replace("We match pension contributions up to 5 percent", "We match contributions up to 6 percent")
    second = publish(changed, key="handbook")

    assert second.chunks.count() == first.chunks.count()
    # One chunk, and its units that changed: the sentence, and the table rows it captions.
    new_units = _unit_texts(second) - _unit_texts(first)
    assert len(new_units) == 3
    assert EmbeddingCache.objects.count() == cached_before + 1 + len(new_units)


def test_failed_index_shows_the_error_and_can_be_retried(celery_worker, client, curator, document, settings):
    from kb.embeddings import get_provider

    settings.KB_EMBEDDING_PROVIDER = "nonsense"
    get_provider.cache_clear()
    try:
        version = services.version_upload(document=document, raw=HANDBOOK.encode(), filename="h.md",
                                          uploaded_by=curator)
        version = _wait_until_indexed(version)
    finally:
        get_provider.cache_clear()
    assert version.index_state == IndexState.FAILED
    client.force_login(curator)

    page = client.get(version.get_absolute_url()).content.decode()
    assert "Indexing failed: ImproperlyConfigured: unknown KB_EMBEDDING_PROVIDER" in page
    assert "Retry indexing" in page

    settings.KB_EMBEDDING_PROVIDER = "local"
    response = client.post(f"/kb/handbook/v{version.number}/reindex/")

    assert response.status_code == 302
    assert _wait_until_indexed(version).index_state == IndexState.READY


def _version_whose_message_was_lost(document, curator, requested_minutes_ago: float) -> DocumentVersion:
    """What an upload committed while the broker was down leaves behind: a queued version, and no message."""
    return DocumentVersion.objects.create(
        document=document, number=1, text=HANDBOOK, sha256="0" * 64, filename="handbook.md", submitted_by=curator,
        index_requested_at=timezone.now() - timedelta(minutes=requested_minutes_ago),
    )


def test_reindex_on_a_queued_version_sends_it_again(celery_worker, client, curator, document, settings):
    settings.DISPATCH_RESEND_AFTER_SECONDS = 60
    version = _version_whose_message_was_lost(document, curator, requested_minutes_ago=2)
    client.force_login(curator)
    page = client.get(version.get_absolute_url()).content.decode()
    assert "No worker has started indexing yet" in page
    assert "Retry indexing" in page

    response = client.post(f"/kb/handbook/v{version.number}/reindex/")

    assert response.status_code == 302
    assert _wait_until_indexed(version).index_state == IndexState.READY


def test_the_sweep_asks_again_for_versions_queued_too_long(celery_worker, curator, document, settings):
    settings.DISPATCH_RESEND_AFTER_SECONDS = 60
    waiting = _version_whose_message_was_lost(document, curator, requested_minutes_ago=2)

    assert work_claims_requeue(kind=services.VERSION_INDEXING) == 1

    assert _wait_until_indexed(waiting).index_state == IndexState.READY
    assert work_claims_requeue(kind=services.VERSION_INDEXING) == 0


@pytest.fixture
def uncommitted_version(db, curator):
    """A queued version inside the test's transaction: never committed, so no task is ever sent for it."""
    document = services.document_create(key="handbook", title="Handbook", owner=curator, security_level="internal",
                                        created_by=curator)
    return services.version_upload(document=document, raw=HANDBOOK.encode(), filename="h.md", uploaded_by=curator)


def test_a_redelivered_task_takes_its_own_claim_back_and_no_other_task_does(uncommitted_version):
    version = uncommitted_version

    assert work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk, task_id="first")
    assert not work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk, task_id="second")
    assert work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk, task_id="first")  # its worker died: redelivered
    version.refresh_from_db()
    assert (version.index_state, version.index_task_id) == (IndexState.INDEXING, "first")


def test_a_run_whose_job_was_requeued_stops_and_leaves_the_new_claim_alone(uncommitted_version):
    version = uncommitted_version
    assert work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk, task_id="stalled")
    services.version_index_retry(version=version, user=None)  # what the stalled-job sweep does
    assert work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk, task_id="fresh")

    with pytest.raises(services.IndexClaimLost):
        services.version_index_run(version_id=version.pk, task_id="stalled")
    services.version_index_fail(version_id=version.pk, task_id="stalled", error="late failure")

    version.refresh_from_db()
    assert (version.index_state, version.index_task_id, version.index_error) == (IndexState.INDEXING, "fresh", "")
    assert not version.chunks.exists()
