from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_migrate


def _admin_group_permissions(sender: AppConfig, using: str, **kwargs: object) -> None:
    from console.user_access import admin_group_permissions_ensure

    admin_group_permissions_ensure(using=using)


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
        # After the permissions exist (auth creates them for each app, axes' before this one's), and again after
        # a flush (tests): the admin role can use the admin site.
        post_migrate.connect(_admin_group_permissions, sender=self)
