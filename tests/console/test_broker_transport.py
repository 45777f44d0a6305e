"""The worker's broker transport reports a channel of a closed connection as a lost connection, which Celery
recovers from, where kombu's own raised AttributeError and the worker stopped with "Unrecoverable error"."""

import pytest
from kombu import Connection, Exchange, Producer, Queue

from console.broker import NAME, broker_transport
from tests.processes import own_redis_url

QUEUE = Queue("broker-transport-test", Exchange("broker-transport-test"), "broker-transport-test")


@pytest.fixture
def broker_url():
    return own_redis_url(6)


def _channel_of_a_closed_connection(url: str, transport: str | None):
    """A channel whose connection was closed under it, as the consumer leaves one when Redis dies."""
    connection = Connection(url, transport=transport)
    channel = connection.channel()
    QUEUE(channel).declare()
    connection.close()
    channel.close()  # also drops its client pool: the next use asks the closed connection for a host
    return connection, channel


def test_a_channel_of_a_closed_connection_raises_a_connection_error(broker_url):
    connection, channel = _channel_of_a_closed_connection(broker_url, NAME)

    with pytest.raises(connection.connection_errors) as raised:
        QUEUE(channel).get()

    assert "closed" in str(raised.value)


def test_kombus_own_transport_raised_attribute_error_there(broker_url):
    """Why console/broker.py exists: when this fails, kombu reports it itself and the subclass can go."""
    _, channel = _channel_of_a_closed_connection(broker_url, None)

    with pytest.raises(AttributeError):
        QUEUE(channel).get()


def test_an_open_connection_works_as_kombus(broker_url):
    with Connection(broker_url, transport=NAME) as connection:
        Producer(connection.default_channel).publish({"n": 1}, exchange=QUEUE.exchange,
                                                     routing_key=QUEUE.routing_key, declare=[QUEUE])
        queue = QUEUE(connection.default_channel)
        message = queue.get(no_ack=False)
        assert message.payload == {"n": 1}
        message.ack()
        assert queue.get() is None


def test_the_celery_app_uses_it_for_redis_urls_only(settings):
    from config.celery import app

    assert broker_transport("redis://127.0.0.1:6379/0") == NAME
    assert broker_transport("rediss://cache.example:6380/0") is None  # kombu's own checks the TLS options
    assert broker_transport("sentinel://127.0.0.1:26379") is None
    with app.connection_for_write() as connection:
        assert connection.as_uri().startswith(f"{NAME}://")
        assert connection.transport.Channel.__module__ == "console.broker"
