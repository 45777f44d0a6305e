from celery.signals import worker_init


@worker_init.connect
def workers_embed_locally(**kwargs) -> None:
    from kb.embeddings import allow_local_model

    allow_local_model()
