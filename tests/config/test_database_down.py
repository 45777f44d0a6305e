"""The web process with its database unreachable (nothing listens where DATABASE_URL points): every API path
answers the API's JSON 503 with Retry-After, pages a plain translated "try again" page with 503, /healthz says
the database is down — never Django's HTML "Server Error (500)" — and the log has one line per request, not a
traceback."""


import httpx
import pytest

from front.embedded import wait_for_port
from tests.processes import BIN, free_port, own_redis_url, process_environment, start, stop


@pytest.fixture
def web_without_database(db, tmp_path):
    port = free_port()
    log = tmp_path / "web.log"
    env = process_environment(redis_url=own_redis_url(3), var_dir=tmp_path, SECURE_HSTS_SECONDS="0",
                              API_RETRY_AFTER_SECONDS="7")
    env["DATABASE_URL"] = f"postgresql://postgres@127.0.0.1:{free_port()}/console"  # nothing listens there
    process = start([str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
                    env=env, log=log)
    try:
        wait_for_port(port, timeout=60, what="the web process")
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            yield client, log
    finally:
        stop(process)


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/api/v1/answers/1", None),
    ("POST", "/api/v1/answers", {"question": "Hotel cap?", "answer": "The cap is $220."}),
    ("GET", "/api/v1/search?q=hotel", None),
    ("POST", "/api/v1/check", {"answer": "The cap is $220."}),
])
def test_every_api_path_answers_json_503_with_retry_after(web_without_database, method, path, body):
    client, _ = web_without_database

    response = client.request(method, path, json=body, headers={"Authorization": "Bearer some-token"})

    assert response.status_code == 503, response.text[:300]
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["error"] == "unavailable"
    assert response.headers["Retry-After"] == "7"


def test_pages_answer_a_translated_try_again_page_with_503(web_without_database):
    client, log = web_without_database

    signed_in = {"sessionid": "a" * 32}  # reading the session is the first thing that needs the database
    english = client.get("/kb/", cookies=signed_in)
    chinese = client.get("/review/", cookies=signed_in, headers={"Accept-Language": "zh-Hans"})

    assert english.status_code == 503 and english.headers["Retry-After"] == "7"
    assert "try again shortly" in english.text and "Server Error" not in english.text
    assert chinese.status_code == 503
    assert "暂时无法使用" in chinese.text
    assert "Traceback" not in log.read_text()
    assert "Service Unavailable: /kb/: OperationalError" in log.read_text()


def test_healthz_says_the_database_is_down(web_without_database):
    client, _ = web_without_database

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["database"]["ok"] is False
