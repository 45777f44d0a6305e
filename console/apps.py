from django.apps import AppConfig
from django.conf import settings


class ConsoleConfig(AppConfig):
    name = "console"
    verbose_name = "Console"

    def ready(self) -> None:
        # Registers the login lockout's audit receiver, and the Celery task timings of console.metrics.
        from console import login_lockout, metrics  # noqa: F401
        from console.log_filters import install_redacting_record_factory

        install_redacting_record_factory()
        # Here, before Django builds its middleware (the Django instrumentation adds its own) and before a worker
        # takes a task: every web and worker process sets up its tracing itself.
        if settings.OTEL_EXPORTER_OTLP_ENDPOINT:
            from console.tracing import tracing_setup

            tracing_setup()
