"""Git sources: a repository's branch and folder whose Markdown files are documents.

A sync reads the branch's head. A file whose text changed becomes a new version **awaiting four-eyes approval**,
submitted in its owner's name, with the commit that last changed it; a new file becomes a new document (its key from
its path, or from its front matter); a file gone from the branch asks a curator to retire its document (nothing is
retired by itself); a file that cannot be used is reported in words and the others go on. Nothing unapproved is ever
evidence: approval works as for uploads.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import posixpath
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from console.deferred_text import DeferredTextError, deferred_text_read

from console import roles
from console.audit import audit_record
from console.dispatch import enqueue_on_commit
from console.models import SecurityLevel, User
from kb import git_sources, services
from kb.front_matter import FrontMatterError, front_matter_read
from kb.models import Document, DocumentVersion, Source

STALLED_AFTER = timedelta(minutes=10)  # a sync still "running" this long lost its worker: it is asked for again


class SourceError(ValueError):
    """A source setting the console refuses, with a message for the curator."""


class SourceFileError(DeferredTextError):
    """One file of a sync that cannot become a version; the message says why, in words."""


@dataclass(frozen=True)
class FileOutcome:
    key: str
    number: int | None  # the new version's number; None when the file is unchanged
    new_document: bool = False


@transaction.atomic
def source_create(
    *, name: str, repository: str, branch: str, folder: str, default_owner: User, security_level: str,
    created_by: User, language: str = "", token: str = "",
) -> Source:
    if not created_by.has_role(roles.CURATOR):
        raise PermissionDenied(_("Only curators add sources."))
    if security_level not in SecurityLevel.up_to(created_by.clearance):
        raise PermissionDenied(_("You cannot add a source at a level above your clearance."))
    if Source.objects.filter(name=name.strip()).exists():
        raise SourceError(_("A source named “%(name)s” exists already.") % {"name": name.strip()})
    if not repository.strip():
        raise SourceError(_("Say where the repository is: a path on the server, or an https or ssh URL."))
    source = Source.objects.create(
        name=name.strip(), repository=repository.strip(), branch=branch.strip() or "main",
        folder=folder.strip().strip("/"), token=token.strip(), default_owner=default_owner,
        security_level=security_level, language=language, webhook_secret=secrets.token_hex(32), created_by=created_by,
    )
    audit_record(verb="source.create", obj=source, actor=created_by, after={
        "name": source.name, "repository": source.repository, "branch": source.branch, "folder": source.folder})
    source_sync_request(source=source, user=created_by)
    return source


def source_sync_request(*, source: Source, user: User | None = None, via: str = "") -> bool:
    """Queue a sync unless one is queued or running; True when this call queued it."""
    queued = Source.objects.filter(pk=source.pk, sync_state=Source.SyncState.IDLE).update(
        sync_state=Source.SyncState.QUEUED, sync_requested_at=timezone.now())
    if queued:
        from kb.tasks import source_sync_task

        enqueue_on_commit(source_sync_task, source.pk)
        if user is not None or via:
            audit_record(verb="source.sync_request", obj=source, actor=user, actor_label=via)
    return bool(queued)


def sources_sync_due() -> int:
    """Beat: sync every source whose last sync is older than the interval; ask again for syncs whose message or
    worker was lost."""
    now = timezone.now()
    lost = Source.objects.filter(sync_state=Source.SyncState.RUNNING, sync_requested_at__lt=now - STALLED_AFTER)
    lost.update(sync_state=Source.SyncState.IDLE)
    unsent = Source.objects.filter(sync_state=Source.SyncState.QUEUED, sync_requested_at__lt=now - timedelta(
        seconds=settings.DISPATCH_RESEND_AFTER_SECONDS))
    unsent.update(sync_state=Source.SyncState.IDLE)
    interval = timedelta(seconds=settings.KB_SOURCES_SYNC_INTERVAL_SECONDS)
    due = Source.objects.filter(sync_state=Source.SyncState.IDLE).exclude(last_sync_at__gt=now - interval)
    return sum(source_sync_request(source=source) for source in due)


def source_sync_claim(*, source_id: int) -> bool:
    return bool(Source.objects.filter(pk=source_id, sync_state=Source.SyncState.QUEUED).update(
        sync_state=Source.SyncState.RUNNING, sync_requested_at=timezone.now()))


def source_sync_run(*, source_id: int) -> dict:
    """Read the branch and turn what changed into versions awaiting approval; returns the report it stored."""
    source = Source.objects.select_related("default_owner").get(pk=source_id)
    try:
        head = git_sources.branch_fetch(source_id=source.pk, repository=source.repository, branch=source.branch,
                                        token=source.token)
    except git_sources.GitSourceError as exc:
        return _sync_finish(source=source, report={"commit": "", "versions": [], "unchanged": 0, "removed": [],
                                                   "errors": []}, error=exc.stored)
    report = {"commit": head, "versions": [], "unchanged": 0, "removed": [], "errors": []}
    files = git_sources.markdown_files(source_id=source.pk, commit=head, folder=source.folder)
    present = {file.path for file in files}
    for file in files:
        try:
            outcome = _file_sync(source=source, file=file, head=head, present=present)
        except (SourceFileError, FrontMatterError) as exc:
            report["errors"].append({"path": file.path, "error": exc.stored})
            continue
        except (services.UploadError, PermissionDenied) as exc:  # worded by the upload rules, in this language
            report["errors"].append({"path": file.path, "error": str(exc)})
            continue
        if outcome.number is None:
            report["unchanged"] += 1
        else:
            report["versions"].append({"path": file.path, "key": outcome.key, "number": outcome.number,
                                       "new_document": outcome.new_document})
    for document in source.documents.filter(retired_at__isnull=True).exclude(source_path__in=present):
        if not document.source_removed_in:
            document.source_removed_in = head
            document.save(update_fields=["source_removed_in"])
        report["removed"].append({"path": document.source_path, "key": document.key})
    return _sync_finish(source=source, report=report, error=None)


def _sync_finish(*, source: Source, report: dict, error: dict | None) -> dict:
    Source.objects.filter(pk=source.pk).update(
        sync_state=Source.SyncState.IDLE, last_sync_at=timezone.now(), last_report=report, last_error=error,
        last_commit=report["commit"] or source.last_commit)
    audit_record(verb="source.sync", obj=source, actor=None, actor_label="system",
                 note=deferred_text_read(error) if error else "", after={
        "commit": report["commit"], "versions": len(report["versions"]), "unchanged": report["unchanged"],
        "removed": len(report["removed"]), "errors": len(report["errors"])})
    return report


def _key_from_path(path: str, folder: str) -> str:
    stem = posixpath.splitext(git_sources.relative_to_folder(path, folder))[0]
    key = slugify(stem.replace("/", "-"))[:100].strip("-")
    if not key:
        raise SourceFileError(gettext_noop("No key can be made from this file's name: give it one in the front "
                                           "matter (key: travel-policy)."))
    return key


def _title_of(body: str, path: str) -> str:
    heading = next((line.lstrip("#").strip() for line in body.splitlines() if line.startswith("# ")), "")
    return (heading or posixpath.splitext(posixpath.basename(path))[0])[:200]


def _owner(username: str, fallback: User) -> User:
    if not username:
        return fallback
    owner = User.objects.filter(username=username, is_active=True).first()
    if owner is None:
        raise SourceFileError(gettext_noop("owner: nobody called “%(name)s” can sign in to the console."),
                              name=username)
    return owner


@transaction.atomic
def _file_sync(*, source: Source, file: git_sources.GitFile, head: str, present: set[str]) -> FileOutcome:
    """One file: unchanged, a new version of its document, or a new document; refused in words otherwise."""
    if file.size > settings.KB_MAX_UPLOAD_BYTES:
        raise SourceFileError(gettext_noop("The file is %(size)s MB; the limit is %(limit)s MB."),
                              size=f"{file.size / (1024 * 1024):.1f}",
                              limit=f"{settings.KB_MAX_UPLOAD_BYTES / (1024 * 1024):.1f}")
    try:
        text = git_sources.blob_read(source_id=source.pk, blob_sha=file.blob_sha).decode("utf-8")
    except UnicodeDecodeError:
        raise SourceFileError(gettext_noop("The file is not UTF-8 text.")) from None
    matter = front_matter_read(text)
    document = Document.objects.filter(source=source, source_path=file.path).first()
    new_document = False
    if document is None:
        document = _document_for_new_path(source=source, path=file.path, body=matter.body, key=matter.key,
                                          present=present)
    if document is None:
        owner = _owner(matter.owner, source.default_owner)
        key = matter.key or _key_from_path(file.path, source.folder)
        if Document.objects.filter(key=key).exists():
            raise SourceFileError(gettext_noop("The key “%(key)s” belongs to a document that does not come from this "
                                               "file; set another key in its front matter."), key=key)
        document = services.document_create(
            key=key, title=matter.title or _title_of(matter.body, file.path), owner=owner,
            security_level=matter.security_level or source.security_level, created_by=owner,
            source_type=Document.SourceType.GIT)
        new_document = True
    document.source, document.source_path = source, file.path
    if document.is_retired:
        raise SourceFileError(gettext_noop("Its document “%(key)s” is retired and takes no new versions."),
                              key=document.key)
    document.source_removed_in = ""
    document.save(update_fields=["source", "source_path", "source_removed_in"])
    latest = document.versions.order_by("-number").first()
    if latest is not None and latest.sha256 == hashlib.sha256(matter.body.encode("utf-8")).hexdigest():
        return FileOutcome(key=document.key, number=None)
    commit = git_sources.last_commit_of(source_id=source.pk, commit=head, path=file.path)
    version = services.version_upload(
        document=document, raw=matter.body.encode("utf-8"), filename=file.path, uploaded_by=document.owner,
        effective_from=matter.effective_from, expires_at=matter.expires_at,
        language=matter.language or source.language or None, submit=True,
        note=commit.message.splitlines()[0][:500] if commit.message else "")
    DocumentVersion.objects.filter(pk=version.pk).update(
        commit_sha=commit.sha, commit_author=commit.author, commit_message=commit.message)
    return FileOutcome(key=document.key, number=version.number, new_document=new_document)


def _document_for_new_path(*, source: Source, path: str, body: str, key: str, present: set[str]) -> Document | None:
    """A file at a path this source has no document for: a moved file keeps its document when it names the same key
    in its front matter, or when its text is what a document whose file is gone from the branch last had."""
    gone = source.documents.filter(retired_at__isnull=True).exclude(source_path__in=present)
    if key:
        return gone.filter(key=key).first()
    sha = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return next((document for document in gone
                 if getattr(document.versions.order_by("-number").first(), "sha256", None) == sha), None)


# Push webhooks ------------------------------------------------------------------------------------------------


def _hex_hmac(secret: str, body: bytes) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def push_signature_valid(*, source: Source, headers, body: bytes) -> bool:
    """GitHub (X-Hub-Signature-256: sha256=<hex>), Gitea (X-Gitea-Signature: <hex>), both HMAC-SHA256 of the body
    with the source's secret; GitLab sends the secret itself (X-Gitlab-Token)."""
    expected = _hex_hmac(source.webhook_secret, body)
    github = headers.get("X-Hub-Signature-256", "")
    if github:
        return hmac.compare_digest(github, f"sha256={expected}")
    gitea = headers.get("X-Gitea-Signature", "")
    if gitea:
        return hmac.compare_digest(gitea, expected)
    gitlab = headers.get("X-Gitlab-Token", "")
    if gitlab:
        return hmac.compare_digest(gitlab, source.webhook_secret)
    return False


def push_received(*, source: Source, body: bytes) -> str:
    """A verified push: "queued" when it is to the source's branch (a sync is queued), "ignored" otherwise."""
    try:
        payload = json.loads(body or b"{}")
    except ValueError:
        raise SourceError(_("The push's body is not JSON.")) from None
    ref = payload.get("ref", "") if isinstance(payload, dict) else ""
    if ref != f"refs/heads/{source.branch}":
        return "ignored"
    source_sync_request(source=source, via="push webhook")
    return "queued"
