from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from pgvector.django import HnswIndex, VectorField

from checking.languages import LANGUAGE_CHOICES
from console.models import SecurityLevel
from console.work_claims import work_claim_fields

EMBEDDING_DIMENSIONS = settings.KB_EMBEDDING_DIMENSIONS
SYNONYM_MAX_CHARS = 100  # a side of a vocabulary pair, as written


class Document(models.Model):
    """A stable identity (key) for a source whose content lives in immutable versions. Never deleted: retired."""

    class SourceType(models.TextChoices):
        UPLOAD = "upload", _("Uploaded in the console")
        IMPORT = "import", _("Imported from a file")
        GIT = "git", _("Synced from a Git repository")

    key = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_documents")
    source_type = models.CharField(max_length=16, choices=SourceType.choices, default=SourceType.UPLOAD)
    security_level = models.CharField(max_length=16, choices=SecurityLevel.choices, default=SecurityLevel.INTERNAL)
    created_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(null=True, blank=True)
    # How many days before a version expires its owner and the approvers are reminded; empty: the console's
    # KB_EXPIRY_REMINDER_DAYS.
    reminder_days = models.PositiveSmallIntegerField(null=True, blank=True)
    # A document synced from a Git source: the file it comes from, and, once the file is gone from the branch, the
    # commit that removed it (the document then asks a curator to retire it; nothing is retired by itself).
    source = models.ForeignKey("Source", null=True, blank=True, on_delete=models.PROTECT, related_name="documents")
    source_path = models.CharField(max_length=500, blank=True)
    source_removed_in = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("kb:document_detail", args=[self.key])

    @property
    def audit_security_level(self) -> str:
        """Who may read this document's audit rows (console.audit)."""
        return self.security_level

    @property
    def is_retired(self) -> bool:
        return self.retired_at is not None


class VersionStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PENDING_APPROVAL = "pending_approval", _("Pending approval")
    APPROVED = "approved", _("Approved")
    REJECTED = "rejected", _("Rejected")
    SUPERSEDED = "superseded", _("Superseded")
    RETIRED = "retired", _("Retired")
    EXPIRED = "expired", _("Expired")


class IndexState(models.TextChoices):
    QUEUED = "queued", _("Queued")
    INDEXING = "indexing", _("Indexing")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Failed")


class DocumentVersionQuerySet(models.QuerySet):
    def usable_as_evidence(self, *, clearance: str, at=None) -> QuerySet[DocumentVersion]:
        """Approved, effective, unexpired, indexed versions within `clearance`; one (the newest) per document.

        Read from the evidence spans the database keeps (EvidenceSpan): dates are compared here, at `at` (now),
        so an expired version is never evidence even before the expiry task has run, and a newer approved version
        takes over only once it is indexed: until then the one before it stays evidence.
        """
        return self.filter(pk__in=EvidenceSpan.objects.live(clearance=clearance, at=at).values("version_id"))


class DocumentVersion(work_claim_fields("index_")):
    """One immutable upload of a document's Markdown, with its approval and index state."""

    document = models.ForeignKey(Document, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()
    text = models.TextField()
    # Detected from the text at upload unless the uploader said; the language layer reads it (checking.languages).
    language = models.CharField(max_length=8, choices=LANGUAGE_CHOICES, default="en")
    sha256 = models.CharField(max_length=64)
    filename = models.CharField(max_length=255, blank=True)
    note = models.CharField(max_length=500, blank=True, help_text="What changed in this version.")
    effective_from = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=VersionStatus.choices, default=VersionStatus.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True)
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    submitted_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)

    index_state = models.CharField(max_length=16, choices=IndexState.choices, default=IndexState.QUEUED)
    index_done = models.PositiveIntegerField(default=0)
    index_total = models.PositiveIntegerField(default=0)
    index_error = models.TextField(blank=True)
    index_heartbeat_at = models.DateTimeField(null=True, blank=True)
    # When indexing was last asked for (upload, retry, sweep: a version queued longer is asked for again), and
    # which task holds the claim (a redelivered message, same id, may take its claim back after its worker died);
    # the worker holding it is `index_worker` (console/work_claims.py).
    index_requested_at = models.DateTimeField(null=True, blank=True)
    index_task_id = models.CharField(max_length=255, blank=True)
    embedding_model = models.CharField(max_length=200, blank=True)
    # A version synced from Git: the commit that last changed its file, as Git records it.
    commit_sha = models.CharField(max_length=40, blank=True)
    commit_author = models.CharField(max_length=200, blank=True)
    commit_message = models.TextField(blank=True)

    objects = DocumentVersionQuerySet.as_manager()

    class Meta:
        ordering = ["document", "-number"]
        constraints = [models.UniqueConstraint(fields=["document", "number"], name="unique_version_number")]
        indexes = [models.Index(fields=["status", "effective_from", "expires_at"])]

    def __str__(self) -> str:
        return f"{self.document.key} v{self.number}"

    def get_absolute_url(self) -> str:
        return reverse("kb:version_detail", args=[self.document.key, self.number])

    @property
    def audit_security_level(self) -> str:
        return self.document.security_level

    @property
    def is_expired(self) -> bool:
        return self.status == VersionStatus.EXPIRED or (
            self.expires_at is not None and self.expires_at <= timezone.now()
        )

    @property
    def is_effective(self) -> bool:
        return self.effective_from <= timezone.now()

    @property
    def index_percent(self) -> int:
        if self.index_state == IndexState.READY:
            return 100
        return int(100 * self.index_done / self.index_total) if self.index_total else 0

    @property
    def index_overdue(self) -> bool:
        """Queued for longer than the sweep waits before asking again: no worker has taken it (yet)."""
        waited = timezone.now() - timezone.timedelta(seconds=settings.DISPATCH_RESEND_AFTER_SECONDS)
        return self.index_state == IndexState.QUEUED and (self.index_requested_at or self.created_at) < waited

    @property
    def display_status(self) -> str:
        """Status as a reader should see it: an approved version past its expiry reads as expired."""
        if self.status == VersionStatus.APPROVED and self.is_expired:
            return VersionStatus.EXPIRED
        return self.status


class Source(models.Model):
    """A Git repository's branch and folder whose Markdown files are documents. Each sync turns a changed file into
    a version awaiting four-eyes approval; nothing unapproved is ever evidence."""

    class SyncState(models.TextChoices):
        IDLE = "idle", _("Idle")
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Syncing")

    name = models.CharField(max_length=100, unique=True)
    repository = models.CharField(max_length=500, help_text=_("A path on the server, or an https or ssh URL."))
    branch = models.CharField(max_length=200, default="main")
    folder = models.CharField(max_length=300, blank=True)
    token = models.CharField(max_length=500, blank=True)  # for https; never shown again once saved
    default_owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    security_level = models.CharField(max_length=16, choices=SecurityLevel.choices, default=SecurityLevel.INTERNAL)
    language = models.CharField(max_length=8, choices=LANGUAGE_CHOICES, blank=True)  # blank: detected per file
    webhook_secret = models.CharField(max_length=64)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    sync_state = models.CharField(max_length=16, choices=SyncState.choices, default=SyncState.IDLE)
    sync_requested_at = models.DateTimeField(null=True, blank=True)
    last_sync_at = models.DateTimeField(null=True, blank=True)
    last_commit = models.CharField(max_length=40, blank=True)
    # What the last sync found: {"commit", "versions": [...], "unchanged": n, "removed": [...], "errors": [...]}.
    last_report = models.JSONField(default=dict, blank=True)
    # The sync as a whole failed (unreachable, no such branch): its words, translated when shown.
    last_error = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("kb:source_detail", args=[self.pk])

    @property
    def audit_security_level(self) -> str:
        return self.security_level


class ExpiryExtension(models.Model):
    """A version re-verified by its owner: "still correct until" a later date, in force once an approver other
    than the owner approves it (four-eyes). The text, its chunks and its index stay as they are."""

    class State(models.TextChoices):
        PENDING = "pending", _("Awaiting approval")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    version = models.ForeignKey(DocumentVersion, on_delete=models.PROTECT, related_name="extensions")
    expires_at = models.DateTimeField()
    previous_expires_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=500, blank=True)
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        # One request waits at a time per version: a second would leave the approver two dates to choose from.
        constraints = [models.UniqueConstraint(fields=["version"], condition=Q(state="pending"),
                                               name="one_pending_extension_per_version")]

    def __str__(self) -> str:
        return f"{self.version} until {self.expires_at:%Y-%m-%d}"

    @property
    def audit_security_level(self) -> str:
        return self.version.document.security_level


class EvidenceSpanQuerySet(models.QuerySet):
    def live(self, *, clearance: str, at=None) -> QuerySet[EvidenceSpan]:
        """The spans in force at `at` (now) within `clearance`: one per document at most."""
        now = at or timezone.now()
        return self.filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now), starts_at__lte=now,
                           security_level__in=SecurityLevel.up_to(clearance))


class EvidenceSpan(models.Model):
    """A stretch of time during which a version is its document's evidence: from `starts_at` until `ends_at`.

    Written only by the database (migration 0004): triggers on versions and documents recompute a document's spans
    whenever a version's status, index state, dates or number change, or the document is retired or changes
    security level, so every write keeps them current: services, queryset updates, the admin, a shell. The rule
    is the one evidence always had: of the approved, indexed, unretired versions whose dates cover a moment, the
    newest; the spans are that rule worked out once per change instead of in every search statement (at 100,000
    chunks it cost 13-21 ms in each). The triggers take a per-document advisory lock, so two transactions changing
    versions of one document cannot each leave spans computed without the other's change; services take it before
    their first write to a document (kb.services._evidence_lock), so the lock never waits behind a row lock."""

    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey("DocumentVersion", on_delete=models.CASCADE, related_name="evidence_spans")
    security_level = models.CharField(max_length=16, choices=SecurityLevel.choices)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True)  # open: evidence until something changes

    objects = EvidenceSpanQuerySet.as_manager()

    class Meta:
        ordering = ["document", "starts_at"]

    def __str__(self) -> str:
        return f"version {self.version_id} from {self.starts_at:%Y-%m-%d %H:%M} until {self.ends_at or '-'}"


class Chunk(models.Model):
    """A heading-bounded slice of a version's Markdown: version.text[char_start:char_end] == text."""

    version = models.ForeignKey(DocumentVersion, on_delete=models.PROTECT, related_name="chunks")
    ordinal = models.PositiveIntegerField()
    heading_path = models.CharField(max_length=1000, blank=True)
    text = models.TextField()
    char_start = models.PositiveIntegerField()
    char_end = models.PositiveIntegerField()
    line_start = models.PositiveIntegerField()
    line_end = models.PositiveIntegerField()
    # Absolute [start, end) character ranges of the blocks (paragraphs, lists, tables) inside the chunk.
    paragraphs = models.JSONField(default=list)
    content_hash = models.CharField(max_length=64)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, null=True)
    search_vector = SearchVectorField(null=True)

    class Meta:
        ordering = ["version", "ordinal"]
        constraints = [models.UniqueConstraint(fields=["version", "ordinal"], name="unique_chunk_ordinal")]
        indexes = [
            GinIndex(fields=["search_vector"], name="chunk_search_gin"),
            HnswIndex(
                name="chunk_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version} #{self.ordinal}"

    def paragraph_containing(self, offset: int) -> tuple[int, int]:
        """The block (absolute char range) that holds `offset`, for tracing a quote to its paragraph."""
        for start, end in self.paragraphs:
            if start <= offset < end:
                return start, end
        return self.char_start, self.char_end


class ChunkUnit(models.Model):
    """One unit of a chunk as the built-in checker cuts it (a sentence, list item, or table row read with its
    header), embedded when the version is indexed: a check reads these vectors instead of embedding evidence.

    Part of the index: rebuilt with the chunks, deleted with them, and dropped when the version can never be
    evidence again (kb.services). A chunk without units is checked as before, embedding at check time."""

    chunk = models.ForeignKey(Chunk, on_delete=models.CASCADE, related_name="units")
    ordinal = models.PositiveIntegerField()
    text = models.TextField()  # what the checker embeds for the unit (checking.analysis.Unit.embed_text)
    char_start = models.PositiveIntegerField()  # in the version's Markdown, like Chunk's
    char_end = models.PositiveIntegerField()
    # float32 bytes, L2-normalised: read back with numpy.frombuffer, ~1000x cheaper than parsing pgvector's text
    # form, and never searched by similarity (the chunk's own vector is), so it needs no vector index.
    embedding = models.BinaryField()

    class Meta:
        ordering = ["chunk", "ordinal"]
        constraints = [models.UniqueConstraint(fields=["chunk", "ordinal"], name="unique_chunk_unit_ordinal")]

    def __str__(self) -> str:
        return f"{self.chunk} unit {self.ordinal}"


class TermEmbedding(models.Model):
    """Vectors of the single words of indexed units, by model: the checker's paraphrase credit compares claim
    words with evidence words. A vocabulary shared by every version, filled at indexing, never pruned."""

    model_id = models.CharField(max_length=200)
    term = models.CharField(max_length=200)
    embedding = models.BinaryField()  # float32 bytes, L2-normalised

    class Meta:
        constraints = [models.UniqueConstraint(fields=["model_id", "term"], name="unique_term_embedding")]


class EmbeddingCache(models.Model):
    """Embeddings by (content hash, model): a new version re-embeds only chunks whose text changed."""

    content_hash = models.CharField(max_length=64)
    model_id = models.CharField(max_length=200)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["content_hash", "model_id"], name="unique_embedding_cache")]


class Synonym(models.Model):
    """A word or phrase pair of one language that means the same (the vocabulary): a candidate learned from
    reviewers who confirmed claims wording a source's word otherwise, with those confirmations; accepted by a
    curator (or by itself, KB_SYNONYM_AUTO_ACCEPT), which the checker's word coverage and the Ask gate then credit
    (checking.vocabulary); or dismissed (also what removing an accepted pair does: it is not suggested again)."""

    class State(models.TextChoices):
        CANDIDATE = "candidate", _("Candidate")
        ACCEPTED = "accepted", _("Accepted")
        DISMISSED = "dismissed", pgettext_lazy("synonym", "Dismissed")  # not a dismissed source correction

    class Source(models.TextChoices):
        REVIEW = "review", _("Learned from reviews")
        CURATOR = "curator", _("Added by a curator")

    language = models.CharField(max_length=8, choices=LANGUAGE_CHOICES)
    words = models.CharField(max_length=SYNONYM_MAX_CHARS)  # as first written: the claim's words for a learned pair
    other_words = models.CharField(max_length=SYNONYM_MAX_CHARS)  # the evidence's
    # Both sides' stems, in order (kb.vocabulary.pair_key): one row per pair whichever way round and however inflected.
    key = models.CharField(max_length=300)
    state = models.CharField(max_length=16, choices=State.choices, default=State.CANDIDATE)
    source = models.CharField(max_length=16, choices=Source.choices)
    # The highest level of the texts it was learned from: who may see it (and its audit rows).
    security_level = models.CharField(max_length=16, choices=SecurityLevel.choices, default=SecurityLevel.PUBLIC)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)  # with the count of accepted pairs: the checker's freshness
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["language", "words"]
        constraints = [models.UniqueConstraint(fields=["language", "key"], name="unique_synonym_pair")]
        indexes = [models.Index(fields=["state", "updated_at"], name="synonym_state_updated")]

    def __str__(self) -> str:
        return f"{self.words} ↔ {self.other_words}"

    @property
    def audit_security_level(self) -> str:
        return self.security_level


class SynonymConfirmation(models.Model):
    """One confirmed claim that showed a candidate pair: the claim's words where the evidence has the other side.
    The answer and claim are review's (a layer above): kept by id, with the texts as they were."""

    synonym = models.ForeignKey(Synonym, on_delete=models.CASCADE, related_name="confirmations")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    answer_id = models.PositiveBigIntegerField(db_index=True)
    claim_id = models.PositiveBigIntegerField()
    claim_text = models.TextField()
    evidence_text = models.TextField()  # the quote the claim was checked against
    security_level = models.CharField(max_length=16, choices=SecurityLevel.choices, default=SecurityLevel.PUBLIC)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["synonym", "claim_id"], name="unique_synonym_claim")]

    def __str__(self) -> str:
        return f"{self.synonym} (claim {self.claim_id})"
