"""Generation through an OpenAI-compatible /chat/completions endpoint (ASK_LLM_URL, ASK_LLM_MODEL, ASK_LLM_API_KEY).

The model sees the qualified passages (chunk id, document key, version, where the passage starts in its version)
and must reply in the ask endpoint's own JSON shape, enforced with a JSON-schema response format. Its reply is
checked again here, since not every server enforces the schema: valid JSON, every field present and typed, every
claim citing one of the passages it was given, with offsets inside that passage. Anything else raises
GenerationRejected, and the caller answers with the extractive composer instead (ask/services.py), recording why.
The API key travels in the Authorization header only: it is never logged nor put in an error message.
"""

from __future__ import annotations

import json
import logging

import httpx
from django.conf import settings

from ask.compose import ComposedClaim, Composition
from kb.search import SearchHit

logger = logging.getLogger(__name__)

SYSTEM_PROMPT = (
    "You answer questions only from the numbered passages given. Every claim must quote one passage verbatim: "
    "give its chunk_id, document_key, version, and quote_start/quote_end as character offsets in the version's "
    "text (a passage starting at offset S holds characters S to S+len(passage)). If the passages do not answer "
    "the question, reply with status insufficient_evidence and no claims. Never use outside knowledge."
)
RESPONSE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["status", "answer", "claims"],
    "properties": {
        "status": {"type": "string", "enum": ["answered", "insufficient_evidence"]},
        "answer": {"type": "string"},
        "claims": {"type": "array", "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["source_id", "quote_start", "quote_end", "text"],
            "properties": {
                "source_id": {"type": "object", "additionalProperties": False,
                              "required": ["document_key", "version", "chunk_id"],
                              "properties": {"document_key": {"type": "string"}, "version": {"type": "integer"},
                                             "chunk_id": {"type": "integer"}}},
                "quote_start": {"type": "integer"},
                "quote_end": {"type": "integer"},
                "text": {"type": "string"},
            },
        }},
    },
}


class GenerationRejected(Exception):
    """The model's reply was unusable (timeout, HTTP error, invalid JSON, schema violation, bad quote)."""


def llm_configured() -> bool:
    return bool(settings.ASK_LLM_URL)


def _passages(hits: list[SearchHit]) -> str:
    return "\n\n".join(
        f"[chunk_id {hit.chunk.pk}] {hit.chunk.version.document.key} v{hit.chunk.version.number}, "
        f"'{hit.chunk.version.document.title}', starts at offset {hit.chunk.char_start}:\n{hit.chunk.text}"
        for hit in hits
    )


def _request(question: str, hits: list[SearchHit]) -> dict:
    return {
        "model": settings.ASK_LLM_MODEL,
        "temperature": 0,
        "messages": [{"role": "system", "content": SYSTEM_PROMPT},
                     {"role": "user", "content": f"Passages:\n\n{_passages(hits)}\n\nQuestion: {question}"}],
        "response_format": {"type": "json_schema",
                            "json_schema": {"name": "grounded_answer", "strict": True, "schema": RESPONSE_SCHEMA}},
    }


def _post(payload: dict) -> dict:
    headers = {"Authorization": f"Bearer {settings.ASK_LLM_API_KEY}"} if settings.ASK_LLM_API_KEY else {}
    url = settings.ASK_LLM_URL.rstrip("/") + "/chat/completions"
    try:
        response = httpx.post(url, json=payload, headers=headers, timeout=settings.ASK_LLM_TIMEOUT)
    except httpx.TimeoutException:
        raise GenerationRejected(f"the model did not answer within {settings.ASK_LLM_TIMEOUT:g}s") from None
    except httpx.HTTPError as exc:
        raise GenerationRejected(f"the model endpoint could not be reached ({type(exc).__name__})") from None
    if response.status_code >= 400:
        raise GenerationRejected(f"the model endpoint answered HTTP {response.status_code}")
    try:
        return response.json()
    except ValueError:
        raise GenerationRejected("the model endpoint answered with invalid JSON") from None


def _content(body: dict) -> dict:
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise GenerationRejected("the reply has no message") from None
    try:
        data = json.loads(content)
    except (TypeError, ValueError):
        raise GenerationRejected(f"the message is not JSON: {str(content)[:80]!r}") from None
    if not isinstance(data, dict):
        raise GenerationRejected("the message is not a JSON object")
    return data


def _typed(value: object, kind: type, where: str) -> object:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise GenerationRejected(f"{where} is missing or not a{'n integer' if kind is int else ' ' + kind.__name__}")
    return value


def _claim(raw: object, number: int, chunks: dict) -> ComposedClaim:
    where = f"claims[{number}]"
    if not isinstance(raw, dict):
        raise GenerationRejected(f"{where} is not an object")
    source = raw.get("source_id")
    if not isinstance(source, dict):
        raise GenerationRejected(f"{where}.source_id is missing")
    chunk_id = _typed(source.get("chunk_id"), int, f"{where}.source_id.chunk_id")
    chunk = chunks.get(chunk_id)
    if chunk is None:
        raise GenerationRejected(f"{where} cites chunk {chunk_id}, which was not among the passages given")
    if (source.get("document_key"), source.get("version")) != (chunk.version.document.key, chunk.version.number):
        raise GenerationRejected(f"{where}.source_id does not name chunk {chunk_id}'s document and version")
    start = _typed(raw.get("quote_start"), int, f"{where}.quote_start")
    end = _typed(raw.get("quote_end"), int, f"{where}.quote_end")
    _typed(raw.get("text"), str, f"{where}.text")
    if not chunk.char_start <= start < end <= chunk.char_end:
        raise GenerationRejected(f"{where} quotes {start}..{end}, outside chunk {chunk_id} "
                                 f"({chunk.char_start}..{chunk.char_end})")
    return ComposedClaim(chunk=chunk, quote_start=start, quote_end=end, rank=0)


def answer_generate(*, question: str, hits: list[SearchHit]) -> Composition | None:
    """The model's answer over `hits`; None when the model itself says the passages do not answer."""
    data = _content(_post(_request(question, hits)))
    status = data.get("status")
    if status not in {"answered", "insufficient_evidence"}:
        raise GenerationRejected(f"status {str(status)[:40]!r} is not answered or insufficient_evidence")
    answer = _typed(data.get("answer"), str, "answer")
    claims = _typed(data.get("claims"), list, "claims")
    if status == "insufficient_evidence":
        return None
    chunks = {hit.chunk.pk: hit.chunk for hit in hits}
    composed = [_claim(raw, number, chunks) for number, raw in enumerate(claims)]
    if not composed or not answer.strip():
        raise GenerationRejected("an answer needs its text and at least one cited claim")
    return Composition(answer=answer, claims=composed)
