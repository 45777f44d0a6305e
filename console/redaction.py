"""Credentials never reach logs, audit rows, stored error messages or API responses: text headed there goes through
redact(). Every log record does (console.log_filters.install_redacting_record_factory); error text a third party
or an exception produced is redacted where it is stored."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from django.conf import settings

REDACTED = "[redacted]"
_SHORTEST_SECRET = 8  # shorter values (an empty key, a test's "x") would redact ordinary words
_SECRET_SETTING = re.compile(r"(^|_)(SECRET_KEY|SECRET_KEY_FALLBACKS|API_KEY|TOKEN|SECRET|PASSWORD)$")
# An Authorization header's value, as an echoing server or an exception may repeat it. The credential must have a
# digit or a symbol, so "Basic information" stays as it is.
_AUTHORIZATION = re.compile(r"\b(Bearer|Basic)\s+(?=[\w.~+/-]*[\d.~+/=_-])[\w.~+/=-]{8,}")
_API_TOKEN = re.compile(r"\bgac_[\w-]{16,}")  # review.models.ApiClient.new_token
_URL_USERINFO = re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.-]*://)[^\s/@?#'\"]+@")
_CREDENTIAL_PARAMETER = re.compile(
    r"([?&;][^\s=&#'\"]*(?:token|key|secret|password|passwd|pwd|sig|signature|auth|credential)[^\s=&#'\"]*=)"
    r"[^\s&#'\"]+",
    re.IGNORECASE,
)


@cache
def _secret_setting_names() -> tuple[str, ...]:
    return tuple(name for name in dir(settings) if _SECRET_SETTING.search(name))


def _secret_setting_values() -> list[str]:
    values: list[str] = []
    for name in _secret_setting_names():
        value = getattr(settings, name, "")
        if isinstance(value, str):
            values.append(value)
        elif isinstance(value, list | tuple):  # SECRET_KEY_FALLBACKS
            values += [v for v in value if isinstance(v, str)]
    return values


def redact(text: str, *, also: Iterable[str] = ()) -> str:
    """The text without secret settings' values, the values in `also`, Authorization credentials, API tokens,
    URL userinfo and credential-like query parameters."""
    known = sorted({v for v in [*_secret_setting_values(), *also] if len(v) >= _SHORTEST_SECRET}, key=len,
                   reverse=True)
    for value in known:
        text = text.replace(value, REDACTED)
    text = _AUTHORIZATION.sub(rf"\1 {REDACTED}", text)
    text = _API_TOKEN.sub(f"gac_{REDACTED}", text)
    text = _URL_USERINFO.sub(rf"\1{REDACTED}@", text)
    return _CREDENTIAL_PARAMETER.sub(rf"\1{REDACTED}", text)
