"""Typed readers for settings that come from the environment.

Each raises ImproperlyConfigured with the variable's name, so a typo in a
deployment fails at start-up instead of at the first request.
"""

from __future__ import annotations

import json
import os
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
    return value


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}") from None


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


def json_object(name: str, raw: str) -> dict[str, str]:
    """The variable `name`'s value `raw` as a JSON object of strings, e.g. OIDC_ROLE_MAP='{"kb-curators": "curator"}';
    empty when unset."""
    raw = raw.strip()
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} must be a JSON object: {error}") from None
    if not isinstance(value, dict) or not all(isinstance(item, str) for item in value.values()):
        raise ImproperlyConfigured(f'{name} must be a JSON object of strings, e.g. {{"group": "value"}}')
    return value


def database_from_url(url: str) -> dict:
    """Django DATABASES entry from postgresql://user:pass@host:port/name?host=/socket/dir."""
    parsed = urlparse(url)
    if parsed.scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured(f"DATABASE_URL must be a postgresql:// URL, not {parsed.scheme or url!r}")
    name = unquote(parsed.path.lstrip("/"))
    if not name:
        raise ImproperlyConfigured("DATABASE_URL must name a database")
    query = parse_qs(parsed.query)
    host = query.pop("host", [parsed.hostname or ""])[0]
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parsed.username or ""),
        "PASSWORD": unquote(parsed.password or ""),
        "HOST": host,
        "PORT": str(parsed.port or ""),
        # A server that does not answer at all (host down, packets dropped) is given up on after a few seconds, so
        # a request answers 503 (console/outage.py) instead of hanging until the web worker is killed.
        "OPTIONS": {"connect_timeout": "5"} | {key: values[0] for key, values in query.items()},
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
    }
