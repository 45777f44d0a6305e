from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    name = "console"
    verbose_name = "Console"

    def ready(self) -> None:
        # Registers the login lockout's audit receiver.
        from console import login_lockout  # noqa: F401
        from console.log_filters import install_redacting_record_factory

        install_redacting_record_factory()
