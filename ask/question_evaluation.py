"""A fixed question set, asked through the real retrieval, gate, composer and checker, scored in three layers.

A question file is JSON lines: "id", "question", "kind", "expected_status" (answered / insufficient_evidence /
conflict), "required_sources" (document keys), "required_points" and "forbidden_points" (short strings the answer,
or for a conflict the two sources' texts, must or must not contain), optionally "fixtures" (Markdown files,
relative to the question file, whose stems are document keys: a second source for a conflict). `evaluate
--questions FILE --load-fixtures` imports them as public documents first; otherwise, and always in a saved set's
run, a question whose fixture documents are not usable evidence is "not applicable": reported as such, left out
of the figures, never a regression.

Layers, per question and per kind:
- retrieval: recall of the required sources within the top k, the rank of each, passages from other documents
  in the top k, and passages of versions that may not be evidence (expired, retired, unapproved: always 0 when
  retrieval filters them as it must);
- generation: the status as expected (refusals included), every claim supported by the checker scoring uses, the
  required points present and the forbidden ones absent, the reply's claims well-formed (quotes inside their
  chunk, equal to the version's text);
- business: held for a person (risk medium or high) or released automatically (risk low), seconds per question.

Nothing is sent to review: `ask_draft` composes and checks without storing an answer. Each run is stored
(QuestionRun) so the next run of the same file (or saved set, ask/regression.py) reports what got worse.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext

from ask.gate import gate_decide
from ask.models import AskStatus, QuestionRun
from ask.services import AskDraft, ask_draft
from console.input_text import text_problem
from kb.models import DocumentVersion
from review.models import Risk, Verdict

KINDS = ("direct", "synonym", "synthesis", "condition", "unanswerable", "conflict")
SWEEP_SIMILARITIES = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
SWEEP_COVERAGES = (0.5, 0.75, 1.0)
SWEEP_TERM_SIMILARITIES = (0.0, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8)  # 0: key terms matched by word family only


class QuestionsError(ValueError):
    pass


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    kind: str
    expected_status: str
    required_sources: list[str] = field(default_factory=list)
    required_points: list[str] = field(default_factory=list)
    forbidden_points: list[str] = field(default_factory=list)
    fixtures: list[str] = field(default_factory=list)  # Markdown files; their stems are document keys

    @property
    def fixture_keys(self) -> list[str]:
        return [Path(name).stem for name in self.fixtures]


_TEXT_FIELDS = ("id", "question", "kind", "expected_status")
_LIST_FIELDS = ("required_sources", "required_points", "forbidden_points", "fixtures")


def _question_from(raw: object) -> Question:
    """One parsed line as a Question, or QuestionsError saying which field is wrong."""
    if not isinstance(raw, dict):
        raise QuestionsError(gettext("each line must be a JSON object"))
    unknown = sorted(set(raw) - {*_TEXT_FIELDS, *_LIST_FIELDS})
    if unknown:
        raise QuestionsError(gettext("unknown field %(field)s") % {"field": repr(unknown[0])})
    missing = [name for name in _TEXT_FIELDS if not isinstance(raw.get(name), str) or not raw[name].strip()]
    if missing:
        raise QuestionsError(gettext("needs %(fields)s (non-empty text)") % {
            "fields": ", ".join(repr(m) for m in missing)})
    for name in _LIST_FIELDS:
        if not isinstance(raw.get(name, []), list) or not all(isinstance(v, str) for v in raw.get(name, [])):
            raise QuestionsError(gettext("%(field)s must be a list of strings") % {"field": repr(name)})
    for value in [raw[name] for name in _TEXT_FIELDS] + [v for name in _LIST_FIELDS for v in raw.get(name, [])]:
        problem = text_problem(value)
        if problem:
            raise QuestionsError(gettext("a value %(problem)s") % {"problem": problem})
    if raw["expected_status"] not in AskStatus.values:
        raise QuestionsError(gettext("needs a question and an expected_status in %(values)s") % {
            "values": AskStatus.values})
    return Question(**raw)


def questions_parse(*, text: str, source: str) -> list[Question]:
    """The questions of a JSON-lines text; QuestionsError naming the line of the first problem."""
    questions, seen = [], set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            question = _question_from(json.loads(line))
        except json.JSONDecodeError as exc:
            raise QuestionsError(gettext("%(source)s:%(line)s: not JSON (%(error)s)") % {
                "source": source, "line": number, "error": exc}) from None
        except QuestionsError as exc:
            raise QuestionsError(f"{source}:{number}: {exc}") from None
        if question.id in seen:
            raise QuestionsError(gettext("%(source)s:%(line)s: id %(id)s repeats") % {
                "source": source, "line": number, "id": repr(question.id)})
        seen.add(question.id)
        questions.append(question)
    if not questions:
        raise QuestionsError(gettext("%(source)s holds no questions") % {"source": source})
    return questions


def questions_load(path: Path) -> list[Question]:
    if not path.exists():
        raise QuestionsError(gettext("no question file at %(path)s") % {"path": path})
    return questions_parse(text=path.read_text(encoding="utf-8"), source=str(path))


def questions_from_rows(rows: list[dict]) -> list[Question]:
    """A saved set's stored questions (validated when saved)."""
    return [Question(**row) for row in rows]


def fixtures_missing(*, question: Question, clearance: str) -> list[str]:
    """The question's fixture documents that are not usable evidence within `clearance`."""
    if not question.fixtures:
        return []
    present = set(DocumentVersion.objects.usable_as_evidence(clearance=clearance)
                  .filter(document__key__in=question.fixture_keys).values_list("document__key", flat=True))
    return [key for key in question.fixture_keys if key not in present]


def _normal(text: str) -> str:
    return " ".join(text.split()).lower()


def _schema_valid(draft: AskDraft) -> bool:
    for claim in draft.claims:
        chunk = claim.chunk
        if not (chunk.char_start <= claim.quote_start < claim.quote_end <= chunk.char_end) or not claim.text.strip():
            return False
        if claim.as_dict()["text"] != chunk.version.text[claim.quote_start:claim.quote_end]:
            return False
    return draft.answer is None or bool(draft.claims)


def question_evaluate(*, question: Question, clearance: str, k: int) -> dict:
    """One question through ask_draft; every figure the report and the regression comparison need."""
    started = time.perf_counter()
    draft = ask_draft(question=question.question, clearance=clearance, k=k)
    seconds = time.perf_counter() - started
    keys = [hit.chunk.version.document.key for hit in draft.hits]
    usable = set(DocumentVersion.objects.usable_as_evidence(clearance=clearance).values_list("pk", flat=True))
    ranks = {key: (keys.index(key) + 1 if key in keys else None) for key in question.required_sources}
    said = _normal(" ".join([draft.answer or ""] + [s["text"] for c in draft.conflicts for s in c["sources"]]))
    report = draft.report
    return {
        "id": question.id, "kind": question.kind, "question": question.question,
        "expected_status": question.expected_status, "status": draft.status,
        "status_correct": draft.status == question.expected_status,
        "required_ranks": ranks,
        "irrelevant_in_top_k": sum(key not in question.required_sources for key in keys)
        if question.required_sources else None,
        "unusable_in_top_k": sum(hit.chunk.version_id not in usable for hit in draft.hits),
        "similarities": [None if h.similarity is None else round(h.similarity, 4) for h in draft.hits],
        "missing_terms": draft.gate.missing,
        "answer": draft.answer,
        "claims_supported": None if report is None else all(c.verdict == Verdict.SUPPORTED for c in report.claims),
        "verdicts": [] if report is None else [c.verdict for c in report.claims],
        "points_present": {p: _normal(p) in said for p in question.required_points},
        "forbidden_present": [p for p in question.forbidden_points if _normal(p) in said],
        "schema_valid": _schema_valid(draft),
        "risk": None if report is None else report.risk,
        "held": None if report is None else report.risk != Risk.LOW,
        "conflict_sources": sorted({s["document_key"] for c in draft.conflicts for s in c["sources"]}),
        "generator": draft.generator,
        "seconds": round(seconds, 3),
        "_hits": draft.hits,  # for the gate sweep; dropped before storing
    }


@dataclass
class QuestionsReport:
    k: int
    clearance: str
    results: list[dict]
    sweep: list[dict]
    gate_settings: dict

    def serialisable(self) -> dict:
        return {"k": self.k, "clearance": self.clearance, "gate_settings": self.gate_settings, "sweep": self.sweep,
                "summary": summary_by_kind(self.results), "results": self.results}


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def applicable(results: list[dict]) -> list[dict]:
    return [r for r in results if not r.get("not_applicable")]


def summary_by_kind(results: list[dict]) -> dict[str, dict]:
    """Figures per kind and for "all", over the applicable questions; "not_applicable" counts the others."""
    groups: dict[str, list[dict]] = defaultdict(list)
    skipped: dict[str, int] = defaultdict(int)
    for result in results:
        groups[result["kind"]]  # a kind whose questions are all not applicable still has its row
        if result.get("not_applicable"):
            skipped[result["kind"]] += 1
            skipped["all"] += 1
        else:
            groups[result["kind"]].append(result)
    groups["all"] = applicable(results)
    summary = {}
    for kind, rows in groups.items():
        ranks = [rank for r in rows for rank in r["required_ranks"].values()]
        checked = [r for r in rows if r["claims_supported"] is not None]
        points = [present for r in rows for present in r["points_present"].values()]
        summary[kind] = {
            "questions": len(rows),
            "recall_at_k": _mean([rank is not None for rank in ranks]),
            "mean_rank": _mean([rank for rank in ranks if rank is not None]),
            "irrelevant_in_top_k": _mean([r["irrelevant_in_top_k"] for r in rows if r["irrelevant_in_top_k"] is not None]),
            "unusable_in_top_k": sum(r["unusable_in_top_k"] for r in rows),
            "status_correct": sum(r["status_correct"] for r in rows),
            "refusals_correct": sum(r["status"] == r["expected_status"] == AskStatus.INSUFFICIENT_EVIDENCE for r in rows),
            "refusals_expected": sum(r["expected_status"] == AskStatus.INSUFFICIENT_EVIDENCE for r in rows),
            "claims_supported": sum(bool(r["claims_supported"]) for r in checked), "checked": len(checked),
            "points_present": sum(points), "points": len(points),
            "forbidden_absent": sum(not r["forbidden_present"] for r in rows),
            "schema_valid": sum(r["schema_valid"] for r in rows),
            "held": sum(bool(r["held"]) for r in checked), "released": sum(r["held"] is False for r in checked),
            "seconds": _mean([r["seconds"] for r in rows]),
            "not_applicable": skipped[kind],
        }
    return summary


def gate_sweep(results: list[dict]) -> list[dict]:
    """Refusal accuracy (unanswerable questions refused) and answer coverage (the others let through) by gate
    setting, over the hits already retrieved: only the gate is re-run. First the term coverage and hit similarity
    at the current word similarity, then the word similarity (ASK_GATE_TERM_SIMILARITY) at the current two."""
    rows = [_gate_row(results, min_term_coverage=coverage, min_similarity=similarity)
            for coverage in SWEEP_COVERAGES for similarity in SWEEP_SIMILARITIES]
    return rows + [_gate_row(results, term_similarity=at) for at in SWEEP_TERM_SIMILARITIES]


def _gate_row(results: list[dict], *, min_term_coverage: float | None = None, min_similarity: float | None = None,
              term_similarity: float | None = None) -> dict:
    refused_right = let_through = unanswerable = answerable = 0
    for r in applicable(results):
        decision = gate_decide(question=r["question"], hits=r["_hits"], min_similarity=min_similarity,
                               min_coverage=min_term_coverage, term_similarity=term_similarity)
        if r["expected_status"] == AskStatus.INSUFFICIENT_EVIDENCE:
            unanswerable += 1
            refused_right += decision.status == AskStatus.INSUFFICIENT_EVIDENCE
        else:
            answerable += 1
            let_through += decision.status == AskStatus.ANSWERED
    return {"min_term_coverage": settings.ASK_GATE_MIN_TERM_COVERAGE if min_term_coverage is None
            else min_term_coverage,
            "min_similarity": settings.ASK_GATE_MIN_SIMILARITY if min_similarity is None else min_similarity,
            "term_similarity": settings.ASK_GATE_TERM_SIMILARITY if term_similarity is None else term_similarity,
            "refusal_accuracy": [refused_right, unanswerable], "answer_coverage": [let_through, answerable]}


def question_not_applicable(*, question: Question, missing: list[str]) -> dict:
    return {"id": question.id, "kind": question.kind, "question": question.question,
            "expected_status": question.expected_status, "not_applicable": True, "missing_documents": missing}


def questions_evaluate(*, questions: list[Question], clearance: str, k: int = 5, sweep: bool = True) -> QuestionsReport:
    """Each question whose fixture documents are evidence, asked and scored; the others not applicable."""
    results = []
    for question in questions:
        missing = fixtures_missing(question=question, clearance=clearance)
        results.append(question_not_applicable(question=question, missing=missing) if missing
                       else question_evaluate(question=question, clearance=clearance, k=k))
    sweep_rows = gate_sweep(results) if sweep else []
    for result in results:
        result.pop("_hits", None)
    return QuestionsReport(k=k, clearance=clearance, results=results, sweep=sweep_rows,
                           gate_settings=gate_settings_now())


def gate_settings_now() -> dict:
    return {name: getattr(settings, name) for name in (
        "ASK_GATE_MIN_SIMILARITY", "ASK_GATE_MIN_TERM_COVERAGE", "ASK_GATE_TERM_SIMILARITY", "ASK_MAX_SENTENCES")}


def previous_run(*, questions_file: str) -> QuestionRun | None:
    return (QuestionRun.objects.filter(questions_file=questions_file, question_set=None)
            .order_by("-created_at", "-pk").first())


@dataclass(frozen=True)
class Regression:
    question_id: str
    what: str


def regressions(*, previous: list[dict], current: list[dict]) -> list[Regression]:
    """What got worse since the previous run: a required source no longer recalled, a refusal that became an
    answer (or an answer a refusal), a status no longer right, a point lost, claims no longer supported, an answer
    held for a person that is now released automatically. A question not applicable in either run is skipped."""
    before = {r["id"]: r for r in applicable(previous)}
    found: list[Regression] = []
    for now in applicable(current):
        then = before.get(now["id"])
        if then is None:
            continue
        for key, rank in now["required_ranks"].items():
            if rank is None and then["required_ranks"].get(key) is not None:
                found.append(Regression(now["id"], f"required source {key} no longer recalled "
                                                   f"(was rank {then['required_ranks'][key]})"))
        if then["status_correct"] and not now["status_correct"]:
            if then["status"] == AskStatus.INSUFFICIENT_EVIDENCE:
                found.append(Regression(now["id"], f"refusal became {now['status']}"))
            elif now["status"] == AskStatus.INSUFFICIENT_EVIDENCE:
                found.append(Regression(now["id"], f"{then['status']} became a refusal"))
            else:
                found.append(Regression(now["id"], f"status {then['status']} became {now['status']}"))
        for point, present in now["points_present"].items():
            if not present and then["points_present"].get(point):
                found.append(Regression(now["id"], f"point lost: {point!r}"))
        if then["claims_supported"] and now["claims_supported"] is False:
            found.append(Regression(now["id"], "claims no longer all supported"))
        for point in set(now["forbidden_present"]) - set(then["forbidden_present"]):
            found.append(Regression(now["id"], f"forbidden point appeared: {point!r}"))
        if then.get("held") is True and now.get("held") is False:
            found.append(Regression(now["id"], "routing changed: held for a person before, released automatically now"))
    return found
