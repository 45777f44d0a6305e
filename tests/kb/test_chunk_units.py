"""The checker's units of each chunk, embedded at indexing: stored and rebuilt with a version, dropped when the
version can never be evidence again."""

import time

import numpy as np
import pytest

from kb import services
from kb.models import ChunkUnit, DocumentVersion, IndexState, TermEmbedding
from checking.units import evidence_units
from console.work_claims import work_claim_take

pytestmark = pytest.mark.django_db(transaction=True)

POLICY = """# Travel policy

## Flights

Book economy class for flights under 6 hours. Business class is allowed on longer flights.

## Meals

- Breakfast: 15 euros
- Dinner: 40 euros

| City | Hotel cap |
|---|---|
| Paris | 180 euros |
| Berlin | 140 euros |
"""


def _units_of(version) -> dict[int, list[ChunkUnit]]:
    units: dict[int, list[ChunkUnit]] = {}
    for unit in ChunkUnit.objects.filter(chunk__version=version).order_by("chunk__ordinal", "ordinal"):
        units.setdefault(unit.chunk_id, []).append(unit)
    return units


def test_indexing_stores_each_chunks_checker_units_with_their_vectors(publish):
    version = publish(POLICY, key="travel")

    stored = _units_of(version)
    chunks = list(version.chunks.order_by("ordinal"))
    assert set(stored) == {c.pk for c in chunks}
    for chunk in chunks:
        expected = evidence_units(chunk.text)
        units = stored[chunk.pk]
        assert [u.text for u in units] == [e.text for e in expected]
        for unit, cut in zip(units, expected, strict=True):
            # Offsets in the version's Markdown, like the chunk's own.
            assert (unit.char_start, unit.char_end) == (chunk.char_start + cut.start, chunk.char_start + cut.end)
            vector = np.frombuffer(unit.embedding, dtype=np.float32)
            assert vector.shape == (384,) and abs(float(np.linalg.norm(vector)) - 1.0) < 1e-3
    texts = [u.text for units in stored.values() for u in units]
    assert "City: Paris; Hotel cap: 180 euros" in " ".join(texts)  # a table row is read with its header
    assert "Breakfast: 15 euros" in texts  # a list item is a unit of its own
    words = {w for chunk in chunks for cut in evidence_units(chunk.text) for w in cut.words}
    assert words <= set(TermEmbedding.objects.values_list("term", flat=True))


def test_reindexing_rebuilds_the_units(publish, curator):
    version = publish(POLICY, key="travel")
    before = set(ChunkUnit.objects.filter(chunk__version=version).values_list("pk", flat=True))

    # An index job that failed after the version was indexed (as a lost worker's would) is run again.
    DocumentVersion.objects.filter(pk=version.pk).update(index_state=IndexState.FAILED)
    services.version_index_retry(version=version, user=curator)
    if work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk):
        services.version_index_run(version_id=version.pk)
    deadline = time.monotonic() + 60  # or the worker took the re-queued job
    while version.index_state != IndexState.READY and time.monotonic() < deadline:
        time.sleep(0.1)
        version.refresh_from_db()
    assert version.index_state == IndexState.READY, version.index_error

    after = ChunkUnit.objects.filter(chunk__version=version)
    assert after.count() == len(before)
    assert not before & set(after.values_list("pk", flat=True))  # new rows, with the new chunks


def test_a_superseded_version_keeps_its_chunks_but_drops_its_units(publish):
    first = publish(POLICY, key="travel")
    assert ChunkUnit.objects.filter(chunk__version=first).exists()

    second = publish(POLICY.replace("15 euros", "18 euros"), key="travel")

    first.refresh_from_db()
    assert first.status == "superseded"
    assert first.chunks.exists()
    assert not ChunkUnit.objects.filter(chunk__version=first).exists()
    assert ChunkUnit.objects.filter(chunk__version=second).exists()


def test_retiring_a_document_drops_its_units(publish, curator):
    version = publish(POLICY, key="travel")
    other = publish("# Other\n\n## Part\n\nSomething else entirely is said here.\n", key="other")

    services.document_retire(document=version.document, user=curator, reason="obsolete")

    version.refresh_from_db()
    assert version.status == "retired"
    assert version.chunks.exists()
    assert not ChunkUnit.objects.filter(chunk__version=version).exists()
    assert ChunkUnit.objects.filter(chunk__version=other).exists()
