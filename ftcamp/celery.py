"""The Celery app. Tasks stay thin: fetch by id, call a service (style.md)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftcamp.settings")

app = Celery("ftcamp")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
