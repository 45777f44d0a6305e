from celery import shared_task

from console.health import record_worker_heartbeat


@shared_task(ignore_result=True)
def worker_heartbeat() -> None:
    record_worker_heartbeat()
