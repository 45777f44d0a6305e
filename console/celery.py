import logging
import os
import time

from celery import Celery, bootsteps, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "console.settings")

logger = logging.getLogger(__name__)

app = Celery("console")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class _ThisWorker:
    """This process's worker: its node name (e.g. celery@box) and when it started. Set before the pool forks, so
    a task in a pool process can name the worker that claims its work (a task request's hostname is the machine's
    under some pools, not the worker's)."""

    name = ""
    started = 0.0


@signals.worker_init.connect
def _remember_this_worker(sender, **kwargs) -> None:
    _ThisWorker.name = sender.hostname
    _ThisWorker.started = time.time()


def this_worker_name() -> str:
    """The worker running this task ("" outside a worker)."""
    return _ThisWorker.name


class WorkerHeartbeat(bootsteps.StartStopStep):
    """Each worker writes its own heartbeat key (with an expiry) from its event loop, so /healthz can name
    every live worker; a task sent by beat would reach only one of them. The heartbeat says when this worker
    process started: claims made under its name before then belong to a dead predecessor (console/claims.py),
    and the worker hands them back itself when it starts, before it takes any task."""

    requires = {"celery.worker.consumer.tasks:Tasks"}  # beat only once the worker consumes tasks

    def __init__(self, parent, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.timer_entry = None
        self.handed_back = False

    def start(self, parent) -> None:
        from console.health import heartbeat_interval

        self._beat(parent.hostname)
        self.timer_entry = parent.timer.call_repeatedly(heartbeat_interval(), self._beat, (parent.hostname,))
        # The consumer starts again after a lost broker connection, but the process (and its pool's claims) lives on.
        if not self.handed_back:
            self.handed_back = True
            _release_lost_claims()

    def stop(self, parent) -> None:
        from console.health import forget_worker

        if self.timer_entry is not None:
            parent.timer.cancel(self.timer_entry)
            self.timer_entry = None
        try:
            forget_worker(hostname=parent.hostname)  # a worker that stops cleanly leaves the list at once
        except Exception:  # Redis down: the key expires by itself
            logger.warning("could not remove the heartbeat of %s", parent.hostname)

    shutdown = stop

    def _beat(self, hostname: str) -> None:
        from console.health import record_worker_heartbeat

        try:
            record_worker_heartbeat(hostname=hostname, started=_ThisWorker.started)
        except Exception as exc:  # never let a missed heartbeat stop the worker's timer
            logger.warning("worker heartbeat not written: %s", exc)


def _release_lost_claims() -> None:
    from django.db import connections

    from console.claims import lost_claims_release

    try:
        released = lost_claims_release()
        if released:
            logger.warning("handed back %d claims of workers that are gone", released)
    except Exception as exc:  # the database may be down: the beat sweep hands them back later
        logger.warning("could not hand back the claims of workers that are gone: %s: %s", type(exc).__name__, exc)
    finally:
        connections.close_all()  # the main process runs no task: keep no idle connection


app.steps["consumer"].add(WorkerHeartbeat)
