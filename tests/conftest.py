from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator

import pytest
from console.work_claims import work_claim_take

# Django imports stay inside fixtures so pure tests can run with `-p no:django`.

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PASSWORD = "correct-horse-battery"


@pytest.fixture
def make_user(db) -> Callable[..., object]:
    from django.contrib.auth.models import Group

    from console.models import User

    def make(username: str, *role_names: str, clearance: str = "internal") -> User:
        user = User.objects.create_user(username=username, password=PASSWORD, clearance=clearance)
        for name in role_names:
            user.groups.add(Group.objects.get_or_create(name=name)[0])
        return user

    return make


@pytest.fixture
def curator(make_user):
    return make_user("cora", "curator")


@pytest.fixture
def approver(make_user):
    return make_user("april", "approver", clearance="confidential")


@pytest.fixture
def reviewer(make_user):
    return make_user("rita", "reviewer")


@pytest.fixture
def second_reviewer(make_user):
    return make_user("rob", "reviewer")


@pytest.fixture
def admin_user(make_user):
    return make_user("ada", "admin", clearance="restricted")


@pytest.fixture
def viewer_user(make_user):
    return make_user("vic", "viewer", clearance="public")


@pytest.fixture
def outsider(make_user):
    """Logged in, but holds no role."""
    return make_user("otto")


@pytest.fixture
def vocabulary_forgotten() -> Iterator[None]:
    """The checker's accepted synonyms forgotten after the test: a check that reads them without a refresh (the
    checker on its own, in a later test) must not meet pairs this test accepted."""
    yield
    from checking.vocabulary import vocabulary_source_register
    from kb.vocabulary import VOCABULARY_SOURCE

    vocabulary_source_register(VOCABULARY_SOURCE)


@pytest.fixture(scope="session")
def celery_worker_session(django_db_setup, django_db_blocker) -> Iterator[object]:
    """A real Celery worker (threads in this process) consuming from the real Redis broker."""
    from celery.contrib.testing.worker import start_worker
    from django.db import connection

    from config.celery import app

    with django_db_blocker.unblock():
        with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False, shutdown_timeout=30) as worker:
            yield worker
        # Worker threads keep their own connections open; close them so the test database can be dropped.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture
def celery_worker(celery_worker_session, transactional_db) -> Iterator[object]:
    """Tests that use the worker need committed data, hence transactional_db."""
    yield celery_worker_session
    worker_idle_wait()


def worker_idle_wait(*, timeout: float = 60.0) -> None:
    """Let the tasks a test left behind finish (a check it stopped waiting for after a timeout) before the
    database is flushed: a task still reading would deadlock the flush, or run into the next test."""
    from celery.worker import state

    from config.celery import app

    def queued() -> int:
        try:
            with app.connection_for_write() as connection:
                client = connection.default_channel.client
                return sum(client.llen(queue.name) for queue in app.conf.task_queues)
        except Exception:  # the broker is down (a fault test): only the worker's own state can tell
            return 0

    deadline, idle_polls = time.monotonic() + timeout, 0
    while idle_polls < 2 and time.monotonic() < deadline:  # twice in a row: a message may be between queue and worker
        busy = state.active_requests or state.reserved_requests or queued()
        idle_polls = 0 if busy else idle_polls + 1
        time.sleep(0.05)


def _chromium_unavailable_reason() -> str | None:
    if not os.path.exists(CHROMIUM) and not shutil.which("chromium"):
        return "Chromium is not installed (run as root: `make test` installs Debian's chromium)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    reason = _chromium_unavailable_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server) -> Iterator[object]:
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1400, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def login(page) -> Callable[[object], None]:
    def log_in(user) -> None:
        page.goto("/login/")
        page.fill("#id_username", user.username)
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(lambda url: "/login/" not in url)

    return log_in


def _wait_for_index(version, timeout: float = 60.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version.refresh_from_db()
        if version.index_state in {"ready", "failed"}:
            assert version.index_state == "ready", version.index_error
            return
        time.sleep(0.1)
    raise AssertionError(f"{version} was not indexed within {timeout}s")


def wait_scored(answer_id: int, timeout: float = 60.0):
    """The answer once the worker has scored it (any status but "scoring")."""
    import time

    from review.models import Answer

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = Answer.objects.get(pk=answer_id)
        if answer.status != "scoring":
            return answer
        time.sleep(0.1)
    raise AssertionError(f"answer {answer_id} was not scored within {timeout}s")


def answer_scored(*, client, text: str, question: str = ""):
    """An answer sent by `client` and scored: here, or by the session's worker when it took the on-commit task
    first (it runs for any test that has published a document)."""
    from review import services

    answer, _ = services.answer_create(client=client, question=question, text=text)
    if work_claim_take(kind=services.ANSWER_SCORING, pk=answer.pk):
        return services.answer_score_run(answer_id=answer.pk)
    return wait_scored(answer.pk)


@pytest.fixture
def publish(db, celery_worker_session, curator, approver, make_user):
    """Upload, index (embeddings computed by the real worker) and, by default, approve a document version."""
    from console.models import SecurityLevel, User
    from kb import services
    from kb.models import Document

    def uploader_for(level: str):
        """The curator, or for a level above the curator's clearance a curator cleared for it."""
        if level in SecurityLevel.up_to(curator.clearance):
            return curator
        return User.objects.filter(username="sena").first() or make_user("sena", "curator", clearance="restricted")

    def approver_for(level: str):
        """The approver, or for a level above their clearance an approver cleared for it."""
        if level in SecurityLevel.up_to(approver.clearance):
            return approver
        return User.objects.filter(username="ravi").first() or make_user("ravi", "approver", clearance="restricted")

    def publish(text: str, *, key: str = "doc", title: str | None = None, security_level: str = "internal",
                approve: bool = True, **dates):
        document = Document.objects.filter(key=key).first()
        uploader = uploader_for(document.security_level if document else security_level)
        document = document or services.document_create(
            key=key, title=title or key.replace("-", " ").title(), owner=uploader,
            security_level=security_level, created_by=uploader,
        )
        version = services.version_upload(document=document, raw=text.encode(), filename=f"{key}.md",
                                          uploaded_by=uploader, **dates)
        if work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk):
            services.version_index_run(version_id=version.pk)
        else:  # in transactional tests the worker got the on-commit task first
            _wait_for_index(version)
        if approve:
            services.version_approve(version=version, approver=approver_for(document.security_level))
        version.refresh_from_db()
        return version

    return publish


@pytest.fixture
def api_token(db):
    """(client, token) for an internal-clearance API client."""
    from review.services import api_client_create

    return api_client_create(name="assistant", clearance="internal")


@pytest.fixture
def api(client, api_token):
    """Django test client speaking to the API with the bearer token."""
    _, token = api_token

    class Api:
        def post(self, path: str, body=None, *, raw: bytes | None = None, **headers):
            import json

            data = raw if raw is not None else json.dumps(body)
            return client.post(path, data=data, content_type="application/json",
                               headers={"Authorization": f"Bearer {token}", **headers})

        def get(self, path: str, **headers):
            return client.get(path, headers={"Authorization": f"Bearer {token}", **headers})

    return Api()


@pytest.fixture
def person_token(db):
    """person_token(user) -> a new personal token of theirs (the review API's credential)."""
    from console.personal_tokens import personal_token_create

    def make(user, *, name: str = "test tool") -> str:
        return personal_token_create(user=user, name=name, actor=user)[1]

    return make


@pytest.fixture
def people_api(db, person_token):
    """people_api(user) -> the review API as that person, through a personal token of theirs (`.token`); a client
    of its own, as a tool has: no session cookie of a page's."""
    import json

    from django.test import Client

    class PeopleApi:
        def __init__(self, user) -> None:
            self.token = person_token(user)
            self.client = Client()

        def _headers(self, headers: dict) -> dict:
            return {"Authorization": f"Bearer {self.token}", **headers}

        def get(self, path: str, params: dict | None = None, **headers):
            return self.client.get(path, params or {}, headers=self._headers(headers))

        def post(self, path: str, body=None, *, raw: bytes | None = None, **headers):
            data = raw if raw is not None else json.dumps(body if body is not None else {})
            return self.client.post(path, data=data, content_type="application/json",
                                    headers=self._headers(headers))

        def delete(self, path: str, **headers):
            return self.client.delete(path, headers=self._headers(headers))

    return PeopleApi


class _Receiver:
    """A small local HTTP server standing in for third parties (webhook receivers, checker endpoints)."""

    def __init__(self) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.requests: list[dict] = []
        self.responses: list[tuple[int, bytes, float]] = []  # queued (status, body, delay); last one repeats
        # Run, one per request, after a request is read and before it is answered: a fault test's fault there.
        self.before_reply: list = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                import time

                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body,
                                          "at": time.monotonic()})
                if receiver.before_reply:
                    receiver.before_reply.pop(0)()
                status, payload, delay = (receiver.responses.pop(0) if len(receiver.responses) > 1
                                          else (receiver.responses[0] if receiver.responses else (200, b"{}", 0)))
                time.sleep(delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def respond(self, status: int = 200, body: bytes | dict = b"{}", delay: float = 0.0) -> None:
        import json

        payload = json.dumps(body).encode() if isinstance(body, dict) else body
        self.responses.append((status, payload, delay))

    def wait_for(self, count: int, timeout: float = 30.0) -> list[dict]:
        import time

        deadline = time.monotonic() + timeout
        while len(self.requests) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.requests

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings) -> Iterator[_Receiver]:
    settings.WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]  # a receiver on this machine is not a public address
    server = _Receiver()
    yield server
    server.close()


@pytest.fixture
def make_answer(db, api_token):
    """An answer waiting for review, with claims as given (rows written directly: queue/decision tests)."""
    from review.models import RISK_ORDER, Answer, Claim, Evidence

    client, _ = api_token

    def make(*, question: str = "What is the refund window?", risk: str = "medium",
             claims: list[tuple[str, str, float]] = (("Refunds are paid within 14 days.", "uncertain", 0.5),),
             chunk=None, status: str = "pending_review", callback_url: str = "", evidence_level: str = "public"):
        text = " ".join(c[0] for c in claims)
        answer = Answer.objects.create(
            client=client, question=question, text=text, status=status, risk=risk, risk_order=RISK_ORDER[risk],
            score=min(c[2] for c in claims), routing_reasons=[f"{risk} risk (test)"], callback_url=callback_url,
            evidence_level=evidence_level,
        )
        position = 0
        for ordinal, (claim_text, verdict, score) in enumerate(claims):
            claim = Claim.objects.create(answer=answer, ordinal=ordinal, text=claim_text, start=position,
                                         end=position + len(claim_text), score=score, verdict=verdict,
                                         reasons=[f"{verdict} (test)"])
            position += len(claim_text) + 1
            if chunk is not None:
                Evidence.objects.create(claim=claim, chunk=chunk, quote_start=chunk.char_start,
                                        quote_end=chunk.char_end, score=score, rank=1)
        return answer

    return make


@pytest.fixture
def release_at():
    """Set where the adopted scoring model releases. The shipped model proves about 0.96 on its training rows
    under the 1 % leak budget; tests of what happens after a release want a plainly supported answer released."""

    def set_threshold(value: float) -> None:
        from review.learning.adopted import adopted_checker
        from review.learning.models import CheckerModel

        CheckerModel.objects.filter(pk=adopted_checker().model_id).update(release_threshold=value)

    return set_threshold


class _OidcProvider:
    """The test OIDC provider process (tests/oidc_provider.py) as a test sees it."""

    CLIENT_ID, CLIENT_SECRET = "review-console", "test-client-secret"

    def __init__(self, issuer: str) -> None:
        self.issuer = issuer

    def choose(self, username: str, *groups: str, audience: str = "") -> None:
        """The person the provider signs in next (it approves at once, as after a password and consent); `audience`
        names another client in the id token."""
        import httpx

        httpx.post(f"{self.issuer}/test/person", json={"audience": audience, "claims": {
            "sub": f"sub-{username}", "preferred_username": username, "email": f"{username}@example.com",
            "groups": list(groups)}}).raise_for_status()

    def state(self) -> dict:
        import httpx

        return httpx.get(f"{self.issuer}/test/state").json()


@pytest.fixture(scope="session")
def oidc_provider_process() -> Iterator[_OidcProvider]:
    import subprocess
    import sys

    import httpx

    from tests.processes import ROOT, free_port, wait_until

    port = free_port()
    process = subprocess.Popen([sys.executable, str(ROOT / "tests" / "oidc_provider.py"), "--port", str(port),
                                "--client-id", _OidcProvider.CLIENT_ID, "--client-secret", _OidcProvider.CLIENT_SECRET])
    provider = _OidcProvider(f"http://127.0.0.1:{port}")

    def discovery_answers() -> bool:
        try:
            return httpx.get(f"{provider.issuer}/.well-known/openid-configuration").status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(discovery_answers, timeout=30, what="the test OIDC provider")
        yield provider
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def oidc_provider(oidc_provider_process, settings, db) -> _OidcProvider:
    """Single sign-on turned on against the test provider (endpoints from its discovery document), with provider
    groups mapped to roles and clearances."""
    from django.core.cache import cache

    settings.OIDC_ENABLED = True
    settings.OIDC_ISSUER = oidc_provider_process.issuer
    settings.OIDC_RP_CLIENT_ID = _OidcProvider.CLIENT_ID
    settings.OIDC_RP_CLIENT_SECRET = _OidcProvider.CLIENT_SECRET
    settings.OIDC_PROVIDER_NAME = "Test IdP"
    settings.OIDC_ROLE_MAP = {"kb-curators": "curator", "kb-approvers": "approver", "kb-reviewers": "reviewer",
                              "kb-readers": "viewer", "kb-admins": "admin"}
    settings.OIDC_CLEARANCE_MAP = {"staff": "internal", "security-team": "confidential"}
    settings.AUTHENTICATION_BACKENDS = [*settings.AUTHENTICATION_BACKENDS, "console.oidc.ConsoleOIDCBackend"]
    cache.delete(f"oidc-discovery:{oidc_provider_process.issuer}")
    return oidc_provider_process
