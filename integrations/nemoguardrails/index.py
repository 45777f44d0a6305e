"""`review_console`: a NeMo Guardrails embedding search provider whose knowledge base is the console's."""

from __future__ import annotations

import logging
import time
from typing import Any

from nemoguardrails.embeddings.index import EmbeddingsIndex, IndexItem

from integrations.nemoguardrails.console import Console

logger = logging.getLogger(__name__)

# NeMo builds a knowledge base, and so ever calls a search provider, only for a bot with Markdown files in its kb
# folder; init() gives a bot without any this one (it is never indexed).
PLACEHOLDER_BODY = "This bot's knowledge base is the review console's approved sources."
PLACEHOLDER_DOCUMENT = f"# Review console\n\n{PLACEHOLDER_BODY}\n"


class ReviewConsoleIndex(EmbeddingsIndex):
    """Searches the console's approved, effective, unexpired chunks within the token's clearance
    (`GET /api/v1/search`). Nothing is embedded in the bot's process.

    In one turn NeMo asks for the same user message more than once (for the prompt, for the fact-check's
    evidence, for the review's citations): a search is kept MEMO_SECONDS, so that is one request, while an
    approval or a retirement in the console shows within seconds."""

    MEMO_SECONDS = 30.0
    MEMO_SIZE = 256

    def __init__(self, **parameters: Any) -> None:
        self.console = Console.configured(parameters=parameters)
        self._memo: dict[tuple[str, int], tuple[float, list[IndexItem]]] = {}

    @property
    def embedding_size(self) -> int:
        return 0  # the console embeds; NeMo reads this only of its own indexes

    @property
    def cache_config(self) -> None:
        return None

    async def add_item(self, item: IndexItem) -> None:
        await self.add_items([item])

    async def add_items(self, items: list[IndexItem]) -> None:
        ignored = [item for item in items if item.meta.get("body", "").strip() != PLACEHOLDER_BODY]
        if ignored:
            logger.info("review_console: %d chunk(s) of the bot's kb folder not indexed; the console owns the "
                        "knowledge base (upload them there to have them approved and searched)", len(ignored))

    async def build(self) -> None:
        return None

    async def search(self, text: str, max_results: int, threshold: float | None = None) -> list[IndexItem]:
        """The console's best `max_results` chunks. `threshold` is NeMo's similarity floor for its own vectors;
        the console applies its own (KB_SIMILARITY_FLOOR), so it is not used here."""
        key, now = (text, max_results), time.monotonic()
        cached = self._memo.get(key)
        if cached is not None and cached[0] > now:
            return cached[1]
        items = [_item(hit) for hit in await self.console.search(text=text, k=max_results)]
        if len(self._memo) >= self.MEMO_SIZE:
            self._memo.clear()
        self._memo[key] = (now + self.MEMO_SECONDS, items)
        return items


def _item(hit: dict) -> IndexItem:
    """NeMo's retrieval reads `body` (and its kb chunks carry `title`); the rest says where the text comes from."""
    return IndexItem(text=hit["text"], meta={
        "title": hit["heading"] or hit["title"], "body": hit["text"],
        "document_key": hit["document_key"], "document_title": hit["title"], "version": hit["version"],
        "chunk_id": hit["chunk_id"], "char_start": hit["char_start"], "char_end": hit["char_end"],
        "owner": hit["owner"], "score": hit["score"],
    })

