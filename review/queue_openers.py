"""Ways into the queue page that higher apps add (triage: a saved view's link opens with its whole query), registered
from their AppConfig.ready(), so the queue knows none of them.

An opener is given the queue's request and answers a response (a redirect), raises Http404 for a link naming
nothing the reviewer may see, or answers None to leave the queue as asked.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

QueueOpener = Callable[[HttpRequest], HttpResponse | None]

_OPENERS: list[QueueOpener] = []


def queue_opener_register(opener: QueueOpener) -> None:
    if opener not in _OPENERS:
        _OPENERS.append(opener)


def queue_opened(request: HttpRequest) -> HttpResponse | None:
    """The first opener's response, or None when none redirects."""
    for opener in _OPENERS:
        response = opener(request)
        if response is not None:
            return response
    return None
