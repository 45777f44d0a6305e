"""Ask latency: from a question on the Ask page to its routed answer, as a person waits for it.

The demo documents (kb/demo/*.md) are imported and indexed by a real Celery worker in a database of the benchmark's
own (`console_bench_ask`, Redis database 7). Then each question of eval/questions-demo.jsonl (and eval/questions-
demo-test.jsonl) is asked --rounds times through `ask.services.ask_question` as a reviewer, the way the Ask page
asks: the web process retrieves, gates, composes and checks (query embeddings from the worker, as a web process
gets them), and the answer is stored and routed. Answered questions and refusals are timed apart: only an answer
is checked and routed. The worker keeps running throughout, so work it is asked for is part of the figure.

Run: .venv/bin/python bench/ask_bench.py [--help]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness and check_bench, beside this file
from check_bench import demo_import, index_queue, index_wait, stale_tasks_discard  # noqa: E402
from harness import (  # noqa: E402
    PROJECT_DIR,
    BenchError,
    bench_run,
    bench_users,
    database_arguments,
    latency_row,
    load_average,
    print_table,
    progress,
    running,
    worker_command,
    worker_wait,
)

QUESTION_FILES = ("eval/questions-demo.jsonl", "eval/questions-demo-test.jsonl")


def questions() -> list[str]:
    return [json.loads(line)["question"] for name in QUESTION_FILES
            for line in (PROJECT_DIR / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def asker():
    """A reviewer cleared for the demo documents: the Ask page's user."""
    from django.contrib.auth.models import Group

    from console import roles
    from console.models import SecurityLevel, User

    user, _ = User.objects.get_or_create(username="bench-asker", defaults={"clearance": SecurityLevel.INTERNAL})
    user.groups.add(Group.objects.get_or_create(name=roles.REVIEWER)[0])
    return user


def body(args: argparse.Namespace) -> None:
    from ask.services import ask_question
    from review.models import Answer

    curator, approver = bench_users()
    version_ids = demo_import(curator=curator, approver=approver)
    stale_tasks_discard()
    user = asker()
    asked = questions()
    with running(worker_command(args.worker_concurrency, name="ask-bench")) as worker:
        worker_wait(worker, timeout=120)
        index_queue(version_ids)
        index_wait(version_ids, timeout=600)
        for question in asked[:3]:  # warm: both processes' models loaded, the gate's tables read
            ask_question(question=question, user=user)
        progress(f"asking {len(asked)} questions {args.rounds} times")
        answered, refused, rechecked = [], [], 0
        load = load_average()
        for _ in range(args.rounds):
            for question in asked:
                started = time.perf_counter()
                result = ask_question(question=question, user=user)
                seconds = time.perf_counter() - started
                if result.answer_id is None:
                    refused.append(seconds)
                    continue
                answered.append(seconds)
                answer = Answer.objects.get(pk=result.answer_id)
                rechecked += answer.scoring_started_at is not None  # a worker checked it again
    if not answered or not refused:
        raise BenchError("the demo questions gave no answer or no refusal: nothing to compare")
    print_table("Ask latency (ask_question as the Ask page calls it)", [
        latency_row("answered", answered),
        latency_row("refused", refused),
        ("answers a worker checked again", f"{rechecked} of {len(answered)}"),
        ("load average at start of timing", load),
    ])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    database_arguments(parser, database="console_bench_ask", redis_db=7)
    parser.add_argument("--worker-concurrency", type=int, default=2, help="Celery worker processes (default 2)")
    parser.add_argument("--rounds", type=int, default=2, help="times each question is asked (default 2)")
    args = parser.parse_args()
    return bench_run(name="ask_bench", database=args.database, redis_db=args.redis_db, fresh=args.fresh,
                     body=lambda: body(args))


if __name__ == "__main__":
    sys.exit(main())
