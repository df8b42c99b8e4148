"""Owned hardware priced as a total cost of ownership: what a private-cloud or
on-premises option costs a month, so it ranks like any rented option.

A month of owned hardware is its purchase (cards at their sourced list price plus the server
around them) paid off over the answered term, plus electricity (the servers' power at the
cards' TDP and the server's own overhead, times the facility's PUE, at the region's price per
kWh), colocation (or the customer's own facility, priced the same) per kW-month, and hardware
support. Staff are added by the costing like any other mode. Each figure is a catalog figure
with its source and date; the document names them so the report can show them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from advisor.engine.catalog import Accelerator, Catalog


def region_figures(catalog: Catalog, regions: Sequence[str]) -> tuple[dict[str, str], str, bool]:
    """The electricity and colocation figures for the customer's first region that has them,
    that region, and whether they are its own (False: none of the customer's regions has
    sourced figures, so the dearest region's stand in)."""
    table = catalog.rule("owned_region_figures")
    for region in regions:
        if region in table:
            return dict(table[region]), region, True

    # Nowhere sourced: the dearest sourced region stands in (never understate a running cost).
    def monthly_per_kw(r: str) -> float:
        f = table[r]
        return catalog.figure(f["colocation"]) + catalog.figure(f["electricity"]) * 730.0

    dearest = max(sorted(table), key=monthly_per_kw)
    return dict(table[dearest]), dearest, False


def vendor_build(acc: Accelerator, count: int, min_servers: int = 1) -> tuple[int, int, int]:
    """How `count` cards are bought as servers a vendor builds: (cards bought, cards per server,
    servers). NVLink-class (SXM) cards come on HGX baseboards of 4 or 8 (NVIDIA's HGX
    configurations): a board of 4 up to four cards, boards of 8 beyond. PCIe cards go in general
    GPU hosts of up to `max_devices_per_node`, the same number in each. At least `min_servers`
    (a service's spare server)."""
    count = max(count, 1)
    most = max(1, acc.max_devices_per_node)
    if acc.fast_interconnect:
        per = 4 if count <= 4 * min_servers and most >= 4 else most
        servers = max(-(-count // per), min_servers)
        return servers * per, per, servers
    servers = max(-(-count // most), min_servers)
    per = -(-count // servers)
    return servers * per, per, servers


def owned_tco(
    acc: Accelerator,
    count: int,
    catalog: Catalog,
    regions: Sequence[str],
    term_months: int | None,
    capex_budget_usd: float | None,
    min_servers: int = 1,
) -> dict[str, Any] | None:
    """The monthly cost of owning `count` cards (staff excluded), its lines and the figures
    they use; None when the card has no sourced purchase price or power figure (it stays
    unpriced and says why)."""
    card_key = catalog.rule("purchase_price_by_accelerator").get(acc.id)
    if card_key is None or acc.tdp_w is None or acc.type != "gpu":
        return None
    devices, per_server, servers = vendor_build(acc, count, min_servers)
    # NVLink-class cards come on an HGX baseboard; PCIe cards go in a general GPU host.
    host_key = (
        "purchase_host_usd_hgx_8gpu" if acc.fast_interconnect else "purchase_host_usd_pcie_server"
    )
    overhead_key = "server_overhead_kw_hgx" if acc.fast_interconnect else "server_overhead_kw_pcie"
    card_usd = catalog.figure(card_key)
    host_usd = catalog.figure(host_key)
    capex = devices * card_usd + servers * host_usd
    months = int(term_months or catalog.figure("default_amortisation_months"))
    hardware = capex / months
    # Power at the nameplate (TDP) of every card plus each server's own draw: a conservative
    # ceiling, since colocation is contracted per kW of capacity whatever the load.
    kw = devices * acc.tdp_w / 1000.0 + servers * catalog.figure(overhead_key)
    figures, region, regional = region_figures(catalog, regions)
    pue = catalog.figure("datacenter_pue")
    kwh_price = catalog.figure(figures["electricity"])
    power = kw * pue * catalog.hours_per_month * kwh_price
    colo_rate = catalog.figure(figures["colocation"])
    colocation = kw * colo_rate
    support = capex * catalog.figure("owned_support_share_per_year") / 12.0
    total = hardware + power + colocation + support
    return {
        "basis": "owned_tco",
        "term_months": months,
        "term_basis": "answer" if term_months else "default",
        "servers": servers,
        "devices_per_server": per_server,
        "devices": devices,
        "card_usd": round(card_usd, 2),
        "server_usd": round(host_usd, 2),
        "capex_usd": round(capex, 2),
        "hardware_usd_per_month": round(hardware, 2),
        "kw": round(kw, 2),
        "pue": pue,
        "usd_per_kwh": kwh_price,
        "power_usd_per_month": round(power, 2),
        "colocation_usd_per_kw_month": colo_rate,
        "colocation_usd_per_month": round(colocation, 2),
        "support_usd_per_month": round(support, 2),
        # Staff are not in this figure: the option's staff line carries them.
        "usd_per_month": round(total, 2),
        "region": region,
        "regional": regional,
        "capex_budget_usd": capex_budget_usd,
        "over_capex_budget": None if capex_budget_usd is None else capex > capex_budget_usd,
        "figures": {
            "card": card_key,
            "server": host_key,
            "server_overhead": overhead_key,
            "pue": "datacenter_pue",
            "electricity": figures["electricity"],
            "colocation": figures["colocation"],
            "support": "owned_support_share_per_year",
            **({} if term_months else {"term": "default_amortisation_months"}),
        },
    }


def break_even(tco: dict[str, Any], rental: dict[str, Any] | None, count: int) -> dict[str, Any]:
    """The month in which owning has cost no more than renting the same cards all month at the
    cheapest sourced rental: the purchase over what owning saves each month in running costs
    (electricity, colocation, support; staff left out on both sides). None when renting costs
    no more than running owned hardware (owning never catches up) or no rental is sourced."""
    if rental is None:
        return {"month": None, "reason": "no_rental"}
    rent = float(rental["usd_per_device_month"]) * count
    running = tco["power_usd_per_month"] + tco["colocation_usd_per_month"]
    running += tco["support_usd_per_month"]
    saving = rent - running
    doc = {
        "rental_usd_per_month": round(rent, 2),
        "provider": rental["provider"],
        "region": rental["region"],
        "billing": rental["billing"],
        "source": rental["source"],
        "as_of": rental["as_of"],
    }
    if saving <= 0:
        return {**doc, "month": None, "reason": "never"}
    month = math.ceil(tco["capex_usd"] / saving)
    return {
        **doc,
        "month": month,
        "reason": "within_term" if month <= tco["term_months"] else "after_term",
    }
