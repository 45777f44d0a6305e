from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Review"

    def ready(self) -> None:
        from kb.units import unit_cutter_register
        from review.checking.units import evidence_units

        unit_cutter_register(evidence_units)  # indexing stores the checker's units without importing review
