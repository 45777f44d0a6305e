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
from checking.languages.detect import DEFAULT_LANGUAGE
from checking.model import MODEL_PATH, ScoringModel
from checking.verdicts import supported_at
from review.learning.leak import EXCEEDED, NOTHING_RELEASED, PROVEN
from review.learning.models import CheckerModel

_PARSED: dict[int, ScoringModel] = {}


@dataclass(frozen=True)
class AdoptedChecker:
    model_id: int
    model: ScoringModel
    release_threshold: float
    is_shipped: bool = False

    def release_threshold_for(self, language: str) -> float:
        """The threshold for answers in ``language``. The model's own (``release_threshold``: proven for the default
        language's rows when shipped, moved by the learning loop as audits come in) except, for the shipped model,
        in another language it was trained on: the threshold proven on that language's own rows by train_checker,
        or nothing released where they could not prove the budget (too few rows: Chinese's 438) until reviews teach
        a model. A model refitted on reviews proves one threshold on the deployment's labels, whatever language."""
        by_language = self.model.about.get("release_by_language", {}) if self.is_shipped else {}
        if language == DEFAULT_LANGUAGE or language not in by_language:
            return self.release_threshold
        release = by_language[language]
        return float(release["threshold"]) if release.get("status") == PROVEN else NOTHING_RELEASED


@cache
def shipped_model_json() -> str:
    return MODEL_PATH.read_text(encoding="utf-8")


def digest_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@cache
def shipped_digest() -> str:
    return digest_of(shipped_model_json())


def adopted_checker() -> AdoptedChecker:
    row = CheckerModel.objects.filter(is_current=True).values_list(
        "pk", "release_threshold", "shipped_digest", "origin").first()
    if row is None or row[2] != shipped_digest():
        current = shipped_model_adopt()
        row = (current.pk, current.release_threshold, current.shipped_digest, current.origin)
    model_id, threshold, _, origin = row
    if model_id not in _PARSED:
        _PARSED[model_id] = ScoringModel.from_json(CheckerModel.objects.values_list("model_json", flat=True)
                                                   .get(pk=model_id))
    return AdoptedChecker(model_id=model_id, model=_PARSED[model_id], release_threshold=threshold,
                          is_shipped=origin == CheckerModel.Origin.SHIPPED)


def shipped_release_threshold(about: dict) -> float:
    """Where the shipped model starts releasing: proven on its training rows in the default language by
    `train_checker` (on all of them for a model fitted before thresholds were proven per language; nothing released
    when no threshold was within the budget there), the supported band if it was fitted without that."""
    release = about.get("release_by_language", {}).get(DEFAULT_LANGUAGE) or about.get("release") or {}
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
