from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    name = "console"
    verbose_name = "Console"

    def ready(self) -> None:
        from console import checks, signals  # noqa: F401  (registers system checks, worker start-up hooks)
        from console.log_filters import install_redacting_record_factory

        install_redacting_record_factory()
