"""How old the bundled catalog's prices are: rows by provider and region with how many are
undated, older than the stale limit, and confirmed by a second source (`confirmed_by`).

    python -m advisor.reference.catalog_age [--catalog PATH] [--as-of YYYY-MM-DD]

The reference date is the catalog's own `prices_as_of` (not today), so two runs on the same
catalog print the same table. No Django needed.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

BUNDLED = Path(__file__).resolve().parents[1] / "engine" / "data" / "catalog.json"
STALE_AFTER_DAYS = 180


@dataclass
class Counts:
    rows: int = 0
    undated: int = 0
    old: int = 0
    confirmed: int = 0
    old_unconfirmed: int = 0

    def add(self, other: Counts) -> None:
        for name in ("rows", "undated", "old", "confirmed", "old_unconfirmed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def reference_date(catalog: dict[str, Any]) -> date:
    """The catalog's `prices_as_of`; failing that the date in its version ("2026-12-05.1")."""
    stamp = catalog.get("prices_as_of") or str(catalog.get("version", ""))[:10]
    return date.fromisoformat(stamp)


def stale_days(catalog: dict[str, Any]) -> int:
    rule = (catalog.get("rules") or {}).get("stale_after_days") or {}
    return int(rule.get("value") or STALE_AFTER_DAYS)


def row_counts(price: dict[str, Any], cutoff: date) -> Counts:
    as_of = str(price.get("as_of") or "")
    confirmed = bool(price.get("confirmed_by"))
    old = bool(as_of) and date.fromisoformat(as_of) < cutoff
    return Counts(
        rows=1,
        undated=0 if as_of else 1,
        old=1 if old else 0,
        confirmed=1 if confirmed else 0,
        old_unconfirmed=1 if (old or not as_of) and not confirmed else 0,
    )


def table(catalog: dict[str, Any], as_of: date | None = None) -> dict[tuple[str, str], Counts]:
    when = as_of or reference_date(catalog)
    cutoff = when - timedelta(days=stale_days(catalog))
    out: dict[tuple[str, str], Counts] = defaultdict(Counts)
    for price in catalog["prices"]:
        key = (str(price.get("provider")), str(price.get("region_key") or "-"))
        out[key].add(row_counts(price, cutoff))
    return dict(sorted(out.items()))


def render(rows: dict[tuple[str, str], Counts], when: date, days: int) -> Iterable[str]:
    yield f"catalog prices as of {when.isoformat()}; older = before {when - timedelta(days=days)}"
    head = f"{'provider':<44} {'region':<14} {'rows':>4} {'undated':>7} {f'>{days}d':>6} "
    yield head + f"{'confirmed':>9} {'old/undated unconfirmed':>23}"
    total = Counts()
    for (provider, region), c in rows.items():
        total.add(c)
        yield (
            f"{provider[:44]:<44} {region:<14} {c.rows:>4} {c.undated:>7} {c.old:>6} "
            f"{c.confirmed:>9} {c.old_unconfirmed:>23}"
        )
    yield (
        f"{'TOTAL':<44} {'':<14} {total.rows:>4} {total.undated:>7} {total.old:>6} "
        f"{total.confirmed:>9} {total.old_unconfirmed:>23}"
    )
    share = total.old_unconfirmed / total.rows if total.rows else 0.0
    yield (
        f"undated {total.undated / total.rows:.0%}, older {total.old / total.rows:.0%}, "
        f"old or undated without second source {share:.0%}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, default=BUNDLED)
    parser.add_argument("--as-of", type=date.fromisoformat, default=None)
    args = parser.parse_args(argv)
    catalog = json.loads(args.catalog.read_text())
    when = args.as_of or reference_date(catalog)
    for line in render(table(catalog, when), when, stale_days(catalog)):
        print(line)


if __name__ == "__main__":
    main()
