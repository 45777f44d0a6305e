from django.urls import path

from review import views

app_name = "review"
urlpatterns = [
    path("", views.queue, name="queue"),
    path("answers/<int:answer_id>/", views.answer_detail, name="answer_detail"),
]
