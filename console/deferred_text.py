"""Words stored now and read later, in the reader's language: a message id (marked with gettext_noop where it is
written) and its parameters, translated only when shown. Work done by a worker — a sync's report, say — is read by
people in either language."""

from __future__ import annotations

from django.utils.translation import gettext


class DeferredTextError(ValueError):
    """An error whose words are kept as a message id and parameters (`stored`), translated when read."""

    def __init__(self, message: str, **params: object) -> None:
        self.message, self.params = message, params
        super().__init__(deferred_text_read(self.stored))

    @property
    def stored(self) -> dict:
        return {"message": self.message, "params": {name: str(value) for name, value in self.params.items()}}


def deferred_text_read(stored: dict | str) -> str:
    """The stored words in the active language; plain text (stored already translated) is shown as it is."""
    if isinstance(stored, str):
        return stored
    message, params = gettext(stored.get("message", "")), stored.get("params") or {}
    return message % params if params else message
