from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Review"

    def ready(self) -> None:
        from console.work_claims import work_claim_kinds_register
        from kb.signals import evidence_changed
        from review.reviewed_facts import evidence_changed_receiver
        from review.services import ANSWER_SCORING
        from review.webhooks import WEBHOOK_ATTEMPT

        work_claim_kinds_register(ANSWER_SCORING, WEBHOOK_ATTEMPT)
        # A version withdrawn, expired or superseded ends the facts reviewers confirmed against it.
        evidence_changed.connect(evidence_changed_receiver, dispatch_uid="review.reviewed_facts")
