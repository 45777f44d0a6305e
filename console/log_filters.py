"""Logging filters named in settings.LOGGING, and the record factory that redacts credentials from every record."""

from __future__ import annotations

import logging

from console.redaction import redact


class ForbiddenWithoutTraceback(logging.Filter):
    """A 403 is an expected answer, not a fault: django.request logs it as one line, without the
    PermissionDenied traceback it attaches to every denied request."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True


class OutageOneLine(logging.Filter):
    """The database or Redis down is answered 503 (console/outage.py): django.request logs each such request as
    one line naming the cause, not a traceback per request for as long as the outage lasts."""

    def filter(self, record: logging.LogRecord) -> bool:
        from console.outage import is_outage

        if getattr(record, "status_code", None) == 503 and record.exc_info and is_outage(record.exc_info[1]):
            exc = record.exc_info[1]
            record.msg = redact(f"{record.getMessage()}: {type(exc).__name__}: {str(exc).strip()[:200]}")
            record.args, record.exc_info, record.exc_text = (), None, None
        return True


def _redact_record(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:  # a bad format string: the handler reports it, with the record as it was
        return
    redacted = redact(message)
    if redacted != message:
        record.msg, record.args = redacted, ()
    if record.exc_info and record.exc_info[0] is not None and not record.exc_text:
        record.exc_text = redact(logging.Formatter().formatException(record.exc_info))  # what formatters print
    if record.stack_info:
        record.stack_info = redact(record.stack_info)


def install_redacting_record_factory() -> None:
    """Every log record leaves its logger with credentials redacted (console.redaction), whichever handler
    writes it: a filter on LOGGING's handler would miss the ones Celery's worker puts in its place on the root
    logger, and records of third-party loggers (httpx logs each request's URL, userinfo included)."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "redacts", False):
        return

    def redacting_factory(*args, **kwargs) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        _redact_record(record)
        return record

    redacting_factory.redacts = True
    logging.setLogRecordFactory(redacting_factory)
