import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from review.evaluation import figures_compute, figures_lines
from review.models import SelfTestRun
from tests.checking.test_selftest import FERRY, MUSEUM

EVIDENCE = "The Harbor Museum has 12 galleries on three floors and a library of 9,000 maritime books."


def external_item(id_: str, answer: str, label: str) -> dict:
    return {"id": id_, "source": "test", "evidence": EVIDENCE, "question": "", "answer": answer, "label": label}


def result(label: str, weakest: float | None, risk: str, *, hard_held: bool = False, held_otherwise: bool = False,
           kind: str = "") -> dict:
    positive = label == "supported"
    predicted = weakest is not None and weakest >= 0.6 and not hard_held
    return {"label": label, "kind": kind, "weakest": weakest, "risk": risk, "hard_held": hard_held,
            "held_otherwise": held_otherwise, "correct": predicted == positive}


def test_routing_figures_and_the_threshold_that_holds_leaks_to_one_percent():
    results = [
        result("supported", 0.95, "low", kind="verbatim"),
        result("supported", 0.70, "low", kind="verbatim"),
        result("supported", 0.50, "medium", kind="joined"),  # released only if the band drops to 0.50
        result("supported", 0.90, "high", held_otherwise=True, kind="verbatim"),  # a risky topic: never auto
        result("unsupported", 0.65, "low", kind="number_swap"),  # leaks at the default band
        result("unsupported", 0.20, "high", hard_held=True, kind="negation"),
    ]
    figures = figures_compute(results)
    assert (figures.positive.hits, figures.positive.total) == (3, 4)
    assert (figures.negative.hits, figures.negative.total) == (1, 2)
    assert figures.balanced == pytest.approx((0.75 + 0.5) / 2)
    assert (figures.leak.hits, figures.leak.total) == (1, 2)
    assert (figures.automation.hits, figures.automation.total) == (2, 4)
    # The lowest threshold with no leak sits just above the leaking 0.65: 0.70, which releases 2 of 4 supported.
    assert figures.bounded_threshold == 0.70
    assert (figures.bounded_leak.hits, figures.bounded_automation.hits) == (0, 2)
    lines = "\n".join(figures_lines(figures))
    assert re.search(r"joined\s+0\.000 \(0/1\)", lines)
    assert re.search(r"supported threshold for leak <= 1%:\s+0\.700\n", lines)


def test_when_nothing_can_be_released_without_leaking_the_report_says_so():
    figures = figures_compute([result("supported", 0.6, "low"), result("unsupported", 0.9, "low")])
    assert figures.bounded_threshold is None
    assert "  at leak <= 1%:" in "\n".join(figures_lines(figures))
    assert figures_lines(figures)[-1].endswith("no threshold releases anything; automation rate 0")


@pytest.mark.django_db
def test_contexts_from_file_checks_each_answer_against_its_evidence_only(tmp_path, release_at):
    release_at(0.6)
    dataset = tmp_path / "set.jsonl"
    dataset.write_text(
        json.dumps(external_item("a", "The Harbor Museum has 12 galleries on three floors.", "supported")) + "\n"
        + json.dumps(external_item("b", "The Harbor Museum has 15 galleries on three floors.", "unsupported")) + "\n"
    )
    output = tmp_path / "out.jsonl"
    stdout = StringIO()
    # The knowledge base is empty: only the items' evidence can support anything.
    call_command("evaluate", "--dataset", str(dataset), "--contexts-from-file", "--output", str(output), stdout=stdout)
    printed = stdout.getvalue()
    assert re.search(r"balanced accuracy:\s+1\.000\n", printed)
    assert re.search(r"leak rate \(unsupported auto-released\), default bands:\s+0\.000 \(0/1\)", printed)
    assert re.search(r"automation rate \(supported auto-released\), default bands:\s+1\.000 \(1/1\)", printed)
    assert re.search(r"automation rate at that threshold:\s+1\.000 \(1/1\)", printed)
    rows = {row["id"]: row for row in map(json.loads, output.read_text().splitlines())}
    assert rows["a"]["weakest"] >= 0.6 and rows["a"]["risk"] == "low"
    assert rows["b"]["predicted"] == "unsupported" and rows["b"]["risk"] == "high"
    assert "evidence" not in rows["a"]  # the output stays small: no evidence copied back


@pytest.mark.django_db
def test_evaluate_needs_one_source_of_claims():
    with pytest.raises(CommandError, match="either --dataset FILE or --synthesize"):
        call_command("evaluate", stdout=StringIO())
    with pytest.raises(CommandError, match="no approved, indexed version of: nowhere"):
        call_command("evaluate", "--synthesize", "--document", "nowhere", stdout=StringIO())


def test_synthesize_stores_a_run_per_version_and_the_version_page_shows_it(publish, client, curator):
    version = publish(MUSEUM, key="harbor-museum")
    ferry = publish(FERRY, key="ferry")  # lends foreign sentences; not tested itself
    client.force_login(curator)
    page = client.get(version.get_absolute_url()).content.decode()
    assert "No self-test yet" in page and "evaluate --synthesize --document harbor-museum" in page

    stdout = StringIO()
    call_command("evaluate", "--synthesize", "--document", "harbor-museum", "--per-kind", "1", stdout=stdout)

    run = SelfTestRun.objects.get(version=version)
    assert run.total == sum(total for _, total in run.per_kind.values()) >= 12
    assert {"verbatim", "number_swap", "negation", "moved_sentence"} <= set(run.per_kind)
    assert not SelfTestRun.objects.filter(version=ferry).exists()
    assert run.checker.startswith("builtin")
    assert f"harbor-museum v1: {run.percent} % of {run.total} synthesised claims judged right" in stdout.getvalue()
    page = client.get(version.get_absolute_url()).content.decode()
    assert f"Self-test: <strong>{run.percent} %</strong> of {run.total} synthesised claims judged right" in page
    assert "number_swap" in page and "No self-test yet" not in page


@pytest.mark.django_db
def test_spans_say_whether_the_lowest_claim_of_a_wrong_answer_is_the_annotated_one(tmp_path, release_at):
    release_at(0.6)
    wrong = "The Harbor Museum has 12 galleries on three floors. Its library holds 4,000 maritime books."
    dataset = tmp_path / "set.jsonl"
    dataset.write_text(json.dumps(external_item("w", wrong, "unsupported")) + "\n"
                       + json.dumps(external_item("x", wrong, "unsupported")) + "\n")
    spans = tmp_path / "spans.jsonl"
    books = wrong.index("Its library")
    spans.write_text(json.dumps({"id": "w", "spans": [{"start": books, "end": len(wrong)}]}) + "\n"
                     + json.dumps({"id": "x", "spans": [{"start": 0, "end": 10}]}) + "\n")
    stdout = StringIO()
    call_command("evaluate", "--dataset", str(dataset), "--contexts-from-file", "--spans", str(spans), stdout=stdout)
    # The claim about 4,000 books scores lowest: on the span of "w", not on the one of "x" (the first claim).
    assert "lowest-scored claim of an unsupported answer on an annotated span: 0.500 (1/2)" in stdout.getvalue()


@pytest.mark.django_db
def test_a_spans_file_without_starts_is_refused(tmp_path):
    dataset = tmp_path / "set.jsonl"
    dataset.write_text(json.dumps(external_item("a", "The Harbor Museum has 12 galleries.", "supported")) + "\n")
    spans = tmp_path / "spans.jsonl"
    spans.write_text(json.dumps({"id": "a", "spans": [{"end": 3}]}) + "\n")
    with pytest.raises(CommandError, match="spans with start and end"):
        call_command("evaluate", "--dataset", str(dataset), "--contexts-from-file", "--spans", str(spans),
                     stdout=StringIO())
