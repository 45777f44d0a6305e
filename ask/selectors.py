"""Reads for the Ask page: each claim beside its quote, in the passage it comes from."""

from __future__ import annotations

from kb.models import Chunk


def claim_rows(*, claims: list[dict]) -> list[dict]:
    """Per claim: the passage split around the quote (before, quote, after), its version and heading."""
    chunks = Chunk.objects.select_related("version__document__owner").in_bulk(
        [claim["source_id"]["chunk_id"] for claim in claims])
    rows = []
    for claim in claims:
        chunk = chunks.get(claim["source_id"]["chunk_id"])
        if chunk is None:
            continue
        start, end = claim["quote_start"] - chunk.char_start, claim["quote_end"] - chunk.char_start
        rows.append({"claim": claim, "chunk": chunk, "version": chunk.version,
                     "line": chunk.version.text.count("\n", 0, claim["quote_start"]) + 1,
                     "before": chunk.text[:start], "quote": chunk.text[start:end], "after": chunk.text[end:]})
    return rows
