import logging
import os

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "console.settings")

logger = logging.getLogger(__name__)

app = Celery("console")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class WorkerHeartbeat(bootsteps.StartStopStep):
    """Each worker writes its own heartbeat key (with an expiry) from its event loop, so /healthz can name
    every live worker; a task sent by beat would reach only one of them."""

    requires = {"celery.worker.consumer.tasks:Tasks"}  # beat only once the worker consumes tasks

    def __init__(self, parent, **kwargs) -> None:
        super().__init__(parent, **kwargs)
        self.timer_entry = None

    def start(self, parent) -> None:
        from console.health import heartbeat_interval

        self._beat(parent.hostname)
        self.timer_entry = parent.timer.call_repeatedly(heartbeat_interval(), self._beat, (parent.hostname,))

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
            record_worker_heartbeat(hostname=hostname)
        except Exception as exc:  # never let a missed heartbeat stop the worker's timer
            logger.warning("worker heartbeat not written: %s", exc)


app.steps["consumer"].add(WorkerHeartbeat)
