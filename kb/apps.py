from django.apps import AppConfig


class KbConfig(AppConfig):
    name = "kb"
    verbose_name = "Knowledge base"

    def ready(self) -> None:
        from console.work_claims import work_claim_kinds_register
        from kb.services import VERSION_INDEXING

        work_claim_kinds_register(VERSION_INDEXING)
