from django.apps import AppConfig


class TriageConfig(AppConfig):
    name = "triage"
    verbose_name = "Triage"

    def ready(self) -> None:
        from review.queue_openers import queue_opener_register
        from review.review_api_hooks import comment_counter_register, saved_view_resolver_register
        from review.live import live_part_register
        from review.signals import answer_viewed
        from triage.selectors import answer_comment_count, answers_teamwork_state, queue_view_query
        from triage.services import answer_viewed_receiver
        from triage.views import saved_view_open

        queue_opener_register(saved_view_open)  # a saved view's link opens the queue with its query
        saved_view_resolver_register(queue_view_query)  # the review API's queue takes ?view=ID too
        comment_counter_register(answer_comment_count)  # the review API's answer says how many comments it has
        live_part_register(answers_teamwork_state)  # the live pages follow comments and assignment too
        answer_viewed.connect(answer_viewed_receiver, dispatch_uid="triage.notifications_read")
