"""A real Prometheus (Debian's `prometheus` package, installed by `make test` as root) scrapes the console's
/metrics from its live server and answers PromQL through its HTTP API; promtool checks and unit-tests the shipped
alert rules; every expression of the shipped Grafana dashboard and alert rules is valid PromQL over metrics the
console serves."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from django.utils import timezone

from review.models import Answer

ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"
PROMTOOL = shutil.which("promtool") or "/usr/bin/promtool"
ALERTS = ROOT / "deploy" / "prometheus-alerts.yml"
DASHBOARD = ROOT / "deploy" / "grafana-dashboard.json"


def _require(binary: str) -> None:
    if not Path(binary).exists():
        pytest.skip(f"{binary} is not installed (run as root: `make test` installs Debian's prometheus)")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Prometheus:
    def __init__(self, url: str) -> None:
        self.url = url

    def query(self, expr: str) -> dict:
        response = httpx.get(f"{self.url}/api/v1/query", params={"query": expr}, timeout=10)
        body = response.json()
        assert body["status"] == "success", (expr, body)
        return body["data"]

    def wait_for(self, expr: str, wanted, *, timeout: float = 30.0) -> dict:
        """The query's {labels' values: value} once it equals `wanted` (scrapes come every second)."""
        deadline, seen = time.monotonic() + timeout, None
        while time.monotonic() < deadline:
            seen = {tuple(sorted(r["metric"].items())): float(r["value"][1]) for r in self.query(expr)["result"]}
            if wanted(seen):
                return seen
            time.sleep(0.5)
        raise AssertionError(f"{expr}: {seen}")


@pytest.fixture
def prometheus(live_server, tmp_path, settings) -> Prometheus:
    """Prometheus scraping the live server's /metrics every second, as on loopback (no token)."""
    _require(PROMETHEUS)
    settings.METRICS_ENABLED = True
    target = urlsplit(live_server.url).netloc
    config = tmp_path / "prometheus.yml"
    config.write_text(json.dumps({  # JSON is YAML
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(ALERTS)],
        "scrape_configs": [{"job_name": "console", "metrics_path": "/metrics",
                            "static_configs": [{"targets": [target]}]}],
    }))
    port = _free_port()
    log = (tmp_path / "prometheus.log").open("w")
    process = subprocess.Popen(
        [PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'data'}",
         f"--web.listen-address=127.0.0.1:{port}"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, (tmp_path / "prometheus.log").read_text()[-2000:]
            try:
                if httpx.get(f"{url}/-/ready", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "Prometheus did not become ready"
            time.sleep(0.2)
        yield Prometheus(url)
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def test_prometheus_scrapes_the_queue_depth_the_dashboard_shows(prometheus, client, admin_user, make_answer):
    for risk in ("high", "medium", "medium", "low"):
        make_answer(risk=risk)
    old = make_answer(risk="high")
    Answer.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=1))
    make_answer(risk="medium", status="approved")
    client.force_login(admin_user)
    shown = client.get("/").context

    scraped = prometheus.wait_for("console_review_queue_depth", lambda seen: len(seen) == 3 and sum(seen.values()))
    depth = {dict(labels)["risk"]: value for labels, value in scraped.items()}
    assert depth == {"high": 2, "medium": 2, "low": 1} == shown["depth"]
    assert {dict(labels)["job"] for labels in scraped} == {"console"}
    total = prometheus.query("sum(console_review_queue_depth)")["result"][0]["value"][1]
    assert float(total) == shown["pending_total"] == 5
    oldest = prometheus.query('console_review_queue_oldest_age_seconds{risk="high"}')["result"][0]["value"][1]
    assert 3600 <= float(oldest) < 3700  # the dashboard's "oldest" is this answer
    assert shown["oldest"] == Answer.objects.get(pk=old.pk).created_at


def test_prometheus_loads_the_alert_rules_and_every_dashboard_expression_is_valid(prometheus):
    prometheus.wait_for("up", lambda seen: list(seen.values()) == [1.0])  # the console answered the scrape
    rules = httpx.get(f"{prometheus.url}/api/v1/rules", timeout=10).json()["data"]["groups"]
    assert {rule["name"] for group in rules for rule in group["rules"]} == {
        "ReviewQueueOverSLA", "LeakBoundOverBudget", "NoLiveWorkers", "WebhooksGivenUp"}
    assert all(rule["health"] != "err" for group in rules for rule in group["rules"])

    expressions = _dashboard_expressions() + _alert_expressions()
    served = _served_metric_names()
    for expr in expressions:
        prometheus.query(expr)  # a parse error is a 400 with status "error"
        for name in re.findall(r"\bconsole_[a-z_]+", expr):
            assert re.sub(r"_(bucket|count|sum|total)$", "", name) in served, (name, expr)


def test_promtool_checks_and_unit_tests_the_alert_rules():
    _require(PROMTOOL)

    checked = subprocess.run([PROMTOOL, "check", "rules", str(ALERTS)], capture_output=True, text=True, timeout=60)
    tested = subprocess.run([PROMTOOL, "test", "rules", str(Path(__file__).with_name("prometheus_alerts_test.yml"))],
                            capture_output=True, text=True, timeout=60)

    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "SUCCESS: 4 rules found" in checked.stdout
    assert tested.returncode == 0, tested.stdout + tested.stderr


def _dashboard_expressions() -> list[str]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel["targets"]]


def _alert_expressions() -> list[str]:
    return re.findall(r"^\s+expr: (.+)$", ALERTS.read_text(), re.M)


def _served_metric_names() -> set[str]:
    """Every metric /metrics can serve: console.metrics' counters and histograms, and the state gauges (some are
    served only once there is something to say, like the leak estimate)."""
    import console.metrics  # noqa: F401 (its metrics register with prometheus_client's default registry)
    from prometheus_client import REGISTRY

    counted = {family.name for family in REGISTRY.collect() if family.name.startswith("console_")}
    state = set(re.findall(r'"(console_[a-z_]+)"', (ROOT / "front" / "metrics.py").read_text()))
    return counted | state
