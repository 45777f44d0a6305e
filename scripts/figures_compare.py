"""Two runs of scripts/figures.sh side by side: each set's headline figure, and every item whose prediction moved.

    python scripts/figures_compare.py BEFORE_DIR AFTER_DIR
"""

import json
import re
import sys
from pathlib import Path

CLAIM_SETS = ("dev-zh", "test-zh", "dev", "test", "begin", "wice", "ocnli", "uhgeval-unsupported-only")
SUMMARY_SETS = ("self-zh", "self-en", "questions-zh", "questions-en")
_BALANCED = re.compile(r"balanced accuracy:\s+([0-9.]+)")
_CAUGHT = re.compile(r"unsupported caught\):\s+[0-9.]+ \((\d+/\d+)\)")  # an unsupported-only set's figure
_QUESTIONS = re.compile(r"^  all\s+(\d+/\d+)\s+(\d+/\d+)", re.MULTILINE)  # status right, refusals right


def headline(run: Path, name: str) -> str:
    path = run / f"{name}.txt"
    if not path.exists():
        return "-"
    text = path.read_text(encoding="utf-8")
    if (match := _BALANCED.search(text)) and (caught := _CAUGHT.search(text)):
        return f"{match.group(1)} (caught {caught.group(1)})"
    if match := _QUESTIONS.search(text):
        return f"status {match.group(1)}, refusals {match.group(2)}"
    return "?"


def items(run: Path, name: str) -> list[dict]:
    path = run / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def main(before: Path, after: Path) -> None:
    for name in CLAIM_SETS:
        moved = [(a, b) for a, b in zip(items(before, name), items(after, name), strict=False)
                 if a.get("predicted") != b.get("predicted")]
        print(f"{name:26} {headline(before, name)} -> {headline(after, name)}, {len(moved)} moved")
        for a, b in moved:
            print(f"    {a.get('label')} {a.get('kind')}: {a.get('predicted')} -> {b.get('predicted')}  "
                  f"{(a.get('claim') or '')[:80]}")
    for name in SUMMARY_SETS:
        print(f"{name:26} {headline(before, name)} -> {headline(after, name)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
