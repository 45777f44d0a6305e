"""Logging filters named in settings.LOGGING."""

from __future__ import annotations

import logging


class ForbiddenWithoutTraceback(logging.Filter):
    """A 403 is an expected answer, not a fault: django.request logs it as one line, without the
    PermissionDenied traceback it attaches to every denied request."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
