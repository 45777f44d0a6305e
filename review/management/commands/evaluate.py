"""Run labelled claims through the checking pipeline and report accuracy and routing, as NeMo's evaluate_factcheck does.

Three sources of claims (see review/evaluation.py for the figures):
- `--dataset FILE`: JSON lines with "claim" (or "answer"), "label", optional "question", "kind", "contexts";
  retrieval over the knowledge base supplies evidence.
- `--dataset FILE --contexts-from-file`: the shared external format ("evidence" is the only context; no retrieval).
- modes other apps register (review/evaluation_modes.py): `--questions FILE [--load-fixtures] [--save NAME]`
  asks a question set through the evidence gate and the composer (ask/question_report.py).
- `--synthesize [--document KEY ...]`: claims synthesised from approved documents (checking/selftest.py), checked
  against the whole knowledge base; each version's result is stored and shown on its page.
- `--reviewed-facts FILE [FILE ...]`: answers approved once, then their paraphrases and changed-fact variants sent
  (review/fact_replay.py): how many go out on the reviewed facts, and no changed fact with them; rolled back.
- `--dataset FILE --simulate-reviews --reviews N --seed S [--json]`: what learning from N reviews would do for a
  new customer (review/learning/simulation.py); the last line is one JSON object.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from checking.selftest import PER_KIND
from console.models import SecurityLevel
from kb.embeddings import allow_local_model
from review import evaluation, selectors
from review.evaluation_modes import evaluation_mode_chosen, evaluation_mode_stray_options, evaluation_modes


class Command(BaseCommand):
    help = "Evaluate the claim checker on a labelled JSONL dataset, or on claims synthesised from the knowledge base."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dataset", help="labelled JSON lines")
        parser.add_argument("--contexts-from-file", action="store_true",
                            help='each item\'s "evidence" is its only context; no retrieval (shared external format)')
        parser.add_argument("--synthesize", action="store_true",
                            help="check claims synthesised from approved, indexed versions; store each version's result")
        parser.add_argument("--document", action="append", default=[], metavar="KEY",
                            help="with --synthesize: only this document (repeatable)")
        parser.add_argument("--seed", type=int, default=0, help="with --synthesize: the synthesiser's seed")
        parser.add_argument("--per-kind", type=int, default=PER_KIND, help="with --synthesize: claims per kind and version")
        parser.add_argument("--documents", nargs="*", default=[], metavar="FILE.md",
                            help="import, approve and index these Markdown files first (skipped if already imported)")
        parser.add_argument("--clearance", default=SecurityLevel.RESTRICTED, choices=SecurityLevel.values)
        parser.add_argument("--output", help="write one JSON line per item with its prediction and weakest claim score")
        parser.add_argument("--show-errors", type=int, default=10, help="print this many misclassified items")
        parser.add_argument("--spans", metavar="FILE",
                            help="with --dataset: annotated unsupported spans per id (JSON lines); report how often "
                                 "the lowest-scored claim of an unsupported answer overlaps one")
        parser.add_argument("--simulate-reviews", action="store_true",
                            help="with --dataset: take --reviews items as reviewer labels in queue order, learn as "
                                 "the job would, and score start and learned policies on the rest")
        parser.add_argument("--reviews", type=int, default=150, help="with --simulate-reviews: reviews to take")
        parser.add_argument("--json", dest="json_only", action="store_true", help="with --simulate-reviews: print only the JSON line")
        parser.add_argument("--reviewed-facts", nargs="+", metavar="FILE",
                            help="groups of an answer, its paraphrases and changed variants (eval/README.md)")
        for mode in evaluation_modes():
            mode.add_arguments(parser)

    def handle(self, *args, dataset: str | None, contexts_from_file: bool, synthesize: bool, document: list[str],
               seed: int, per_kind: int, documents: list[str], clearance: str, output: str | None, show_errors: int,
               simulate_reviews: bool = False, reviews: int = 150, json_only: bool = False, **options) -> None:
        if simulate_reviews:
            if not dataset:
                raise CommandError("--simulate-reviews needs --dataset")
            self._simulate(dataset=dataset, contexts_from_file=contexts_from_file, clearance=clearance,
                           reviews=reviews, seed=seed, json_only=json_only, documents=documents)
            return
        if options.get("reviewed_facts"):
            self._reviewed_facts(paths=options["reviewed_facts"], documents=documents, clearance=clearance)
            return
        mode = evaluation_mode_chosen(options)
        if mode is not None:
            allow_local_model()
            mode.run(options={**options, "documents": documents, "clearance": clearance}, stdout=self.stdout)
            return
        stray = evaluation_mode_stray_options(options)
        if stray:
            raise CommandError(stray)
        if bool(dataset) == synthesize:
            raise CommandError("give either --dataset FILE or --synthesize")
        if contexts_from_file and not dataset:
            raise CommandError("--contexts-from-file needs --dataset")
        allow_local_model()  # a batch command embeds in-process instead of asking a worker
        if documents:
            try:
                evaluation.documents_index(paths=documents, stdout=self.stdout)
            except evaluation.DatasetError as exc:
                raise CommandError(str(exc)) from None

        started = time.perf_counter()
        spans = None
        if synthesize:
            results = self._synthesize(keys=document, clearance=clearance, seed=seed, per_kind=per_kind)
        else:
            try:
                items = evaluation.dataset_load(Path(dataset))
                spans = evaluation.spans_load(Path(options["spans"])) if options.get("spans") else None
            except evaluation.DatasetError as exc:
                raise CommandError(str(exc)) from None
            results = [evaluation.item_check(item=item, clearance=clearance, contexts_from_file=contexts_from_file)
                       for item in items]
        elapsed = time.perf_counter() - started

        positives = sum(evaluation.is_positive(r["label"]) for r in results)
        self.stdout.write(f"\nitems: {len(results)} ({positives} supported, {len(results) - positives} unsupported) "
                          f"in {elapsed:.1f}s ({len(results) / elapsed:.1f} items/s)")
        for line in evaluation.figures_lines(evaluation.figures_compute(results)):
            self.stdout.write(line)
        if spans is not None:
            self.stdout.write("\nlowest-scored claim of an unsupported answer on an annotated span: "
                              f"{evaluation.lowest_claim_on_spans(results=results, spans=spans)}")
        if output:
            Path(output).write_text("".join(json.dumps(r) + "\n" for r in results))
        errors = [r for r in results if not r["correct"]][:show_errors]
        if errors:
            self.stdout.write(f"\nMisclassified (first {len(errors)}):")
            for r in errors:
                score = "-" if r["weakest"] is None else f"{r['weakest']:.2f}"
                self.stdout.write(f"  [{r.get('kind', '-')}] label={r['label']} score={score}: {r['claim']}")
                self.stdout.write(f"      {'; '.join(r['reasons'])[:300]}")

    def _reviewed_facts(self, *, paths: list[str], documents: list[str], clearance: str) -> None:
        from review.fact_replay import ReplayError, groups_load, replay_lines, reviewed_facts_replay

        allow_local_model()
        try:
            if documents:
                evaluation.documents_index(paths=documents, stdout=self.stdout)
            groups = [group for path in paths for group in groups_load(Path(path))]
        except (ReplayError, evaluation.DatasetError) as exc:
            raise CommandError(str(exc)) from None
        started = time.perf_counter()
        figures = reviewed_facts_replay(groups=groups, clearance=clearance)
        self.stdout.write(f"{len(groups)} groups replayed in {time.perf_counter() - started:.1f}s (rolled back)")
        for line in replay_lines(figures):
            self.stdout.write(line)

    def _simulate(self, *, dataset: str, contexts_from_file: bool, clearance: str, reviews: int, seed: int,
                  json_only: bool, documents: list[str]) -> None:
        from django.conf import settings

        from checking.verdicts import supported_at
        from review.learning.simulation import simulate

        allow_local_model()
        try:
            if documents:
                evaluation.documents_index(paths=documents, stdout=self.stdout)
            items = evaluation.dataset_load(Path(dataset))
        except evaluation.DatasetError as exc:
            raise CommandError(str(exc)) from None
        started = time.perf_counter()
        checked = [evaluation.item_for_learning(item=item, clearance=clearance, contexts_from_file=contexts_from_file)
                   for item in items]
        if not json_only:
            self.stdout.write(f"{len(checked)} items checked in {time.perf_counter() - started:.1f}s")
        result = simulate(
            checked, family=Path(dataset).stem, reviews=reviews, seed=seed,
            audit_rate=settings.REVIEW_AUDIT_SAMPLE_RATE, budget=settings.REVIEW_LEAK_BUDGET, band=supported_at(),
            margin=settings.REVIEW_LEARNING_MARGIN, folds=settings.REVIEW_LEARNING_FOLDS,
            min_labels=settings.REVIEW_LEARNING_MIN_LABELS, label_weights=settings.REVIEW_LEARNING_LABEL_WEIGHTS,
            progress=None if json_only else self.stdout.write,
        )
        if not json_only:
            for name in ("start", "learned", "learned_with_reviewed_facts"):
                f = result[name]
                bound = "-" if f["leak_bound"] is None else f"{f['leak_bound']:.3f}"
                self.stdout.write(f"{name:<27} balanced {f['balanced']:.3f}  automation {f['automation']:.3f}  "
                                  f"leak {f['leak']:.3f}  leak bound {bound} ({f['budget_status']})  "
                                  f"release at {f['threshold']:.3f}  [{f['family']}]")
        self.stdout.write(json.dumps(result))

    def _synthesize(self, *, keys: list[str], clearance: str, seed: int, per_kind: int) -> list[dict]:
        live = list(selectors.selftest_versions())
        versions = [v for v in live if not keys or v.document.key in keys]
        missing = set(keys) - {v.document.key for v in versions}
        if missing:
            raise CommandError(f"no approved, indexed version of: {', '.join(sorted(missing))}")
        results: list[dict] = []
        for version in versions:
            others = [v.text for v in live if v.document_id != version.document_id]
            version_results, run = evaluation.selftest_run(version=version, others=others, clearance=clearance,
                                                           seed=seed, per_kind=per_kind)
            self.stdout.write(f"{version}: {run.percent} % of {run.total} synthesised claims judged right")
            for kind, correct, total in run.kinds:
                self.stdout.write(f"  {kind:<22} {correct}/{total}")
            results += version_results
        return results
