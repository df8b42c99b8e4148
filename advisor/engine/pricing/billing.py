"""How an option is billed: the billing slots, the whole units a price row sells, the cost
inputs of one evaluation, the billing advised and the slot an option's price uses.

The price row chosen per slot and its document are price_rows'; a card's offer is offers'.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from advisor.engine.catalog import Catalog, Price, Unit
from advisor.engine.sizing import measured

# Google's DWS Flex-start is not spot (it queues for capacity and then is not preempted): it has
# a slot of its own, shown beside the others and never the headline.
PRICE_SLOTS = {
    "on_demand": ("on_demand",),
    "spot": ("spot",),
    "flex_start": ("flex_start",),
    "capacity_block": ("reserved_block",),
    "commit_1y": ("commit_1y",),
    "commit_3y": ("commit_3y",),
    "monthly": ("monthly",),
}
BILLING_TO_SLOT = {
    "on_demand": "on_demand",
    "spot": "spot",
    "committed_1y": "commit_1y",
    "committed_3y": "commit_3y",
    "monthly_fixed": "monthly",
}
SLOT_TO_BILLING = {
    "on_demand": "on_demand",
    "spot": "spot",
    # A block of reserved dates and a queued flex start are bought by the hour but are neither
    # on-demand nor a commitment: they keep their own names.
    "flex_start": "flex_start",
    "capacity_block": "capacity_block",
    "commit_1y": "committed_1y",
    "commit_3y": "committed_3y",
    "monthly": "monthly_fixed",
}
FIXED_SLOTS = ("monthly", "commit_1y", "commit_3y")
HOURLY_SLOTS = frozenset({"on_demand", "spot", "flex_start", "capacity_block"})
# The slot whose price anchors an option's offer (provider and region), in this order; the
# option's other prices come from the same provider and region where the catalog has one.
ANCHOR_SLOTS = ("on_demand", "monthly", "commit_1y", "commit_3y")


def billed_devices(count: int, gpus_per_unit: int) -> int:
    """Devices paid for when `count` are needed and the price is sold in whole units."""
    unit = max(1, gpus_per_unit)
    return -(-max(count, 1) // unit) * unit


# Networks between units that large multi-unit training can use (RDMA-class fabrics).
FABRICS = frozenset({"infiniband", "efa", "roce", "gpudirect_tcpx"})
# GPU links inside a unit that carry training's tensor parallelism.
NVLINK = frozenset({"nvswitch", "nvlink"})


@dataclass(frozen=True, slots=True)
class UnitFit:
    """How an option of `count` devices is bought on a price row: `units` whole units of
    `unit_gpus` GPUs each (`billed` devices paid for)."""

    unit_gpus: int
    units: int
    billed: int


def unit_of(catalog: Catalog, p: Price) -> Unit | None:
    """The unit a price row sells (None: a TPU slice or a row without unit data)."""
    return catalog.units.get(p.unit_id) if p.unit_id else None


def unit_fit(
    catalog: Catalog, p: Price, count: int, tp: int = 1, training: bool = False
) -> UnitFit | None:
    """Whole units of one offer that build the option, or None when the offer cannot: tensor
    parallelism never spans units (a TP-4 replica needs four GPUs in one unit; training's tensor
    parallelism also needs NVLink inside it). A VM family to which 1, 2, 4 or 8 GPUs attach
    serves each replica on the smallest shape that holds it, and trains on the smallest shape
    that holds the run (else the largest, several of them)."""
    count = max(count, 1)
    tp = max(tp, 1)
    unit = unit_of(catalog, p)
    if unit is None:
        g = max(1, p.gpus_per_unit)
        if g > 1 and tp > g:
            return None  # a server of g cards cannot hold a group of tp
        units = -(-count // g)
        return UnitFit(g, units, units * g)
    # A row priced for a whole multi-GPU shape (a3-highgpu-8g) sells that shape only.
    sizes = [p.gpus_per_unit] if p.gpus_per_unit > 1 else [sh.gpus for sh in unit.shapes]
    if tp > sizes[-1] or (training and tp > 1 and unit.gpu_link not in NVLINK):
        return None
    if len(sizes) == 1:
        g = sizes[0]
    elif training:
        g = next((x for x in sizes if x >= count), sizes[-1])
    else:
        g = next(x for x in sizes if x >= tp)
    per_unit = max(1, g // tp) * tp  # devices of whole replicas (or of the run) in one unit
    units = -(-count // per_unit)
    return UnitFit(g, units, units * g)


def billing_advice(mode: str, facts: Mapping[str, Any], catalog: Catalog) -> tuple[str, str]:
    """Rule-based billing advice and the message code that explains it.

    Owned modes are bought; hosted modes bill monthly; on public cloud a 1-year commitment is
    advised when use is above the commitment break-even (0.63 of the month, deployment_costs.md
    1c) and demand is predictable, 3-year when the stack is also stable; otherwise on-demand.
    """
    if mode in ("private_cloud", "on_premises"):
        return "purchase", "billing.purchase"
    if mode in ("dedicated_hosting", "bare_metal"):
        return "monthly_fixed", "billing.hosted_monthly"
    utilisation = float(facts["cost.hours_per_day"]) / 24.0
    preference = facts["cost.billing"]
    predictable = facts["maturity.demand"] == "predictable"
    if preference == "monthly_fixed" and utilisation >= 0.5:
        return "monthly_fixed", "billing.cloud_monthly"
    break_even = catalog.figure("commit_break_even_utilisation")
    if utilisation >= break_even and predictable and preference != "pay_as_you_go":
        stable = facts["maturity.stack_changes"] in ("quarterly", "rarely")
        if stable and facts["maturity.pipeline"] == "standardized":
            return "committed_3y", "billing.commit_3y"
        return "committed_1y", "billing.commit_1y"
    if preference == "committed" and not (utilisation >= break_even and predictable):
        return "on_demand", "billing.commit_not_worth"
    return "on_demand", "billing.on_demand"


# --------------------------------------------------------------------------- money


@dataclass(frozen=True, slots=True)
class CostInputs:
    catalog: Catalog
    today: date
    stale_days: float
    regions: tuple[str, ...]
    clouds: tuple[str, ...]
    residency: str
    china: bool
    ops_capacity: str
    billing: str  # the billing preference answer (cost.billing)
    ops_headcount: int | None = None  # cost.ops_headcount
    staff_region: str | None = None  # where the operations staff work (cost.ops_region)
    predictable: bool = True  # maturity.demand is not "unpredictable"
    stable: bool = True  # the stack changes quarterly or rarely and the pipeline is standardised
    serving: str | None = None  # frameworks.serving: chunked prefill overlaps decode (sizing)
    amortisation_months: int | None = None  # cost.amortisation_months: owned hardware's term
    capex_budget_usd: float | None = None  # cost.capex_budget_usd: owned hardware's purchase cap
    # Benchmark runs of the team's stack (engine/sizing/measured/): in place of the estimates.
    measurements: tuple[measured.Measurement, ...] = ()
    # Sizing per (card, workload) within one evaluation: the same in every deployment mode.
    sized: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False)


def choose_slot(
    mode: str,
    compute: Mapping[str, float | None],
    utilisation: float,
    break_even: Mapping[str, float | None],
    ci: CostInputs,
) -> str | None:
    """The billing an option's price uses: the cheapest whose break-even its utilisation clears.

    Hourly on-demand is always allowed. A fixed-price slot (a monthly server, a 1- or 3-year
    commitment) is allowed on public cloud only when the option's own utilisation is at or above
    that slot's break-even (its monthly price over a month of on-demand hours; the catalog's
    figure when one side is missing), demand is not unpredictable and the customer did not ask to
    pay as they go; 3 years also needs a stable stack. Hosted modes rent servers by the month,
    or on a 12- or 36-month term where the host sells one and the team commits (or has no
    preference and predictable demand; 36 months also needs a stable stack). Spot is never the
    headline: it can be taken away mid-run.
    """
    if mode in ("dedicated_hosting", "bare_metal", "private_cloud", "on_premises"):
        terms = ["monthly"]
        committing = ci.billing == "committed" or (ci.billing == "no_preference" and ci.predictable)
        if mode in ("dedicated_hosting", "bare_metal") and committing:
            terms += ["commit_1y", "commit_3y"] if ci.stable else ["commit_1y"]
        on_term = [(compute[s], i, s) for i, s in enumerate(terms) if compute.get(s) is not None]
        if on_term:
            return min(on_term)[2]
        return "on_demand" if compute.get("on_demand") is not None else None
    allowed = ["on_demand"]
    if ci.billing != "pay_as_you_go" and ci.predictable:
        default_be = ci.catalog.figure("commit_break_even_utilisation")
        for slot in FIXED_SLOTS:
            if slot == "commit_3y" and not ci.stable:
                continue
            be = break_even.get(slot)
            if utilisation + 1e-9 >= (be if be is not None else default_be):
                allowed.append(slot)
    priced = [(compute[s], i, s) for i, s in enumerate(allowed) if compute.get(s) is not None]
    if not priced:
        return None
    return min(priced)[2]


def china_bandwidth_cost(
    p: Price, billed_count: int, need_mbps: float
) -> tuple[str | None, int, float, float | None]:
    """(route, servers, included Mbps, USD a month for the Mbps beyond them) of a price row's
    premium China route for `need_mbps`: the Mbps are billed whole at the row's own price per
    Mbps-month; None when the row has no route, or more is needed and it has no such price."""
    server = p.server or {}
    route = server.get("china_bandwidth_type") or None
    servers = -(-max(billed_count, 1) // max(1, p.gpus_per_unit))
    included = float(server.get("china_bandwidth_mbps") or 0) * servers if route else 0.0
    extra = max(0, math.ceil(need_mbps - included - 1e-9))  # billed in whole Mbps
    per_mbps = server.get("china_bandwidth_usd_per_mbps_month")
    if route is None or (extra and per_mbps is None):
        return route, servers, included, None
    return route, servers, included, round(extra * float(per_mbps or 0.0), 2)
