"""Adapters that let other tools use the console. Each imports only its tool and httpx, never Django: they run in
the tool's process, which talks to the console over its HTTP API."""
