#!/bin/bash
# Every figure docs/evaluation.md reports, into one directory: the four claim splits and the four external sets
# (with --output, one line per item, for scripts/figures_compare.py), both self-tests and both question sets.
# Run it from a checkout (or a worktree of another commit sharing the database, CONSOLE_VAR_DIR) with the
# question fixtures loaded once (evaluate --questions FILE --load-fixtures). The external human-labelled sets are
# not part of the repository: name the directory holding them (begin-dev.jsonl, wice-dev.jsonl, ...).
#   scripts/figures.sh OUT_DIR EXTERNAL_SETS_DIR
set -u
out=${1:?usage: scripts/figures.sh OUT_DIR EXTERNAL_SETS_DIR}
external=${2:?usage: scripts/figures.sh OUT_DIR EXTERNAL_SETS_DIR}
[ -f "$external/begin-dev.jsonl" ] || { echo "no begin-dev.jsonl in $external" >&2; exit 2; }
mkdir -p "$out"
py=${PYTHON:-.venv/bin/python}
evaluate() { name=$1; shift; $py manage.py evaluate "$@" > "$out/$name.txt" 2>&1; }
evaluate dev-zh --dataset eval/claims-dev-zh.jsonl --output "$out/dev-zh.jsonl"
evaluate test-zh --dataset eval/claims-test-zh.jsonl --output "$out/test-zh.jsonl"
evaluate dev --dataset eval/claims-dev.jsonl --output "$out/dev.jsonl"
evaluate test --dataset eval/claims-test.jsonl --output "$out/test.jsonl"
for set in begin wice ocnli uhgeval-unsupported-only; do
    evaluate "$set" --contexts-from-file --dataset "$external/$set-dev.jsonl" --output "$out/$set.jsonl"
done
evaluate self-zh --synthesize --seed 1 --document travel-expenses --document leave-policy --document it-security
evaluate self-en --synthesize --seed 1 --document product-faq --document security-handbook --document travel-policy
evaluate questions-zh --questions eval/questions-demo-zh.jsonl --no-sweep
evaluate questions-en --questions eval/questions-demo.jsonl --no-sweep
