from django.urls import path

from triage import views

app_name = "triage"
urlpatterns = [
    path("views/", views.queue_view_save, name="queue_view_save"),
    path("views/<int:view_id>/delete/", views.queue_view_delete, name="queue_view_delete"),
    path("bulk/assign/", views.answers_assign_bulk, name="answers_assign_bulk"),
    path("bulk/assign/undo/", views.answers_assign_bulk_undo, name="answers_assign_bulk_undo"),
    path("views/<int:view_id>/guidelines/", views.view_guidelines, name="view_guidelines"),
    path("answers/<int:answer_id>/drafts/", views.draft_save, name="draft_save"),
    path("answers/<int:answer_id>/assign/", views.answer_assign, name="answer_assign"),
    path("answers/<int:answer_id>/comments/", views.comment_add, name="comment_add"),
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
]
