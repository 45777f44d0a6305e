# Registers the `review_console` search provider and the `review_console_check` action (NeMo calls `init`).
from integrations.nemoguardrails import init  # noqa: F401
