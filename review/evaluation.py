"""Measure the checker like a human-in-the-loop system: accuracy, and what routing would do with the answers.

Items are dicts with "claim" (or "answer"), "label" ("supported"/"unsupported", or true/false) and optional
"question", "kind", "contexts", "evidence" (the shared external format's only context) and "id".

Routing figures: the **leak rate** is the share of unsupported items that would be released automatically
(risk low), the **automation rate** the share of supported items released automatically. Besides the default
bands they are reported at the supported-band threshold that holds leaks to at most 1 %.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.core.management import call_command

from checking.external import configured_checkers
from checking.facts import claim_fact
from checking.languages import detect_language
from checking.selftest import PER_KIND, claims_synthesize
from checking.structure import STRUCTURE_KINDS, answer_structure
from checking.text import is_content, tokenize
from console.models import SecurityLevel
from console.work_claims import work_claim_take
from kb import services as kb_services
from kb.models import DocumentVersion, IndexState
from review import services
from review.learning.review_labels import text_digest
from review.models import Risk, SelfTestRun, Verdict
from review.pipeline import answer_check

POSITIVE_LABELS = {"supported", "true", "1", "yes", "positive", "entailed"}
MAX_LEAK = 0.01
# Verdicts no threshold can release: the claim was refuted or nothing relevant was found.
_PASSABLE_VERDICTS = {Verdict.SUPPORTED, Verdict.UNCERTAIN}


class DatasetError(ValueError):
    pass


def is_positive(label: object) -> bool:
    return str(label).strip().lower() in POSITIVE_LABELS


def dataset_load(path: Path) -> list[dict]:
    if not path.exists():
        raise DatasetError(f"no dataset at {path}")
    items = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}:{number}: invalid JSON ({exc})") from None
        item["claim"] = item.get("claim") or item.get("answer")
        if not item["claim"] or "label" not in item:
            raise DatasetError(f"{path}:{number}: each item needs a claim (or answer) and a label")
        items.append(item)
    if not items:
        raise DatasetError(f"{path} holds no items")
    return items


def spans_load(path: Path) -> dict[str, list[tuple[int, int]]]:
    """Annotated unsupported spans per item id (`{"id": …, "spans": [{"start": …, "end": …}, …]}` lines, the shared
    RAGTruth spans format)."""
    if not path.exists():
        raise DatasetError(f"no spans file at {path}")
    spans: dict[str, list[tuple[int, int]]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            spans[str(row["id"])] = [(int(span["start"]), int(span["end"])) for span in row.get("spans") or []]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise DatasetError(f"{path}:{number}: each line needs an id and spans with start and end ({exc})") from None
    return spans


def lowest_claim_on_spans(*, results: list[dict], spans: dict[str, list[tuple[int, int]]]) -> Rate:
    """Of the unsupported answers with annotated spans, how often the claim scored lowest (a claim without a score
    lowest of all) overlaps one: whether the card points a reviewer at what is wrong."""
    hits = []
    for result in results:
        marked = spans.get(str(result.get("id")))
        if is_positive(result["label"]) or not marked or not result.get("claim_spans"):
            continue
        start, end, _ = min(result["claim_spans"], key=lambda claim: -1.0 if claim[2] is None else claim[2])
        hits.append(any(start < span_end and span_start < end for span_start, span_end in marked))
    return _rate(hits)


def item_check(*, item: dict, clearance: str, contexts_from_file: bool = False) -> dict:
    """Run one item through the real pipeline (the checker alone: reviewed facts of this deployment would be
    another measure); the result keeps what the figures (and --output readers) need."""
    if contexts_from_file:
        report = answer_check(question=item.get("question") or "", answer_text=item["claim"], clearance=clearance,
                              contexts=[item.get("evidence") or ""], retrieve=False, reviewed_facts=False)
    else:
        report = answer_check(question=item.get("question") or "", answer_text=item["claim"], clearance=clearance,
                              contexts=item.get("contexts") or [], reviewed_facts=False)
    claims = report.claims
    predicted = bool(claims) and all(c.verdict == Verdict.SUPPORTED for c in claims)
    hard_held = not claims or any(c.verdict not in _PASSABLE_VERDICTS or c.score is None for c in claims)
    return {
        **{k: v for k, v in item.items() if k not in {"evidence", "contexts"}},
        "predicted": "supported" if predicted else "unsupported",
        "correct": predicted == is_positive(item["label"]),
        "weakest": min((c.score for c in claims if c.score is not None), default=None),
        "hard_held": hard_held,
        "risk": report.risk,
        # High risk although no claim is refuted or unfound (a risky topic, a flagged source, a conflict):
        # no score threshold would release it.
        "held_otherwise": report.held_by_rule and not hard_held,
        "verdicts": [c.verdict for c in claims],
        "structure": sorted(answer_structure(item["claim"])
                            | ({"synthesis"} if any(e.claim_part for c in claims for e in c.evidence) else set())),
        "claim_spans": [[c.start, c.end, c.score] for c in claims],
        "reasons": [r for c in claims for r in c.reasons],
    }


@dataclass(frozen=True)
class Rate:
    hits: int
    total: int

    @property
    def value(self) -> float | None:
        return self.hits / self.total if self.total else None

    def __str__(self) -> str:
        return f"{self.hits / self.total:.3f} ({self.hits}/{self.total})" if self.total else "n/a"


def _rate(outcomes: Iterable[bool]) -> Rate:
    outcomes = list(outcomes)
    return Rate(sum(outcomes), len(outcomes))


def released_at(result: dict, threshold: float) -> bool:
    """Released automatically if the supported band started at `threshold`."""
    return not result["hard_held"] and not result["held_otherwise"] and result["weakest"] >= threshold


@dataclass(frozen=True)
class Figures:
    positive: Rate
    negative: Rate
    overall: Rate
    per_kind: dict[str, Rate]
    leak: Rate
    automation: Rate
    bounded_threshold: float | None  # None: no threshold releases anything while keeping leaks within MAX_LEAK
    bounded_leak: Rate
    bounded_automation: Rate
    max_leak: float
    kinds_given: bool
    # structure kind (checking.structure) -> (supported kept, unsupported caught) among the items written so
    per_structure: dict[str, tuple[Rate, Rate]]

    @property
    def balanced(self) -> float:
        return ((self.positive.value or 0.0) + (self.negative.value or 0.0)) / 2


def leak_bounded_threshold(results: list[dict], *, max_leak: float = MAX_LEAK) -> float | None:
    """The lowest threshold on the weakest claim score whose leak rate is at most `max_leak` (most automation)."""
    negatives = [r for r in results if not is_positive(r["label"])]
    candidates = sorted({r["weakest"] for r in results if not r["hard_held"] and not r["held_otherwise"]})
    for threshold in candidates:
        leaks = sum(released_at(r, threshold) for r in negatives)
        if leaks <= max_leak * len(negatives):
            return threshold
    return None


def figures_compute(results: list[dict], *, max_leak: float = MAX_LEAK) -> Figures:
    positives = [r for r in results if is_positive(r["label"])]
    negatives = [r for r in results if not is_positive(r["label"])]
    by_kind: dict[str, list[bool]] = defaultdict(list)
    for r in results:
        by_kind[r.get("kind") or "-"].append(r["correct"])
    threshold = leak_bounded_threshold(results, max_leak=max_leak)

    def released(r: dict) -> bool:
        return threshold is not None and released_at(r, threshold)

    return Figures(
        positive=_rate(r["correct"] for r in positives),
        negative=_rate(r["correct"] for r in negatives),
        overall=_rate(r["correct"] for r in results),
        per_kind={kind: _rate(outcomes) for kind, outcomes in sorted(by_kind.items())},
        leak=_rate(r["risk"] == Risk.LOW for r in negatives),
        automation=_rate(r["risk"] == Risk.LOW for r in positives),
        bounded_threshold=threshold,
        bounded_leak=_rate(released(r) for r in negatives),
        bounded_automation=_rate(released(r) for r in positives),
        max_leak=max_leak,
        kinds_given=any(r.get("kind") for r in results),
        per_structure={kind: (_rate(r["correct"] for r in positives if kind in r.get("structure", ())),
                              _rate(r["correct"] for r in negatives if kind in r.get("structure", ())))
                       for kind in STRUCTURE_KINDS if any(kind in r.get("structure", ()) for r in results)},
    )


def figures_lines(figures: Figures) -> list[str]:
    lines = [
        f"positive accuracy (supported kept):     {figures.positive}",
        f"negative accuracy (unsupported caught): {figures.negative}",
        f"overall accuracy:                       {figures.overall}",
        f"balanced accuracy:                      {figures.balanced:.3f}",
    ]
    if figures.kinds_given:
        lines += ["", "accuracy per kind:"] + [f"  {kind:<22} {rate}" for kind, rate in figures.per_kind.items()]
    if figures.per_structure:
        lines += ["", "per structure kind (supported kept / unsupported caught):"] + [
            f"  {kind:<22} {kept} / {caught}" for kind, (kept, caught) in figures.per_structure.items()]
    bound = f"{figures.max_leak:.0%}"
    routing = [
        ("leak rate (unsupported auto-released), default bands:", str(figures.leak)),
        ("automation rate (supported auto-released), default bands:", str(figures.automation)),
    ]
    if figures.bounded_threshold is None:
        routing.append((f"at leak <= {bound}:", "no threshold releases anything; automation rate 0"))
    else:
        routing += [
            (f"supported threshold for leak <= {bound}:", f"{figures.bounded_threshold:.3f}"),
            ("leak rate at that threshold:", str(figures.bounded_leak)),
            ("automation rate at that threshold:", str(figures.bounded_automation)),
        ]
    lines += ["", "routing (auto-released = risk low):"] + [f"  {label:<59}{value}" for label, value in routing]
    return lines


def checker_description() -> str:
    return "+".join(["builtin", *(checker.name for checker in configured_checkers())])


def selftest_run(*, version: DocumentVersion, others: list[str], clearance: str, seed: int = 0,
                 per_kind: int = PER_KIND) -> tuple[list[dict], SelfTestRun]:
    """Synthesise labelled claims from `version`, check them against the whole knowledge base, store the result."""
    synthesised = claims_synthesize(text=version.text, others=others, seed=seed, per_kind=per_kind,
                                    language=version.language)
    results = [
        item_check(item={"id": f"{version.document.key}-v{version.number}-{n}", "document": version.document.key,
                         "claim": claim.claim, "label": claim.label, "kind": claim.kind, "source": claim.source},
                   clearance=clearance)
        for n, claim in enumerate(synthesised)
    ]
    by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        by_kind[r["kind"]][0] += r["correct"]
        by_kind[r["kind"]][1] += 1
    run = services.selftest_record(version=version, per_kind=dict(by_kind), checker=checker_description())
    return results, run


def documents_index(*, paths: list[str], stdout=None) -> None:
    """Import, approve (as a different user, four-eyes) and index Markdown files not yet in the knowledge base,
    then index any version still waiting: batch commands evaluate against a ready knowledge base."""
    from console.models import User

    owner = User.objects.filter(is_superuser=True).first() or User.objects.first()
    approver = owner and User.objects.exclude(pk=owner.pk).filter(groups__name__in=["approver", "admin"]).first()
    if owner is None or approver is None:
        raise DatasetError("--documents needs an owner and a different approver user (run seed_demo first)")
    for name in paths:
        key = Path(name).stem
        if not DocumentVersion.objects.filter(document__key=key).exists():
            call_command("kb_import", name, "--owner", owner.username, "--approve-as", approver.username,
                         "--security-level", SecurityLevel.PUBLIC, stdout=stdout)
    for version in DocumentVersion.objects.exclude(index_state=IndexState.READY):
        if version.index_state != IndexState.QUEUED:
            kb_services.version_index_retry(version=version, user=None)
        if work_claim_take(kind=kb_services.VERSION_INDEXING, pk=version.pk):
            kb_services.version_index_run(version_id=version.pk)


def _claim_fact_row(claim, *, language: str):
    """What reviewed facts read of a checked claim, for the simulation: the fact it states and where its best
    evidence is (the passage, as a digest, and the quote), with the words of that quote."""
    from review.learning.simulation import ClaimFactRow

    fact = claim_fact(claim.text, language=language)
    if not claim.evidence:
        return ClaimFactRow(fact=fact, source="", start=0, end=0, grounded=frozenset())
    best = claim.evidence[0]
    text = best.candidate.chunk.version.text if best.candidate.chunk else best.candidate.text
    source = text_digest(text) if not best.candidate.chunk else f"version:{best.candidate.chunk.version_id}"
    quote = text[best.quote_start:best.quote_end]
    grounded = frozenset(t.stem for t in tokenize(quote, 0, len(quote), table=True) if is_content(t))
    return ClaimFactRow(fact=fact, source=source, start=best.quote_start, end=best.quote_end, grounded=grounded,
                        text=text, claim=claim.text)


def item_for_learning(*, item: dict, clearance: str, contexts_from_file: bool = False):
    """An item as the learning simulation reads it: its label, each claim's feature row, and whether a rule (a
    contradiction, a topic, a flagged source) holds it whatever the scores."""
    from review.learning.simulation import item_of

    report_language = detect_language(f"{item.get('question') or ''}\n{item['claim']}")
    report = answer_check(question=item.get("question") or "", answer_text=item["claim"], clearance=clearance,
                          contexts=[item.get("evidence") or ""] if contexts_from_file else item.get("contexts") or [],
                          retrieve=not contexts_from_file, reviewed_facts=False, language=report_language)
    return item_of(supported=is_positive(item["label"]), claims=[c.features for c in report.claims],
                   held_by_rule=report.held_by_rule, facts=[_claim_fact_row(claim, language=report_language)
                                                           for claim in report.claims])
