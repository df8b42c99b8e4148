"""Whether a card is offered where the customer is, and how far away when it is not."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.pricing import owned
from advisor.engine.pricing.regions import in_country
from advisor.engine.text.clouds import of_provider


def round_trip_ms(catalog: Catalog, a: str, b: str) -> float | None:
    """Round-trip time between two region keys from the catalog table (None = not measured)."""
    if a == b:
        return 0.0
    pairs = catalog.round_trip.get("pairs", {})
    value = pairs.get(f"{a}|{b}", pairs.get(f"{b}|{a}"))
    return None if value is None else float(value)


def availability(
    catalog: Catalog,
    acc: Accelerator,
    mode: str,
    regions: Sequence[str],
    clouds: Sequence[str] = (),
) -> dict[str, Any]:
    """Whether the card is offered where the customer is (memoised on the catalog).

    Public cloud: the catalog's availability table per region (a price-list row is not
    availability); a region missing from the table falls back to a price row located there.
    When the team names its `clouds`, only what those clouds offer counts (AWS offering a card
    in Tokyo does not make it available to a team that rents only from Azure), as only their
    prices price it. Hosted modes: an offer located in one of the customer's regions. Owned
    modes (private cloud, on premises): the customer's own hardware, available where the
    customer is (`owned`).
    """
    key = ("availability", acc.id, mode, tuple(regions), tuple(clouds))
    return catalog.memo(
        key, lambda: _availability(catalog, acc, mode, tuple(regions), tuple(clouds))
    )


def _offered_in(
    catalog: Catalog, acc: Accelerator, mode: str, clouds: Sequence[str]
) -> tuple[set[str], str | None]:
    table = catalog.availability.get("regions", {})
    named = mode == "public_cloud" and bool(clouds)
    priced = {
        p.region_key
        for p in catalog.prices_by_accelerator.get(acc.id, ())
        if mode in p.modes and p.region_key and (not named or p.cloud in clouds)
    }
    if mode != "public_cloud":
        return priced, None
    if named:
        offered = {
            r
            for r, v in table.items()
            for e in v.get("by_provider") or ()
            if acc.id in (e.get("cards") or ()) and of_provider(str(e["provider"])) in clouds
        }
    else:
        offered = {r for r, v in table.items() if acc.id in v.get("public_cloud", ())}
    offered |= {r for r in priced if r not in table}
    return offered, catalog.availability.get("source")


def _availability(
    catalog: Catalog,
    acc: Accelerator,
    mode: str,
    regions: tuple[str, ...],
    clouds: tuple[str, ...],
) -> dict[str, Any]:
    if mode in owned.OWNED_MODES:
        # The customer's own hardware is installed where the customer is: no offer to look up.
        return {
            "available": True,
            "regions": list(regions),
            "nearest_region": None,
            "round_trip_ms": None,
            "source": None,
            "as_of": None,
            "owned": True,
        }
    offered, source = _offered_in(catalog, acc, mode, clouds)
    # Offered in the customer's country counts (Tokyo data may live in Ishikari); the option's
    # price then says where, and the report notes the distance.
    here = [r for r in regions if r in offered or any(in_country(o, (r,)) for o in offered)]
    nearest: str | None = None
    rtt: float | None = None
    if not here and offered:
        best: tuple[float, str] | None = None
        for r in regions:
            for o in sorted(offered):
                t = round_trip_ms(catalog, r, o)
                if t is not None and (best is None or (t, o) < best):
                    best = (t, o)
        if best is not None:
            rtt, nearest = best
    table = catalog.availability.get("regions", {})
    sources = sorted(
        {str(table[r]["source"]) for r in regions if r in table and "source" in table[r]}
    )
    return {
        "available": bool(here),
        "regions": here,
        "nearest_region": nearest,
        "round_trip_ms": rtt,
        "source": "; ".join(sources) or source,
        "as_of": catalog.availability.get("as_of"),
    }


def unknown_place(catalog: Catalog, regions: Sequence[str]) -> dict[str, Any]:
    """The availability of an option billed on a row that names no region, for a customer who
    names theirs: not where the customer is (nobody can check it is), and as far as the farthest
    region the round-trip table measures from the customer's nearest region (a row "global (not
    stated)" may run anywhere its provider does). None when no region of theirs is measured."""

    def build() -> dict[str, Any]:
        pairs = catalog.round_trip.get("pairs", {})
        farthest = [
            max(float(v) for k, v in pairs.items() if r in k.split("|"))
            for r in regions
            if any(r in k.split("|") for k in pairs)
        ]
        return {
            "available": False,
            "regions": [],
            "nearest_region": None,
            "round_trip_ms": min(farthest) if farthest else None,
            "source": catalog.round_trip.get("source"),
            "as_of": catalog.round_trip.get("as_of"),
            "location_unknown": True,
        }

    return catalog.memo(("unknown_place", tuple(regions)), build)
