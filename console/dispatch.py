"""Hand-offs to the broker.

Work is asked for by committed state (a version "queued", an answer "scoring", a webhook "pending"), never by a
message alone: the message only says "look now". So a broker that is down when the message is sent loses
nothing — the send is logged, the request that committed the state still succeeds, and the beat sweeps send
the message again once the broker is back.
"""

from __future__ import annotations

import logging
from functools import partial

import redis.exceptions
from celery import Task
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)

# What a publish raises when Redis (broker or result backend) is unreachable.
BROKER_ERRORS = (BrokerError, redis.exceptions.RedisError, ConnectionError, OSError)


def socket_closed_under_it(exc: BaseException) -> bool:
    """redis-py's ValueError "I/O operation on closed file": Redis closed the socket while the client was still
    reading its connect handshake (Redis killed or restarting). A connection failure, whatever its class says."""
    return isinstance(exc, ValueError) and "closed file" in str(exc)


def broker_unreachable(exc: BaseException) -> bool:
    """Did a publish (or a wait for a result) fail because Redis cannot be reached? Celery's result consumer
    reports a lost connection, once its own retries are spent, as a RuntimeError caused by the connection error."""
    lost_result_store = isinstance(exc, RuntimeError) and (isinstance(exc.__cause__, BROKER_ERRORS)
                                                           or socket_closed_under_it(exc.__cause__))
    return isinstance(exc, BROKER_ERRORS) or socket_closed_under_it(exc) or lost_result_store


def enqueue(task: Task, *args, countdown: float | None = None) -> bool:
    """Send `task(*args)` now; False (and a warning) when the broker cannot take it."""
    try:
        task.apply_async(args, countdown=countdown)
    except Exception as exc:
        if not broker_unreachable(exc):
            raise
        logger.warning("could not queue %s%s; the housekeeping sweep will send it again: %s: %s",
                       task.name, args, type(exc).__name__, exc)
        return False
    return True


def enqueue_on_commit(task: Task, *args, countdown: float | None = None) -> None:
    """Send `task(*args)` once the surrounding transaction commits (never if it rolls back)."""
    transaction.on_commit(partial(enqueue, task, *args, countdown=countdown))
