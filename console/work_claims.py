"""Work a worker claims — an answer to score, a version to index, a webhook attempt, a question run — has one
lifecycle, written once here; each app describes its kinds of work (`WorkClaimKind`) and registers them from its
`AppConfig.ready()`.

A row asks for work by its committed state (`waiting`), never by a message alone: the message only says "look
now". A task takes the row with one conditional update (`work_claim_take`), so a second message for it is a no-op,
while the same message redelivered after its worker process died (same task id) takes its claim back. A claim goes
back to the queue, and its task is sent again:

- at once when its worker is gone (`lost_claims_release`): no worker of that name has a live heartbeat
  (console/workers.py), or the worker of that name now running started after the claim was last held, so it
  belonged to an earlier process of the same name (a worker `run_console` restarted after it was killed). Redis
  keeps a message a dead worker took for the whole visibility timeout (an hour); without this its work would
  wait for the stale sweep. Runs every WORKER_CLAIMS_SWEEP_SECONDS (beat) and once when a worker starts;
- when it shows no sign of life for the kind's `stale_after` (`work_claims_sweep`, beat).

A row waiting longer than DISPATCH_RESEND_AFTER_SECONDS since a worker was last asked for it is asked for again:
its message was never sent (the broker was down) or was lost with the broker. Every worker also asks again for
every waiting row each time its broker connection (re)starts (`waiting_work_resend`): what was accepted while Redis
was down goes out within seconds of its return, not at the next sweep; a message that was not lost after all makes
the second one a no-op. Each hand-back is a conditional
update of the claim as it was read, so two sweeps at once, or a sweep run twice, hand a claim back once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import redis
from django.conf import settings
from django.db import models, transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.module_loading import import_string

from console.dispatch import enqueue, enqueue_on_commit
from console.workers import worker_start_times

logger = logging.getLogger(__name__)


def work_claim_fields(prefix: str) -> type[models.Model]:
    """An abstract model with the field every work claim keeps, `{prefix}worker`: the worker holding the claim (its
    Celery hostname); gone, the claim is handed back. A model with two kinds of work mixes in one per prefix."""
    return type(f"{prefix.strip('_').title() or 'Work'}ClaimFields", (models.Model,), {
        "__module__": __name__,
        f"{prefix}worker": models.CharField(max_length=255, blank=True),
        "Meta": type("Meta", (), {"abstract": True}),
    })


@dataclass(frozen=True)
class WorkClaimKind:
    """One kind of work a worker claims: which rows wait and which are held, the fields that keep the claim, and
    the task (a dotted path, sent the row's pk) that does the work."""

    name: str  # in logs: "scoring of answer"
    model: type[models.Model]
    waiting: Q  # rows waiting for a worker
    held: Q  # rows a worker holds
    worker_field: str  # from work_claim_fields
    held_at_field: str  # when the claim was taken, or its last sign of progress
    requested_at_field: str  # when a worker was last asked for the row
    task: str
    stale_after: Callable[[], timedelta]  # a claim silent this long is handed back (read when used: settings)
    task_id_field: str = ""  # the message holding the claim
    due_field: str = ""  # a waiting row is taken only once this time has come (a retry's backoff)
    taken: Mapping[str, Any] = field(default_factory=dict)  # set, besides the claim, when the row is taken
    handed_back: Mapping[str, Any] = field(default_factory=dict)  # set, besides clearing the claim, on a hand-back
    lock: Callable[[int], None] | None = None  # taken in the transaction before the row changes
    # Settles a claim its own way instead of a hand-back (True when it did), given the claim as it was read.
    instead_of_hand_back: Callable[[QuerySet], bool] | None = None
    on_hand_back: Callable[[int], None] | None = None  # after a hand-back, in its transaction (an audit record)

    def claim_values(self, *, worker: str, task_id: str, held_at: datetime) -> dict[str, Any]:
        values = {self.worker_field: worker, self.held_at_field: held_at}
        if self.task_id_field:
            values[self.task_id_field] = task_id
        return values


_KINDS: list[WorkClaimKind] = []


def work_claim_kinds_register(*kinds: WorkClaimKind) -> None:
    """Each app, from its AppConfig.ready(): the kinds of work its workers claim."""
    _KINDS.extend(kind for kind in kinds if kind not in _KINDS)


def work_claim_kinds() -> tuple[WorkClaimKind, ...]:
    return tuple(_KINDS)


def work_claim_take(*, kind: WorkClaimKind, pk: int, worker: str = "", task_id: str = "",
                    also: Mapping[str, Any] | None = None) -> bool:
    """Claim a waiting row (due, if its kind has a due time), a claim gone stale, or the claim this very message
    (`task_id`) held before its worker died. `worker`: the Celery hostname, so the claim can be handed back as soon
    as that worker is gone. `also`: more values to set with the claim."""
    now = timezone.now()
    takeable = kind.waiting & Q(**{f"{kind.due_field}__lte": now}) if kind.due_field else kind.waiting
    takeable |= kind.held & Q(**{f"{kind.held_at_field}__lt": now - kind.stale_after()})
    if task_id and kind.task_id_field:
        takeable |= kind.held & Q(**{kind.task_id_field: task_id})
    values = {**kind.taken, **(also or {}), **kind.claim_values(worker=worker, task_id=task_id, held_at=now)}
    with transaction.atomic():
        if kind.lock is not None:
            kind.lock(pk)
        return bool(kind.model.objects.filter(takeable, pk=pk).update(**values))


def _hand_back(*, kind: WorkClaimKind, pk: int, worker: str, held_at: datetime | None, why: str) -> bool:
    """Give the claim, as it was read (`worker`, `held_at`), back to the queue and ask for it again."""
    claim = kind.model.objects.filter(kind.held, pk=pk, **{kind.worker_field: worker, kind.held_at_field: held_at})
    with transaction.atomic():
        if kind.lock is not None:
            kind.lock(pk)
        if kind.instead_of_hand_back is not None and kind.instead_of_hand_back(claim):
            logger.warning("%s %s: %s; settled instead of asking again", kind.name, pk, why)
            return True
        # The held-at time stays (a kind that reads it as "taken" clears it through `handed_back`).
        cleared = {kind.worker_field: "", **({kind.task_id_field: ""} if kind.task_id_field else {})}
        if not claim.update(**kind.handed_back, **cleared, **{kind.requested_at_field: timezone.now()}):
            return False  # finished, or handed back by another sweep, since it was read
        if kind.on_hand_back is not None:
            kind.on_hand_back(pk)
        enqueue_on_commit(import_string(kind.task), pk)  # if the broker is down, the resend sweep sends it later
    logger.warning("%s %s: %s; asking again", kind.name, pk, why)
    return True


def _held_claims(kind: WorkClaimKind, *conditions: Q) -> list[tuple[int, str, datetime | None]]:
    return list(kind.model.objects.filter(kind.held, *conditions)
                .values_list("pk", kind.worker_field, kind.held_at_field))


def _stale_requeue(kind: WorkClaimKind) -> int:
    cutoff = timezone.now() - kind.stale_after()
    stale = _held_claims(kind, Q(**{f"{kind.held_at_field}__lt": cutoff}))
    return sum(_hand_back(kind=kind, pk=pk, worker=worker, held_at=held_at,
                          why=f"no sign of its worker {worker or '(unnamed)'} since {held_at:%Y-%m-%d %H:%M:%S}")
               for pk, worker, held_at in stale)


def _waiting_resend(kind: WorkClaimKind, *, waited: timedelta, why: str = "no worker took it") -> int:
    """Send again the message of rows waiting longer than `waited` since it was sent (and due, if it has a time)."""
    now = timezone.now()
    waiting = (kind.model.objects.filter(kind.waiting)
               .alias(requested=Coalesce(kind.requested_at_field, "created_at"))
               .filter(requested__lt=now - waited))
    if kind.due_field:
        waiting = waiting.filter(**{f"{kind.due_field}__lte": now})
    waiting = list(waiting.order_by("pk").values_list("pk", flat=True))
    task = import_string(kind.task)
    for pk in waiting:
        logger.warning("%s %s: %s; asking again", kind.name, pk, why)
        if not enqueue(task, pk):
            break  # the broker is still down; the next sweep tries again
        kind.model.objects.filter(kind.waiting, pk=pk).update(**{kind.requested_at_field: now})
    return len(waiting)


def work_claims_requeue(*, kind: WorkClaimKind) -> int:
    """Ask again for work of this kind that no worker is doing: claims gone stale, and waiting rows whose message
    was never sent or was lost. How many were asked for again."""
    return _stale_requeue(kind) + _waiting_resend(
        kind, waited=timedelta(seconds=settings.DISPATCH_RESEND_AFTER_SECONDS))


def waiting_work_resend() -> int:
    """Ask at once for every waiting row of every kind, however recently it was asked for: a worker's broker
    connection has just (re)started, and messages sent while it was down were refused or lost with Redis."""
    return sum(_waiting_resend(kind, waited=timedelta(0), why="the broker is back")
               for kind in work_claim_kinds())


def work_claims_sweep() -> int:
    """`work_claims_requeue` for every registered kind (beat)."""
    return sum(work_claims_requeue(kind=kind) for kind in work_claim_kinds())


@dataclass(frozen=True)
class WorkerLives:
    started: dict[str, float]  # live worker name -> when its running process started (epoch seconds)

    def lost(self, *, worker_field: str, held_at_field: str) -> Q:
        """Rows claimed by a worker (`worker_field` set) that no live worker process holds. `held_at_field`: a
        time the claim was held at (when it was made, or its last progress)."""
        held = Q(pk__in=[])
        for name, started in self.started.items():
            since = datetime.fromtimestamp(started, tz=UTC)
            held |= Q(**{worker_field: name, f"{held_at_field}__gte": since})
        return Q(**{f"{worker_field}__gt": ""}) & ~held


def worker_lives() -> WorkerLives | None:
    """The live workers, or None when Redis cannot say (then no claim may be taken for lost)."""
    try:
        return WorkerLives(started=worker_start_times())
    except redis.RedisError as exc:
        logger.warning("cannot tell which workers are alive, no claim handed back: %s: %s", type(exc).__name__, exc)
        return None


def lost_claims_release() -> int:
    """Hand back every claim held by a worker that is gone; how many were handed back."""
    lives = worker_lives()
    if lives is None:
        return 0
    released = 0
    for kind in work_claim_kinds():
        lost = _held_claims(kind, lives.lost(worker_field=kind.worker_field, held_at_field=kind.held_at_field))
        released += sum(_hand_back(kind=kind, pk=pk, worker=worker, held_at=held_at, why=f"its worker {worker} is gone")
                        for pk, worker, held_at in lost)
    return released


def work_claim_held(*, kind: WorkClaimKind, pk: int, task_id: str) -> QuerySet:
    """The row, if this task's claim on it still stands (another task may have been given it meanwhile)."""
    return kind.model.objects.filter(kind.held, pk=pk, **{kind.task_id_field: task_id})

