from __future__ import annotations

import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts import services as account_services
from accounts.models import Organization, User
from advisor.models import Assessment, Report
from advisor.services import reports
from advisor.starters import STARTERS


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Command(BaseCommand):
    help = (
        "Generate N reports through the running Celery workers, one at a time (an idle "
        "system), and print p50/p95 of generation time and of submit-to-done latency."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--count", type=int, default=20, help="Reports to generate.")
        parser.add_argument("--timeout", type=float, default=60, help="Seconds per report.")

    def handle(self, *args: Any, **options: Any) -> None:
        count = options["count"]
        if count < 1:
            raise CommandError("--count must be at least 1")
        organization = Organization.objects.filter(name="Benchmark").first()
        if organization is None:
            organization = account_services.organization_create(name="Benchmark")
        user = User.objects.filter(email="bench@bench.example").first() or (
            User.objects.create_user(email="bench@bench.example", password=None)
        )
        generation: list[float] = []
        latency: list[float] = []
        pdf_latency: list[float] = []
        for i in range(count):
            starter = STARTERS[i % len(STARTERS)]
            language = "zh-hant" if i % 2 else "en"
            with transaction.atomic():
                assessment = Assessment.objects.create(
                    organization=organization,
                    created_by=user,
                    title=f"bench {i}",
                    status=Assessment.Status.SUBMITTED,
                    answers=starter.document(),
                )
            begun = time.perf_counter()
            report = reports.report_request(
                assessment=assessment, user=user, language=language, throttle=False
            )
            deadline = begun + options["timeout"]
            while time.perf_counter() < deadline:
                report.refresh_from_db(fields=["status", "started_at", "finished_at", "error"])
                if report.is_finished:
                    break
                time.sleep(0.01)
            if report.status != Report.Status.DONE:
                raise CommandError(f"report {report.pk} is {report.status}: {report.error}")
            latency.append(time.perf_counter() - begun)
            assert report.started_at and report.finished_at  # noqa: S101 - done reports have both
            generation.append((report.finished_at - report.started_at).total_seconds())
            # The worker renders the PDF next, in a task of its own (the page does not wait).
            while time.perf_counter() < deadline and not report.pdf:
                time.sleep(0.01)
                report.refresh_from_db(fields=["pdf"])
            if not report.pdf:
                raise CommandError(f"report {report.pk}: no PDF after {options['timeout']} s")
            pdf_latency.append(time.perf_counter() - begun)
        self.stdout.write(f"reports generated: {count} (starters in rotation, en and zh-hant)")
        self.stdout.write(
            "generation time (worker, engine + HTML + charts; the PDF follows): "
            f"p50 {statistics.median(generation):.2f} s, "
            f"p95 {_p(generation, 0.95):.2f} s  (target p95 < 3 s)"
        )
        self.stdout.write(
            f"submit-to-done latency (idle): p50 {statistics.median(latency):.2f} s, "
            f"p95 {_p(latency, 0.95):.2f} s  (target < 5 s)"
        )
        self.stdout.write(
            f"submit-to-PDF stored (idle): p50 {statistics.median(pdf_latency):.2f} s, "
            f"p95 {_p(pdf_latency, 0.95):.2f} s"
        )
