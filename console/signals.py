from celery.signals import worker_init, worker_ready

from console.health import record_worker_heartbeat


@worker_ready.connect
def heartbeat_on_worker_start(**kwargs) -> None:
    # Without this, /healthz would report the worker down until beat's first tick.
    record_worker_heartbeat()


@worker_init.connect
def workers_embed_locally(**kwargs) -> None:
    from kb.embeddings import allow_local_model

    allow_local_model()
