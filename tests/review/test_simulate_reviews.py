"""evaluate --simulate-reviews: a new customer's first reviews, learned from as the job would."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db

BEGIN = Path(__file__).resolve().parents[2] / "eval" / "external" / "begin-dev.jsonl"


def _simulate(dataset: Path, *, seed: int) -> dict:
    stdout = StringIO()
    call_command("evaluate", "--dataset", str(dataset), "--contexts-from-file", "--simulate-reviews",
                 "--reviews", "40", "--seed", str(seed), "--json", stdout=stdout)
    lines = stdout.getvalue().strip().splitlines()
    assert len(lines) == 1  # --json: the one JSON object and nothing else
    return json.loads(lines[-1])


def test_the_simulation_reports_start_and_learned_policies_on_the_items_nobody_reviewed(tmp_path):
    # A slice of the BEGIN half under its own family's name: the start model is fitted without BEGIN.
    dataset = tmp_path / "begin-dev.jsonl"
    dataset.write_text("".join(BEGIN.read_text().splitlines(keepends=True)[:80]))

    result = _simulate(dataset, seed=3)

    assert (result["reviews"], result["remaining"], result["left_out_of_training"]) == (40, 40, "begin-dev")
    for policy in ("start", "learned"):
        figures = result[policy]
        assert set(figures) >= {"balanced", "automation", "leak", "leak_bound", "threshold", "budget_status"}
        assert 0 <= figures["automation"] <= 1 and 0 <= figures["leak"] <= 1 and 0.5 <= figures["threshold"]
    # Nobody has reviewed anything for the start policy: its bound knows nothing.
    assert result["start"]["leak_bound"] == 1.0 and result["start"]["budget_status"] == "insufficient"
    assert 0 < result["learned"]["leak_bound"] < 1
    assert result["reason"]
    assert _simulate(dataset, seed=3) == result  # the seed decides everything


def test_simulating_needs_a_dataset():
    with pytest.raises(Exception, match="--simulate-reviews needs --dataset"):
        call_command("evaluate", "--simulate-reviews")


def test_the_simulations_memory_lets_out_a_claim_within_a_confirmed_fact_as_the_console_does():
    from checking.facts import claim_fact
    from review.learning.simulation import ClaimFactRow, Memory

    source = ("Domestic trips must be booked at least 14 days before departure. International trips must be booked "
              "at least 21 days before departure.")
    quote = source.index("International"), len(source)

    def row(text: str) -> ClaimFactRow:
        return ClaimFactRow(fact=claim_fact(text), source="travel", start=quote[0], end=quote[1],
                            grounded=frozenset({"international", "trip", "book", "departur"}), text=source)

    memory = Memory(confirmed=(row("International trips must be booked at least 21 days before departure."),))

    assert memory.within(row("You have to book international trips at least 21 days before you leave."))
    assert not memory.within(row("You have to book domestic trips at least 21 days before you leave."))
    assert not Memory().within(row("You have to book international trips at least 21 days before you leave."))
