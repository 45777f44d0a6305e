"""A Markdown file's YAML front matter: the document's metadata when it comes from a Git source.

    ---
    title: Travel policy
    owner: maria
    security_level: internal
    effective_from: 2027-01-01
    expires_at: 2027-12-31
    language: en
    key: travel-policy
    ---
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import yaml
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_noop as _

from checking.languages import LANGUAGE_CODES
from console.deferred_text import DeferredTextError
from console.models import SecurityLevel

FIELDS = ("title", "key", "owner", "security_level", "effective_from", "expires_at", "language")
FENCE = "---"


class FrontMatterError(DeferredTextError):
    """Front matter the console cannot use; the message says which field and why."""


@dataclass(frozen=True)
class FrontMatter:
    body: str  # the Markdown after the front matter: what becomes the version's text
    title: str = ""
    key: str = ""
    owner: str = ""
    security_level: str = ""
    effective_from: dt.datetime | None = None
    expires_at: dt.datetime | None = None
    language: str = ""


def _when(name: str, value: object) -> dt.datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, dt.date):
        moment = dt.datetime.combine(value, dt.time.min)
    else:
        try:
            moment = dt.datetime.fromisoformat(str(value))
        except ValueError:
            raise FrontMatterError(_("%(field)s: “%(value)s” is not a date (write 2027-12-31)."),
                                   field=name, value=value) from None
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def front_matter_read(text: str) -> FrontMatter:
    """Split a file into its front matter and its Markdown; a file without front matter is all Markdown."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != FENCE:
        return FrontMatter(body=text)
    try:
        end = next(index for index, line in enumerate(lines[1:], start=1) if line.strip() in (FENCE, "..."))
    except StopIteration:
        raise FrontMatterError(_("The front matter opened with --- is never closed.")) from None
    try:
        fields = yaml.safe_load("\n".join(lines[1:end])) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        if mark is None:
            raise FrontMatterError(_("The front matter is not valid YAML.")) from None
        raise FrontMatterError(_("The front matter is not valid YAML (line %(line)s)."), line=mark.line + 2) from None
    if not isinstance(fields, dict):
        raise FrontMatterError(_("The front matter must be fields (name: value), one a line."))
    values = {name: fields.get(name) for name in FIELDS}
    level = str(values["security_level"] or "")
    if level and level not in SecurityLevel.values:
        raise FrontMatterError(_("security_level: “%(value)s” is none of %(levels)s."), value=level,
                               levels=", ".join(SecurityLevel.values))
    language = str(values["language"] or "")
    if language and language not in LANGUAGE_CODES:
        raise FrontMatterError(_("language: “%(value)s” is none of %(languages)s."), value=language,
                               languages=", ".join(LANGUAGE_CODES))
    key = str(values["key"] or "")
    if key and slugify(key) != key:
        raise FrontMatterError(_("key: “%(value)s” may hold only lower-case letters, digits and hyphens."), value=key)
    return FrontMatter(
        body="\n".join(lines[end + 1:]).lstrip("\n"), title=str(values["title"] or "").strip()[:200], key=key,
        owner=str(values["owner"] or "").strip(), security_level=level, language=language,
        effective_from=_when("effective_from", values["effective_from"]),
        expires_at=_when("expires_at", values["expires_at"]),
    )
