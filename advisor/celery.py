from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")

app = Celery("advisor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _warm_up(**kwargs: object) -> None:
    # WeasyPrint, its fonts and the published catalog loaded before the first task, so the
    # first report a fresh worker generates is not the slowest one.
    from advisor import warmup

    warmup.worker()
