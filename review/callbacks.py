"""Where webhooks may go: http(s) to a public address, unless the host is on WEBHOOK_ALLOWED_HOSTS.

The rule is checked twice: when an answer names its `callback_url` (so the client hears about a bad URL at once),
and again at every send, because a name that resolved to a public address at intake may resolve to 127.0.0.1
later (DNS rebinding). At send time the request goes to the very address that was checked (the URL's host is
replaced by it; the Host header and TLS server name keep the original name), and redirects are never followed.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

import httpx
from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class CallbackRefused(Exception):
    """The callback URL points somewhere webhooks may not go; the message says why."""


class CallbackUnresolvable(CallbackRefused):
    """The host does not resolve (now)."""


@dataclass(frozen=True)
class CallbackTarget:
    url: SplitResult
    host: str  # lower case, without a trailing dot
    port: int
    allowed: bool  # on WEBHOOK_ALLOWED_HOSTS: any address, no pinning


def _parse(url: str) -> CallbackTarget:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise CallbackRefused(f"is not a valid URL ({exc})") from None
    if parts.scheme not in {"http", "https"}:
        raise CallbackRefused("must be an http or https URL")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise CallbackRefused("has no host")
    allowed = host in {h.rstrip(".").lower() for h in settings.WEBHOOK_ALLOWED_HOSTS}
    return CallbackTarget(url=parts, host=host, port=port or (443 if parts.scheme == "https" else 80),
                          allowed=allowed)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (::ffff:a.b.c.d, 6to4, NAT64), which is what it reaches."""
    if address.ipv4_mapped:
        return address.ipv4_mapped
    if address.sixtofour:
        return address.sixtofour
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def address_problem(address: IPAddress) -> str | None:
    """Why a webhook may not go to this address, or None when it is a public unicast address."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return address_problem(embedded)
    for flag, name in (("is_loopback", "a loopback"), ("is_link_local", "a link-local"),
                       ("is_multicast", "a multicast"), ("is_unspecified", "an unspecified"),
                       ("is_private", "a private"), ("is_reserved", "a reserved")):
        if getattr(address, flag):
            return f"{address} is {name} address"
    if not address.is_global:
        return f"{address} is not a public address"
    return None


def _resolve(target: CallbackTarget) -> list[IPAddress]:
    try:
        infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise CallbackUnresolvable(f"host {target.host} does not resolve ({exc})") from None
    # scope ids (fe80::1%eth0) are dropped: such an address is link-local and refused anyway
    return list(dict.fromkeys(ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos))


def _checked_addresses(target: CallbackTarget) -> list[IPAddress]:
    addresses = _resolve(target)
    for address in addresses:  # one private answer is enough to refuse: which one a client picks is not ours
        problem = address_problem(address)
        if problem:
            raise CallbackRefused(f"host {target.host} resolves to {problem}; webhooks go to public addresses "
                                  "only (or add the host to WEBHOOK_ALLOWED_HOSTS)")
    return addresses


def callback_url_validate(url: str) -> None:
    """At intake: refuse a URL that is not http(s) or whose host is, or resolves to, a non-public address.
    A host that does not resolve right now is accepted (DNS may be briefly down); the send-time check decides."""
    target = _parse(url)
    if target.allowed:
        return
    try:
        _checked_addresses(target)
    except CallbackUnresolvable:
        pass


def _pinned_url(target: CallbackTarget, address: IPAddress) -> str:
    host = f"[{address}]" if address.version == 6 else str(address)
    userinfo, at, _ = target.url.netloc.rpartition("@")
    netloc = f"{userinfo}{at}{host}:{target.port}"
    return target.url._replace(netloc=netloc).geturl()


def callback_post(*, url: str, content: bytes, headers: dict[str, str], timeout: float) -> httpx.Response:
    """POST to a callback URL that passes the policy, connecting to the address that was checked.
    Raises CallbackRefused (nothing was sent) or httpx.HTTPError."""
    target = _parse(url)
    if target.allowed:
        return httpx.post(url, content=content, headers=headers, timeout=timeout, follow_redirects=False)
    address = _checked_addresses(target)[0]
    default_port = 443 if target.url.scheme == "https" else 80
    host_header = target.host if target.port == default_port else f"{target.host}:{target.port}"
    return httpx.post(
        _pinned_url(target, address), content=content, timeout=timeout, follow_redirects=False,
        headers={**headers, "Host": host_header},
        extensions={"sni_hostname": target.host},  # TLS: SNI and certificate checked against the name, not the IP
    )
