from django.apps import AppConfig


class AskConfig(AppConfig):
    name = "ask"
    verbose_name = "Grounded answering"
