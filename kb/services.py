"""Writes to the knowledge base: uploads, approval transitions, indexing. Each transition is audited."""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime
from pathlib import PurePath

import numpy as np
from django.conf import settings
from django.contrib.postgres.search import SearchVector
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import F, Q, QuerySet, Value
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from checking.languages import detect_language, document_terms, fulltext_form, language_for
from checking.units import EvidenceUnit, evidence_units
from console import roles
from console.audit import audit_record
from console.dispatch import enqueue_on_commit
from console.models import SecurityLevel, User
from console.redaction import redact
from console.work_claims import WorkClaimKind, work_claim_held
from kb.chunking import chunk_markdown
from kb.embeddings import Role, content_hash, embed_texts, get_provider
from kb.models import (
    Chunk,
    ChunkUnit,
    Document,
    DocumentVersion,
    EmbeddingCache,
    IndexState,
    TermEmbedding,
    VersionStatus,
)
from kb.signals import evidence_changed_send

logger = logging.getLogger(__name__)

MARKDOWN_EXTENSIONS = {".md", ".markdown"}
EMBED_BATCH = 32  # chunks per embedding call and transaction; with their units and words, a few hundred texts
# Statuses a version never leaves for evidence again: its chunks stay (evidence pins them) but the checker's
# units of them are dropped (a client citing such a chunk gets it checked by embedding at check time).
NEVER_EVIDENCE_AGAIN = frozenset({VersionStatus.REJECTED, VersionStatus.SUPERSEDED, VersionStatus.RETIRED,
                                  VersionStatus.EXPIRED})
_MAX_TERM_CHARS = 200  # TermEmbedding.term


class UploadError(ValueError):
    """An upload the console refuses, with a message meant for the person who uploaded it."""


class TransitionError(ValueError):
    """A status change that is not allowed from the version's current status."""


class IndexClaimLost(Exception):
    """Another task took over this version's indexing (the sweep re-queued it): this run stops."""


_EVIDENCE_LOCK = "SELECT pg_advisory_xact_lock('kb_evidencespan'::regclass::oid::int, hashint8({document}))"


def _evidence_lock(*, document_id: int | None = None, version_id: int | None = None) -> None:
    """Take the lock the evidence-span triggers take (migration 0004) on a document, before this transaction
    changes any row of it. The triggers take it after each change: a transaction that had changed one version
    and then waited for it could deadlock with one holding it that goes on to change the same version."""
    with connection.cursor() as cursor:
        if version_id is None:
            cursor.execute(_EVIDENCE_LOCK.format(document="%s"), [document_id])
        else:
            cursor.execute(_EVIDENCE_LOCK.format(document="(SELECT document_id FROM kb_documentversion WHERE id = %s)"),
                           [version_id])


def _human_size(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB" if size >= 1024 * 1024 else f"{size / 1024:.0f} KB"


def markdown_decode_upload(*, raw: bytes, filename: str) -> str:
    """The uploaded file's text, or UploadError saying exactly what is wrong with it."""
    suffix = PurePath(filename).suffix.lower()
    if suffix not in MARKDOWN_EXTENSIONS:
        raise UploadError(_("“%(name)s” is not a Markdown file: upload a .md or .markdown file.") % {"name": filename})
    limit = settings.KB_MAX_UPLOAD_BYTES
    if len(raw) > limit:
        raise UploadError(_("“%(name)s” is %(size)s; the limit is %(limit)s.") % {
            "name": filename, "size": _human_size(len(raw)), "limit": _human_size(limit)})
    if b"\x00" in raw:
        raise UploadError(_("“%(name)s” looks like a binary file, not Markdown text.") % {"name": filename})
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UploadError(
            _("“%(name)s” is not valid UTF-8 (byte 0x%(byte)s at position %(position)s). "
              "Save it as UTF-8 and upload it again.")
            % {"name": filename, "byte": f"{raw[exc.start]:02x}", "position": exc.start}
        ) from None
    if not text.strip():
        raise UploadError(_("“%(name)s” is empty.") % {"name": filename})
    return text


def _check_dates(*, effective_from: datetime, expires_at: datetime | None) -> None:
    if expires_at is not None and expires_at <= effective_from:
        raise UploadError(_("The expiry date must be after the effective date."))


def _status_snapshot(version: DocumentVersion) -> dict[str, str]:
    return {"status": version.status}


def _require_clearance(*, user: User, level: str) -> None:
    """Nobody writes a document they could not open afterwards."""
    if level not in SecurityLevel.up_to(user.clearance):
        raise UploadError(_("%(user)s has %(clearance)s clearance and cannot add to a %(level)s document "
                            "(it could not be opened afterwards).") % {
            "user": user.username, "clearance": SecurityLevel(user.clearance).label.lower(),
            "level": SecurityLevel(level).label.lower()})


@transaction.atomic
def document_create(
    *, key: str, title: str, owner: User, security_level: str, created_by: User,
    source_type: str = Document.SourceType.UPLOAD,
) -> Document:
    _require_clearance(user=created_by, level=security_level)
    if Document.objects.filter(key=key).exists():
        raise UploadError(_("A document with the key “%(key)s” already exists: upload a new version of it instead.")
                          % {"key": key})
    document = Document.objects.create(
        key=key, title=title, owner=owner, security_level=security_level, source_type=source_type
    )
    audit_record(verb="document.create", obj=document, actor=created_by,
                 after={"key": key, "title": title, "owner": owner.username, "security_level": security_level})
    return document


@transaction.atomic
def version_upload(
    *, document: Document, raw: bytes, filename: str, uploaded_by: User,
    effective_from: datetime | None = None, expires_at: datetime | None = None, note: str = "", submit: bool = True,
    language: str | None = None,
) -> DocumentVersion:
    """Store a new immutable version (earlier versions are never touched) and queue it for indexing. `language`:
    the uploader's word for it; without one it is detected from the text."""
    _require_clearance(user=uploaded_by, level=document.security_level)
    text = markdown_decode_upload(raw=raw, filename=filename)
    effective_from = effective_from or timezone.now()
    _check_dates(effective_from=effective_from, expires_at=expires_at)
    if document.is_retired:
        raise UploadError(_("“%(title)s” is retired; it takes no new versions.") % {"title": document.title})

    _evidence_lock(document_id=document.pk)
    document = Document.objects.select_for_update().get(pk=document.pk)  # serialise version numbering
    latest = document.versions.order_by("-number").first()
    sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if latest is not None and latest.sha256 == sha256 and latest.status != VersionStatus.REJECTED:
        raise UploadError(_("This file is identical to version %(number)s; nothing to upload.") % {"number": latest.number})

    version = DocumentVersion.objects.create(
        document=document,
        number=(latest.number + 1) if latest else 1,
        text=text,
        sha256=sha256,
        language=language or detect_language(text),
        filename=PurePath(filename).name[:255],
        note=note,
        effective_from=effective_from,
        expires_at=expires_at,
        submitted_by=uploaded_by,
        index_state=IndexState.QUEUED,
        index_requested_at=timezone.now(),
    )
    audit_record(verb="version.upload", obj=version, actor=uploaded_by,
                 after={"number": version.number, "sha256": sha256, "status": version.status,
                        "language": version.language})
    if submit:
        version_submit(version=version, user=uploaded_by)
    _enqueue_index(version)
    return version


@transaction.atomic
def document_create_with_version(
    *, key: str, title: str, owner: User, security_level: str, raw: bytes, filename: str, uploaded_by: User,
    source_type: str = Document.SourceType.UPLOAD, **upload_options,
) -> DocumentVersion:
    """A new document and its first version, both or neither (a refused file leaves no empty document)."""
    document = document_create(key=key, title=title, owner=owner, security_level=security_level,
                               created_by=uploaded_by, source_type=source_type)
    return version_upload(document=document, raw=raw, filename=filename, uploaded_by=uploaded_by, **upload_options)


# What a refused transition would have done, as the message to the person says it ("it cannot be approved").
TRANSITION_DONE = {
    "version.submit": gettext_lazy("submitted"), "version.approve": gettext_lazy("approved"),
    "version.reject": gettext_lazy("rejected"), "version.retire": gettext_lazy("retired"),
    "version.supersede": gettext_lazy("superseded"), "version.expire": gettext_lazy("expired"),
}


def _transition(
    *, version: DocumentVersion, allowed_from: set[str], to: str, verb: str, actor: User | None,
    actor_label: str = "", note: str = "", **fields,
) -> DocumentVersion:
    _evidence_lock(document_id=version.document_id)
    locked = DocumentVersion.objects.select_for_update().get(pk=version.pk)
    if locked.status not in allowed_from:
        raise TransitionError(_("Version %(number)s is %(status)s; it cannot be %(action)s.") % {
            "number": locked.number, "status": locked.get_status_display().lower(),
            "action": TRANSITION_DONE.get(verb, verb.split(".")[-1])})
    before = _status_snapshot(locked)
    locked.status = to
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.save(update_fields=["status", *fields])
    if to in NEVER_EVIDENCE_AGAIN:
        chunk_units_drop(version=locked)
    audit_record(verb=verb, obj=locked, actor=actor, actor_label=actor_label,
                 before=before, after=_status_snapshot(locked), note=note)
    return locked


@transaction.atomic
def version_submit(*, version: DocumentVersion, user: User) -> DocumentVersion:
    return _transition(version=version, allowed_from={VersionStatus.DRAFT}, to=VersionStatus.PENDING_APPROVAL,
                       verb="version.submit", actor=user, submitted_at=timezone.now())


@transaction.atomic
def version_approve(
    *, version: DocumentVersion, approver: User, note: str = "", via: str = ""
) -> DocumentVersion:
    """Four-eyes: nobody approves a version they uploaded. `via` names a non-web channel (kb_import)."""
    if not approver.has_role(roles.APPROVER):
        raise PermissionDenied(_("Only approvers can approve versions."))
    if version.submitted_by_id == approver.pk:
        raise PermissionDenied(_("Four-eyes rule: you cannot approve a version you uploaded."))
    if version.document.security_level not in SecurityLevel.up_to(approver.clearance):
        raise PermissionDenied(_("This is a %(level)s document, above your clearance.") % {
            "level": version.document.get_security_level_display().lower()})
    approved = _transition(
        version=version, allowed_from={VersionStatus.PENDING_APPROVAL}, to=VersionStatus.APPROVED,
        verb="version.approve", actor=approver, actor_label=via, note=note,
        approved_by=approver, approved_at=timezone.now(), decision_reason=note,
    )
    # Not yet indexed: the version before stays evidence until indexing finishes (version_index_run).
    if _takes_over(approved):
        _supersede_older(approved)
    evidence_changed_send(version=approved, change="approved")
    return approved


@transaction.atomic
def version_reject(*, version: DocumentVersion, approver: User, reason: str) -> DocumentVersion:
    if not approver.has_role(roles.APPROVER):
        raise PermissionDenied(_("Only approvers can reject versions."))
    if not reason.strip():
        raise TransitionError(_("Say why the version is rejected; the uploader will read it."))
    return _transition(version=version, allowed_from={VersionStatus.PENDING_APPROVAL}, to=VersionStatus.REJECTED,
                       verb="version.reject", actor=approver, note=reason, decision_reason=reason)


@transaction.atomic
def version_retire(*, version: DocumentVersion, user: User, reason: str = "") -> DocumentVersion:
    _evidence_lock(document_id=version.document_id)
    was_approved = DocumentVersion.objects.select_for_update().filter(
        pk=version.pk, status=VersionStatus.APPROVED).exists()
    retired = _transition(
        version=version,
        allowed_from={VersionStatus.APPROVED, VersionStatus.SUPERSEDED, VersionStatus.EXPIRED,
                      VersionStatus.DRAFT, VersionStatus.PENDING_APPROVAL},
        to=VersionStatus.RETIRED, verb="version.retire", actor=user, note=reason,
    )
    if was_approved:  # a draft, a pending or a replaced version was no evidence: nothing to re-run
        evidence_changed_send(version=retired, change="retired")
    return retired


@transaction.atomic
def document_retire(*, document: Document, user: User, reason: str = "") -> Document:
    """Retire the document and every live version: nothing of it is evidence any more; nothing is deleted."""
    _evidence_lock(document_id=document.pk)
    document = Document.objects.select_for_update().get(pk=document.pk)
    if document.is_retired:
        return document
    document.retired_at = timezone.now()
    document.save(update_fields=["retired_at"])
    for version in document.versions.filter(
        status__in=[VersionStatus.APPROVED, VersionStatus.PENDING_APPROVAL, VersionStatus.DRAFT]
    ):
        version_retire(version=version, user=user, reason=reason or "document retired")
    audit_record(verb="document.retire", obj=document, actor=user, note=reason)
    return document


def _takes_over(version: DocumentVersion) -> bool:
    """An approved version replaces the ones before it only once it can be evidence itself."""
    return version.status == VersionStatus.APPROVED and version.is_effective and version.index_state == IndexState.READY


def _supersede_older(version: DocumentVersion) -> None:
    for older in DocumentVersion.objects.filter(
        document_id=version.document_id, status=VersionStatus.APPROVED, number__lt=version.number
    ):
        superseded = _transition(version=older, allowed_from={VersionStatus.APPROVED}, to=VersionStatus.SUPERSEDED,
                                 verb="version.supersede", actor=None, actor_label="system",
                                 note=f"superseded by version {version.number}")
        evidence_changed_send(version=superseded, change="superseded")


@transaction.atomic
def versions_activate_due() -> int:
    """Approved, indexed versions whose effective date has come supersede the versions before them (beat task)."""
    count = 0
    for version in DocumentVersion.objects.filter(
        status=VersionStatus.APPROVED, effective_from__lte=timezone.now(), index_state=IndexState.READY
    ):
        if DocumentVersion.objects.filter(
            document_id=version.document_id, status=VersionStatus.APPROVED, number__lt=version.number
        ).exists():
            _supersede_older(version)
            count += 1
    return count


@transaction.atomic
def versions_expire_due() -> int:
    """Mark approved versions past their expiry as expired (beat task). Retrieval checks dates anyway."""
    due = DocumentVersion.objects.filter(status=VersionStatus.APPROVED, expires_at__lte=timezone.now())
    for version in due:
        expired = _transition(version=version, allowed_from={VersionStatus.APPROVED}, to=VersionStatus.EXPIRED,
                              verb="version.expire", actor=None, actor_label="system")
        evidence_changed_send(version=expired, change="expired")
    return len(due)


# Indexing ------------------------------------------------------------------------------------------------


def _enqueue_index(version: DocumentVersion) -> None:
    from kb.tasks import version_index

    enqueue_on_commit(version_index, version.pk)


@transaction.atomic
def version_index_retry(*, version: DocumentVersion, user: User | None) -> DocumentVersion:
    """Queue a failed, stuck or still-waiting indexing job again; a running job's claim is taken from it."""
    _evidence_lock(document_id=version.document_id)
    updated = DocumentVersion.objects.filter(
        pk=version.pk, index_state__in=[IndexState.FAILED, IndexState.INDEXING, IndexState.QUEUED]
    ).update(index_state=IndexState.QUEUED, index_error="", index_done=0, index_task_id="", index_worker="",
             index_requested_at=timezone.now())
    if updated:
        audit_record(verb="version.index_retry", obj=version, actor=user, actor_label="" if user else "system")
        _enqueue_index(version)
    version.refresh_from_db()
    return version


def _version_index_retry_audit(version_id: int) -> None:
    audit_record(verb="version.index_retry", obj=DocumentVersion.objects.get(pk=version_id), actor=None,
                 actor_label="system")


# Indexing is work a worker claims (console/work_claims.py). Its claim takes the lock of the version's evidence:
# a version becomes evidence, or stops, only in step with the document's other versions.
VERSION_INDEXING = WorkClaimKind(
    name="indexing of version", model=DocumentVersion,
    waiting=Q(index_state=IndexState.QUEUED), held=Q(index_state=IndexState.INDEXING),
    worker_field="index_worker", held_at_field="index_heartbeat_at", requested_at_field="index_requested_at",
    task_id_field="index_task_id", task="kb.tasks.version_index",
    stale_after=lambda: timezone.timedelta(minutes=settings.KB_INDEX_STALE_MINUTES),
    taken={"index_state": IndexState.INDEXING, "index_done": 0, "index_total": 0, "index_error": ""},
    handed_back={"index_state": IndexState.QUEUED, "index_error": "", "index_done": 0},
    lock=lambda version_id: _evidence_lock(version_id=version_id), on_hand_back=_version_index_retry_audit,
)


def _claimed(version_id: int, task_id: str) -> QuerySet[DocumentVersion]:
    return work_claim_held(kind=VERSION_INDEXING, pk=version_id, task_id=task_id)


def version_index_run(*, version_id: int, task_id: str = "") -> None:
    """Chunk, embed (through the cache) and full-text index a claimed version, then mark it ready.

    Retrieval only reads READY versions, so a crash half-way leaves nothing half-visible;
    the chunks of an interrupted attempt are replaced by the next one. IndexClaimLost when the
    job was given to another task meanwhile.
    """
    version = DocumentVersion.objects.get(pk=version_id)
    drafts = chunk_markdown(version.text, target_chars=settings.KB_CHUNK_TARGET_CHARS)
    provider = get_provider(version.language)
    with transaction.atomic():
        if not _claimed(version_id, task_id).update(index_total=len(drafts), embedding_model=provider.model_id):
            raise IndexClaimLost(f"{version} is no longer claimed by this task")
        Chunk.objects.filter(version=version).delete()

    keeps_units = version.status not in NEVER_EVIDENCE_AGAIN
    for start in range(0, len(drafts), EMBED_BATCH):
        batch = drafts[start : start + EMBED_BATCH]
        inputs = [embedding_input(d.heading_path, d.text) for d in batch]
        per_chunk = [evidence_units(d.text) if keeps_units else [] for d in batch]
        chunk_vectors, unit_vectors = chunks_embed(inputs=inputs, per_chunk=per_chunk, language=version.language)
        with transaction.atomic():
            if not _claimed(version_id, task_id).update(
                index_done=F("index_done") + len(batch), index_heartbeat_at=timezone.now()
            ):
                raise IndexClaimLost(f"{version} is no longer claimed by this task")
            chunks = Chunk.objects.bulk_create(
                Chunk(
                    version=version, ordinal=d.ordinal, heading_path=d.heading_path[:1000], text=d.text,
                    char_start=d.char_start, char_end=d.char_end, line_start=d.line_start, line_end=d.line_end,
                    paragraphs=[list(p) for p in d.paragraphs], content_hash=content_hash(text), embedding=vector,
                )
                for d, text, vector in zip(batch, inputs, chunk_vectors, strict=True)
            )
            ChunkUnit.objects.bulk_create(chunk_unit_rows(chunks=chunks, per_chunk=per_chunk, vectors=unit_vectors))

    with transaction.atomic():
        _evidence_lock(document_id=version.document_id)
        if version.language == "en":
            Chunk.objects.filter(version=version).update(
                search_vector=SearchVector("heading_path", weight="A", config="english")
                + SearchVector("text", weight="B", config="english")
            )
        else:
            _search_vectors_segmented(version)
        if not _claimed(version_id, task_id).update(index_state=IndexState.READY, index_heartbeat_at=timezone.now()):
            raise IndexClaimLost(f"{version} is no longer claimed by this task")
        # In the same transaction: the version before stops being evidence exactly when this one starts.
        ready = DocumentVersion.objects.get(pk=version_id)
        if _takes_over(ready):
            _supersede_older(ready)


def _search_vectors_segmented(version: DocumentVersion) -> None:
    """A language written without spaces is indexed as its words: the text segmented first (checking.languages),
    the knowledge base's own terms kept whole. The same parser and configuration as English, so English words in a
    Chinese document are stemmed as usual and one query reaches both."""
    terms = document_terms(version.text, language=version.language)
    language_for(version.language).terms_add(terms)
    for chunk in Chunk.objects.filter(version=version).only("pk", "heading_path", "text"):
        Chunk.objects.filter(pk=chunk.pk).update(
            search_vector=SearchVector(Value(fulltext_form(chunk.heading_path, language=version.language)),
                                       weight="A", config="english")
            + SearchVector(Value(fulltext_form(chunk.text, language=version.language)), weight="B",
                           config="english")
        )


@transaction.atomic
def version_index_fail(*, version_id: int, error: str, task_id: str = "") -> None:
    _evidence_lock(version_id=version_id)
    # An embedding endpoint's error may name its URL, query-string key included.
    _claimed(version_id, task_id).update(index_state=IndexState.FAILED, index_error=redact(error)[:2000])


@transaction.atomic
def version_index_release(*, version_id: int, task_id: str = "") -> None:
    """Give a claimed job back to the queue before a retry (transient error)."""
    _evidence_lock(version_id=version_id)
    _claimed(version_id, task_id).update(index_state=IndexState.QUEUED, index_task_id="",
                                          index_requested_at=timezone.now())


def embedding_input(heading_path: str, text: str) -> str:
    # The heading path gives a short chunk its topic ("Refunds > Annual plans").
    return f"{heading_path}\n\n{text}" if heading_path else text


def chunks_embed(*, inputs: list[str], per_chunk: list[list[EvidenceUnit]],
                 language: str) -> tuple[list[list[float]], list[list[float]]]:
    """Vectors of chunks (their embedding inputs) and of their units, in order, by the model of their version's
    `language`; the units' new words go to TermEmbedding. One embedding call for the chunks and units (and one for
    the words, embedded in another role): the model sorts them by length into full batches, where a call each left
    part-filled ones."""
    vectors = embeddings_cached(texts=inputs + [u.text for units in per_chunk for u in units], language=language,
                                terms={w for units in per_chunk for u in units for w in u.words})
    return vectors[: len(inputs)], vectors[len(inputs) :]


def chunk_unit_rows(*, chunks: list[Chunk], per_chunk: list[list[EvidenceUnit]],
                    vectors: list[list[float]]) -> list[ChunkUnit]:
    """The checker's units of saved chunks, with their vectors (in the order chunks_embed gave them)."""
    rows = iter(vectors)
    return [ChunkUnit(chunk=chunk, ordinal=k, text=u.text, char_start=chunk.char_start + u.start,
                      char_end=chunk.char_start + u.end, embedding=np.asarray(next(rows), dtype=np.float32).tobytes())
            for chunk, units in zip(chunks, per_chunk, strict=True) for k, u in enumerate(units)]


def embeddings_cached(*, texts: list[str], language: str, terms: set[str] = frozenset()) -> list[list[float]]:
    """Passage vectors for `texts` (chunks and units: the cache holds passages only) by the model of `language`,
    computing only those not already cached for that model. The `terms` (the checker's evidence words) not yet in
    TermEmbedding are embedded too, as queries (words are compared with words), and stored there."""
    model_id = get_provider(language).model_id
    hashes = [content_hash(text) for text in texts]
    cached = {
        row.content_hash: row.embedding
        for row in EmbeddingCache.objects.filter(model_id=model_id, content_hash__in=set(hashes))
    }
    missing = {h: t for h, t in zip(hashes, texts, strict=True) if h not in cached}
    terms = {t for t in terms if len(t) <= _MAX_TERM_CHARS}
    known_terms = set(TermEmbedding.objects.filter(model_id=model_id, term__in=terms).values_list("term", flat=True))
    missing_terms = sorted(terms - known_terms)
    if not missing and not missing_terms:
        return [list(cached[h]) for h in hashes]
    fresh_texts = embed_texts(list(missing.values()), role=Role.PASSAGE, language=language) if missing else []
    fresh_terms = embed_texts(missing_terms, role=Role.QUERY, language=language) if missing_terms else []
    EmbeddingCache.objects.bulk_create(
        [EmbeddingCache(content_hash=h, model_id=model_id, embedding=v)
         for h, v in zip(missing, fresh_texts, strict=True)],
        ignore_conflicts=True,
    )
    TermEmbedding.objects.bulk_create(
        [TermEmbedding(model_id=model_id, term=term, embedding=np.asarray(vector, dtype=np.float32).tobytes())
         for term, vector in zip(missing_terms, fresh_terms, strict=True)],
        ignore_conflicts=True,
    )
    cached.update(zip(missing, fresh_texts, strict=True))
    return [list(cached[h]) for h in hashes]


def chunk_units_drop(*, version: DocumentVersion) -> int:
    """A version that can never be evidence again keeps its chunks but not the checker's units of them."""
    return ChunkUnit.objects.filter(chunk__version=version).delete()[0]
