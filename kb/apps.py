from django.apps import AppConfig


class KbConfig(AppConfig):
    name = "kb"
    verbose_name = "Knowledge base"

    def ready(self) -> None:
        from checking.vocabulary import vocabulary_source_register
        from console.work_claims import work_claim_kinds_register
        from kb.services import VERSION_INDEXING
        from kb.vocabulary import VOCABULARY_SOURCE

        work_claim_kinds_register(VERSION_INDEXING)
        vocabulary_source_register(VOCABULARY_SOURCE)  # the checker's accepted synonyms
