"""Run a labelled claim set through the checking pipeline and report accuracy, as NeMo's evaluate_factcheck does.

Dataset: JSON lines with "claim" (or "answer"), "label" ("supported"/"unsupported", or true/false),
optional "question", "kind" (error kind, for per-kind accuracy) and "contexts".
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from console.models import SecurityLevel
from kb import services as kb_services
from kb.embeddings import allow_local_model
from kb.models import DocumentVersion, IndexState
from review.models import Verdict
from review.pipeline import answer_check

POSITIVE_LABELS = {"supported", "true", "1", "yes", "positive", "entailed"}


def _label(value) -> bool:
    return str(value).strip().lower() in POSITIVE_LABELS


def _rate(hits: int, total: int) -> str:
    return f"{hits / total:.3f} ({hits}/{total})" if total else "n/a"


class Command(BaseCommand):
    help = "Evaluate the claim checker on a labelled JSONL dataset."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dataset", required=True)
        parser.add_argument("--documents", nargs="*", default=[], metavar="FILE.md",
                            help="import, approve and index these Markdown files first (skipped if already imported)")
        parser.add_argument("--clearance", default=SecurityLevel.RESTRICTED, choices=SecurityLevel.values)
        parser.add_argument("--output", help="write one JSON line per item with its prediction")
        parser.add_argument("--show-errors", type=int, default=10, help="print this many misclassified items")

    def handle(self, *args, dataset: str, documents: list[str], clearance: str, output: str | None,
               show_errors: int, **options) -> None:
        allow_local_model()  # a batch command embeds in-process instead of asking a worker
        items = self._load(Path(dataset))
        if documents:
            self._index_documents(documents)

        started = time.perf_counter()
        results = []
        for item in items:
            report = answer_check(question=item.get("question", ""), answer_text=item["claim"], clearance=clearance,
                                  contexts=item.get("contexts") or [])
            predicted = bool(report.claims) and all(c.verdict == Verdict.SUPPORTED for c in report.claims)
            results.append({**item, "predicted": "supported" if predicted else "unsupported",
                            "correct": predicted == _label(item["label"]), "score": report.score,
                            "risk": report.risk,
                            "reasons": [r for c in report.claims for r in c.reasons]})
        elapsed = time.perf_counter() - started
        self._report(results, elapsed)
        if output:
            Path(output).write_text("".join(json.dumps(r) + "\n" for r in results))
        errors = [r for r in results if not r["correct"]][:show_errors]
        if errors:
            self.stdout.write("\nMisclassified (first {}):".format(len(errors)))
            for r in errors:
                self.stdout.write(f"  [{r.get('kind', '-')}] label={r['label']} score={r['score']}: {r['claim']}")
                self.stdout.write(f"      {'; '.join(r['reasons'])[:300]}")

    def _load(self, path: Path) -> list[dict]:
        if not path.exists():
            raise CommandError(f"no dataset at {path}")
        items = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CommandError(f"{path}:{number}: invalid JSON ({exc})") from None
            item["claim"] = item.get("claim") or item.get("answer")
            if not item["claim"] or "label" not in item:
                raise CommandError(f"{path}:{number}: each item needs a claim (or answer) and a label")
            items.append(item)
        if not items:
            raise CommandError(f"{path} holds no items")
        return items

    def _index_documents(self, documents: list[str]) -> None:
        from console.models import User

        owner = User.objects.filter(is_superuser=True).first() or User.objects.first()
        approver = User.objects.exclude(pk=owner.pk).filter(groups__name__in=["approver", "admin"]).first()
        if owner is None or approver is None:
            raise CommandError("--documents needs an owner and a different approver user (run seed_demo first)")
        for name in documents:
            key = Path(name).stem
            if not DocumentVersion.objects.filter(document__key=key).exists():
                call_command("kb_import", name, "--owner", owner.username, "--approve-as", approver.username,
                             "--security-level", SecurityLevel.PUBLIC, stdout=self.stdout)
        for version in DocumentVersion.objects.exclude(index_state=IndexState.READY):
            if version.index_state != IndexState.QUEUED:
                kb_services.version_index_retry(version=version, user=None)
            if kb_services.version_index_claim(version_id=version.pk):
                kb_services.version_index_run(version_id=version.pk)

    def _report(self, results: list[dict], elapsed: float) -> None:
        positives = [r for r in results if _label(r["label"])]
        negatives = [r for r in results if not _label(r["label"])]
        pos_acc = sum(r["correct"] for r in positives) / len(positives) if positives else 0.0
        neg_acc = sum(r["correct"] for r in negatives) / len(negatives) if negatives else 0.0
        write = self.stdout.write
        write(f"items: {len(results)} ({len(positives)} supported, {len(negatives)} unsupported) "
              f"in {elapsed:.1f}s ({len(results) / elapsed:.1f} items/s)")
        write(f"positive accuracy (supported kept):     {_rate(sum(r['correct'] for r in positives), len(positives))}")
        write(f"negative accuracy (unsupported caught): {_rate(sum(r['correct'] for r in negatives), len(negatives))}")
        write(f"overall accuracy:                       {_rate(sum(r['correct'] for r in results), len(results))}")
        write(f"balanced accuracy:                      {(pos_acc + neg_acc) / 2:.3f}")
        by_kind: dict[str, list[bool]] = defaultdict(list)
        for r in results:
            by_kind[r.get("kind") or "-"].append(r["correct"])
        write("\naccuracy per kind:")
        for kind, outcomes in sorted(by_kind.items()):
            write(f"  {kind:<22} {_rate(sum(outcomes), len(outcomes))}")
        confusion = Counter((r["label"] if isinstance(r["label"], str) else str(r["label"]), r["risk"]) for r in results)
        labels = sorted({label for label, _ in confusion})
        write("\nrouting (label × risk):")
        write(f"  {'label':<14}{'low':>8}{'medium':>8}{'high':>8}")
        for label in labels:
            write(f"  {label:<14}" + "".join(f"{confusion[(label, risk)]:>8}" for risk in ("low", "medium", "high")))
