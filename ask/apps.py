from django.apps import AppConfig


class AskConfig(AppConfig):
    name = "ask"
    verbose_name = "Grounded answering"

    def ready(self) -> None:
        from ask.question_report import QUESTIONS_MODE
        from ask.regression import QUESTION_RUN, checker_model_changed_receiver, evidence_changed_receiver
        from console.work_claims import work_claim_kinds_register
        from kb.signals import evidence_changed
        from review.evaluation_modes import evaluation_mode_register
        from review.signals import checker_model_changed

        work_claim_kinds_register(QUESTION_RUN)
        evaluation_mode_register(QUESTIONS_MODE)  # `evaluate --questions FILE`
        # Approving, retiring or expiring a version, or a new scoring model, re-runs the saved question sets.
        evidence_changed.connect(evidence_changed_receiver, dispatch_uid="ask.question_runs")
        checker_model_changed.connect(checker_model_changed_receiver, dispatch_uid="ask.question_runs")
