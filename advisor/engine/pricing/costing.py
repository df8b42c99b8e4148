"""An option's money: compute per billing slot, storage, egress, operations staff, owned
hardware, the premium China route, capacity beyond the on-demand ceiling and the target margin.

Prices are chosen in price_rows.py; training and serving options (training_cost.py,
serving_cost.py) call `option_money` with their device counts and hours; ranking.py orders them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.pricing.billing import (
    FIXED_SLOTS,
    HOURLY_SLOTS,
    SLOT_TO_BILLING,
    CostInputs,
    china_bandwidth_cost,
    choose_slot,
)
from advisor.engine.pricing.china import public_path
from advisor.engine.pricing.offers import best_offer
from advisor.engine.pricing.owned import OWNED_MODES, owned_doc
from advisor.engine.pricing.price_rows import PriceChoice, cheaper_elsewhere
from advisor.engine.text import clouds


@dataclass(frozen=True, slots=True)
class StaffCost:
    """Operations a month, in two named lines: the team's own staff's hours, and the hours
    bought in (a managed service or a contractor) beyond what the team has. A team without
    operations staff has no own-staff line at all: nothing it did not answer is hired."""

    in_house_usd: float
    bought_in_usd: float
    hours: float
    bought_in_hours: float

    @property
    def total(self) -> float:
        return self.in_house_usd + self.bought_in_usd


def _staff(mode: str, units: int, share: float, ci: CostInputs) -> StaffCost:
    return ci.catalog.memo(
        ("staff", mode, units, share, ci.ops_capacity, ci.ops_headcount, ci.staff_region),
        lambda: staff_cost([(mode, units, share)], ci),
    )


def has_ops_staff(ci: CostInputs) -> bool:
    """Whether the team answered that it has operations staff of its own."""
    return ci.ops_capacity != "none" and ci.ops_headcount != 0


def staff_wage_figure(catalog: Catalog, region: str | None) -> tuple[str, bool]:
    """The catalog figure of the hourly wage of operations staff in `region`, and whether it is
    that region's own (False: no sourced figure there, so the US figure stands in)."""
    by_region = catalog.rules.get("staff_wage_by_region", {}).get("value", {})
    key = by_region.get(region or "")
    if isinstance(key, str) and key in catalog.figures:
        return key, key != "staff_hourly_wage_usd" or region in US_REGIONS
    return "staff_hourly_wage_usd", region in US_REGIONS


US_REGIONS = frozenset({"us_east", "us_west", "los_angeles"})


def staff_usd_per_hour(catalog: Catalog, region: str | None) -> float:
    """Loaded hourly cost of operations staff in `region` (wage x loaded-cost multiplier)."""
    key, _regional = staff_wage_figure(catalog, region)
    return catalog.figure(key) * catalog.figure("staff_loaded_multiplier")


def staff_hours(
    fleets: Sequence[tuple[str, int, float]], catalog: Catalog, *, practice: bool = True
) -> float:
    """The operations hours a month of a team's fleets, each (mode, units, share of the month):
    each mode's fixed hours once (one team runs one practice per mode) plus each fleet's hours
    per unit for the share of the month its units exist. Without `practice`, the fixed hours of
    modes whose provider operates the machines (rule `ops_self_served_modes`) are left out: a
    team with no operations staff keeps no practice there, its developers start and stop what
    the provider runs."""
    fixed = catalog.rule("ops_hours_per_month")
    per_unit = catalog.rule("ops_hours_per_unit_month")
    served = set() if practice else set(catalog.rule("ops_self_served_modes"))
    modes = {mode for mode, _units, _share in fleets} - served
    return float(
        sum(fixed[m] for m in modes)
        + sum(units * float(per_unit[mode]) * share for mode, units, share in fleets)
    )


def staff_cost(fleets: Sequence[tuple[str, int, float]], ci: CostInputs) -> StaffCost:
    """What the operations of `fleets` cost the team a month, at the regional loaded rate.

    A team with operations staff does the hours its answered headcount covers (a full working
    month each; all of them when it gave no headcount) at its own rate; what is left is bought
    in at the premium of a team without staff. A team that answered it has no operations staff
    is charged no staff: the hours its fleets need are bought in, as their own named line, and
    only where someone must operate machines (no fixed practice on a provider-operated mode)."""
    if not fleets:
        return StaffCost(0.0, 0.0, 0.0, 0.0)
    rate = staff_usd_per_hour(ci.catalog, ci.staff_region)
    buy_in = ci.catalog.rule("ops_capacity_buy_in_multiplier")
    premium = rate * float(buy_in["none"])
    if not has_ops_staff(ci):
        hours = staff_hours(fleets, ci.catalog, practice=False)
        return StaffCost(0.0, hours * premium, hours, hours)
    hours = staff_hours(fleets, ci.catalog)
    if ci.ops_headcount is None:
        return StaffCost(hours * rate * float(buy_in[ci.ops_capacity]), 0.0, hours, 0.0)
    in_house = min(hours, ci.ops_headcount * ci.catalog.figure("staff_hours_per_month"))
    rest = hours - in_house
    return StaffCost(in_house * rate, rest * premium, hours, rest)


def team_staff(fleets: Sequence[tuple[str, int, float]], ci: CostInputs) -> StaffCost:
    """The team's operations a month for all its workloads' fleets, counted once."""
    return staff_cost(fleets, ci)


def egress_figure(
    cloud: str | None, mode: str, china: bool, region_key: str | None, catalog: Catalog
) -> tuple[str, bool]:
    """The catalog figure of an option's egress price per GB, and whether it is a rate to
    mainland China. Hosted servers are flat-rate; a cloud's China rate where it publishes one
    (rule `egress_china_by_cloud`: Google only), else its internet rate in the price's region
    where the reference has one (rule `egress_rate_by_region`), else the cloud's own figure."""
    if mode != "public_cloud":
        return "dedicated_egress_usd_per_gb", False
    name = cloud if clouds.public(cloud) else clouds.OTHER
    if china:
        key = (catalog.rules.get("egress_china_by_cloud") or {}).get("value", {}).get(name)
        if isinstance(key, str) and key in catalog.figures:
            return key, True
    by_region = (catalog.rules.get("egress_rate_by_region") or {}).get("value", {}).get(name, {})
    key = by_region.get(region_key or "")
    if isinstance(key, str) and key in catalog.figures:
        return key, False
    named = clouds.public(cloud)
    return named.egress_figure if named else "other_egress_usd_per_gb", False


def option_money(
    acc: Accelerator,
    mode: str,
    count: int,
    used_device_hours: float,
    storage_gb: float,
    egress_gb: float,
    ci: CostInputs,
    china_need: tuple[float, str] | None = None,
    tp: int = 1,
    training: bool = False,
    continuous: bool = False,
    min_units: int = 1,
) -> dict[str, Any]:
    """An option's money (`_option_money`), memoised for the cost inputs: a real-time option
    planned again for a longer round trip (china.with_reach, an unknown place) is priced on the
    same devices and hours. Each caller gets its own dict; the docs in it are shared and
    read-only, as the offer's prices are."""
    key = (
        "money",
        acc.id,
        mode,
        count,
        used_device_hours,
        storage_gb,
        egress_gb,
        china_need,
        tp,
        training,
        continuous,
        min_units,
    )
    found = ci.sized.get(key)
    if found is None or found[0] is not acc:
        found = ci.sized[key] = (
            acc,
            _option_money(
                acc,
                mode,
                count,
                used_device_hours,
                storage_gb,
                egress_gb,
                ci,
                china_need,
                tp,
                training,
                continuous,
                min_units,
            ),
        )
    return dict(found[1])


def _option_money(
    acc: Accelerator,
    mode: str,
    count: int,
    used_device_hours: float,
    storage_gb: float,
    egress_gb: float,
    ci: CostInputs,
    china_need: tuple[float, str] | None,
    tp: int,
    training: bool,
    continuous: bool,
    min_units: int,
) -> dict[str, Any]:
    """An option's money. A `continuous` service (real-time serving) is never priced on a
    capacity block: a block is booked for days, a service runs for good. Owned hardware is
    bought as at least `min_units` servers (a service's spare).

    `china_need`: the Mbps to mainland China a serving workload needs
    when the customer must reach it, and on what basis (None otherwise): priced per Mbps-month
    on a hosted server's premium route, or said to be unpriced; on public cloud the egress says
    whether the cloud publishes a rate to China."""
    # A hosted server's premium China route is part of its offer: the cheapest row counts it.
    hosted_need = china_need[0] if china_need is not None and mode != "public_cloud" else None
    # Rented units: as many as asked (a service with its spare spans two); owned ones are built
    # to order (min_units servers, below).
    rented_units = min_units if mode not in OWNED_MODES else 1
    offer = best_offer(acc, mode, count, ci, hosted_need, tp, training, rented_units)
    prices = offer.prices
    fixed_hours = count * ci.catalog.hours_per_month
    compute: dict[str, float | None] = {}
    billed = dict(offer.billed)  # devices paid for: whole units of the price
    for slot, choice in prices.items():
        if choice is None:
            compute[slot] = None
            continue
        n = billed[slot]
        if slot in HOURLY_SLOTS:
            compute[slot] = used_device_hours * n / count * offer.hourly[slot]
        else:  # commitments and monthly servers are paid whether used or not
            compute[slot] = (
                n * ci.catalog.hours_per_month * offer.hourly[slot]
                if slot != "monthly"
                else n * choice.monthly
            )
    storage = storage_gb * offer.storage_rate
    utilisation = min(1.0, used_device_hours / fixed_hours) if fixed_hours else 0.0
    owned = owned_doc(acc, mode, count, compute, ci, min_units)
    if owned is not None:
        # Owned hardware has no rental row: its month is the total cost of ownership,
        # held all month like a monthly server.
        compute["monthly"] = owned["usd_per_month"]
        billed["monthly"] = int(owned["devices"])  # whole servers as a vendor builds them
    # The slots whose price may be the headline (offers.best_offer says which).
    anchor = offer.anchor
    headline = {s: v for s, v in compute.items() if s in offer.headline}
    chosen_slot = choose_slot(mode, headline, utilisation, offer.break_even, ci)
    od_choice = prices.get("on_demand")
    if (
        chosen_slot == "on_demand"
        and not continuous
        and od_choice is not None
        and compute.get("capacity_block") is not None
    ):
        # Beyond what the provider rents on demand, a capacity block is how that many are
        # bought: the option is priced on it (and says so), even when the block is sold
        # elsewhere, rather than on an on-demand rate nobody rents at that scale.
        ceiling = on_demand_ceiling(ci.catalog, od_choice.price.provider, acc.id)
        if ceiling is not None and billed.get("on_demand", count) > ceiling:
            chosen_slot = "capacity_block"
    chosen = compute.get(chosen_slot) if chosen_slot else None
    idle = 0.0
    billed_count = billed.get(chosen_slot or "", count) if chosen is not None else count
    # Staff follow the fleet: its units as sold, for the share of the month they exist.
    unit_choice = prices.get(chosen_slot) if chosen_slot and chosen is not None else anchor
    per_unit = unit_choice.price.gpus_per_unit if unit_choice else acc.max_devices_per_node
    if unit_choice is not None and unit_choice.fit is not None:
        per_unit = unit_choice.fit.unit_gpus  # a VM family bought in a larger shape (a2-4g)
    units = -(-max(billed_count, 1) // max(1, per_unit))
    held_all_month = mode in OWNED_MODES or chosen_slot in FIXED_SLOTS
    share = 1.0 if held_all_month else round(utilisation, 4)
    staff_key = ("staff", mode, units, share)
    staff = ci.sized.get(staff_key)
    if staff is None:
        staff = ci.sized[staff_key] = _staff(mode, units, share, ci)
    if chosen is not None and chosen_slot in ("commit_1y", "commit_3y", "monthly"):
        idle = chosen * max(
            0.0, 1.0 - used_device_hours / (billed_count * ci.catalog.hours_per_month)
        )
    elif chosen is not None:
        idle = chosen * (1.0 - count / billed_count)  # devices of a unit the workload leaves idle
    # Egress is the provider's whose price the option uses (the anchor's when it has none).
    choice = prices.get(chosen_slot) if chosen_slot and chosen is not None else None
    where = choice or anchor
    cloud = None if where is None else where.price.cloud
    region_key = None if where is None else where.price.region_key
    egress_key, china_rate = ci.catalog.memo(
        ("egress", cloud, mode, ci.china, region_key),
        lambda: egress_figure(cloud, mode, ci.china, region_key, ci.catalog),
    )
    egress = egress_gb * ci.catalog.figure(egress_key)
    china: dict[str, Any] = {}
    if china_need is not None and choice is not None:
        egress_used = (egress_key, ci.catalog.figure(egress_key), china_rate)
        china = _china_doc(mode, choice, egress_used, billed_count, *china_need)
        if "china_egress" in china:
            # The path itself, said plainly (no premium route, round trip, loss).
            china["china_egress"]["path"] = public_path(ci.catalog, choice.price.region_key)
    china_usd = (china.get("china_bandwidth") or {}).get("usd_per_month")
    total = None if chosen is None else chosen + storage + egress + staff.total + (china_usd or 0.0)
    on_request = offer.on_request
    house_choice = prices.get(chosen_slot) if chosen_slot in FIXED_SLOTS else None
    cheaper = (
        cheaper_elsewhere(
            acc.id, mode, str(chosen_slot), house_choice, chosen, ci, hosted_need, tp, training
        )
        if house_choice is not None and chosen is not None
        else None
    )
    return {
        # Only when the operator's server prices the option and another host's costs less.
        **({"cheaper_elsewhere": cheaper} if cheaper else {}),
        # Only when the card has offers sold on request here (the report's quote action).
        **({"on_request": on_request} if on_request else {}),
        # Only for owned hardware with a sourced purchase price: its cost of ownership.
        **({"tco": owned} if owned is not None else {}),
        # Only when the customer must reach mainland China and the workload serves it.
        **china,
        # Shared with the memoised offer: read-only by contract (results are serialised as is).
        "prices": offer.docs,
        "missing_prices": list(offer.missing),
        "compute_usd_per_month": {
            k: None if v is None else round(v, 2) for k, v in compute.items()
        },
        "billing_used": chosen_slot if chosen is not None else None,
        "billed_count": billed_count,
        "billing": (
            ("purchase" if owned is not None else SLOT_TO_BILLING.get(chosen_slot or ""))
            if chosen is not None
            else None
        ),
        "storage_usd_per_month": round_or_none(storage),
        "egress_usd_per_month": round_or_none(egress),
        "egress_figure": egress_key,
        "idle_usd_per_month": round_or_none(idle),
        # The team's own operations staff's hours; hours bought in beyond them (or all of them,
        # for a team without staff) are their own line, never a silent hire.
        "staff_usd_per_month": round_or_none(staff.in_house_usd),
        "ops_bought_in_usd_per_month": round_or_none(staff.bought_in_usd),
        # What the staff cost follows: the fleet's units as sold and the share of the month.
        "staff_basis": {"units": units, "share": share},
        "utilisation": round(utilisation, 3),
        "break_even_utilisation": offer.break_even,
        "monthly_cost_usd": round_or_none(total),
    }


def _china_doc(
    mode: str,
    choice: PriceChoice,
    egress: tuple[str, float, bool],
    billed_count: int,
    need_mbps: float,
    basis: str,
) -> dict[str, Any]:
    """What reaching mainland China costs an option: on public cloud, which egress rate priced
    the traffic (a published China rate or the internet rate); on a hosted server, the premium
    route (CN2 GIA/CMI) its price row includes per server and the Mbps beyond it at the row's
    own price per Mbps-month. Never a silent zero: without a route or a price per Mbps the line
    is None and `status` says why (the result's notes say it in words)."""
    p = choice.price
    if mode == "public_cloud":
        return {
            "china_egress": {
                "provider": p.provider,
                "cloud": p.cloud,
                "region": p.region,
                "egress_figure": egress[0],
                "usd_per_gb": egress[1],
                "china_rate": egress[2],
            }
        }
    route, servers, included, usd = china_bandwidth_cost(p, billed_count, need_mbps)
    server = p.server or {}
    extra = max(0, math.ceil(need_mbps - included - 1e-9))
    per_mbps = server.get("china_bandwidth_usd_per_mbps_month") if route else None
    if route is None:
        status = "no_route"
    elif extra == 0:
        status = "covered"
    elif per_mbps is None:
        status = "not_priced"
    else:
        status = "priced"
    return {
        "china_bandwidth": {
            "status": status,
            "needed_mbps": round(need_mbps, 3),
            "basis": basis,
            "route": route,
            "included_mbps": round(included, 1),
            "servers": servers,
            "extra_mbps": extra,
            "usd_per_mbps_month": None if per_mbps is None else float(per_mbps),
            "usd_per_month": usd,
            "price_id": p.id,
            "provider": p.provider,
            "source": p.source,
            "as_of": p.as_of,
        },
        "china_bandwidth_usd_per_month": usd,
    }


def round_or_none(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, 2)


def on_demand_ceiling(catalog: Catalog, provider: str, acc_id: str) -> int | None:
    """GPUs of one card a provider realistically rents on demand at once (catalog rule
    `on_demand_ceiling_gpus`); None when the rule names no ceiling."""
    rule = catalog.rules.get("on_demand_ceiling_gpus")
    if not rule:
        return None
    value = rule["value"]
    by = value.get("by_provider_card", {})
    for key in (f"{provider}|{acc_id}", f"{provider}|*", f"*|{acc_id}"):
        if key in by:
            return int(by[key])
    default = value.get("default")
    return None if default is None else int(default)


def capacity_doc(
    acc: Accelerator, money: Mapping[str, Any], catalog: Catalog, *, continuous: bool = False
) -> dict[str, Any] | None:
    """Whether an option billed by the hour (on demand) fits what its provider rents on demand;
    beyond the ceiling it needs a reservation or capacity block: the catalog's price and lead
    time for one when it has it (catalog rule `capacity_block_terms`), else said to be unpriced."""
    slot = money.get("billing_used")
    if slot not in ("on_demand", "spot", "capacity_block"):
        return None
    price = money["prices"].get("on_demand") or money["prices"].get(slot)
    if not price:
        return None
    ceiling = on_demand_ceiling(catalog, price["provider"], acc.id)
    billed = int(money.get("billed_count") or 0)
    if ceiling is None or billed <= ceiling:
        return None
    # A continuous service needs a reservation: a block of days cannot hold it.
    block = None if continuous else money["prices"].get("capacity_block")
    terms = (catalog.rules.get("capacity_block_terms") or {}).get("value", {})
    return {
        "on_demand_ceiling": ceiling,
        "billed": billed,
        "provider": price["provider"],
        "needs": "capacity_block" if block else "reservation",
        "block_price_id": block["price_id"] if block else None,
        "block_usd_per_device_hour": block["usd_per_device_hour"] if block else None,
        "block_provider": block["provider"] if block else None,
        "lead_time": terms.get(block["provider"]) if block else None,
        "priced_on_block": slot == "capacity_block",
    }


def target_margin(achieved: float, target: float | None, catalog: Catalog) -> dict[str, Any]:
    """The share of the target (deadline hours, latency ms) an option leaves unused, and what
    that means: "met", "at_risk" (under the catalog's `target_safety_share`: inside the
    estimate's own error) or "missed"; both None when the team set no target."""
    if target is None or target <= 0:
        return {"target_margin": None, "target_status": None}
    # Bounded: a target of a few seconds' fraction (5e-324 h) would otherwise give -inf, which
    # no JSON store accepts.
    margin = max(-1e6, (target - achieved) / target)
    if achieved > target + 1e-9:
        status = "missed"
    elif margin < float(catalog.rule("target_safety_share")) - 1e-9:
        status = "at_risk"
    else:
        status = "met"
    return {"target_margin": round(margin, 4), "target_status": status}
