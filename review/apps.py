from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Review"

    def ready(self) -> None:
        from console.work_claims import work_claim_kinds_register
        from review.services import ANSWER_SCORING
        from review.webhooks import WEBHOOK_ATTEMPT

        work_claim_kinds_register(ANSWER_SCORING, WEBHOOK_ATTEMPT)
