from django.urls import path

from ask import views

app_name = "ask"
urlpatterns = [
    path("", views.ask_page, name="ask_page"),
    path("submit/", views.ask_submit, name="ask_submit"),
    path("sets/", views.question_sets, name="question_sets"),
    path("sets/<slug:slug>/", views.question_set_detail, name="question_set_detail"),
    path("sets/<slug:slug>/active/", views.question_set_activate, name="question_set_activate"),
    path("sets/<slug:slug>/run/", views.question_set_run_now, name="question_set_run"),
    path("runs/<int:run_id>/", views.question_run_detail, name="question_run_detail"),
    path("versions/<slug:key>/<int:number>/runs/", views.version_question_runs, name="version_question_runs"),
]
