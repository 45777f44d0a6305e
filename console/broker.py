"""kombu's Redis transport, with a lost connection reported as one.

When Redis dies, the worker's consumer closes its broker connection and reconnects. A channel of the closed
connection that is still used afterwards (a late acknowledgement, a channel closed on restart) asks kombu for
a new Redis client, and kombu reads the host from a connection that is gone: `AttributeError: 'NoneType' object
has no attribute 'hostname'` (celery/kombu#582). Celery treats only connection errors as recoverable, so the
worker stopped with "Unrecoverable error" at Redis kills (docs/performance.md, the hour-long soak). Here that
channel raises redis' ConnectionError instead: the consumer reconnects, an acknowledgement that could not be
sent is logged, and its message is delivered again (a work claim makes the second run a no-op).
"""

from __future__ import annotations

import redis.exceptions
from kombu.transport import TRANSPORT_ALIASES
from kombu.transport import redis as kombu_redis

NAME = "console-redis"  # what the worker's log says it is connected to: console-redis://127.0.0.1:6379/0


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> dict:
        if self.connection is None or self.connection.client is None:
            raise redis.exceptions.ConnectionError("the broker connection of this channel is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel


TRANSPORT_ALIASES[NAME] = f"{__name__}:Transport"


def broker_transport(broker_url: str) -> str | None:
    """The transport for CELERY_BROKER_TRANSPORT: this one for plain redis:// URLs, kombu's own for any other
    scheme (rediss:// keeps kombu's check that TLS options are given; sentinel:// has its own channel)."""
    return NAME if broker_url.startswith("redis://") else None
