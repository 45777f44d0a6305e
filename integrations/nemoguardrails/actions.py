"""`review_console_check`: the console scores the bot's answer and releases it, or holds it for a person."""

from __future__ import annotations

import logging

from nemoguardrails.actions import action
from nemoguardrails.kb.kb import KnowledgeBase

from integrations.nemoguardrails.console import Console, ConsoleError
from integrations.nemoguardrails.index import ReviewConsoleIndex

logger = logging.getLogger(__name__)

CITED_CHUNKS = 3  # as many as NeMo's retrieval puts in the prompt (KnowledgeBase.search_relevant_chunks)


@action(name="review_console_check")
async def review_console_check(context: dict | None = None, kb: KnowledgeBase | None = None) -> dict:
    """Posts the bot's message, the user's question and the chunks it was answered from (as citations) to
    `POST /api/v1/answers` and waits up to review_wait_seconds for the console's decision.

    Returns {"released", "status", "risk", "answer_id", "released_text", "error"}: `released` is true only once
    the console released the answer. A held answer's released text reaches the bot later, by the webhook
    (callback_url) or by polling `GET /api/v1/answers/{answer_id}` (Console.answer_get). When the console cannot
    be reached the answer is not released either, and `error` says why (the flow then says it cannot answer)."""
    context = context or {}
    index = kb.index if kb is not None and isinstance(kb.index, ReviewConsoleIndex) else None
    question, answer = context.get("last_user_message") or "", context.get("bot_message") or ""
    try:
        console = index.console if index is not None else Console.configured()
        chunks = await index.search(question, max_results=CITED_CHUNKS) if index is not None else []
        accepted = await console.answer_submit(question=question, answer=answer,
                                               chunk_ids=[item.meta["chunk_id"] for item in chunks])
        scored = await console.answer_scored(answer_id=accepted["id"])
    except ConsoleError as exc:
        logger.warning("review_console_check: the answer was not sent for review: %s", exc)
        return {"released": False, "status": None, "risk": None, "answer_id": None, "released_text": None,
                "error": str(exc)}
    return {"released": scored["released_text"] is not None, "status": scored["status"], "risk": scored["risk"],
            "answer_id": scored["id"], "released_text": scored["released_text"], "error": None}
