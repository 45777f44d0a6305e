"""Reads for the Ask page (each claim beside its quote, in the passage it comes from) and for saved question
sets and their runs."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.text import slugify

from ask.models import QuestionRun, QuestionSet, RunState
from console import roles
from console.models import SecurityLevel, User
from kb.models import Chunk, DocumentVersion


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


# Saved question sets and their runs: a run quotes its set's documents, so only those cleared for the set's
# clearance see either (404 otherwise: a set's existence says what its documents are about).
RUN_READERS = (roles.CURATOR, roles.APPROVER, roles.REVIEWER)


def question_sets_visible_to(user: User) -> QuerySet[QuestionSet]:
    return QuestionSet.objects.filter(clearance__in=SecurityLevel.up_to(user.clearance))


def get_question_set_for_user(*, user: User, slug: str) -> QuestionSet:
    return get_object_or_404(question_sets_visible_to(user), slug=slug)


def question_runs_visible_to(user: User) -> QuerySet[QuestionRun]:
    return QuestionRun.objects.filter(clearance__in=SecurityLevel.up_to(user.clearance)).select_related("question_set")


def get_question_run_for_user(*, user: User, run_id: int) -> QuestionRun:
    return get_object_or_404(question_runs_visible_to(user).filter(question_set__isnull=False), pk=run_id)


def version_question_runs(*, user: User, version: DocumentVersion) -> dict:
    """The version page's context: the runs this version's approval, retirement or expiry asked for (newest
    first), and whether one still waits or runs (the block then polls)."""
    runs = list(question_runs_visible_to(user).filter(trigger_versions=version).order_by("-created_at", "-pk")[:6])
    return {"question_runs": runs,
            "question_runs_pending": any(run.state in (RunState.QUEUED, RunState.RUNNING) for run in runs)}


@dataclass
class SetStatus:
    question_set: QuestionSet
    latest: QuestionRun | None  # queued, running, done or failed
    last_done: QuestionRun | None  # the figures to show while a newer run waits


def question_sets_status(*, user: User, active_only: bool = True) -> list[SetStatus]:
    """Each visible set with its latest run and its latest finished run (two queries in all)."""
    sets = list(question_sets_visible_to(user).filter(**({"active": True} if active_only else {})))
    latest: dict[int, QuestionRun] = {}
    done: dict[int, QuestionRun] = {}
    runs = (QuestionRun.objects.filter(question_set__in=sets).order_by("question_set_id", "-created_at", "-pk")
            .distinct("question_set_id"))
    for run in runs:
        latest[run.question_set_id] = run
    for run in (QuestionRun.objects.filter(question_set__in=sets, state=RunState.DONE)
                .order_by("question_set_id", "-finished_at", "-pk").distinct("question_set_id")):
        done[run.question_set_id] = run
    return [SetStatus(question_set=s, latest=latest.get(s.pk), last_done=done.get(s.pk)) for s in sets]


def question_anchor(question_id: str) -> str:
    return "q-" + slugify(question_id)


def run_question_rows(*, run: QuestionRun) -> list[dict]:
    """Per question of a run: its result, the layers as short lines, and what got worse on it."""
    worse: dict[str, list[str]] = {}
    for regression in run.regressions:
        worse.setdefault(regression["question_id"], []).append(regression["what"])
    rows = []
    for result in run.results:
        row = {"result": result, "anchor": question_anchor(result["id"]), "regressions": worse.get(result["id"], [])}
        if not result.get("not_applicable"):
            row["missing_ranks"] = [key for key, rank in result["required_ranks"].items() if rank is None]
            row["points_missing"] = [p for p, present in result["points_present"].items() if not present]
        rows.append(row)
    return rows
