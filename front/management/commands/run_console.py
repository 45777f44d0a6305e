"""`make run`: web + Celery worker + beat on the embedded (or configured) servers, supervised."""

from __future__ import annotations

import logging
import os
import signal
import sys
import time

import httpx
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from console.metrics import metrics_dir_empty
from front import embedded
from front.demo_answers import post_demo_answers
from front.management.commands.seed_demo import DEMO_PASSWORD, DEMO_USERS
from front.supervisor import Supervisor

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Migrate, load the demo, and run web, worker and beat until Ctrl-C, restarting any that dies."
    # Checks run in handle(), once the embedded Redis this command owns is up (see front/checks.py).
    requires_system_checks = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--no-demo", action="store_true", help="skip loading demo users and data")

    def handle(self, *args, host: str, port: int, no_demo: bool, **options) -> None:
        owns_redis = not os.environ.get("REDIS_URL")
        owns_postgres = not os.environ.get("DATABASE_URL")  # then settings started (or found) the embedded one
        if owns_redis:
            embedded.start_redis()
        if owns_redis or owns_postgres:
            embedded.run_console_mark()  # management commands using the embedded servers follow this process
        call_command("check")
        call_command("migrate", interactive=False, verbosity=0)
        if settings.METRICS_ENABLED:
            metrics_dir_empty()
        if not no_demo:
            call_command("seed_demo")

        bin_dir = os.path.dirname(sys.executable)
        supervisor = Supervisor({
            # The control socket under var/: gunicorn's default (~/.gunicorn/) is shared by every console here.
            "web": [os.path.join(bin_dir, "gunicorn"), "config.wsgi", "--bind", f"{host}:{port}",
                    "--workers", "2", "--threads", "4", "--graceful-timeout", "5", "--access-logfile", "-",
                    "--control-socket", str(embedded.VAR_DIR / "gunicorn.ctl")],
            "worker": [os.path.join(bin_dir, "celery"), "-A", "config", "worker", "--loglevel", "INFO",
                       "--concurrency", "2"],
            "beat": [os.path.join(bin_dir, "celery"), "-A", "config", "beat", "--loglevel", "INFO",
                     "--schedule", str(embedded.VAR_DIR / "celerybeat-schedule")],
        }, env=self._child_environment(host))
        supervisor.start()
        local_url = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}"
        if not no_demo and self._wait_for_web(local_url):
            sent = post_demo_answers(base_url=local_url)
            if sent:
                self.stdout.write(f"Posted {sent} demo answers through the API; the worker is scoring them.")
        self._print_banner(host, port)

        stopping = False

        def request_stop(signum, frame) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        postgres = _PostgresKeeper() if owns_postgres else None
        try:
            while not stopping:
                supervisor.poll()
                if owns_redis and not embedded.redis_running():
                    logger.error("the embedded Redis stopped; starting it again on the same port")
                    embedded.start_redis()
                if postgres is not None:
                    postgres.poll()
                time.sleep(0.5)
        finally:
            supervisor.stop()
            # Whoever started them and whoever still uses them: a management command that used them (a shell
            # left open) notices this process is gone and exits with a message (front/embedded.py).
            if owns_postgres:
                embedded.stop_postgres()
            if owns_redis:
                embedded.stop_redis()
            if owns_redis or owns_postgres:
                embedded.run_console_unmark()
            self.stdout.write("Stopped web, worker and beat.")

    def _wait_for_web(self, url: str, timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{url}/healthz", timeout=2)
                return True
            except httpx.HTTPError:
                time.sleep(0.5)
        self.stderr.write("the web server did not come up in time; demo answers not posted")
        return False

    def _child_environment(self, host: str) -> dict[str, str]:
        env = dict(os.environ)
        env["DATABASE_URL"] = settings.DATABASE_URL
        env["REDIS_URL"] = settings.REDIS_URL
        env["SECRET_KEY"] = settings.SECRET_KEY
        # Served over plain HTTP on this machine: cookies cannot be marked Secure.
        env.setdefault("SESSION_COOKIE_SECURE", "0")
        env.setdefault("CSRF_COOKIE_SECURE", "0")
        env.setdefault("SECURE_HSTS_SECONDS", "0")
        env.setdefault("ALLOWED_HOSTS", f"localhost,127.0.0.1,{host}")
        return env

    def _print_banner(self, host: str, port: int) -> None:
        shown_host = "localhost" if host in {"127.0.0.1", "0.0.0.0"} else host
        self.stdout.write(self.style.SUCCESS(f"\n  Console: http://{shown_host}:{port}/\n"))
        for username, (user_roles, _clearance) in DEMO_USERS.items():
            self.stdout.write(f"    {username:<10} / {DEMO_PASSWORD}   ({', '.join(user_roles)})")
        self.stdout.write("\n  Health: /healthz    API docs: /api/docs    Ctrl-C stops everything.\n")


class _PostgresKeeper:
    """Starts the embedded PostgreSQL again when it dies, on the same data: web, worker and beat reconnect by
    themselves (each request or task checks its connection first), so they are not restarted. A start that
    fails (the dead server's backends still hold its shared memory, or crash recovery is slow) is tried again
    after a short pause."""

    RETRY_SECONDS = 2.0

    def __init__(self) -> None:
        self.retry_at = 0.0

    def poll(self) -> None:
        if embedded.postgres_running() or time.monotonic() < self.retry_at:
            return
        logger.error("the embedded PostgreSQL stopped; starting it again on the same data")
        try:
            embedded.restart_postgres()
        except Exception as exc:  # pg_ctl's own error; the server log says more
            self.retry_at = time.monotonic() + self.RETRY_SECONDS
            logger.error("the embedded PostgreSQL did not start yet (%s: %s); trying again in %.0fs (log: %s)",
                         type(exc).__name__, exc, self.RETRY_SECONDS, embedded.PGDATA / "log")
            return
        logger.warning("the embedded PostgreSQL is running again (pid %s)", embedded.postgres_pid())
