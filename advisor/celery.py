from __future__ import annotations

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")

app = Celery("advisor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _warm_report_rendering(**kwargs: object) -> None:
    # Import WeasyPrint and load fonts before the first task, so the first report a fresh
    # worker generates is not the slowest one.
    from advisor import reporting

    reporting.warm_up()
