"""A refused decision, carried to the answer's page (post/redirect/get). A plain form whose decision is refused is
answered with a redirect to the answer, so that a reload there reads the answer instead of sending the decision
again; the refusal and what the reviewer typed wait in the session for that page. Shown once, and only for a few
minutes: one found later would be about an answer that has moved on."""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.http import HttpRequest

REFUSALS_SESSION_KEY = "review_refusals"  # {answer id: {"messages": [...], "typed": {...}, "until": epoch seconds}}
REFUSAL_SECONDS = 300


@dataclass(frozen=True)
class Refusal:
    messages: list[str]
    typed: dict[str, str]  # the decision form's fields as posted: they go back in their boxes


def refusal_store(request: HttpRequest, *, answer_id: int, messages: list[str],
                  typed: dict[str, str] | None = None) -> None:
    now = time.time()
    kept = {key: entry for key, entry in request.session.get(REFUSALS_SESSION_KEY, {}).items()
            if entry["until"] > now}  # those never shown leave with the next refusal
    kept[str(answer_id)] = {"messages": [str(message) for message in messages], "typed": typed or {},
                            "until": now + REFUSAL_SECONDS}
    request.session[REFUSALS_SESSION_KEY] = kept


def refusal_pop(request: HttpRequest, *, answer_id: int) -> Refusal | None:
    """The answer's refusal, taken out of the session; None when there is none or it ran out."""
    stored = request.session.get(REFUSALS_SESSION_KEY)
    if not stored or str(answer_id) not in stored:
        return None
    entry = stored.pop(str(answer_id))
    if stored:
        request.session[REFUSALS_SESSION_KEY] = stored
    else:
        del request.session[REFUSALS_SESSION_KEY]
    if entry["until"] <= time.time():
        return None
    return Refusal(messages=entry["messages"], typed=entry["typed"])
