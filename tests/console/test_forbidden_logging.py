"""A denied request is logged as one line, not as a PermissionDenied traceback."""

import logging

import pytest

pytestmark = pytest.mark.django_db


def test_a_403_logs_one_line_without_traceback(client, viewer_user, caplog):
    client.force_login(viewer_user)

    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get("/audit/")

    assert response.status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert [(r.levelname, r.getMessage()) for r in records] == [("WARNING", "Forbidden (Permission denied): /audit/")]
    assert records[0].exc_info is None
    assert "Traceback" not in caplog.text


def test_a_500_keeps_its_traceback(caplog):
    """The filter only touches 403s: a real fault still logs everything needed to fix it."""
    from console.log_filters import ForbiddenWithoutTraceback

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: /",
                                   None, sys.exc_info())
    record.status_code = 500

    assert ForbiddenWithoutTraceback().filter(record) is True
    assert record.exc_info is not None
