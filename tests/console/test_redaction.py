"""What console.redaction takes out of text bound for logs and stored errors, and what it leaves alone."""

import io
import logging

import pytest

from console.redaction import REDACTED, redact


def test_values_of_secret_settings_are_redacted_as_configured_now(settings):
    settings.REVIEW_LLM_API_KEY = "sk-live-0123456789abcdef"

    assert redact("the judge refused sk-live-0123456789abcdef") == f"the judge refused {REDACTED}"
    assert settings.SECRET_KEY not in redact(f"signed with {settings.SECRET_KEY}")


def test_extra_values_short_values_and_ordinary_words():
    secret = "f" * 64

    assert redact(f"echo {secret}", also=[secret]) == f"echo {REDACTED}"
    assert redact("key x and a Basic information leaflet", also=["x"]) == "key x and a Basic information leaflet"


@pytest.mark.parametrize(("text", "expected"), [
    ("Authorization: Bearer sk-abc123def456", f"Authorization: Bearer {REDACTED}"),
    ("got Basic aG9vazpob29rcGFzcw== back", f"got Basic {REDACTED} back"),
    ("token gac_Zm9vYmFyYmF6cXV4cXV1eDEyMzQ1 refused", f"token gac_{REDACTED} refused"),
    ("POST https://hook:pass@example.com/x", f"POST https://{REDACTED}@example.com/x"),
    ("GET https://h/x?page=2&access_token=abc&api-key=def#top",
     f"GET https://h/x?page=2&access_token={REDACTED}&api-key={REDACTED}#top"),
    ("https://example.com/hook?id=7 answered 500", "https://example.com/hook?id=7 answered 500"),
])
def test_credentials_in_headers_tokens_and_urls(text, expected):
    assert redact(text) == expected


def test_log_records_are_redacted_whichever_handler_writes_them(settings):
    """The record factory (installed when the console app is ready) redacts message, arguments and traceback."""
    settings.REVIEW_LLM_API_KEY = "sk-live-0123456789abcdef"
    output = io.StringIO()
    handler = logging.StreamHandler(output)  # a handler of its own: no filter of LOGGING's applies to it
    logger = logging.getLogger("tests.redaction")
    logger.addHandler(handler)
    try:
        logger.warning("calling %s", "https://user:pw@example.com/v1?key=sk-live-0123456789abcdef")
        try:
            raise RuntimeError("refused Bearer sk-live-0123456789abcdef")
        except RuntimeError:
            logger.exception("checker failed")
    finally:
        logger.removeHandler(handler)

    written = output.getvalue()
    assert "sk-live-0123456789abcdef" not in written and "user:pw" not in written
    assert f"calling https://{REDACTED}@example.com/v1?key={REDACTED}" in written
    assert f"RuntimeError: refused Bearer {REDACTED}" in written


@pytest.mark.django_db
def test_a_scoring_error_is_stored_without_the_key_it_mentions(api_token, settings):
    from review import services
    from review.models import Answer

    settings.REVIEW_LLM_API_KEY = "sk-live-0123456789abcdef"
    client, _ = api_token
    answer = Answer.objects.create(client=client, question="q", text="a")

    services.answer_scoring_failed(answer_id=answer.pk, error="HTTPError: 401 for sk-live-0123456789abcdef")

    answer.refresh_from_db()
    assert answer.scoring_error == f"HTTPError: 401 for {REDACTED}"
    assert answer.routing_reasons == [f"automatic checking failed: HTTPError: 401 for {REDACTED}"]
