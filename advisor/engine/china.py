"""China reach on the public-cloud path (issue 22 item 5): what a team serving mainland users
gets from an option that sends its traffic over a cloud's internet egress - no premium route,
the expected round trip from where the option runs and the loss measured at the evening peak.
Catalog figures, marked estimated where no published measurement exists."""

from __future__ import annotations

from typing import Any

from advisor.engine.catalog import Catalog

# Where no figure is sourced for the option's region, the longest of the three stands in.
_STAND_IN = "china_rtt_ms_internet_los_angeles"


def public_path(catalog: Catalog, region_key: str | None) -> dict[str, Any]:
    """The ordinary-internet path from `region_key` to mainland China users."""
    key = catalog.rule("china_rtt_by_region").get(region_key or "", _STAND_IN)
    return {
        "route": "internet",
        "premium_route": None,
        "round_trip_ms": catalog.figure(key),
        "round_trip_figure": key,
        "peak_loss": catalog.figure("china_loss_internet_peak"),
        "loss_figure": "china_loss_internet_peak",
    }
