"""Saved question sets, re-run whenever approved knowledge or a checker or gate setting changes.

A change asks for runs by committed state: one QuestionRun "queued" per active set, written in the transaction of
the change (kb.signals.evidence_changed) and sent to a worker on commit (ask.tasks.question_set_run). While a run
of a set waits for a worker, further changes join it (they add their version): at most one queued run per set.
A run is work a worker claims (console/work_claims.py: sent again when no worker started it, queued again when its
worker died). The housekeeping beat task queues a run of each set whose last run ran under other settings
(`settings_digests`: the gate, retrieval and checker settings and the checker's fitted model and rules).

A run never changes the knowledge base: a question whose fixture documents are not evidence is "not applicable".
Each run is compared with the set's previous finished run (ask.question_evaluation.regressions).
"""

from __future__ import annotations

import hashlib
import json
import logging
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from ask.question_evaluation import (
    QuestionsError,
    QuestionsReport,
    questions_evaluate,
    questions_from_rows,
    questions_parse,
    regressions,
    summary_by_kind,
)
from ask.models import QuestionRun, QuestionSet, RunState, RunTrigger
from console.audit import audit_record
from console.dispatch import enqueue_on_commit
from console.models import SecurityLevel, User
from console.redaction import redact
from console.work_claims import WorkClaimKind, work_claim_held, work_claim_take
from kb.models import DocumentVersion, IndexState, VersionStatus
from review.learning.adopted import adopted_checker

logger = logging.getLogger(__name__)

RUN_K = 5  # passages retrieved per question, as `evaluate --questions` by default
RUN_STALE_AFTER = timedelta(minutes=10)  # a run takes seconds; one "running" this long lost its worker
SETTLE_RECHECK_SECONDS = 5
# What a run's result depends on besides the knowledge base. Values are stored only as digests: some of these
# (endpoint URLs) may carry credentials.
WATCHED_SETTINGS = (
    "ASK_GATE_MIN_SIMILARITY", "ASK_GATE_MIN_TERM_COVERAGE", "ASK_GATE_TERM_SIMILARITY",
    "ASK_GATE_TERM_SIMILARITY_LANGUAGES", "ASK_MAX_SENTENCES",
    "ASK_LLM_URL", "ASK_LLM_MODEL", "KB_SIMILARITY_FLOOR", "KB_EMBEDDING_PROVIDER", "KB_EMBEDDING_URL",
    "KB_EMBEDDING_MODEL", "KB_EMBEDDING_MODEL_ZH", "REVIEW_CHECKERS", "REVIEW_ALIGNSCORE_URL", "REVIEW_LLM_URL",
    "REVIEW_LLM_MODEL", "REVIEW_SUPPORTED_AT", "REVIEW_UNCERTAIN_AT", "REVIEW_CONFLICT_SUBJECT_AT",
    "REVIEW_HIGH_RISK_TOPICS", "REVIEW_RETRIEVAL_K",
)
CHECKING_DIR = Path(__file__).resolve().parent.parent / "checking"
CHECKER_FILES = {"checker model (checking/model.json)": ("model.json",),
                 "checker rules (checking/rules/)": ("rules/*.py",)}
TRIGGER_OF_CHANGE = {"approved": RunTrigger.VERSION_APPROVED, "retired": RunTrigger.VERSION_RETIRED,
                     "expired": RunTrigger.VERSION_EXPIRED}


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def settings_digests() -> dict[str, str]:
    """Per watched setting (and checker file), a digest of its current value."""
    digests = {name: _digest(getattr(settings, name, None)) for name in WATCHED_SETTINGS}
    for label, patterns in CHECKER_FILES.items():
        files = sorted(path for pattern in patterns for path in CHECKING_DIR.glob(pattern))
        digests[label] = _digest([(path.name, hashlib.sha256(path.read_bytes()).hexdigest()) for path in files])
    # A model adopted from reviewers' labels (or a moved release threshold) changes answers like a setting does.
    adopted = adopted_checker()
    digests["adopted checker model"] = _digest([adopted.model_id, adopted.release_threshold])
    return digests


def settings_fingerprint(digests: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest()


# Saved sets ---------------------------------------------------------------------------------------------------


def _require_clearance(*, user: User | None, clearance: str) -> None:
    if user is not None and clearance not in SecurityLevel.up_to(user.clearance):
        raise QuestionsError(gettext("%(user)s has %(clearance)s clearance and cannot keep a set run at %(level)s "
                                     "(its runs could not be opened afterwards).") % {
            "user": user.username, "clearance": SecurityLevel(user.clearance).label.lower(),
            "level": SecurityLevel(clearance).label.lower()})


@transaction.atomic
def question_set_save(*, name: str, text: str, source_filename: str, clearance: str, user: User | None,
                      trigger: str | None = RunTrigger.MANUAL) -> tuple[QuestionSet, QuestionRun | None]:
    """Create the set, or replace the questions of the set of that name, and queue a run of it (unless `trigger`
    is None: the caller runs it itself)."""
    _require_clearance(user=user, clearance=clearance)
    questions = questions_parse(text=text, source=source_filename)
    rows = [{key: value for key, value in vars(q).items() if value != []} for q in questions]
    slug = slugify(name)[:100]
    if not slug:
        raise QuestionsError(gettext("the name needs at least one letter or digit"))
    existing = QuestionSet.objects.select_for_update().filter(Q(name=name) | Q(slug=slug)).first()
    if existing is not None and existing.name != name:
        raise QuestionsError(gettext("the name is too close to the set “%(name)s”: choose another") % {
            "name": existing.name})
    if existing is not None:
        _require_clearance(user=user, clearance=existing.clearance)
    before = None if existing is None else {"questions": len(existing.questions), "clearance": existing.clearance,
                                            "source_filename": existing.source_filename, "active": existing.active}
    question_set = existing or QuestionSet(name=name, slug=slug, created_by=user)
    question_set.questions, question_set.source_filename = rows, source_filename[:255]
    question_set.clearance, question_set.active = clearance, True
    question_set.save()
    audit_record(verb="question_set.replace" if existing else "question_set.create", obj=question_set, actor=user,
                 actor_label="" if user else "system", before=before,
                 after={"questions": len(rows), "clearance": clearance, "source_filename": source_filename})
    if trigger is None:
        return question_set, None
    [run] = question_runs_request(trigger=trigger, question_sets=[question_set])
    return question_set, run


@transaction.atomic
def question_set_activate(*, question_set: QuestionSet, user: User, active: bool) -> QuestionSet:
    """Deactivated sets keep their runs and are not re-run; activating one queues a run."""
    if QuestionSet.objects.filter(pk=question_set.pk, active=not active).update(active=active):
        audit_record(verb="question_set.activate" if active else "question_set.deactivate", obj=question_set,
                     actor=user, before={"active": not active}, after={"active": active})
        if active:
            question_runs_request(trigger=RunTrigger.MANUAL, question_sets=[question_set])
    question_set.refresh_from_db()
    return question_set


# Asking for runs ----------------------------------------------------------------------------------------------


@transaction.atomic
def question_runs_request(
    *, trigger: str, question_sets: list[QuestionSet] | None = None, version: DocumentVersion | None = None,
    changed_settings: list[str] = (),
) -> list[QuestionRun]:
    """A queued run of each set (all active sets by default); a set's run already waiting takes this change in."""
    from ask.tasks import question_set_run

    sets = QuestionSet.objects.select_for_update().order_by("pk")  # serialises concurrent requests per set
    sets = sets.filter(active=True) if question_sets is None else sets.filter(pk__in=[s.pk for s in question_sets])
    runs = []
    for question_set in sets:
        run = question_set.runs.filter(state=RunState.QUEUED).first()
        if run is None:
            run = QuestionRun.objects.create(
                question_set=question_set, questions_file=question_set.source_filename,
                clearance=question_set.clearance, state=RunState.QUEUED, trigger=trigger,
                changed_settings=sorted(changed_settings), requested_at=timezone.now())
            enqueue_on_commit(question_set_run, run.pk)
        elif changed_settings:
            run.changed_settings = sorted({*run.changed_settings, *changed_settings})
            run.save(update_fields=["changed_settings"])
        if version is not None:
            run.trigger_versions.add(version)
        runs.append(run)
    return runs


def evidence_changed_receiver(sender, *, version: DocumentVersion, change: str, **kwargs) -> None:
    """kb.signals.evidence_changed: every active set runs again against the knowledge base as changed. A version
    superseded needs no run of its own: the approval of the one that supersedes it asked for one."""
    if change not in TRIGGER_OF_CHANGE:
        return
    with transaction.atomic():
        question_runs_request(trigger=TRIGGER_OF_CHANGE[change], version=version)


# Running ------------------------------------------------------------------------------------------------------


def knowledge_settling(*, run_id: int) -> bool:
    """An approved version still being indexed is not evidence yet: a run waits for it (not forever: a job
    stuck past KB_INDEX_STALE_MINUTES is the indexing sweep's business, not a reason never to run)."""
    patience = timezone.now() - timedelta(minutes=settings.KB_INDEX_STALE_MINUTES)
    return (QuestionRun.objects.filter(pk=run_id, state=RunState.QUEUED, created_at__gt=patience).exists()
            and DocumentVersion.objects.filter(status=VersionStatus.APPROVED,
                                               index_state__in=[IndexState.QUEUED, IndexState.INDEXING]).exists())


def _failed_for_a_newer_run(claim: QuerySet[QuestionRun]) -> bool:
    """A lost run fails, rather than going back to the queue, when a newer run of its set already waits: that run
    covers the same changes and more (and a set has one queued run at most)."""
    run = claim.select_for_update().first()
    if run is None or not QuestionRun.objects.filter(question_set_id=run.question_set_id,
                                                     state=RunState.QUEUED).exists():
        return False
    return bool(claim.update(state=RunState.FAILED, finished_at=timezone.now(),
                             error="its worker stopped; a newer run is queued", worker=""))


# A saved set's run is work a worker claims (console/work_claims.py).
QUESTION_RUN = WorkClaimKind(
    name="question run", model=QuestionRun,
    waiting=Q(state=RunState.QUEUED, question_set__isnull=False),
    held=Q(state=RunState.RUNNING, question_set__isnull=False),
    worker_field="worker", held_at_field="started_at", requested_at_field="requested_at", task_id_field="task_id",
    task="ask.tasks.question_set_run", stale_after=lambda: RUN_STALE_AFTER,
    taken={"state": RunState.RUNNING, "error": ""}, handed_back={"state": RunState.QUEUED, "started_at": None},
    instead_of_hand_back=_failed_for_a_newer_run,
)


def question_run_take(*, run_id: int, task_id: str = "", worker: str = "") -> bool:
    """Take a queued run, recording the settings it runs under."""
    digests = settings_digests()
    return work_claim_take(kind=QUESTION_RUN, pk=run_id, task_id=task_id, worker=worker, also={
        "settings_digests": digests, "fingerprint": settings_fingerprint(digests)})


def _previous_done(run: QuestionRun) -> QuestionRun | None:
    return (QuestionRun.objects.filter(question_set_id=run.question_set_id, state=RunState.DONE)
            .exclude(pk=run.pk).order_by("-finished_at", "-pk").first())


def _finish_fields(*, run: QuestionRun, report: QuestionsReport) -> dict:
    previous = _previous_done(run)
    found = regressions(previous=previous.results, current=report.results) if previous else []
    return {"state": RunState.DONE, "finished_at": timezone.now(), "results": report.results,
            "summary": summary_by_kind(report.results), "gate_settings": report.gate_settings,
            "compared_with": previous, "regressions": [{"question_id": r.question_id, "what": r.what} for r in found]}


def question_run_execute(*, run_id: int, task_id: str = "") -> QuestionRun:
    """Ask the claimed run's questions against the knowledge base as it is now; store results and regressions."""
    run = QuestionRun.objects.select_related("question_set").get(pk=run_id)
    report = questions_evaluate(questions=questions_from_rows(run.question_set.questions), clearance=run.clearance,
                                k=RUN_K, sweep=False)
    work_claim_held(kind=QUESTION_RUN, pk=run_id, task_id=task_id).update(
        **_finish_fields(run=run, report=report))
    run.refresh_from_db()
    return run


def question_run_fail(*, run_id: int, error: str, task_id: str = "") -> None:
    work_claim_held(kind=QUESTION_RUN, pk=run_id, task_id=task_id).update(
        state=RunState.FAILED, finished_at=timezone.now(), error=redact(error)[:2000])


def question_run_record(*, report: QuestionsReport, questions_file: str, question_set: QuestionSet | None,
                        started_at, trigger: str = RunTrigger.COMMAND) -> QuestionRun:
    """A run made in this process (`evaluate --questions`), stored done; a saved set's is compared like a worker's."""
    digests = settings_digests()
    run = QuestionRun(questions_file=questions_file, question_set=question_set, clearance=report.clearance,
                      trigger=trigger, settings_digests=digests, fingerprint=settings_fingerprint(digests),
                      started_at=started_at, requested_at=started_at)
    for name, value in _finish_fields(run=run, report=report).items():
        setattr(run, name, value)
    if question_set is None:
        run.compared_with, run.regressions = None, []  # the command compares file runs itself
    run.save()
    return run


# Housekeeping (beat) ------------------------------------------------------------------------------------------


def checker_model_changed_receiver(sender, *, model, **kwargs) -> None:
    """review.signals.checker_model_changed: the sets run again on the new model (a changed setting for them)."""
    question_runs_for_changed_settings()


def question_runs_for_changed_settings() -> list[QuestionRun]:
    """A run of each active set whose last run (none waiting) ran under other settings, naming what changed."""
    digests = settings_digests()
    fingerprint = settings_fingerprint(digests)
    runs = []
    for question_set in QuestionSet.objects.filter(active=True).exclude(runs__state=RunState.QUEUED):
        last = question_set.runs.exclude(fingerprint="").order_by("-started_at", "-pk").first()
        if last is None or last.fingerprint == fingerprint:
            continue
        changed = sorted(name for name in {*digests, *last.settings_digests}
                         if digests.get(name) != last.settings_digests.get(name))
        runs += question_runs_request(trigger=RunTrigger.SETTINGS_CHANGED, question_sets=[question_set],
                                      changed_settings=changed)
    return runs
