from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from advisor.reference.services.catalog import (
    CATALOG_IMPORT_MAX_BYTES,
    CatalogInvalid,
    catalog_import_offers,
)

MAX_PROBLEM_LINES = 50


def _fx(value: str) -> tuple[str, dict[str, Any]]:
    """CUR=RATE@YYYY-MM-DD: units of CUR per US dollar and the date of the rate."""
    try:
        currency, rest = value.split("=", 1)
        rate, as_of = rest.split("@", 1)
        per_usd = float(rate)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not CUR=RATE@YYYY-MM-DD") from None
    if not (currency.isalpha() and len(currency) == 3 and 0 < per_usd < 1e6):
        raise argparse.ArgumentTypeError(f"{value!r} is not CUR=RATE@YYYY-MM-DD")
    return currency.upper(), {
        "per_usd": per_usd,
        "as_of": as_of,
        "source": f"given on the command line ({as_of})",
        "source_short": as_of,
    }


class Command(BaseCommand):
    help = (
        "Import an offers file (rows shaped like shared/reference/offers_hk_tokyo_la.json) into "
        "a draft catalog: the published catalog plus one price row per offer, with its source, "
        "date, unit and currency conversion, for an admin to publish. Every bad row is listed "
        "and nothing is written (exit 2)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--fx",
            type=_fx,
            action="append",
            metavar="CUR=RATE@DATE",
            help="A currency's units per US dollar (default: the catalog's regional_offers.fx).",
        )
        parser.add_argument("--prefix", default="rg", help="Price id prefix (default: rg).")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            if path.stat().st_size > CATALOG_IMPORT_MAX_BYTES:
                raise CommandError(
                    f"{path}: larger than {CATALOG_IMPORT_MAX_BYTES:,} bytes", returncode=2
                )
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{path}: {error}", returncode=2) from error
        fx = dict(options["fx"]) if options["fx"] else None
        try:
            done = catalog_import_offers(
                json_text=text, user=None, fx=fx, id_prefix=options["prefix"], reference=path.name
            )
        except CatalogInvalid as error:
            for problem in error.problems[:MAX_PROBLEM_LINES]:
                self.stderr.write(problem)
            if len(error.problems) > MAX_PROBLEM_LINES:
                self.stderr.write(f"... and {len(error.problems) - MAX_PROBLEM_LINES} more")
            raise CommandError(
                f"{len(error.problems)} problem(s); nothing was written", returncode=2
            ) from error
        self.stdout.write(
            f"draft catalog v{done.catalog.version}: {done.prices} prices imported, "
            f"{len(done.held)} held back"
        )
        for row in done.held:
            self.stdout.write(f"  held back: row {row['row']} {row['gpu']} ({row['reason']})")
