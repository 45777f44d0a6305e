from django.apps import AppConfig


class AskConfig(AppConfig):
    name = "ask"
    verbose_name = "Grounded answering"

    def ready(self) -> None:
        from ask.regression import evidence_changed_receiver
        from kb.signals import evidence_changed

        # Approving, retiring or expiring a version re-runs the saved question sets.
        evidence_changed.connect(evidence_changed_receiver, dispatch_uid="ask.question_runs")
