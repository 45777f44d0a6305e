"""The project: settings, URLs, the Celery app and the assembled API, composing the apps."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
