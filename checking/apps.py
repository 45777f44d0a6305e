from django.apps import AppConfig


class CheckingConfig(AppConfig):
    name = "checking"
    verbose_name = "Checking"

    def ready(self) -> None:
        from checking.units import evidence_units
        from kb.units import unit_cutter_register

        unit_cutter_register(evidence_units)  # indexing stores the checker's units without importing the checker
