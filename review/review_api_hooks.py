"""What higher apps lend the review API (review/review_api.py), registered from their AppConfig.ready(), so review
knows none of them (the way review/queue_openers.py serves the queue page).

- a saved-view resolver (triage): `view=ID` on the queue becomes that view's query string for this user, or None
  when the user may not see such a view (the API then answers 404);
- a comment counter (triage): how many comments an answer has, for the answer's detail.
"""

from __future__ import annotations

from collections.abc import Callable

from review.models import Answer

SavedViewResolver = Callable[..., str | None]  # (*, user, view_id: int) -> the view's query string, or None
CommentCounter = Callable[..., int]  # (*, answer: Answer) -> how many comments it has

_VIEW_RESOLVERS: list[SavedViewResolver] = []
_COMMENT_COUNTERS: list[CommentCounter] = []


def saved_view_resolver_register(resolver: SavedViewResolver) -> None:
    if resolver not in _VIEW_RESOLVERS:
        _VIEW_RESOLVERS.append(resolver)


def saved_view_query(*, user, view_id: int) -> str | None:
    """The first resolver's answer; None when no resolver knows the view (or none is registered)."""
    for resolver in _VIEW_RESOLVERS:
        query = resolver(user=user, view_id=view_id)
        if query is not None:
            return query
    return None


def comment_counter_register(counter: CommentCounter) -> None:
    if counter not in _COMMENT_COUNTERS:
        _COMMENT_COUNTERS.append(counter)


def answer_comment_count(*, answer: Answer) -> int:
    return sum(counter(answer=answer) for counter in _COMMENT_COUNTERS)
