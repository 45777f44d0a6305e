"""What other apps may follow in the knowledge base without kb knowing them (kb imports neither review nor ask).

`evidence_changed` is sent inside the transaction that approves, retires, expires or supersedes a version that is or
was evidence, with `version` and `change` ("approved", "retired", "expired", "superseded"). Receivers write in that transaction (the
change and what it asks for commit together), each in a savepoint of its own (`transaction.atomic`), and hand work
to workers on commit. A receiver that fails is logged and never undoes the change.
"""

from __future__ import annotations

import logging

from django.dispatch import Signal

logger = logging.getLogger(__name__)

evidence_changed = Signal()


def evidence_changed_send(*, version, change: str) -> None:
    for receiver, outcome in evidence_changed.send_robust(sender=type(version), version=version, change=change):
        if isinstance(outcome, Exception):
            logger.error("after %s was %s, %s failed: %s: %s", version, change,
                         getattr(receiver, "__qualname__", receiver), type(outcome).__name__, outcome)
