"""`evaluate --questions FILE`: run the question set, store the run, print the three layers per kind, the gate
sweep and what got worse since the previous run of the same file (or, with `--save NAME`, of the saved set).

A mode of review's `evaluate` command (review/evaluation_modes.py), registered when the ask app is ready."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError
from django.utils import timezone

from ask import question_evaluation, regression
from ask.question_evaluation import KINDS, QuestionsError, QuestionsReport, Regression
from ask.models import RunTrigger
from kb.models import DocumentVersion, IndexState
from review.evaluation import DatasetError, documents_index
from review.evaluation_modes import EvaluationMode


def _ratio(hits: int, total: int) -> str:
    return f"{hits}/{total}" if total else "-"


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def layer_lines(report: QuestionsReport) -> list[str]:
    summary = report.serialisable()["summary"]
    kinds = [kind for kind in (*KINDS, *sorted(set(summary) - {*KINDS, "all"})) if kind in summary] + ["all"]
    retrieval = [f"retrieval (top {report.k})",
                 f"  {'kind':<13}{'n':>3} {'recall@k':>9} {'mean rank':>10} {'other docs/k':>13} {'unusable':>9}"]
    generation = ["generation",
                  f"  {'kind':<13}{'status ok':>10} {'refusals':>9} {'supported':>10} {'points':>8} "
                  f"{'no forbidden':>13} {'schema ok':>10}"]
    business = ["business", f"  {'kind':<13}{'held':>6} {'released':>9} {'s/question':>11}"]
    for kind in kinds:
        row = summary[kind]
        n = row["questions"]
        retrieval.append(f"  {kind:<13}{n:>3} {_number(row['recall_at_k']):>9} {_number(row['mean_rank']):>10} "
                         f"{_number(row['irrelevant_in_top_k']):>13} {row['unusable_in_top_k']:>9}")
        generation.append(
            f"  {kind:<13}{_ratio(row['status_correct'], n):>10} "
            f"{_ratio(row['refusals_correct'], row['refusals_expected']):>9} "
            f"{_ratio(row['claims_supported'], row['checked']):>10} {_ratio(row['points_present'], row['points']):>8} "
            f"{_ratio(row['forbidden_absent'], n):>13} {_ratio(row['schema_valid'], n):>10}")
        business.append(f"  {kind:<13}{_ratio(row['held'], row['checked']):>6} "
                        f"{_ratio(row['released'], row['checked']):>9} {_number(row['seconds']):>11}")
    return [*retrieval, "", *generation, "", *business]


def sweep_lines(report: QuestionsReport) -> list[str]:
    if not report.sweep:
        return []
    lines = ["gate sweep (refusal accuracy = unanswerable refused; answer coverage = the others let through)",
             f"  {'min coverage':>12} {'min similarity':>15} {'term similarity':>16} {'refusal accuracy':>17} "
             f"{'answer coverage':>16}"]
    settings_now = report.gate_settings
    current = (settings_now["ASK_GATE_MIN_TERM_COVERAGE"], settings_now["ASK_GATE_MIN_SIMILARITY"],
               settings_now["ASK_GATE_TERM_SIMILARITY"])
    shown = set()
    for row in report.sweep:
        setting = (row["min_term_coverage"], row["min_similarity"], row.get("term_similarity", current[2]))
        mark = "  <- current" if setting == current and setting not in shown else ""
        shown.add(setting)
        lines.append(f"  {setting[0]:>12.2f} {setting[1]:>15.2f} {setting[2]:>16.2f} "
                     f"{_ratio(*row['refusal_accuracy']):>17} {_ratio(*row['answer_coverage']):>16}{mark}")
    return lines


def failure_lines(report: QuestionsReport) -> list[str]:
    lines = []
    for r in question_evaluation.applicable(report.results):
        problems = []
        if not r["status_correct"]:
            problems.append(f"status {r['status']} (expected {r['expected_status']})"
                            + (f", missing {', '.join(r['missing_terms'])}" if r["missing_terms"] else ""))
        problems += [f"{key} not in top {report.k}" for key, rank in r["required_ranks"].items() if rank is None]
        if r["claims_supported"] is False:
            problems.append(f"claims {', '.join(r['verdicts'])}")
        if r["status_correct"] and r["expected_status"] != "insufficient_evidence":
            problems += [f"point missing: {p!r}" for p, present in r["points_present"].items() if not present]
        problems += [f"forbidden point present: {p!r}" for p in r["forbidden_present"]]
        if problems:
            lines.append(f"  [{r['id']}] {r['question']}: {'; '.join(problems)}")
    return ["questions with a problem:", *lines] if lines else ["every question as expected"]


def not_applicable_lines(report: QuestionsReport) -> list[str]:
    skipped = [r for r in report.results if r.get("not_applicable")]
    if not skipped:
        return []
    return [f"not applicable ({len(skipped)}; their fixture documents are not in the knowledge base: "
            "--load-fixtures imports them):",
            *(f"  [{r['id']}] needs {', '.join(r['missing_documents'])}" for r in skipped), ""]


def regression_lines(previous, found: list[Regression]) -> list[str]:
    if previous is None:
        return ["regressions: none to compare (first run of this file)"]
    head = f"regressions since run {previous.pk} ({previous.created_at:%Y-%m-%d %H:%M}):"
    return [head, *(f"  [{r.question_id}] {r.what}" for r in found)] if found else [f"{head} none"]


def _knowledge_ready(*, paths: list[str], stdout) -> None:
    """Import the given Markdown files (and fixtures when asked); index whatever waits for indexing."""
    if paths or DocumentVersion.objects.exclude(index_state=IndexState.READY).exists():
        documents_index(paths=paths, stdout=stdout)


def questions_command(*, path: str, documents: list[str], clearance: str, k: int, sweep: bool, stdout,
                      load_fixtures: bool = False, save: str | None = None) -> QuestionsReport:
    questions = question_evaluation.questions_load(Path(path))
    fixtures = sorted({str(Path(path).parent / f) for q in questions for f in q.fixtures}) if load_fixtures else []
    _knowledge_ready(paths=[*documents, *fixtures], stdout=stdout)
    question_set = None
    if save:
        # Kept first (a bad name stops here); the run below is the set's first, or its next, run.
        question_set, _ = regression.question_set_save(
            name=save, text=Path(path).read_text(encoding="utf-8"), source_filename=Path(path).name,
            clearance=clearance, user=None, trigger=None)
    started_at = timezone.now()
    report = question_evaluation.questions_evaluate(questions=questions, clearance=clearance, k=k, sweep=sweep)
    key = str(Path(path))
    previous = None if save else question_evaluation.previous_run(questions_file=key)
    found = question_evaluation.regressions(previous=previous.results, current=report.results) if previous else []
    run = regression.question_run_record(report=report, questions_file=key, question_set=question_set,
                                         started_at=started_at,
                                         trigger=RunTrigger.MANUAL if save else RunTrigger.COMMAND)
    if save:
        previous = run.compared_with
        found = [Regression(r["question_id"], r["what"]) for r in run.regressions]
    settings_line = ", ".join(f"{name}={value}" for name, value in report.gate_settings.items())
    saved_line = [f"saved as the question set “{question_set.name}”: it re-runs on every change", ""] if save else []
    lines = [f"\n{len(questions)} questions from {path} (run {run.pk}, clearance {clearance}; {settings_line})", "",
             *saved_line, *layer_lines(report), "", *sweep_lines(report), "", *not_applicable_lines(report),
             *failure_lines(report), "", *regression_lines(previous, found)]
    stdout.write("\n".join(lines))
    return report


def _questions_arguments(parser) -> None:
    parser.add_argument("--questions", help="question set (JSON lines): ask each and report three layers per kind")
    parser.add_argument("--k", type=int, default=5, help="with --questions: passages retrieved per question")
    parser.add_argument("--no-sweep", action="store_true", help="with --questions: skip the gate sweep")
    parser.add_argument("--load-fixtures", action="store_true",
                        help="with --questions: import the questions' fixture documents (public) first; without "
                             "it a question whose fixtures are not in the knowledge base is not applicable")
    parser.add_argument("--save", metavar="NAME",
                        help="with --questions: keep the set under NAME (replacing its questions) so it re-runs "
                             "whenever approved knowledge or a checked setting changes")


def _questions_run(*, options: dict, stdout) -> None:
    try:
        questions_command(path=options["questions"], documents=options["documents"], clearance=options["clearance"],
                          k=options["k"], sweep=not options["no_sweep"], load_fixtures=options["load_fixtures"],
                          save=options["save"], stdout=stdout)
    except (QuestionsError, DatasetError) as exc:
        raise CommandError(str(exc)) from None


QUESTIONS_MODE = EvaluationMode(option="questions", add_arguments=_questions_arguments, run=_questions_run,
                                options=("load_fixtures", "save"))
