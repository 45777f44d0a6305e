"""Verdict bands, in one place for every checker: a score's verdict is set here, from settings."""

from __future__ import annotations

from django.conf import settings

# Read once at import, like every setting: NeMo's fact-checking bands by default (0.6 and 0.4).
SUPPORTED_AT: float = settings.REVIEW_SUPPORTED_AT
UNCERTAIN_AT: float = settings.REVIEW_UNCERTAIN_AT


def verdict_for(score: float, has_evidence: bool) -> str:
    if not has_evidence:
        return "unverifiable"
    if score >= SUPPORTED_AT:
        return "supported"
    if score >= UNCERTAIN_AT:
        return "uncertain"
    return "contradicted"
