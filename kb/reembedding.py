"""Embedding again what another model embedded: after the model configured for a language (KB_EMBEDDING_MODEL,
KB_EMBEDDING_MODEL_ZH, the runtime) changes.

Vectors of two models are not comparable, so search and the checker compare a version's stored vectors only with
vectors of the same model (kb.search, review.pipeline filter on DocumentVersion.embedding_model); a version embedded
by another model than its language's is found by full text alone until the housekeeping sweep has embedded it again.
A version already on its language's model is never embedded again. Re-embedding changes vectors in place: the chunks
keep their ids (answers' evidence points at them) and the version stays evidence throughout.
"""

from __future__ import annotations

import logging
import time

from django.db import transaction

from checking.units import evidence_units
from kb.embeddings import get_provider
from kb.models import Chunk, ChunkUnit, DocumentVersion, IndexState
from kb.services import NEVER_EVIDENCE_AGAIN, chunk_unit_rows, chunks_embed, embedding_input

logger = logging.getLogger(__name__)

# A sweep embeds versions for at most this long and leaves the rest to the next one (HOUSEKEEPING_INTERVAL_SECONDS
# later): a knowledge base of thousands of versions is embedded over several sweeps, never by one that outlasts
# the interval and overlaps the next.
SWEEP_SECONDS = 20.0


def versions_on_another_model() -> list[int]:
    """Indexed versions whose vectors another model than their language's made. Versions that can never be evidence
    again are left: no search reaches their vectors, and a check citing them embeds their text then."""
    indexed = DocumentVersion.objects.filter(index_state=IndexState.READY).exclude(status__in=NEVER_EVIDENCE_AGAIN)
    stale = DocumentVersion.objects.none()
    for language in indexed.values_list("language", flat=True).distinct().order_by():
        stale |= indexed.filter(language=language).exclude(embedding_model=get_provider(language).model_id)
    return list(stale.order_by("pk").values_list("pk", flat=True))


def versions_reembed_due(*, budget_seconds: float = SWEEP_SECONDS) -> int:
    """Embed with the configured model the versions another model embedded, for about `budget_seconds` (beat
    task); how many were embedded."""
    started, done = time.monotonic(), 0
    for version_id in versions_on_another_model():
        if time.monotonic() - started > budget_seconds:
            break
        done += version_reembed(version_id=version_id)
    return done


def version_reembed(*, version_id: int) -> bool:
    """The vectors of its language's model for an indexed version's chunks and units, all written in one
    transaction with the version's model, so that no search sees a version's vectors half of one model and half of
    another. False when there was nothing to do or the version was indexed again meanwhile."""
    version = DocumentVersion.objects.get(pk=version_id)
    model_id = get_provider(version.language).model_id
    if version.index_state != IndexState.READY or version.embedding_model == model_id:
        return False
    chunks = list(Chunk.objects.filter(version=version).order_by("ordinal").only(
        "pk", "version_id", "heading_path", "text", "char_start"))
    keeps_units = version.status not in NEVER_EVIDENCE_AGAIN
    per_chunk = [evidence_units(chunk.text) if keeps_units else [] for chunk in chunks]
    chunk_vectors, unit_vectors = chunks_embed(
        inputs=[embedding_input(chunk.heading_path, chunk.text) for chunk in chunks], per_chunk=per_chunk,
        language=version.language)
    with transaction.atomic():
        # The version's row first: it serialises with indexing, which claims the version through it.
        if not DocumentVersion.objects.filter(pk=version_id, index_state=IndexState.READY,
                                              embedding_model=version.embedding_model).update(embedding_model=model_id):
            return False
        if set(Chunk.objects.filter(version_id=version_id).values_list("pk", flat=True)) != {c.pk for c in chunks}:
            transaction.set_rollback(True)  # chunked again meanwhile: the vectors computed are of other chunks
            return False
        for chunk, vector in zip(chunks, chunk_vectors, strict=True):
            chunk.embedding = vector
        Chunk.objects.bulk_update(chunks, ["embedding"])
        ChunkUnit.objects.filter(chunk__in=chunks).delete()
        ChunkUnit.objects.bulk_create(chunk_unit_rows(chunks=chunks, per_chunk=per_chunk, vectors=unit_vectors))
    logger.info("version %s embedded again: %s -> %s", version_id, version.embedding_model, model_id)
    return True
