"""External checkers chained after the built-in one: AlignScore over HTTP (NeMo's contract) and an LLM judge.

Each checks the claim against the first (best) candidate's text and gives a score in 0..1 with one finding
(external support at 0.5 or more, doubt below), or raises CheckerUnavailable; the pipeline records the skip
as a warning and never counts a skipped checker as a pass.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

import httpx
from django.conf import settings

from checking.base import CheckerUnavailable, CheckOutcome, ClaimChecker, EvidenceCandidate
from checking.findings import Finding, FindingKind

logger = logging.getLogger(__name__)

LLM_PROMPT = (
    "You are checking whether a statement is supported by the evidence.\n\n"
    "Evidence:\n{evidence}\n\nStatement:\n{claim}\n\n"
    "Does the evidence entail the statement? Numbers, dates, names and directions must agree. "
    "Answer with one word: yes or no."
)
_YES_NO = re.compile(r"\b(yes|no)\b", re.IGNORECASE)


_SUPPORTS_AT = 0.5  # an outside score this high supports the claim; lower, it doubts it


def _outcome(name: str, score: float, evidence: str) -> CheckOutcome:
    """An outside checker judges the whole first candidate: that is its quote."""
    kind = FindingKind.EXTERNAL_SUPPORT if score >= _SUPPORTS_AT else FindingKind.EXTERNAL_DOUBT
    return CheckOutcome(score=score, findings=[Finding(kind, f"{name} score {score:.2f}")], candidate_index=0,
                        quote_start=0, quote_end=len(evidence))


def _first_text(candidates: Sequence[EvidenceCandidate]) -> str:
    if not candidates:
        raise CheckerUnavailable("no evidence to check against")
    return candidates[0].text


def _post_json(url: str, payload: dict, *, headers: dict | None = None, attempts: int = 2) -> dict:
    """POST with a timeout; one retry for connection errors and 5xx, none for 4xx."""
    last_error = ""
    for _ in range(attempts):
        try:
            response = httpx.post(url, json=payload, headers=headers or {}, timeout=settings.REVIEW_CHECKER_TIMEOUT)
        except httpx.TimeoutException:
            raise CheckerUnavailable(f"timed out after {settings.REVIEW_CHECKER_TIMEOUT:g}s") from None
        except httpx.HTTPError as exc:
            last_error = f"{type(exc).__name__}: {exc}"
            continue
        if response.status_code >= 500:
            last_error = f"HTTP {response.status_code}"
            continue
        if response.status_code >= 400:
            raise CheckerUnavailable(f"HTTP {response.status_code}")
        try:
            return response.json()
        except ValueError:
            raise CheckerUnavailable("answered with invalid JSON") from None
    raise CheckerUnavailable(last_error)


class AlignScoreChecker:
    name = "alignscore"

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint

    def check(self, *, claim: str, candidates: Sequence[EvidenceCandidate]) -> CheckOutcome:
        evidence = _first_text(candidates)
        body = _post_json(self.endpoint, {"evidence": evidence, "claim": claim})
        value = body.get("alignscore") if isinstance(body, dict) else None
        if not isinstance(value, int | float) or not 0 <= value <= 1:
            raise CheckerUnavailable(f"answered without a valid alignscore: {str(body)[:100]}")
        return _outcome(self.name, float(value), evidence)


class LlmJudgeChecker:
    name = "llm"

    def __init__(self, *, base_url: str, model: str, api_key: str = "") -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    def check(self, *, claim: str, candidates: Sequence[EvidenceCandidate]) -> CheckOutcome:
        evidence = _first_text(candidates)
        body = _post_json(self.url, {
            "model": self.model,
            "temperature": 0,
            "max_tokens": 3,
            "messages": [{"role": "user", "content": LLM_PROMPT.format(evidence=evidence, claim=claim)}],
        }, headers=self.headers)
        try:
            content = body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise CheckerUnavailable("answered without a message") from None
        match = _YES_NO.search(content or "")
        if match is None:
            raise CheckerUnavailable(f"answered neither yes nor no: {content[:60]!r}")
        return _outcome(self.name, 1.0 if match.group(1).lower() == "yes" else 0.0, evidence)


def configured_checkers() -> list[ClaimChecker]:
    """The external checkers named in REVIEW_CHECKERS (the built-in one always runs first)."""
    checkers: list[ClaimChecker] = []
    for name in settings.REVIEW_CHECKERS:
        if name == "alignscore" and settings.REVIEW_ALIGNSCORE_URL:
            checkers.append(AlignScoreChecker(settings.REVIEW_ALIGNSCORE_URL))
        elif name == "llm" and settings.REVIEW_LLM_URL:
            checkers.append(LlmJudgeChecker(base_url=settings.REVIEW_LLM_URL, model=settings.REVIEW_LLM_MODEL,
                                            api_key=settings.REVIEW_LLM_API_KEY))
        elif name not in {"builtin", "alignscore", "llm"}:
            logger.warning("unknown checker %r in REVIEW_CHECKERS; ignored", name)
        elif name != "builtin":
            logger.warning("checker %r is enabled but its URL is not set; ignored", name)
    return checkers
