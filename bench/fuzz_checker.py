"""Fuzz the claim splitter and the built-in checker with generated text; print how many inputs raised.

Inputs mix ordinary sentences from the demo documents with characters that have broken text code before:
superscript and full-width digits, fractions, Arabic-Indic digits, NUL, RTL marks, emoji, combining marks,
lone surrogates, Markdown, and a few texts of 50,000 characters. Deterministic for a given --seed.

    .venv/bin/python bench/fuzz_checker.py [--count 10000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from checking.base import EvidenceCandidate
from checking.builtin import check_claim
from checking.claims import split_claims
from tests.checking.checker_inputs import ODD, WORDS, bag_of_words_embed


def sentences() -> list[str]:
    found: list[str] = []
    for path in sorted((ROOT / "kb" / "demo").glob("*.md")):
        found += [s for s in re.split(r"(?<=[.!?])\s+|\n+", path.read_text(encoding="utf-8")) if s.strip()]
    return found


def generated(rng: random.Random, pool: list[str]) -> str:
    kind = rng.random()
    if kind < 0.3:  # a real sentence with odd characters spliced in
        text = rng.choice(pool)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(ODD) + text[at:]
        return text
    if kind < 0.6:  # words, numbers and odd characters
        parts = [rng.choice(WORDS + ODD + [str(rng.randint(0, 10**6))]) for _ in range(rng.randint(0, 30))]
        return rng.choice(["", " "]).join(parts) if rng.random() < 0.2 else " ".join(parts)
    if kind < 0.998:  # arbitrary code points
        return "".join(chr(rng.choice([rng.randint(0, 0x2FF), rng.randint(0, 0xFFFF), rng.randint(0, 0x10FFFF)]))
                       for _ in range(rng.randint(0, 80)))
    return " ".join(rng.choice(pool + ODD) for _ in range(6000))[:50_000]  # long


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pool = sentences()
    errors: list[str] = []
    started = time.perf_counter()
    for _ in range(args.count):
        claim = generated(rng, pool)
        candidates = [EvidenceCandidate(generated(rng, pool), heading=rng.choice(["", "Plans > Pro", "²½ ٣"]))
                      for _ in range(rng.randint(0, 3))]
        try:
            for span in split_claims(claim):
                assert claim[span.start : span.end] == span.text
            outcome = check_claim(claim=claim, candidates=candidates,
                                  embed=bag_of_words_embed if rng.random() < 0.5 else None)
            assert 0.0 <= outcome.score <= 1.0
            if outcome.candidate_index is not None:
                assert 0 <= outcome.quote_start <= outcome.quote_end <= len(candidates[outcome.candidate_index].text)
            outcome.reasons  # noqa: B018 - rendering the reasons must not fail either
        except Exception:  # noqa: BLE001 - counting every failure is the point
            errors.append(f"claim={claim[:200]!r}\n{traceback.format_exc()}")
    elapsed = time.perf_counter() - started
    print(f"{args.count} inputs in {elapsed:.1f}s: {len(errors)} exceptions")
    for error in errors[:3]:
        print(error)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
