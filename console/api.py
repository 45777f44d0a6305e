"""What every app's API router shares: the error body and text that must be storable as sent.

The API itself is assembled in config/api.py from each app's Router; errors are `{"error": code, "detail": text}`.
"""

from __future__ import annotations

from typing import Annotated

from ninja import Schema
from pydantic import AfterValidator

from console.input_text import text_problem

ERROR_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict",
               411: "length_required", 413: "too_large", 429: "too_many_requests", 503: "unavailable"}


class ErrorOut(Schema):
    error: str
    detail: str


def errors_documented(*statuses: int) -> dict[int, type[ErrorOut]]:
    """A route's `response` entries for the errors it may answer, so clients see them in the OpenAPI document."""
    return {status: ErrorOut for status in statuses}


def clean_text(value: str) -> str:
    """Rejected rather than stripped: the client learns its text was not what it meant to send, and what is
    stored is exactly what was sent."""
    problem = text_problem(value)
    if problem:
        raise ValueError(problem)
    return value


Text = Annotated[str, AfterValidator(clean_text)]
