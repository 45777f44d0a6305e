"""Fit the checker's scoring model on labelled claims; print k-fold figures per set; write checking/model.json.

    python manage.py train_checker --documents kb/demo/*.md kb/demo/zh/*.md

Sets (each counts equally in the fit): the development claims over the knowledge base (English and Chinese,
each a set), claims synthesised from
every approved document (checking/selftest.py), and the human-labelled external sets, whose evidence is their only
context. The held-out test split (eval/claims-test.jsonl) is never trained on: `evaluate` reports it. The rows
fitted on (numbers only) are written beside the model (model_rows.jsonl.gz): refits from reviews start from them.

    python manage.py train_checker --from-reviews

refits on those rows plus the deployment's review labels, cross-validated on the labels, and adopts the result only
if it beats the current model on held-out labels without leaking more (review/learning/refit.py).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from console.models import SecurityLevel
from kb.embeddings import allow_local_model
from review import evaluation, selectors
from checking import training
from checking.languages import detect_language
from checking.model import MODEL_PATH
from checking.selftest import claims_synthesize
from checking.training import LabelledItem, Row
from checking.verdicts import supported_at
from review.learning.leak import shipped_policy
from review.pipeline import answer_check

DEFAULT_DEV = ("eval/claims-dev.jsonl", "eval/claims-dev-zh.jsonl")
DEFAULT_EXTERNAL = ("eval/external/begin-dev.jsonl", "eval/external/wice-dev.jsonl")


class Command(BaseCommand):
    help = "Fit the claim checker's scoring model on labelled data (cross-validated figures per set)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dev", nargs="*", default=list(DEFAULT_DEV),
                            help="claims checked against the knowledge base (each file is a set of its own)")
        parser.add_argument("--external", nargs="*", default=list(DEFAULT_EXTERNAL),
                            help="sets in the shared external format (evidence is the only context)")
        parser.add_argument("--no-synthesize", action="store_true", help="leave out claims synthesised from the KB")
        parser.add_argument("--per-kind", type=int, default=6, help="synthesised claims per kind and version")
        parser.add_argument("--documents", nargs="*", default=[], metavar="FILE.md",
                            help="import, approve and index these Markdown files first (skipped if already there)")
        parser.add_argument("--folds", type=int, default=5)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--l2", type=float, default=10.0, help="ridge penalty on the standardised weights")
        parser.add_argument("--features-cache", help="JSON lines of computed rows, reused when present "
                                                     "(delete it after changing the rules)")
        parser.add_argument("--output", default=str(MODEL_PATH), help="where to write the fitted model")
        parser.add_argument("--rows-output", default=str(training.ROWS_PATH),
                            help="where to write the rows fitted on (what --from-reviews refits from)")
        parser.add_argument("--dry-run", action="store_true", help="report the figures, write nothing")
        parser.add_argument("--from-reviews", action="store_true",
                            help="refit on the shipped rows plus the review labels; adopt only if it beats the "
                                 "current model on held-out labels without leaking more")

    def handle(self, *args, dev: list[str], external: list[str], no_synthesize: bool, per_kind: int,
               documents: list[str], folds: int, seed: int, l2: float, features_cache: str | None, output: str,
               rows_output: str, dry_run: bool, from_reviews: bool = False, **options) -> None:
        if from_reviews:
            self._from_reviews(seed=seed, dry_run=dry_run)
            return
        allow_local_model()
        if documents:
            try:
                evaluation.documents_index(paths=documents, stdout=self.stdout)
            except evaluation.DatasetError as exc:
                raise CommandError(str(exc)) from None
        # Synthesise from the documents named (so the figures do not depend on what else a database holds).
        keys = {Path(name).stem for name in documents}
        items = self._items(dev=dev, external=external, synthesize=not no_synthesize, per_kind=per_kind, seed=seed,
                            keys=keys)
        rows = self._rows(items, cache=Path(features_cache) if features_cache else None)
        usable = [r for r in rows if r.features is not None]
        if len({r.item.supported for r in usable}) < 2:
            raise CommandError("training needs supported and unsupported items with checkable claims")

        # Items without a checkable claim stay in the figures (they are held, score 0) but not in the fit.
        cv_scores = training.cross_validated_scores(rows, folds=folds, seed=seed, l2=l2)
        rule_scores = [r.features["rule_score"] if r.features else 0.0 for r in rows]
        report = {}
        self.stdout.write(f"\n{'set':<14}{'items':>7}  {'rules only (bal.)':>18}  "
                          f"{f'fitted, {folds}-fold: supported kept / unsupported caught / balanced'}")
        for set_name in dict.fromkeys(r.item.set_name for r in rows):
            members = [k for k, r in enumerate(rows) if r.item.set_name == set_name]
            subset = [rows[k] for k in members]
            rules = training.figures(subset, [rule_scores[k] for k in members], threshold=supported_at())
            fitted = training.figures(subset, [cv_scores[k] for k in members], threshold=supported_at())
            report[set_name] = {"items": len(subset), "rules_balanced": round(rules.balanced, 3),
                                "supported_kept": round(fitted.supported_accepted, 3),
                                "unsupported_caught": round(fitted.unsupported_caught, 3),
                                "balanced": round(fitted.balanced, 3)}
            self.stdout.write(f"{set_name:<14}{len(subset):>7}  {rules.balanced:>18.3f}  "
                              f"{fitted.supported_accepted:.3f} / {fitted.unsupported_caught:.3f} / {fitted.balanced:.3f}")

        # The release threshold it ships with: the leak budget proven on the cross-validated scores.
        policy = shipped_policy(cv_scores, [r.item.supported for r in rows], budget=settings.REVIEW_LEAK_BUDGET,
                                floor=supported_at())
        release = _release(policy)
        self.stdout.write(f"\nrelease threshold under a {policy.budget:.0%} leak budget: {release}")
        # Each language's own: their scores spread differently (another segmenter, another embedding model), and a
        # threshold proven on the pool would hold one language's answers for the other's leaks.
        languages = [detect_language(r.item.text) for r in rows]
        release_by_language = {}
        for code in sorted(set(languages)):
            members = [k for k, language in enumerate(languages) if language == code]
            release_by_language[code] = _release(shipped_policy(
                [cv_scores[k] for k in members], [rows[k].item.supported for k in members],
                budget=settings.REVIEW_LEAK_BUDGET, floor=supported_at()))
            self.stdout.write(f"  {code} ({len(members)} rows): {release_by_language[code]}")
        model = training.fit(usable, l2=l2, about={
            "trained_on": {name: sum(r.item.set_name == name for r in usable) for name in report},
            "seed": seed, "folds": folds, "l2": l2, "cross_validated": report, "release": release,
            "release_by_language": release_by_language,
            "command": "python manage.py train_checker --documents kb/demo/*.md kb/demo/zh/*.md",
        })
        self.stdout.write("\nweights (standardised features), largest first:")
        for name, weight in sorted(zip(model.features, model.weights, strict=True), key=lambda p: -abs(p[1]))[:12]:
            self.stdout.write(f"  {name:<28}{weight:+.3f}")
        if not dry_run:
            Path(output).write_text(model.as_json(), encoding="utf-8")
            training.rows_write(usable, Path(rows_output))
            self.stdout.write(f"\nwrote {output} and {rows_output}")

    def _from_reviews(self, *, seed: int, dry_run: bool) -> None:
        from review.learning.services import checker_learning_run, leak_estimate_update, refit_for_current
        from review.learning.models import CheckerModel

        if dry_run:
            current, outcome = refit_for_current(seed=seed)
        else:
            result = checker_learning_run(origin=CheckerModel.Origin.COMMAND, seed=seed,
                                          actor_label="manage.py train_checker --from-reviews")
            outcome = result.outcome
            current = result.model.replaced if result.model and result.model.is_current else None
        figures = outcome.current
        self.stdout.write(f"labels: {outcome.labels}; current model: balanced {figures.balanced:.3f}, leak "
                          f"{figures.leak:.3f}, automation {figures.automation:.3f}")
        if outcome.families:
            self.stdout.write(f"{'candidate family':<26}{'balanced':>9}{'kept':>7}{'caught':>8}{'leak':>7}"
                              f"{'automation':>12}   (cross-validated on the labels)")
            for name, judged in outcome.families.items():
                self.stdout.write(f"{name:<26}{judged.balanced:>9.3f}{judged.supported_kept:>7.3f}"
                                  f"{judged.unsupported_caught:>8.3f}{judged.leak:>7.3f}{judged.automation:>12.3f}")
        if dry_run:
            self.stdout.write(("would adopt: " if outcome.adopt else "would not adopt: ") + outcome.reason)
            return
        if result.model is not None and result.model.is_current:
            update = leak_estimate_update()
            self.stdout.write(f"adopted model {result.model.pk} ({result.model.family}), replacing model "
                              f"{current.pk if current else '-'}: {outcome.reason}; release threshold "
                              f"{result.model.release_threshold:.3f}, leak budget: {update.policy.status}")
        else:
            kept = f" (model {result.model.pk} kept for the record)" if result.model else ""
            self.stdout.write(f"refused{kept}: {outcome.reason}")

    def _items(self, *, dev: list[str], external: list[str], synthesize: bool, per_kind: int, seed: int,
               keys: set[str]) -> list[LabelledItem]:
        items: list[LabelledItem] = []
        try:
            for path in dev:
                items += [LabelledItem(set_name=_set_name(path), text=d["claim"],
                                       supported=evaluation.is_positive(d["label"]),
                                       question=d.get("question") or "", kind=d.get("kind") or "")
                          for d in evaluation.dataset_load(Path(path))]
            for path in external:
                items += [LabelledItem(set_name=Path(path).stem, text=d["claim"],
                                       supported=evaluation.is_positive(d["label"]),
                                       question=d.get("question") or "", contexts=(d.get("evidence") or "",))
                          for d in evaluation.dataset_load(Path(path))]
        except evaluation.DatasetError as exc:
            raise CommandError(str(exc)) from None
        if synthesize:
            live = list(selectors.selftest_versions())
            for version in (v for v in live if not keys or v.document.key in keys):
                others = [v.text for v in live if v.document_id != version.document_id]
                set_name = "synthesised" if version.language == "en" else f"synthesised-{version.language}"
                items += [LabelledItem(set_name=set_name, text=c.claim, supported=c.label == "supported",
                                       kind=c.kind)
                          for c in claims_synthesize(text=version.text, others=others, seed=seed, per_kind=per_kind,
                                                     language=version.language)]
        return items

    def _rows(self, items: list[LabelledItem], *, cache: Path | None) -> list[Row]:
        cached: dict[str, dict | None] = {}
        if cache and cache.exists():
            for line in cache.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                cached[entry["key"]] = entry["features"]
        started = time.perf_counter()

        def featurize(item: LabelledItem) -> dict[str, float] | None:
            key = json.dumps([item.set_name, item.text, item.question, item.contexts])
            if key not in cached:
                cached[key] = _weakest_claim_features(item)
            return cached[key]

        def progress(done: int, total: int) -> None:
            if done % 100 == 0 or done == total:
                self.stdout.write(f"  {done}/{total} items featurised ({time.perf_counter() - started:.0f}s)")

        rows = training.collect_rows(items, featurize=featurize, progress=progress)
        if cache:
            cache.write_text("".join(json.dumps({"key": k, "features": f}) + "\n" for k, f in cached.items()),
                             encoding="utf-8")
        return rows


def _weakest_claim_features(item: LabelledItem) -> dict[str, float] | None:
    """The features of the item's weakest claim by the rules' own score (which the model does not change)."""
    report = answer_check(question=item.question, answer_text=item.text, clearance=SecurityLevel.RESTRICTED,
                          contexts=list(item.contexts), retrieve=not item.contexts, reviewed_facts=False)
    rows = [c.features for c in report.claims if c.features]
    return min(rows, key=lambda f: f["rule_score"]) if rows else None


def _release(policy) -> dict:
    return {"status": policy.status, "budget": policy.budget,
            **(policy.at.as_dict() if policy.at else {"threshold": None})}


def _set_name(path: str) -> str:
    """"dev" for eval/claims-dev.jsonl, "dev-zh" for eval/claims-dev-zh.jsonl."""
    return Path(path).stem.removeprefix("claims-")
