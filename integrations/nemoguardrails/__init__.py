"""NeMo Guardrails drop-in (README "Use with NeMo Guardrails"): the console as a bot's knowledge base (the
`review_console` embedding search provider), its fact checker (the /alignscore_* endpoints, no code here) and its
review step (the `review_console_check` action). Needs the `nemo` extra: nemoguardrails==0.24.1.

A bot's config.py imports `init`; NeMo calls it with the LLMRails being built."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nemoguardrails.rails.llm.config import Document

from integrations.nemoguardrails.actions import review_console_check
from integrations.nemoguardrails.console import Console, ConsoleError
from integrations.nemoguardrails.delivery import Decision, decision_from_webhook, decision_poll
from integrations.nemoguardrails.index import PLACEHOLDER_DOCUMENT, ReviewConsoleIndex

if TYPE_CHECKING:
    from nemoguardrails import LLMRails

__all__ = ["Console", "ConsoleError", "Decision", "ReviewConsoleIndex", "decision_from_webhook", "decision_poll", "init",
           "review_console_check"]


def init(app: LLMRails) -> None:
    """Register the provider and the action with an LLMRails (NeMo calls a config.py's `init` before it builds
    the knowledge base)."""
    app.register_embedding_search_provider("review_console", ReviewConsoleIndex)
    app.register_action(review_console_check, name="review_console_check")
    if app.config.knowledge_base.embedding_search_provider.name == "review_console" and not app.config.docs:
        app.config.docs = [Document(format="md", content=PLACEHOLDER_DOCUMENT)]
