from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from advisor.health import broker_reachable, database_reachable
from advisor.tasks import health


class Command(BaseCommand):
    help = "Check the database and broker; with --worker, also that a Celery worker answers."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--worker", action="store_true", help="Send the health task too.")
        parser.add_argument("--timeout", type=float, default=10.0, help="Seconds to wait.")

    def handle(self, *args: Any, **options: Any) -> None:
        if not database_reachable():
            raise CommandError("database unreachable")
        if not broker_reachable():
            raise CommandError("broker unreachable")
        self.stdout.write("database: ok\nbroker: ok")
        if options["worker"]:
            try:
                answer = health.delay().get(timeout=options["timeout"])
            except Exception as exc:  # a timeout or a broken backend both mean "no worker"
                raise CommandError(
                    f"no worker answered within {options['timeout']} s: a worker that is still "
                    "starting or busy answers late; check that one runs on the default queue "
                    "(celery -A advisor worker --queues celery), read its log and try again"
                ) from exc
            self.stdout.write(f"worker: ok {answer}")
