"""Server time of the review queue with 100,000 pending answers and of a review page with 10 claims.

    .venv/bin/python bench/ui_bench.py [--answers 100000] [--requests 50] [--fresh]

Uses its own database (console_uibench on the embedded server, or DATABASE_URL's server) so it never
touches development or test data. Requests go through Django's full middleware stack in-process
(test Client), so the numbers are server time without network or browser.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # harness, beside this file
from harness import bench_database_url, load_average  # noqa: E402

DATABASE = "console_uibench"


def _seed(answer_count: int):
    from django.contrib.auth.models import Group

    from console.models import User
    from kb.models import Chunk, Document, DocumentVersion, IndexState, VersionStatus
    from review.models import RISK_ORDER, Answer, Claim, Evidence
    from review.services import api_client_create

    reviewer, _ = User.objects.get_or_create(username="bench-reviewer", defaults={"clearance": "internal"})
    reviewer.groups.add(Group.objects.get_or_create(name="reviewer")[0])
    if Answer.objects.count() >= answer_count + 1:
        return reviewer, Answer.objects.order_by("-pk").first()

    client, _ = api_client_create(name=f"bench-{time.time_ns()}", clearance="internal")
    text = "# Bench policy\n\n## Section\n\n" + "The limit is 40 units per day. " * 20 + "\n"
    document = Document.objects.create(key=f"bench-{time.time_ns()}", title="Bench policy", owner=reviewer)
    version = DocumentVersion.objects.create(document=document, number=1, text=text, sha256="0" * 64,
                                             submitted_by=reviewer, status=VersionStatus.APPROVED,
                                             index_state=IndexState.READY)
    start = text.index("The limit")
    chunk = Chunk.objects.create(version=version, ordinal=0, heading_path="Bench policy > Section",
                                 text=text[start:].strip(), char_start=start, char_end=len(text.rstrip()),
                                 line_start=5, line_end=5, paragraphs=[[start, len(text.rstrip())]], content_hash="x")
    risks = ["high", "medium", "low"]
    batch = 1000
    for offset in range(0, answer_count, batch):
        answers = Answer.objects.bulk_create(
            Answer(client=client, question=f"Bench question {offset + i}?", text="The limit is 40 units per day. " * 3,
                   status="pending_review", risk=risks[(offset + i) % 3], risk_order=RISK_ORDER[risks[(offset + i) % 3]],
                   score=0.5, routing_reasons=["bench"])
            for i in range(min(batch, answer_count - offset))
        )
        Claim.objects.bulk_create(
            Claim(answer=a, ordinal=n, text="The limit is 40 units per day.", start=n * 31, end=n * 31 + 30,
                  score=0.5, verdict="uncertain", reasons=["bench"])
            for a in answers for n in range(3)
        )
    review_text = " ".join(f"Claim {n}: the limit is {40 + n} units per day." for n in range(10))
    detail = Answer.objects.create(client=client, question="Ten claims?", text=review_text, status="pending_review",
                                   risk="high", risk_order=0, score=0.2, routing_reasons=["bench"])
    position = 0
    for n, sentence in enumerate(review_text.split(" Claim ")):
        sentence = sentence if n == 0 else "Claim " + sentence
        claim = Claim.objects.create(answer=detail, ordinal=n, text=sentence, start=position,
                                     end=position + len(sentence), score=0.2, verdict="contradicted",
                                     reasons=[f"claim says {40 + n} units; evidence says 40 units"])
        Evidence.objects.create(claim=claim, chunk=chunk, quote_start=start, quote_end=start + 30, score=0.2, rank=1)
        position += len(sentence) + 1
    return reviewer, detail


def _timings(client, path: str, requests: int) -> tuple[list[float], int]:
    """Milliseconds per request, and the queries one request issues."""
    from django.db import connection

    statements = []
    with connection.execute_wrapper(lambda execute, sql, *args: statements.append(sql) or execute(sql, *args)):
        client.get(path)  # also warms caches and connections
    samples = []
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(path)
        samples.append((time.perf_counter() - started) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{path} answered {response.status_code}")
    return samples, len(statements)


def _summary(name: str, timings: tuple[list[float], int]) -> str:
    samples, queries = timings
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return (f"{name:<34} p50 {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   ({len(ordered)} requests, "
            f"{queries} queries each)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--fresh", action="store_true", help="drop and recreate the bench database")
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = bench_database_url(DATABASE, fresh=args.fresh)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")  # Django's test Client host
    from front import embedded

    os.environ.setdefault("SECRET_KEY", embedded.local_secret_key())
    # Its own Redis database too: nothing here should reach a running console's worker.
    os.environ.setdefault("REDIS_URL", embedded.start_redis(db=4))
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    reviewer, detail = _seed(args.answers)
    from django.db import connection

    with connection.cursor() as cursor:  # what autovacuum does after a bulk load: visibility map and statistics
        cursor.execute("VACUUM ANALYZE review_answer, review_claim, review_evidence")
    print(f"seeded in {time.perf_counter() - started:.1f}s: {args.answers} pending answers + one with 10 claims; "
          f"load average {load_average()}")

    client = Client()
    client.force_login(reviewer)
    print(_summary(f"queue page ({args.answers} pending)", _timings(client, "/review/", args.requests)))
    print(_summary("queue page, htmx row refresh", _timings_htmx(client, args.requests)))
    print(_summary("review page (10 claims)", _timings(client, detail.get_absolute_url(), args.requests)))
    print("load average " + load_average())


def _timings_htmx(client, requests: int) -> tuple[list[float], int]:
    client.defaults.update({"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "queue-rows"})
    try:
        return _timings(client, "/review/", requests)
    finally:
        client.defaults.pop("HTTP_HX_REQUEST")
        client.defaults.pop("HTTP_HX_TARGET")


if __name__ == "__main__":
    main()
