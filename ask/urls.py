from django.urls import path

from ask import views

app_name = "ask"
urlpatterns = [
    path("", views.ask_page, name="ask_page"),
    path("submit/", views.ask_submit, name="ask_submit"),
]
