from __future__ import annotations

from datetime import datetime, time
from pathlib import Path

from django.core.exceptions import PermissionDenied
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.text import slugify

from checking.languages import LANGUAGE_CODES
from console.models import SecurityLevel, User
from kb import services
from kb.models import Document


def _parse_when(value: str | None, option: str) -> datetime | None:
    if not value:
        return None
    parsed = parse_datetime(value) or (
        datetime.combine(parse_date(value), time.min) if parse_date(value) else None
    )
    if parsed is None:
        raise CommandError(f"{option} must be a date (YYYY-MM-DD) or date-time, not {value!r}")
    return timezone.make_aware(parsed) if timezone.is_naive(parsed) else parsed


def _first_heading(text: str) -> str | None:
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return None


class Command(BaseCommand):
    help = "Import Markdown files as documents (or new versions of them) and optionally approve them."

    def add_arguments(self, parser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE.md")
        parser.add_argument("--owner", required=True, help="username of the document owner (and uploader)")
        parser.add_argument("--key", help="document key (only with one file); default: the file name")
        parser.add_argument("--security-level", default=SecurityLevel.INTERNAL, choices=SecurityLevel.values)
        parser.add_argument("--effective-from")
        parser.add_argument("--expires-at")
        parser.add_argument("--language", choices=LANGUAGE_CODES,
                            help="the documents' language (default: detected from each file's text)")
        parser.add_argument("--approve-as", help="approver username; the approval is audited as made by kb_import")

    def handle(self, *args, files: list[str], owner: str, key: str | None, security_level: str,
               effective_from: str | None, expires_at: str | None, approve_as: str | None, language: str | None = None,
               **options) -> None:
        if key and len(files) > 1:
            raise CommandError("--key names one document: give one file with it")
        owner_user = self._user(owner, "--owner")
        approver = self._user(approve_as, "--approve-as") if approve_as else None
        if approver is not None:
            self._check_clearance(files=files, key=key, approver=approver, security_level=security_level)
        effective = _parse_when(effective_from, "--effective-from")
        expires = _parse_when(expires_at, "--expires-at")
        failures = 0
        for name in files:
            path = Path(name)
            try:
                self._import_one(path=path, key=key or slugify(path.stem), owner=owner_user, approver=approver,
                                 security_level=security_level, effective_from=effective, expires_at=expires,
                                 language=language)
            except (services.UploadError, services.TransitionError, PermissionDenied, OSError) as exc:
                failures += 1
                self.stderr.write(f"{name}: {exc}")
        if failures:
            raise CommandError(f"{failures} of {len(files)} files were not imported")

    def _user(self, username: str, option: str) -> User:
        try:
            return User.objects.get(username=username)
        except User.DoesNotExist:
            raise CommandError(f"{option}: no user named {username!r}") from None

    def _check_clearance(self, *, files: list[str], key: str | None, approver: User, security_level: str) -> None:
        """Nobody approves what they could not open: refuse before importing anything."""
        for name in files:
            document_key = key or slugify(Path(name).stem)
            level = Document.objects.filter(key=document_key).values_list("security_level", flat=True).first()
            level = level or security_level
            if level not in SecurityLevel.up_to(approver.clearance):
                raise CommandError(
                    f"--approve-as {approver.username}: {name} is a {level} document ({document_key}), above their "
                    f"clearance ({approver.clearance}); nothing was imported"
                )

    @transaction.atomic
    def _import_one(self, *, path: Path, key: str, owner: User, approver: User | None, security_level: str,
                    effective_from: datetime | None, expires_at: datetime | None, language: str | None) -> None:
        raw = path.read_bytes()
        upload = {"raw": raw, "filename": path.name, "uploaded_by": owner, "effective_from": effective_from,
                  "expires_at": expires_at, "note": f"imported from {path.name}", "language": language}
        document = Document.objects.filter(key=key).first()
        if document is None:
            title = _first_heading(services.markdown_decode_upload(raw=raw, filename=path.name))
            version = services.document_create_with_version(
                key=key, title=title or path.stem.replace("-", " ").title(), owner=owner,
                security_level=security_level, source_type=Document.SourceType.IMPORT, **upload,
            )
        else:
            version = services.version_upload(document=document, **upload)
        if approver is not None:
            version = services.version_approve(version=version, approver=approver,
                                               note="approved at import", via="kb_import")
        self.stdout.write(f"{path.name}: {version.document.key} v{version.number} {version.status}")
