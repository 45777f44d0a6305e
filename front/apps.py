from django.apps import AppConfig


class FrontConfig(AppConfig):
    name = "front"
    verbose_name = "Front"

    def ready(self) -> None:
        # Registers the embedded-Redis system check and the workers' warm-up.
        from front import checks, warmup  # noqa: F401
