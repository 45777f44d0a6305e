"""Safe webhooks: callback_url must reach a public address unless its host is allow-listed, checked at intake
and again at send time (DNS rebinding), posting to the checked address, never following redirects."""

import socket

import httpx
import pytest

from review import webhooks
from review.models import Answer

pytestmark = pytest.mark.django_db

BODY = {"question": "How long do refunds take?", "answer": "Refunds are paid within 14 days."}
PUBLIC_IP = "93.184.215.14"


@pytest.fixture
def dns(monkeypatch):
    """Fake DNS answers for made-up names; every other name resolves as usual."""
    answers: dict[str, list[str]] = {}
    real_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in answers:
            return [(socket.AF_INET6 if ":" in ip else socket.AF_INET, socket.SOCK_STREAM, 6, "",
                     (ip, port or 0)) for ip in answers[host]]
        return real_getaddrinfo(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


@pytest.fixture
def sent(monkeypatch):
    """Outgoing webhook requests, answered by an httpx mock transport instead of the network."""
    requests: list[httpx.Request] = []
    responses: list[httpx.Response] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return responses.pop(0) if responses else httpx.Response(200)

    def post(url, **kwargs):
        with httpx.Client(transport=httpx.MockTransport(handler),
                          follow_redirects=kwargs.pop("follow_redirects", False)) as client:
            return client.post(url, **kwargs)

    monkeypatch.setattr(httpx, "post", post)
    requests_and_responses = requests, responses
    return requests_and_responses


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8000/hook", "http://localhost/hook", "http://10.1.2.3/hook", "http://192.168.0.10/hook",
    "http://169.254.169.254/latest/meta-data/", "http://[::1]/hook", "http://[::ffff:127.0.0.1]/hook",
    "http://[fe80::1]/hook", "http://0.0.0.0/hook", "http://2130706433/hook", "http://100.64.0.1/hook",
    "http://224.0.0.1/hook", "http://[64:ff9b::7f00:1]/hook", "http://[2002:7f00:1::]/hook",
    "ftp://example.org/hook", "file:///etc/passwd",
])
def test_private_or_non_http_callback_is_400_at_intake(api, url):
    response = api.post("/api/v1/answers", {**BODY, "callback_url": url})

    assert response.status_code == 400
    assert response.json()["detail"].startswith("body.callback_url: ")
    assert not Answer.objects.exists()


def test_name_resolving_to_a_private_address_is_400(api, dns):
    dns["hooks.example"] = [PUBLIC_IP, "10.0.0.7"]  # one private answer is enough

    response = api.post("/api/v1/answers", {**BODY, "callback_url": "https://hooks.example/cb"})

    assert response.status_code == 400
    assert "10.0.0.7 is a private address" in response.json()["detail"]


def test_public_callback_is_taken(api, dns):
    dns["hooks.example"] = [PUBLIC_IP]

    response = api.post("/api/v1/answers", {**BODY, "callback_url": "https://hooks.example/cb"})

    assert response.status_code == 202
    assert Answer.objects.get().callback_url == "https://hooks.example/cb"


def test_allow_listed_host_may_be_local(api, settings):
    settings.WEBHOOK_ALLOWED_HOSTS = ["localhost"]

    response = api.post("/api/v1/answers", {**BODY, "callback_url": "http://localhost:9000/cb"})

    assert response.status_code == 202


def _released(make_answer, url: str) -> Answer:
    return make_answer(status="released", callback_url=url)


def test_send_time_check_refuses_a_name_rebound_to_loopback(api, dns, sent, make_answer):
    dns["hooks.example"] = [PUBLIC_IP]
    answer_id = api.post("/api/v1/answers", {**BODY, "callback_url": "http://hooks.example/cb"}).json()["id"]
    dns["hooks.example"] = ["127.0.0.1"]  # the name now points inside

    delivered = webhooks.webhook_attempt(answer_id=answer_id, attempt=1)

    requests, _ = sent
    assert delivered is False
    assert requests == []  # nothing left the machine
    delivery = Answer.objects.get(pk=answer_id).deliveries.get()
    assert (delivery.delivered, delivery.status_code) == (False, None)
    assert delivery.error == ("refused: callback_url host hooks.example resolves to 127.0.0.1 is a loopback address; "
                              "webhooks go to public addresses only (or add the host to WEBHOOK_ALLOWED_HOSTS)")


def test_send_connects_to_the_checked_address_keeping_host_and_tls_name(dns, sent, make_answer):
    dns["hooks.example"] = [PUBLIC_IP]
    answer = _released(make_answer, "https://hooks.example:8443/cb?x=1")

    assert webhooks.webhook_attempt(answer_id=answer.pk, attempt=1) is True

    requests, _ = sent
    (request,) = requests
    assert str(request.url) == f"https://{PUBLIC_IP}:8443/cb?x=1"
    assert request.headers["Host"] == "hooks.example:8443"
    assert request.extensions["sni_hostname"] == "hooks.example"
    assert request.headers["X-Signature"].startswith("sha256=")


def test_redirects_are_not_followed(dns, sent, make_answer):
    dns["hooks.example"] = [PUBLIC_IP]
    answer = _released(make_answer, "https://hooks.example/cb")
    requests, responses = sent
    responses.append(httpx.Response(302, headers={"Location": "http://127.0.0.1/admin"}))

    assert webhooks.webhook_attempt(answer_id=answer.pk, attempt=1) is False

    assert len(requests) == 1
    assert answer.deliveries.get().status_code == 302


def test_stored_private_callback_is_refused_at_send(sent, make_answer, settings):
    settings.WEBHOOK_ALLOWED_HOSTS = []
    answer = _released(make_answer, "http://169.254.169.254/latest/meta-data/")

    assert webhooks.webhook_attempt(answer_id=answer.pk, attempt=1) is False

    requests, _ = sent
    assert requests == []
    assert answer.deliveries.get().error.startswith("refused: callback_url host 169.254.169.254 resolves to "
                                                    "169.254.169.254 is a link-local address")


def test_callback_longer_than_the_column_is_400(api, settings):
    settings.WEBHOOK_ALLOWED_HOSTS = ["localhost"]

    response = api.post("/api/v1/answers", {**BODY, "callback_url": "http://localhost/" + "a" * 1000})

    assert response.status_code == 400
    assert response.json()["detail"] == "body.callback_url: Value error, is longer than 1000 characters"
