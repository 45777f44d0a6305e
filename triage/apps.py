from django.apps import AppConfig


class TriageConfig(AppConfig):
    name = "triage"
    verbose_name = "Triage"

    def ready(self) -> None:
        from review.queue_openers import queue_opener_register
        from review.signals import answer_viewed
        from triage.services import answer_viewed_receiver
        from triage.views import saved_view_open

        queue_opener_register(saved_view_open)  # a saved view's link opens the queue with its query
        answer_viewed.connect(answer_viewed_receiver, dispatch_uid="triage.notifications_read")
