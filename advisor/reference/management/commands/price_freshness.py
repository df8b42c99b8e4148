from __future__ import annotations

import argparse
from datetime import date
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from advisor.reference.models import Catalog
from advisor.reference.prices import registry
from advisor.reference.prices.base import RecordedTransport
from advisor.reference.services.prices import PriceFreshness, price_freshness, price_refresh

RECORDED = Path(settings.BASE_DIR) / "tests" / "fixtures" / "pricing"
# The goal: after a refresh, at most this share of a report's prices is stale or undated.
GOAL = 0.10


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date (YYYY-MM-DD)") from None


class Command(BaseCommand):
    help = (
        "Measure how many of the prices the sample teams' reports use are stale (older than "
        "the catalog's stale_after_days) or undated, in the published catalog and, with "
        "--after-refresh, in the draft a price refresh from recorded responses writes. "
        "Exits 1 when the last figure is above 10%, 2 on bad arguments."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--after-refresh",
            action="store_true",
            help="Also refresh the prices from recorded responses into a draft and measure it.",
        )
        parser.add_argument(
            "--recorded",
            type=Path,
            metavar="DIR",
            default=RECORDED,
            help="Recorded price-list responses to refresh from (default tests/fixtures/pricing).",
        )
        parser.add_argument(
            "--today",
            type=_day,
            help="The day prices are judged on (default: today, as reports do).",
        )
        parser.add_argument(
            "--list",
            action="store_true",
            help="List every stale or undated price row.",
        )

    def _print(self, measure: PriceFreshness, listed: bool) -> None:
        stale, undated, total = measure.count("stale"), measure.count("undated"), len(measure.rows)
        self.stdout.write(
            f"{measure.catalog} on {measure.today.isoformat()} (stale after "
            f"{measure.stale_after_days:g} days), {len(measure.teams)} sample teams: "
            f"{total} prices used, {stale} stale, {undated} undated, "
            f"{stale + undated} of {total} ({measure.share:.1%}) stale or undated"
        )
        for name, used, old in measure.teams:
            share = old / used if used else 0.0
            self.stdout.write(f"  {name}: {old} of {used} ({share:.1%})")
        if listed:
            for row in measure.rows:
                if row.state != "fresh":
                    self.stdout.write(
                        f"  {row.price_id} {row.state} {row.provider} · {row.region or '—'} · "
                        f"{row.as_of or 'no date'} · {row.source[:80]}"
                    )

    def handle(self, *args: Any, **options: Any) -> None:
        today = options["today"] or timezone.localdate()
        recorded: Path = options["recorded"]
        if options["after_refresh"] and not (recorded / "manifest.json").is_file():
            self.stderr.write(
                f"price_freshness: error: {recorded} holds no manifest.json of recorded responses"
            )
            raise SystemExit(2)
        published = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
        if published is None:
            self.stderr.write("price_freshness: error: no catalog is published")
            raise SystemExit(2)
        measure = price_freshness(catalog=published, today=today)
        self.stdout.write("Before refresh: " if options["after_refresh"] else "", ending="")
        self._print(measure, options["list"])
        if options["after_refresh"]:
            # Replayed answers carry no key, so Google's recorded list is read without one.
            runs = price_refresh(
                sources=list(registry.names()),
                transport=RecordedTransport(recorded),
                api_key=settings.GCP_BILLING_API_KEY or "recorded",
            )
            for run in runs:
                self.stdout.write(f"  refresh {run.source}: {run.status}")
                for line in run.message.splitlines():
                    self.stdout.write(f"    {line}")
            draft = next((run.draft for run in runs if run.draft is not None), None)
            if draft is None:
                self.stderr.write("price_freshness: the refresh wrote no draft")
                raise SystemExit(1)
            measure = price_freshness(catalog=draft, today=today)
            self.stdout.write("After refresh: ", ending="")
            self._print(measure, options["list"])
        if measure.share > GOAL:
            raise SystemExit(1)
