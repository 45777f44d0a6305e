"""The scoring model and release threshold the checker uses now: the current ``CheckerModel`` row.

Read once per check (one indexed row); the parsed model is kept per process by its id. With no current row — a
new database — the shipped ``model.json`` becomes the first one; when a new release ships another ``model.json``,
its fit takes over (the rows fitted on the old one stay for the record).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache

from django.db import IntegrityError, transaction
from django.utils import timezone

from console.audit import audit_record
from checking.model import MODEL_PATH, ScoringModel
from checking.verdicts import supported_at
from review.learning.leak import EXCEEDED, NOTHING_RELEASED
from review.models import CheckerModel

_PARSED: dict[int, ScoringModel] = {}


@dataclass(frozen=True)
class AdoptedChecker:
    model_id: int
    model: ScoringModel
    release_threshold: float


@cache
def shipped_model_json() -> str:
    return MODEL_PATH.read_text(encoding="utf-8")


def digest_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def shipped_digest() -> str:
    return digest_of(shipped_model_json())


def adopted_checker() -> AdoptedChecker:
    row = CheckerModel.objects.filter(is_current=True).values_list("pk", "release_threshold", "shipped_digest").first()
    if row is None or row[2] != shipped_digest():
        current = shipped_model_adopt()
        row = (current.pk, current.release_threshold, current.shipped_digest)
    model_id, threshold, _ = row
    if model_id not in _PARSED:
        _PARSED[model_id] = ScoringModel.from_json(CheckerModel.objects.values_list("model_json", flat=True)
                                                   .get(pk=model_id))
    return AdoptedChecker(model_id=model_id, model=_PARSED[model_id], release_threshold=threshold)


def shipped_release_threshold(about: dict) -> float:
    """Where the shipped model starts releasing: proven on its training rows by `train_checker` (nothing released
    when no threshold was within the budget there), the supported band if it was fitted without that."""
    release = about.get("release") or {}
    if release.get("status") == EXCEEDED:
        return NOTHING_RELEASED
    return float(release.get("threshold") or supported_at())


def shipped_model_adopt() -> CheckerModel:
    """Make the shipped model.json current, unless it is already (another process may have just done it)."""
    text, digest = shipped_model_json(), shipped_digest()
    try:
        with transaction.atomic():
            current = CheckerModel.objects.select_for_update().filter(is_current=True).first()
            if current is not None and current.shipped_digest == digest:
                return current
            shipped = CheckerModel.objects.filter(origin=CheckerModel.Origin.SHIPPED, digest=digest).first()
            if shipped is None:
                about = ScoringModel.from_json(text).about
                shipped = CheckerModel.objects.create(
                    origin=CheckerModel.Origin.SHIPPED, model_json=text, digest=digest, shipped_digest=digest,
                    release_threshold=shipped_release_threshold(about), figures=about,
                )
            if current is not None:
                CheckerModel.objects.filter(pk=current.pk).update(is_current=False)
            CheckerModel.objects.filter(pk=shipped.pk).update(
                is_current=True, replaced=current, adopted_at=timezone.now(),
                adopted_label="the console on first start" if current is None else "the console on upgrade",
            )
            shipped.refresh_from_db()
            audit_record(verb="checker_model.adopt", obj=shipped, actor_label=shipped.adopted_label,
                         before={"model": current.pk if current else None}, after={"model": shipped.pk})
            return shipped
    except IntegrityError:  # two processes raced to make it current; the other won
        return CheckerModel.objects.get(is_current=True)
