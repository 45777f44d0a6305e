from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from console.models import SecurityLevel, User
from kb.models import Document, DocumentVersion, IndexState, VersionStatus


def documents_visible_to(user: User) -> QuerySet[Document]:
    return Document.objects.filter(security_level__in=SecurityLevel.up_to(user.clearance))


def versions_visible_to(user: User) -> QuerySet[DocumentVersion]:
    return DocumentVersion.objects.filter(document__security_level__in=SecurityLevel.up_to(user.clearance))


def get_document_for_user(*, user: User, key: str) -> Document:
    """404 (not 403) above the user's clearance: the document's existence is itself confidential."""
    return get_object_or_404(documents_visible_to(user).select_related("owner"), key=key)


def get_version_for_user(*, user: User, key: str, number: int) -> DocumentVersion:
    document = get_document_for_user(user=user, key=key)
    try:
        return document.versions.select_related("submitted_by", "approved_by").get(number=number)
    except DocumentVersion.DoesNotExist:
        raise Http404(f"{key} has no version {number}") from None


def documents_list(
    *, user: User, q: str = "", status: str = "", owner: str = "", security_level: str = "", expiring: bool = False,
    mine: bool = False,
) -> QuerySet[Document]:
    latest = DocumentVersion.objects.filter(document=OuterRef("pk")).order_by("-number")
    now = timezone.now()
    live = DocumentVersion.objects.filter(  # the version in use as evidence (see usable_as_evidence)
        Q(expires_at__isnull=True) | Q(expires_at__gt=now),
        document=OuterRef("pk"), status=VersionStatus.APPROVED, effective_from__lte=now, index_state=IndexState.READY,
    ).order_by("-number")
    documents = documents_visible_to(user).select_related("owner").annotate(
        latest_number=Subquery(latest.values("number")[:1]),
        latest_status=Subquery(latest.values("status")[:1]),
        latest_index_state=Subquery(latest.values("index_state")[:1]),
        live_number=Subquery(live.values("number")[:1]),
        live_expires_at=Subquery(live.values("expires_at")[:1]),
    )
    if q:
        documents = documents.filter(Q(title__icontains=q) | Q(key__icontains=q))
    if status:
        documents = documents.filter(versions__status=status).distinct()
    if owner:
        documents = documents.filter(owner__username=owner)
    if mine:
        documents = documents.filter(owner=user)
    if security_level:
        documents = documents.filter(security_level=security_level)
    if expiring:
        documents = documents.filter(live_expires_at__lte=now + timedelta(days=settings.KB_EXPIRING_SOON_DAYS))
    return documents.order_by("title")


def versions_expiring_soon(*, user: User, days: int | None = None) -> QuerySet[DocumentVersion]:
    now = timezone.now()
    horizon = now + timedelta(days=days or settings.KB_EXPIRING_SOON_DAYS)
    return versions_visible_to(user).filter(
        status=VersionStatus.APPROVED, expires_at__gt=now, expires_at__lte=horizon
    ).select_related("document__owner").order_by("expires_at")


@dataclass(frozen=True)
class Handover:
    """Which of a document's versions is evidence now, and which approved one takes over once indexed."""

    in_use: DocumentVersion | None
    waiting: DocumentVersion | None  # approved and effective, not indexed yet: `in_use` stays evidence until it is


def version_handover(*, versions: list[DocumentVersion]) -> Handover:
    """From a document's versions (any order), as usable_as_evidence decides for the document."""
    live = sorted((v for v in versions if v.status == VersionStatus.APPROVED and v.is_effective and not v.is_expired),
                  key=lambda v: v.number)
    ready = [v for v in live if v.index_state == IndexState.READY]
    in_use = ready[-1] if ready else None
    waiting = live[-1] if live and live[-1] is not in_use and live[-1].index_state != IndexState.READY else None
    return Handover(in_use=in_use, waiting=waiting)


def versions_awaiting_approval(*, user: User) -> QuerySet[DocumentVersion]:
    """Versions this approver may decide: pending, within their clearance, not their own upload (four-eyes)."""
    return (
        versions_visible_to(user).filter(status=VersionStatus.PENDING_APPROVAL)
        .exclude(submitted_by=user).select_related("document", "submitted_by").order_by("submitted_at", "pk")
    )
