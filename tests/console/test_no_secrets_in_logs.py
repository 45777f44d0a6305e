"""No API token, webhook secret, checker key or callback credential in logs, audit rows, stored errors or API
responses, after a full flow whose third parties echo back every credential they are sent (issue #12)."""

import base64
import json
import logging
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.conftest import wait_scored

pytestmark = pytest.mark.django_db(transaction=True)

POLICY = """# Travel policy

## Hotels

The nightly hotel cap is $220 in London and $325 in New York.
"""


class EchoingThirdParty:
    """Checker endpoints and a webhook receiver that put whatever credentials they got into their answers:
    the LLM judge into a 200 reply that is neither yes nor no, AlignScore into an invalid score, the receiver
    into a 500 body (with the URL it was called on, query string and all)."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        third_party = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                third_party.requests.append({"path": self.path, "headers": dict(self.headers)})
                echo = f"{self.headers.get('Authorization')} {self.headers.get('X-Signature')} {self.path}"
                if self.path.endswith("/chat/completions"):
                    status, body = 200, {"choices": [{"message": {"content": f"you sent {echo}"}}]}
                elif self.path.endswith("/alignscore_large"):
                    status, body = 200, {"alignscore": echo}
                else:
                    status, body = 500, {"error": f"cannot take {echo}"}
                payload = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.address = f"127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def third_party(settings):
    settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    server = EchoingThirdParty()
    yield server
    server.close()


def _basic(user: str, password: str) -> str:
    return base64.b64encode(f"{user}:{password}".encode()).decode()


def _webhook_given_up(answer):
    """The one failed delivery, once the worker has stopped trying (WEBHOOK_MAX_ATTEMPTS = 1)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        answer.refresh_from_db()
        if answer.webhook_state == "failed":
            return answer.deliveries.get()
        time.sleep(0.1)
    raise AssertionError(f"webhook still {answer.webhook_state!r}")


def _stored_text() -> dict[str, str]:
    """Everything the console keeps about what happened, except the client's own callback_url (needed to send)."""
    from console.models import AuditEvent
    from kb.models import DocumentVersion
    from review.models import Answer, Claim, WebhookDelivery

    return {
        "audit": json.dumps(list(AuditEvent.objects.values(
            "actor_label", "verb", "object_repr", "before", "after", "note")), default=str),
        "answers": json.dumps(list(Answer.objects.values(
            "scoring_error", "routing_reasons", "checker_warnings", "released_text")), default=str),
        "claims": json.dumps(list(Claim.objects.values("reasons", "findings"))),
        "deliveries": json.dumps(list(WebhookDelivery.objects.values("url", "error"))),
        "versions": json.dumps(list(DocumentVersion.objects.values_list("index_error", flat=True))),
    }


def test_a_full_flow_leaves_no_secret_in_logs_audit_errors_or_responses(
        client, api_token, celery_worker, publish, third_party, settings, caplog, release_at):
    caplog.set_level(logging.DEBUG)
    release_at(0.6)
    api_client, token = api_token
    llm_key = "sk-llm-" + secrets.token_hex(16)
    align_password = "align-" + secrets.token_hex(8)
    hook_password = "hookpass-" + secrets.token_hex(8)
    hook_token = "hooktoken-" + secrets.token_hex(8)
    wrong_token = "gac_" + secrets.token_urlsafe(32)
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0
    settings.REVIEW_HIGH_RISK_TOPICS = []
    settings.WEBHOOK_MAX_ATTEMPTS = 1
    settings.REVIEW_CHECKERS = ["builtin", "alignscore", "llm"]
    settings.REVIEW_ALIGNSCORE_URL = f"http://scorer:{align_password}@{third_party.address}/alignscore_large"
    settings.REVIEW_LLM_URL = f"http://{third_party.address}/v1"
    settings.REVIEW_LLM_API_KEY = llm_key
    secret_values = {
        "api token": token, "wrong token": wrong_token, "webhook secret": api_client.webhook_secret,
        "llm key": llm_key, "alignscore password": align_password,
        "alignscore basic auth": _basic("scorer", align_password), "callback password": hook_password,
        "callback basic auth": _basic("hook", hook_password), "callback token": hook_token,
        "SECRET_KEY": settings.SECRET_KEY,
    }
    bearer = {"Authorization": f"Bearer {token}"}
    publish(POLICY, key="travel-policy")

    responses = []
    submitted = client.post("/api/v1/answers", content_type="application/json", headers=bearer, data={
        "question": "Hotel cap in New York?", "answer": "The nightly hotel cap is $325 in New York.",
        "callback_url": f"http://hook:{hook_password}@{third_party.address}/hook?token={hook_token}",
    })
    responses.append(submitted)
    assert submitted.status_code == 202, submitted.content
    answer = wait_scored(submitted.json()["id"])
    responses.append(client.get(f"/api/v1/answers/{answer.pk}", headers=bearer))
    responses.append(client.post("/api/v1/check", content_type="application/json", headers=bearer,
                                 data={"answer": "The nightly hotel cap is $220 in London."}))
    responses.append(client.post("/api/v1/answers", content_type="application/json",
                                 headers={"Authorization": f"Bearer {wrong_token}"},
                                 data={"question": "q", "answer": "a"}))
    responses.append(client.post("/api/v1/answers", content_type="application/json", headers=bearer,
                                 data={"question": "q", "answer": "a", "callback_url": "ftp://x/?token=1"}))
    delivery = _webhook_given_up(answer)

    # The flow went where it should: every credential reached the third parties, and every one came back.
    assert answer.status == "released", answer.routing_reasons
    assert [r.status_code for r in responses] == [202, 200, 200, 401, 400]
    sent = {r["path"].split("?")[0]: r["headers"] for r in third_party.requests}
    assert sent["/v1/chat/completions"]["Authorization"] == f"Bearer {llm_key}"
    assert sent["/alignscore_large"]["Authorization"] == f"Basic {_basic('scorer', align_password)}"
    assert sent["/hook"]["Authorization"] == f"Basic {_basic('hook', hook_password)}"
    assert (delivery.status_code, delivery.delivered) == (500, False)
    assert any(w.startswith("llm checker skipped: answered neither yes nor no") for w in answer.checker_warnings)
    assert any(w.startswith("alignscore checker skipped: answered without a valid") for w in answer.checker_warnings)
    # The worker's log lines are in the capture too (it runs as threads of this process).
    assert any(r.name == "review.pipeline" and "llm checker skipped" in r.getMessage() for r in caplog.records)
    assert any(r.name == "review.webhooks" and "webhook for answer" in r.getMessage() for r in caplog.records)

    places = {"logs": caplog.text + "\n".join(r.getMessage() for r in caplog.records), **_stored_text()}
    places.update({f"response {n}": r.content.decode() for n, r in enumerate(responses)})
    leaks = [(what, where) for what, value in secret_values.items() for where, text in places.items()
             if value in text]
    assert leaks == [], leaks
