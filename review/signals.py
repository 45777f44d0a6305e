"""What higher apps may follow in review without review knowing them.

`checker_model_changed` is sent, after the transaction commits, when a scoring model is adopted or rolled back
(`model`: the model now current). Saved question sets (ask) run again on it: the checker's model is one of the
settings they measure.
"""

from __future__ import annotations

from django.dispatch import Signal

checker_model_changed = Signal()

# Sent when a reviewer opens an answer's page (`answer`, `viewer`): what they were told about it is now seen.
answer_viewed = Signal()
