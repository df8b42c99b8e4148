from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from advisor.services.reports import report_sweep


class Command(BaseCommand):
    help = "Re-enqueue reports stuck pending or running (Celery beat runs this every minute)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--older-than",
            type=float,
            default=settings.REPORT_STUCK_AFTER_SECONDS,
            help="Seconds a report may wait or run before it counts as stuck.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["older_than"] < 0:
            self.stderr.write("--older-than must be zero or more seconds")
            raise SystemExit(2)
        count = report_sweep(older_than=timedelta(seconds=options["older_than"]))
        self.stdout.write(f"re-enqueued {count} report(s)")
