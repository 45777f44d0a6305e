"""The Celery app: every app's tasks (autodiscovered), the settings' CELERY_* values, and each worker's heartbeat."""

import os

from celery import Celery

from console.workers import WorkerHeartbeat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("console")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.steps["consumer"].add(WorkerHeartbeat)
