"""Work claimed by a worker that died goes back to the queue at once, not after the stale timeouts.

Every claim (an answer being scored, a version being indexed, a webhook attempt, a question run) records the
worker that took it (Celery's hostname, e.g. celery@box) and when. A claim is lost when no worker of that name
has a live heartbeat (none for WORKER_HEARTBEAT_MAX_AGE), or when the worker of that name now running started
after the claim was last held: it belonged to an earlier process of the same name, e.g. a worker that
`run_console` restarted after it was killed. Redis keeps a message a dead worker took for the whole visibility
timeout (an hour), so without this its work would wait for the stale sweeps (5 to 10 minutes).

The sweep runs every WORKER_CLAIMS_SWEEP_SECONDS (beat) and once when a worker starts. Each hand-back is a
conditional update of the claim as it was read, so two sweeps at once, or a sweep run twice, hand a claim back once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

import redis
from django.db.models import Q

from console.health import worker_start_times

logger = logging.getLogger(__name__)


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
    from ask.regression import question_runs_release_lost
    from kb.services import versions_release_lost
    from review.services import answers_release_lost
    from review.webhooks import webhooks_release_lost

    lives = worker_lives()
    if lives is None:
        return 0
    return sum(release(lives=lives) for release in (
        answers_release_lost, versions_release_lost, webhooks_release_lost, question_runs_release_lost))
