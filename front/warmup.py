"""Workers warm up: each embeds locally (the web process asks a worker instead), and each pool process loads the
embedding models and the checker's fitted model when it starts, not on the first check a client waits for."""

import logging

from celery.signals import worker_init, worker_process_init

logger = logging.getLogger(__name__)


@worker_init.connect
def workers_embed_locally(**kwargs) -> None:
    from kb.embeddings import allow_local_model

    allow_local_model()


@worker_process_init.connect
def worker_process_warm(**kwargs) -> None:
    """Each prefork child loads the embedding model and the checker's fitted model when it starts, not on the
    first synchronous check that reaches it (seconds a client would wait)."""
    from checking.languages import LANGUAGE_CODES
    from kb.embeddings import Role, embed_texts
    from checking.builtin import check_claim
    from checking.base import EvidenceCandidate

    try:
        for language in LANGUAGE_CODES:  # each language's model
            embed_texts(["warm up"], role=Role.QUERY, language=language)
        check_claim(claim="The plan costs 5 dollars.", candidates=[EvidenceCandidate("The plan costs 5 dollars.")],
                    embed=None)
    except Exception as exc:  # a provider that is down now may be up for the first task; never stop the worker
        logger.warning("worker warm-up incomplete: %s", exc)
