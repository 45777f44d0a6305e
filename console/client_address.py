"""The address a request came from, as login lockout and API throttling count it.

Behind reverse proxies REMOTE_ADDR is the nearest proxy's address, shared by every client: counting failures by
it would lock everyone out together. Each trusted proxy appends the address it received the request from to
X-Forwarded-For, so with TRUSTED_PROXY_COUNT proxies the client is that many entries from the right; entries
further left were written by the client itself and prove nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    proxies = settings.TRUSTED_PROXY_COUNT
    remote = request.META.get("REMOTE_ADDR", "") or ""
    if proxies == 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if len(forwarded) < proxies:  # not through the expected chain of proxies: the nearest peer is all we know
        return remote
    return forwarded[-proxies]
