"""A held answer's decision as the bot receives it, to give the user the released text: the console's webhook
(POSTed to the `callback_url` the review action registered, signed with the API client's webhook secret) or, for a
bot that cannot receive calls, a poll of the answer.

Either gives a `Decision`; `released_text` is what the reviewer let go (the bot's answer, or the reviewer's edit),
None for a rejected answer."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

from integrations.nemoguardrails.console import Console, ConsoleError

_DECIDED = {"released", "approved", "rejected"}


@dataclass(frozen=True)
class Decision:
    answer_id: int
    status: str  # released (low risk, at once) / approved (by a reviewer) / rejected
    released_text: str | None


def decision_from_webhook(*, body: bytes, signature: str, secret: str) -> Decision:
    """The decision a webhook carries, once its `X-Signature` proves it came from the console (a forged or altered
    body is refused: anyone can POST to a bot's webhook address)."""
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature or ""):
        raise ConsoleError("webhook signature does not match the API client's webhook secret")
    payload = json.loads(body)
    return Decision(answer_id=payload["id"], status=payload["status"], released_text=payload.get("released_text"))


async def decision_poll(console: Console, *, answer_id: int) -> Decision | None:
    """The answer's decision if a person (or the checker) has made one, else None: ask again later."""
    answer = await console.answer_get(answer_id=answer_id)
    if answer["status"] not in _DECIDED:
        return None
    return Decision(answer_id=answer_id, status=answer["status"], released_text=answer.get("released_text"))
