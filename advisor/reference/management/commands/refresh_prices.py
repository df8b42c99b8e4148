from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from advisor.reference.models import PriceRefresh
from advisor.reference.prices import registry
from advisor.reference.prices.base import (
    RecordedTransport,
    RecordingTransport,
    Transport,
    UrllibTransport,
)
from advisor.reference.services.prices import price_refresh

MAX_TIMEOUT_SECONDS = 600


def _timeout(value: str) -> int:
    try:
        seconds = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number of seconds") from None
    if not 1 <= seconds <= MAX_TIMEOUT_SECONDS:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_TIMEOUT_SECONDS} seconds")
    return seconds


class Command(BaseCommand):
    help = (
        "Fetch the public cloud price lists (every registered source; see --source) for the "
        "published catalog's prices and write a draft catalog with the new prices for an admin "
        "to publish. Exits 1 when a source failed, 2 on bad arguments."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--source",
            action="append",
            choices=registry.names(),
            help="A price list to fetch (repeat for several; default: all).",
        )
        parser.add_argument(
            "--recorded",
            type=Path,
            metavar="DIR",
            help="Replay the responses recorded in DIR (manifest.json) instead of the network.",
        )
        parser.add_argument(
            "--record",
            type=Path,
            metavar="DIR",
            help="Keep every response in DIR, with a manifest --recorded can replay.",
        )
        parser.add_argument(
            "--timeout",
            type=_timeout,
            default=None,
            help="Seconds to wait for each answer (default PRICE_REFRESH_TIMEOUT_SECONDS).",
        )

    def _fail(self, message: str) -> None:
        self.stderr.write(f"refresh_prices: error: {message}")
        raise SystemExit(2)

    def handle(self, *args: Any, **options: Any) -> None:
        recorded, record = options["recorded"], options["record"]
        if recorded is not None and record is not None:
            self._fail("--recorded and --record cannot be used together")
        if recorded is not None and not (recorded / "manifest.json").is_file():
            self._fail(f"{recorded} holds no manifest.json of recorded responses")
        if record is not None and record.exists() and not record.is_dir():
            self._fail(f"{record} is not a folder")
        transport: Transport
        if recorded is not None:
            transport = RecordedTransport(recorded)
        else:
            transport = UrllibTransport(
                timeout=options["timeout"] or settings.PRICE_REFRESH_TIMEOUT_SECONDS
            )
            if record is not None:
                transport = RecordingTransport(transport, record)
        sources = list(dict.fromkeys(options["source"] or registry.names()))
        runs = price_refresh(
            sources=sources, transport=transport, api_key=settings.GCP_BILLING_API_KEY
        )
        for run in runs:
            draft = f" → draft {run.draft}" if run.draft else ""
            self.stdout.write(f"{run.source}: {run.status}{draft}")
            for line in run.message.splitlines():
                self.stdout.write(f"  {line}")
        if any(run.status == PriceRefresh.Status.FAILED for run in runs):
            raise SystemExit(1)
