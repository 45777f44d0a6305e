"""Redis killed while the API is in use. Answers accepted while it was down are final within 30 s of its return
with no sweep to find them (beat is stopped here): the worker sends them the moment its broker connection is back.
Redis killed again and again under load: every response is 2xx, 4xx or the API's JSON 503 with Retry-After —
never a 500, whether Redis died mid-command or mid-handshake."""

import threading
import time

import httpx
import pytest

from review.models import Answer
from tests.processes import stop, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

FINAL_WITHIN = 30  # seconds from Redis being back: the promise
KILLS = 5


@pytest.fixture
def without_beat(stack):
    """No housekeeping sweep: only the worker's own reconnection can send what waited."""
    stop(stack.processes["beat"], grace=5)
    yield stack
    stack.start_process("beat")


def test_answers_accepted_while_redis_was_down_are_final_within_30_s_of_its_return(without_beat, api_client):
    stack = without_beat
    stack.redis.kill()
    accepted = []
    for number in range(4):
        response = api_client.post("/api/v1/answers", json={
            "question": "How long is annual leave?", "answer": f"Annual leave is {20 + number} days a year."})
        assert response.status_code == 202, response.text
        accepted.append(response.json()["id"])
    assert Answer.objects.filter(pk__in=accepted, status="scoring").count() == len(accepted)

    stack.redis.start()
    back_at = time.monotonic()

    def every_answer_final():
        return not Answer.objects.filter(pk__in=accepted, status="scoring").exists()

    wait_until(every_answer_final, timeout=FINAL_WITHIN, what=lambda: "answers still scoring\n" + stack.logs())
    assert time.monotonic() - back_at <= FINAL_WITHIN
    assert "broker connected: asked again for" in (stack.directory / "worker.log").read_text()


class Hammer(threading.Thread):
    """An API client sending answers, reading them back and (as someone behind its address) bad tokens."""

    def __init__(self, *, base_url: str, token: str, number: int) -> None:
        super().__init__(daemon=True)
        self.http = httpx.Client(base_url=base_url, timeout=30)
        self.token, self.number = token, number
        self.responses: list[httpx.Response] = []
        self.done = threading.Event()

    def run(self) -> None:
        good = {"Authorization": f"Bearer {self.token}"}
        sent = 0
        while not self.done.is_set():
            sent += 1
            try:
                posted = self.http.post("/api/v1/answers", headers=good, json={
                    "question": "How long is annual leave?", "answer": f"Annual leave is {sent} days a year."})
                self.responses.append(posted)
                if posted.status_code == 202:
                    self.responses.append(self.http.get(f"/api/v1/answers/{posted.json()['id']}", headers=good))
                self.responses.append(self.http.get("/api/v1/answers/1", headers={
                    "Authorization": f"Bearer gac_wrong_{self.number}_{sent}"}))
            except httpx.TransportError:
                pass  # the web process is never stopped here; a transport error would show as too few responses
        self.http.close()


def _acceptable(response: httpx.Response) -> bool:
    if 200 <= response.status_code < 500:
        return True
    return (response.status_code == 503 and response.headers.get("Content-Type", "").startswith("application/json")
            and response.json().get("error") == "unavailable" and int(response.headers["Retry-After"]) > 0)


def test_redis_killed_again_and_again_under_load_never_makes_a_500(stack, api_token):
    _, token = api_token
    hammers = [Hammer(base_url=stack.web_url, token=token, number=n) for n in range(3)]
    for hammer in hammers:
        hammer.start()
    try:
        for _ in range(KILLS):
            time.sleep(1.0)
            stack.redis.kill()
            time.sleep(0.5)
            stack.redis.start()
        time.sleep(2.0)
    finally:
        for hammer in hammers:
            hammer.done.set()
        for hammer in hammers:
            hammer.join(timeout=60)

    responses = [response for hammer in hammers for response in hammer.responses]
    assert len(responses) >= 30, f"only {len(responses)} responses\n{stack.logs()}"
    wrong = [(r.status_code, r.text[:200]) for r in responses if not _acceptable(r)]
    assert wrong == [], f"{wrong}\n{stack.logs()}"
    accepted = {r.json()["id"] for r in responses if r.status_code == 202}
    assert accepted, "no answer was accepted"

    def every_answer_final():
        return not Answer.objects.filter(pk__in=accepted, status="scoring").exists()

    wait_until(every_answer_final, timeout=FINAL_WITHIN + 30, what=lambda: "answers still scoring\n" + stack.logs())
