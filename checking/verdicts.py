"""Verdict bands, in one place for every checker: a score's verdict is set here, from settings.

A claim is *contradicted* only when a finding shows the evidence stating something else about the same
subject; a low score without one, or with the evidence speaking of another subject, means nothing relevant
supports it: *not found*.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings

from checking.findings import Finding, about_another_subject

SUPPORTED = "supported"
UNCERTAIN = "uncertain"
CONTRADICTED = "contradicted"
NOT_FOUND = "not_found"


# Read at each call, so a changed setting (or override_settings) applies at once: NeMo's fact-checking bands by
# default (0.6 and 0.4).
def supported_at() -> float:
    return settings.REVIEW_SUPPORTED_AT


def uncertain_at() -> float:
    return settings.REVIEW_UNCERTAIN_AT


def verdict_for(*, score: float | None, findings: Sequence[Finding], has_evidence: bool) -> str:
    if not has_evidence or score is None:
        return NOT_FOUND
    if score >= supported_at():
        return SUPPORTED
    if score >= uncertain_at():
        return UNCERTAIN
    if any(f.is_contradiction for f in findings) and not about_another_subject(findings):
        return CONTRADICTED
    return NOT_FOUND
