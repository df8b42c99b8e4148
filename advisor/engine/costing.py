"""Prices, options and costs: which price applies, device counts, time, and money per option.

Every price in the output carries provider, region, source, as_of and `stale` (older than the
catalog's stale rule relative to `today`, or undated). Missing prices are reported as missing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from advisor.engine import china as CN
from advisor.engine import measured as M
from advisor.engine import sizing as S
from advisor.engine import tco as T
from advisor.engine.answers import Inference, Training
from advisor.engine.catalog import Accelerator, Catalog, Price, Unit

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
    "flex_start": "on_demand",
    "capacity_block": "on_demand",
    "commit_1y": "committed_1y",
    "commit_3y": "committed_3y",
    "monthly": "monthly_fixed",
}
_FIXED_SLOTS = ("monthly", "commit_1y", "commit_3y")
_HOURLY_SLOTS = frozenset({"on_demand", "spot", "flex_start", "capacity_block"})
# The slot whose price anchors an option's offer (provider and region), in this order; the
# option's other prices come from the same provider and region where the catalog has one.
_ANCHOR_SLOTS = ("on_demand", "monthly", "commit_1y", "commit_3y")
_MATCH_RANK = {"exact": 0, "nearby": 1, "elsewhere": 2}


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


@dataclass(frozen=True, slots=True)
class PriceChoice:
    price: Price
    match: str  # exact | nearby | elsewhere
    hours_per_month: float  # the catalog's figure: turns a monthly price into an hourly one
    # Same provider and region as the option's anchor price (its on-demand, else monthly, ...).
    same_offer: bool = True
    # In the customer's country but none of their regions (Ishikari for Tokyo): the report
    # says so beside the first option.
    in_country: bool = False
    fit: UnitFit | None = None  # the whole units that build the option on this row

    @property
    def hourly(self) -> float:
        p = self.price
        if p.usd_per_device_hour is not None:
            return p.usd_per_device_hour
        return (p.usd_per_device_month or 0.0) / self.hours_per_month

    @property
    def monthly(self) -> float:
        p = self.price
        if p.usd_per_device_month is not None:
            return p.usd_per_device_month
        return (p.usd_per_device_hour or 0.0) * self.hours_per_month


# Regions of one country: data residency is a country's law (Japan's APPI), so a Tokyo
# customer's data may stay on a server in Ishikari or Kagawa ("japan": Japan outside Tokyo),
# and a customer who says "japan" takes a Tokyo server as theirs.
COUNTRY: Mapping[str, str] = {"tokyo": "jp", "japan": "jp"}


def region_match(catalog: Catalog, key: str | None, regions: Sequence[str]) -> str:
    """How a price's or offer's region (catalog key) stands to the customer's regions: "exact"
    (one of them, or Tokyo for a customer anywhere in Japan), "nearby" (same region group)
    or "elsewhere"."""
    if key is None:
        return "elsewhere"
    if key in regions or (key == "tokyo" and "japan" in regions):
        return "exact"
    if _group(catalog, key) in {_group(catalog, r) for r in regions}:
        return "nearby"
    return "elsewhere"


def in_country(key: str | None, regions: Sequence[str]) -> bool:
    """Whether the region `key` is in the country of one of the customer's regions, where data
    residency holds."""
    country = COUNTRY.get(key or "")
    return key in regions or (country is not None and country in {COUNTRY.get(r) for r in regions})


def _group(catalog: Catalog, key: str | None) -> str | None:
    if key is None:
        return None
    if key in ("us", "europe"):
        return key
    region = catalog.regions.get(key)
    return None if region is None else str(region.get("group"))


def _not_offered(catalog: Catalog) -> frozenset[tuple[str | None, str, str]]:
    """(region, provider, card) that the availability table says are not offered, though the
    provider may publish a price there (Google's asia-east2 A2/A3 rows)."""

    def build() -> frozenset[tuple[str | None, str, str]]:
        return frozenset(
            (region, str(entry.get("provider")), card)
            for region, row in (catalog.availability.get("regions") or {}).items()
            for entry in row.get("not_offered") or ()
            for card in entry.get("cards") or ()
        )

    return catalog.memo("not_offered", build)


def choose_price(
    catalog: Catalog,
    acc_id: str,
    mode: str,
    slot: str,
    regions: Sequence[str],
    clouds: Sequence[str],
    residency: str,
    count: int = 1,
    anchor: Price | None = None,
    china_mbps: float | None = None,
    tp: int = 1,
    training: bool = False,
) -> PriceChoice | None:
    """Cheapest price for the slot: the customer's regions first, then nearby, then anywhere;
    within a region match, the anchor's provider and region first (so that one option's
    on-demand, spot and commitment prices are one offer), then the cost of `count` devices
    billed in the price's whole units (an 8-GPU node is never a 1-GPU purchase), plus, when
    `china_mbps` are needed, the premium China bandwidth beyond what the row's servers include
    at the row's own price per Mbps-month (a row without one adds nothing it could price).
    Only rows whose unit can build the option (`tp` devices in one unit) price it; a training
    run over several units prefers an offer with an RDMA-class fabric between them."""
    best: tuple[int, int, int, int, float, str] | None = None
    chosen: PriceChoice | None = None
    unlisted = _not_offered(catalog)
    for p in catalog.prices_by_accelerator.get(acc_id, ()):
        if p.billing not in PRICE_SLOTS[slot] or mode not in p.modes or p.on_request:
            continue  # a price on request has no figure: it is listed, never priced
        if (p.region_key, p.provider, acc_id) in unlisted:
            continue  # a price-list row in a region that does not offer the card
        # Cloud preferences only narrow public-cloud prices; hosting offers are not "clouds".
        if mode == "public_cloud" and clouds and p.cloud not in clouds:
            continue
        match = region_match(catalog, p.region_key, regions)
        if residency == "in_region" and not in_country(p.region_key, regions):
            continue
        fit = unit_fit(catalog, p, count, tp, training)
        if fit is None:
            continue  # the unit cannot hold the tensor-parallel group
        unit = unit_of(catalog, p)
        no_fabric = int(
            training and fit.units > 1 and unit is not None and unit.network not in FABRICS
        )
        same = anchor is None or (p.provider, p.region) == (anchor.provider, anchor.region)
        # Within the region group, the customer's own country first (Ishikari before Seoul).
        country = in_country(p.region_key, regions)
        choice = PriceChoice(
            p, match, catalog.hours_per_month, same, country and p.region_key not in regions, fit
        )
        cost = choice.hourly * fit.billed
        if china_mbps is not None:
            bw = china_bandwidth_cost(p, fit.billed, china_mbps)
            cost += (bw[3] or 0.0) / catalog.hours_per_month
        key = (_MATCH_RANK[match], 0 if country else 1, 0 if same else 1, no_fabric, cost, p.id)
        if best is None or key < best:
            best, chosen = key, choice
    return chosen


def is_stale(as_of: str | None, today: date, stale_days: float) -> bool:
    """Undated prices count as stale: their age is unknown."""
    if as_of is None:
        return True
    try:
        when = date.fromisoformat(as_of)
    except ValueError:
        return True
    return (today - when).days > stale_days


def unit_doc(unit: Unit, fit: UnitFit) -> dict[str, Any]:
    """The unit an option is bought in, as sold: its shape for the GPUs it holds, how many of
    them, the GPU link inside and the network between them, with source and date."""
    shape = unit.shape_for(fit.unit_gpus) or unit.shapes[-1]
    # A family sold in several shapes names the one bought (a2-highgpu-Ng -> a2-highgpu-2g).
    name = unit.name.replace("-Ng", f"-{fit.unit_gpus}g")
    if name.endswith("-N") and shape.vcpu:
        name = f"{name[:-1]}{shape.vcpu:g}"
    return {
        "unit_id": unit.id,
        "name": name,
        "gpus": fit.unit_gpus,
        "units": fit.units,
        "vcpu": shape.vcpu,
        "ram_gb": shape.ram_gb,
        "nvme_gb": shape.nvme_gb,
        "network_gbps": shape.network_gbps,
        "gpu_link": unit.gpu_link,
        "network": unit.network,
        "source": unit.source,
        "as_of": unit.as_of,
        "estimated_fields": list(unit.estimated_fields),
        "note": unit.note,
    }


def price_doc(
    choice: PriceChoice, today: date, stale_days: float, catalog: Catalog | None = None
) -> dict[str, Any]:
    """A price as it appears in the result document."""
    p = choice.price
    unit = None if catalog is None or choice.fit is None else unit_of(catalog, p)
    return {
        "price_id": p.id,
        "usd_per_device_hour": round(choice.hourly, 5),
        "usd_per_device_month": round(choice.monthly, 2),
        "unit": "device-month" if p.usd_per_device_month is not None else "device-hour",
        "provider": p.provider,
        "cloud": p.cloud,
        "region": p.region,
        "region_match": choice.match,
        **({"in_country": True, "region_key": p.region_key} if choice.in_country else {}),
        "source": p.source,
        "as_of": p.as_of,
        "stale": is_stale(p.as_of, today, stale_days),
        "estimated": p.estimated,
        # A per-device figure of a price sold in larger units is derived (price / devices).
        "derived": p.derived or p.gpus_per_unit > 1,
        "note": p.note,
        "gpus_per_unit": p.gpus_per_unit,
        "sold_as": p.unit,
        "usd_per_unit_hour": round(choice.hourly * p.gpus_per_unit, 4),
        "same_offer": choice.same_offer,
        **({"sold_unit": unit_doc(unit, choice.fit)} if unit is not None and choice.fit else {}),
        # Only on house offers, so that results priced without one keep their bytes.
        **({"house": True, "server": dict(p.server or {})} if p.house else {}),
    }


def on_request_offers(acc_id: str, mode: str, ci: CostInputs) -> list[dict[str, Any]]:
    """The card's offers in this mode sold on request (no figure, so they price nothing):
    listed beside the option so that a buyer can ask for a quote. Same region rules as a price
    (not where the availability table says the card is not offered; in-region when residency
    requires it); the customer's regions first."""

    def build() -> list[dict[str, Any]]:
        unlisted = _not_offered(ci.catalog)
        found: list[tuple[int, str, dict[str, Any]]] = []
        for p in ci.catalog.prices_by_accelerator.get(acc_id, ()):
            if not p.on_request or mode not in p.modes:
                continue
            if (p.region_key, p.provider, acc_id) in unlisted:
                continue
            match = region_match(ci.catalog, p.region_key, ci.regions)
            if ci.residency == "in_region" and not in_country(p.region_key, ci.regions):
                continue
            found.append(
                (
                    _MATCH_RANK[match],
                    p.id,
                    {
                        "price_id": p.id,
                        "provider": p.provider,
                        "region": p.region,
                        "region_key": p.region_key,
                        "region_match": match,
                        "gpus_per_unit": p.gpus_per_unit,
                        "sold_as": p.unit,
                        "house": p.house,
                        "server": dict(p.server or {}),
                        "source": p.source,
                        "as_of": p.as_of,
                        "note": p.note,
                    },
                )
            )
        return [doc for *_key, doc in sorted(found, key=lambda f: (f[0], f[1]))]

    key = ("on_request", acc_id, mode, ci.regions, ci.residency)
    return ci.catalog.memo(key, build)


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
    # Benchmark runs of the team's stack (engine/measured.py): in place of the estimates.
    measurements: tuple[M.Measurement, ...] = ()
    # Sizing per (card, workload) within one evaluation: the same in every deployment mode.
    sized: dict[Any, Any] = field(default_factory=dict, compare=False, hash=False)


def _prices(
    acc: Accelerator,
    mode: str,
    count: int,
    ci: CostInputs,
    china_mbps: float | None = None,
    tp: int = 1,
    training: bool = False,
) -> Mapping[str, PriceChoice | None]:
    def pick(slot: str, anchor: Price | None) -> PriceChoice | None:
        return choose_price(
            ci.catalog,
            acc.id,
            mode,
            slot,
            ci.regions,
            ci.clouds,
            ci.residency,
            count,
            anchor,
            china_mbps,
            tp,
            training,
        )

    def choose() -> dict[str, PriceChoice | None]:
        out: dict[str, PriceChoice | None] = {}
        anchor: Price | None = None
        for slot in _ANCHOR_SLOTS:
            out[slot] = pick(slot, anchor)
            if anchor is None and out[slot] is not None:
                anchor = out[slot].price  # type: ignore[union-attr]
        for slot in PRICE_SLOTS:
            if slot not in out:
                out[slot] = pick(slot, anchor)
        return {slot: out[slot] for slot in PRICE_SLOTS}

    # The same few combinations recur across assessments: the catalog memoises them.
    key = (
        "prices",
        acc.id,
        mode,
        count,
        ci.regions,
        ci.clouds,
        ci.residency,
        china_mbps,
        tp,
        training,
    )
    return ci.catalog.memo(key, choose)


def _staff(mode: str, units: int, share: float, ci: CostInputs) -> float:
    return ci.catalog.memo(
        ("staff", mode, units, share, ci.ops_capacity, ci.ops_headcount, ci.staff_region),
        lambda: _staff_cost(mode, units, share, ci),
    )


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


def _staff_cost(mode: str, units: int, share: float, ci: CostInputs) -> float:
    """Operations staff a month: the mode's fixed hours plus hours per unit as sold (a server or
    an instance, never a device) for the share of the month the fleet exists (an hourly fleet
    rented for one run exists only for that run; a monthly or committed one all month)."""
    hours = float(
        ci.catalog.rule("ops_hours_per_month")[mode]
        + units * float(ci.catalog.rule("ops_hours_per_unit_month")[mode]) * share
    )
    rate = staff_usd_per_hour(ci.catalog, ci.staff_region)
    buy_in = ci.catalog.rule("ops_capacity_buy_in_multiplier")
    if ci.ops_headcount is None:
        return hours * rate * float(buy_in[ci.ops_capacity])
    # A stated team does the hours it has (a full working month each) at its own rate; what
    # is left is bought in at the premium of a team with no operations staff.
    in_house = min(hours, ci.ops_headcount * ci.catalog.figure("staff_hours_per_month"))
    return in_house * rate + (hours - in_house) * rate * float(buy_in["none"])


def _storage_rate(cloud: str | None, mode: str, catalog: Catalog) -> float:
    if mode != "public_cloud":
        return 0.0  # local NVMe in the server (sized under `server`)
    key = {"gcp": "gcs", "aws": "aws", "azure": "azure"}.get(cloud or "", "other")
    return catalog.figure(f"{key}_storage_usd_per_gb_month")


def egress_figure(
    cloud: str | None, mode: str, china: bool, region_key: str | None, catalog: Catalog
) -> tuple[str, bool]:
    """The catalog figure of an option's egress price per GB, and whether it is a rate to
    mainland China. Hosted servers are flat-rate; a cloud's China rate where it publishes one
    (rule `egress_china_by_cloud`: Google only), else its internet rate in the price's region
    where the reference has one (rule `egress_rate_by_region`), else the cloud's own figure."""
    if mode != "public_cloud":
        return "dedicated_egress_usd_per_gb", False
    name = cloud if cloud in ("gcp", "aws", "azure") else "other"
    if china:
        key = (catalog.rules.get("egress_china_by_cloud") or {}).get("value", {}).get(name)
        if isinstance(key, str) and key in catalog.figures:
            return key, True
    by_region = (catalog.rules.get("egress_rate_by_region") or {}).get("value", {}).get(name, {})
    key = by_region.get(region_key or "")
    if isinstance(key, str) and key in catalog.figures:
        return key, False
    return f"{name}_egress_usd_per_gb", False


@dataclass(frozen=True, slots=True)
class _Offer:
    """What the money of an (accelerator, mode) needs from the catalog, for one customer."""

    prices: Mapping[str, PriceChoice | None]
    docs: Mapping[str, dict[str, Any] | None]
    missing: tuple[str, ...]
    storage_rate: float
    break_even: Mapping[str, float | None]


def _offer(
    acc: Accelerator,
    mode: str,
    count: int,
    ci: CostInputs,
    china_mbps: float | None = None,
    tp: int = 1,
    training: bool = False,
) -> _Offer:
    local = ("offer", acc.id, mode, count, china_mbps, tp, training)
    found = ci.sized.get(local)
    if found is None:
        found = ci.sized[local] = _offer_memo(acc, mode, count, ci, china_mbps, tp, training)
    return found


def _offer_memo(
    acc: Accelerator,
    mode: str,
    count: int,
    ci: CostInputs,
    china_mbps: float | None,
    tp: int,
    training: bool,
) -> _Offer:
    def build() -> _Offer:
        prices = _prices(acc, mode, count, ci, china_mbps, tp, training)
        ref = prices["on_demand"] or prices["monthly"] or prices["commit_1y"]
        cloud = ref.price.cloud if ref else None
        od = prices["on_demand"]
        break_even: dict[str, float | None] = {}
        for s in ("monthly", "commit_1y", "commit_3y"):
            choice = prices[s]
            break_even[s] = (
                round(choice.monthly / (od.hourly * ci.catalog.hours_per_month), 3)
                if choice and od and od.hourly
                else None
            )
        return _Offer(
            prices=prices,
            docs={
                s: (price_doc(c, ci.today, ci.stale_days, ci.catalog) if c else None)
                for s, c in prices.items()
            },
            missing=tuple(s for s, c in prices.items() if c is None),
            storage_rate=_storage_rate(cloud, mode, ci.catalog),
            break_even=break_even,
        )

    key = (
        "offer",
        acc.id,
        mode,
        count,
        ci.regions,
        ci.clouds,
        ci.residency,
        ci.china,
        ci.today,
        ci.stale_days,
        china_mbps,
        tp,
        training,
    )
    return ci.catalog.memo(key, build)


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
    pay as they go; 3 years also needs a stable stack. Hosted modes sell monthly servers only.
    Spot is never the headline: it can be taken away mid-run.
    """
    if mode in ("dedicated_hosting", "bare_metal", "private_cloud", "on_premises"):
        for slot in ("monthly", "on_demand"):
            if compute.get(slot) is not None:
                return slot
        return None
    allowed = ["on_demand"]
    if ci.billing != "pay_as_you_go" and ci.predictable:
        default_be = ci.catalog.figure("commit_break_even_utilisation")
        for slot in _FIXED_SLOTS:
            if slot == "commit_3y" and not ci.stable:
                continue
            be = break_even.get(slot)
            if utilisation + 1e-9 >= (be if be is not None else default_be):
                allowed.append(slot)
    priced = [(compute[s], i, s) for i, s in enumerate(allowed) if compute.get(s) is not None]
    if not priced:
        return None
    return min(priced)[2]


def _money(
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
) -> dict[str, Any]:
    """An option's money. `china_need`: the Mbps to mainland China a serving workload needs
    when the customer must reach it, and on what basis (None otherwise): priced per Mbps-month
    on a hosted server's premium route, or said to be unpriced; on public cloud the egress says
    whether the cloud publishes a rate to China."""
    # A hosted server's premium China route is part of its offer: the cheapest row counts it.
    hosted_need = china_need[0] if china_need is not None and mode != "public_cloud" else None
    offer = _offer(acc, mode, count, ci, hosted_need, tp, training)
    prices = offer.prices
    fixed_hours = count * ci.catalog.hours_per_month
    compute: dict[str, float | None] = {}
    billed: dict[str, int] = {}
    for slot, choice in prices.items():
        if choice is None:
            compute[slot] = None
            continue
        # A price sold in units of several devices is paid for in whole units.
        n = billed[slot] = (
            choice.fit.billed if choice.fit else billed_devices(count, choice.price.gpus_per_unit)
        )
        if slot in _HOURLY_SLOTS:
            compute[slot] = used_device_hours * n / count * choice.hourly
        else:  # commitments and monthly servers are paid whether used or not
            compute[slot] = (
                n * ci.catalog.hours_per_month * choice.hourly
                if slot != "monthly"
                else n * choice.monthly
            )
    storage = storage_gb * offer.storage_rate
    utilisation = min(1.0, used_device_hours / fixed_hours) if fixed_hours else 0.0
    owned = _owned_doc(acc, mode, count, compute, ci)
    if owned is not None:
        # Owned hardware has no rental row: its month is the total cost of ownership (issue 22),
        # held all month like a monthly server.
        compute["monthly"] = owned["usd_per_month"]
        billed["monthly"] = count
    # Another provider's or region's price (the anchor's offer has none for the slot) is the
    # headline only when it is read in the customer's region group, or the anchor is not
    # either: never a Hong Kong commitment under a Los Angeles on-demand price.
    anchor = next((prices[s] for s in _ANCHOR_SLOTS if prices.get(s)), None)
    headline = {
        s: v
        for s, v in compute.items()
        if anchor is None
        or prices[s] is None
        or prices[s].same_offer  # type: ignore[union-attr]
        or prices[s].match != "elsewhere"  # type: ignore[union-attr]
        or anchor.match == "elsewhere"
    }
    chosen_slot = choose_slot(mode, headline, utilisation, offer.break_even, ci)
    od_choice = prices.get("on_demand")
    if (
        chosen_slot == "on_demand"
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
    held_all_month = mode in OWNED_MODES or chosen_slot in _FIXED_SLOTS
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
            # Issue 22 item 5: the path itself, said plainly (no premium route, round trip, loss).
            china["china_egress"]["path"] = CN.public_path(ci.catalog, choice.price.region_key)
    china_usd = (china.get("china_bandwidth") or {}).get("usd_per_month")
    total = None if chosen is None else chosen + storage + egress + staff + (china_usd or 0.0)
    on_request = on_request_offers(acc.id, mode, ci)
    return {
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
        "storage_usd_per_month": _r(storage),
        "egress_usd_per_month": _r(egress),
        "egress_figure": egress_key,
        "idle_usd_per_month": _r(idle),
        "staff_usd_per_month": _r(staff),
        # What the staff cost follows: the fleet's units as sold and the share of the month.
        "staff_basis": {"units": units, "share": share},
        "utilisation": round(utilisation, 3),
        "break_even_utilisation": offer.break_even,
        "monthly_cost_usd": _r(total),
    }


def _owned_doc(
    acc: Accelerator, mode: str, count: int, compute: Mapping[str, float | None], ci: CostInputs
) -> dict[str, Any] | None:
    """Owned hardware's cost of ownership and its break-even against renting the same cards
    (tco.py), when the mode is owned, no rental row prices it and the card has a sourced
    purchase price."""
    if mode not in OWNED_MODES or any(v is not None for v in compute.values()):
        return None

    def build() -> dict[str, Any] | None:
        doc = T.owned_tco(
            acc, count, ci.catalog, ci.regions, ci.amortisation_months, ci.capex_budget_usd
        )
        if doc is None:
            return None
        return {**doc, "break_even": T.break_even(doc, rental_equivalent(acc, ci), count)}

    key = (
        "owned_tco",
        acc.id,
        count,
        ci.regions,
        ci.amortisation_months,
        ci.capex_budget_usd,
        ci.today,
        ci.stale_days,
    )
    return ci.catalog.memo(key, build)


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


def _r(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, 2)


# --------------------------------------------------------------------------- unpriced options

OWNED_MODES = ("private_cloud", "on_premises")


def rental_equivalent(acc: Accelerator, ci: CostInputs) -> dict[str, Any] | None:
    """The same card's cheapest sourced price that holds it a whole month (catalog rule
    `rental_equivalent_billings`: a monthly server, a 1- or 3-year commitment, on-demand x 730 h;
    never spot), anywhere: a labelled proxy for owned capacity, never the customer's price."""
    key = ("rental_equivalent", acc.id, ci.today, ci.stale_days)
    return ci.catalog.memo(key, lambda: _rental_equivalent(acc, ci))


def _rental_equivalent(acc: Accelerator, ci: CostInputs) -> dict[str, Any] | None:
    billings = tuple(ci.catalog.rule("rental_equivalent_billings"))
    best: tuple[float, int, str] | None = None
    chosen: PriceChoice | None = None
    for p in ci.catalog.prices_by_accelerator.get(acc.id, ()):
        if p.billing not in billings:
            continue
        choice = PriceChoice(p, "elsewhere", ci.catalog.hours_per_month)
        if not choice.monthly:
            continue
        key = (choice.monthly, billings.index(p.billing), p.id)
        if best is None or key < best:
            best, chosen = key, choice
    if chosen is None:
        return None
    p = chosen.price
    return {
        "basis": "rental_equivalent",
        "usd_per_device_month": round(chosen.monthly, 2),
        "price_id": p.id,
        "billing": p.billing,
        "provider": p.provider,
        "region": p.region,
        "source": p.source,
        "as_of": p.as_of,
        "stale": is_stale(p.as_of, ci.today, ci.stale_days),
        "estimated": p.estimated,
        "derived": p.derived,
        "note": p.note,
    }


def unpriced_doc(acc: Accelerator, mode: str, count: int, ci: CostInputs) -> dict[str, Any]:
    """Why an option has no cost to the result and what it is ranked by instead: the smallest
    hardware that does the job (memory x count, then compute x count, then hours); in owned modes
    a card with no sourced purchase price (no rental stands in for it)."""
    owned = mode in OWNED_MODES
    return {
        "reason": "no_purchase_price" if owned else "no_price_in_mode",
        "ranked_by": "smallest_hardware",
        # Nominal (marketed) memory: an 80 GB A100 and an 80 GB H100 are the same size.
        "memory_gb": round(acc.memory_gb * count, 1),
        "dense_tflops": round((acc.bf16_dense_tflops or acc.fp16_dense_tflops or 0.0) * count, 1),
        # The rental proxy is gone (issue 22): owned hardware is priced by its cost of ownership
        # (tco.py), and a card with no sourced purchase price says so instead.
        "rental_equivalent": None,
    }


# --------------------------------------------------------------------------- options


def training_target(kind: str, schedule: str, t: Training, catalog: Catalog) -> tuple[float, str]:
    """Hours a run must finish in and why: the deadline answer, else the schedule (a daily job
    within 24 h, a weekly one within 168 h), else the catalog's default (30 days)."""
    if t.deadline_hours is not None:
        return float(t.deadline_hours), "deadline"
    by_schedule = catalog.rule("training_target_hours")
    if schedule in by_schedule:
        return float(by_schedule[schedule]), "schedule"
    return catalog.figure("default_training_target_hours"), "default"


def training_counts(acc: Accelerator, n_min: int, catalog: Catalog) -> list[int]:
    """Device counts to try from the fewest that fit: TPU slices, or GPUs 1-2-4-8 then whole
    nodes; cards without NVLink-class links train on one node at most (catalog rule)."""
    cap = acc.max_devices_per_group
    if (
        acc.type == "gpu"
        and not acc.fast_interconnect
        and catalog.rule("multi_node_training_needs_fast_interconnect")
    ):
        cap = min(cap, acc.max_devices_per_node)
    return [c for c in S.valid_counts(acc) if n_min <= c <= cap]


def run_overhead(t: Training, mem: S.TrainingMemory, catalog: Catalog) -> dict[str, float]:
    """Hours each run spends before it computes (catalog figures): provisioning the fleet,
    starting the training container (pulling its image) and staging the dataset and the model's
    weights from storage. Counted in the run's hours and cost: a short daily job pays them every
    day."""
    data_gb = t.dataset_tokens * catalog.figure("dataset_bytes_per_token") / 1e9
    weights_gb = mem.parts["weights"] / 1e9
    staging_h = (data_gb + weights_gb) / catalog.figure("staging_gbytes_per_s") / 3600.0
    provisioning_h = catalog.figure("run_provisioning_minutes") / 60.0
    container_h = catalog.figure("run_container_start_minutes") / 60.0
    return {
        "hours": round(provisioning_h + container_h + staging_h, 4),
        "provisioning_hours": round(provisioning_h, 4),
        "container_start_hours": round(container_h, 4),
        "staging_hours": round(staging_h, 4),
        "staged_gb": round(data_gb + weights_gb, 1),
    }


def beyond_one_pcie_node(acc: Accelerator, n_min: int | None, catalog: Catalog) -> bool:
    """Whether a run needs more cards without NVLink-class links than one node holds: large
    training is not built across PCIe-only nodes (catalog rule
    `multi_node_training_needs_fast_interconnect`)."""
    return (
        n_min is not None
        and acc.type == "gpu"
        and not acc.fast_interconnect
        and bool(catalog.rule("multi_node_training_needs_fast_interconnect"))
        and n_min > acc.max_devices_per_node
    )


def serving_run_overhead(weight_bytes: float, catalog: Catalog) -> dict[str, float]:
    """Hours each batch-inference run spends before it serves (catalog figures): provisioning,
    container start and loading the model's weights from storage."""
    weights_gb = weight_bytes / 1e9
    staging_h = weights_gb / catalog.figure("staging_gbytes_per_s") / 3600.0
    provisioning_h = catalog.figure("run_provisioning_minutes") / 60.0
    container_h = catalog.figure("run_container_start_minutes") / 60.0
    return {
        "hours": round(provisioning_h + container_h + staging_h, 4),
        "provisioning_hours": round(provisioning_h, 4),
        "container_start_hours": round(container_h, 4),
        "staging_hours": round(staging_h, 4),
        "staged_gb": round(weights_gb, 1),
    }


def _training_count(
    acc: Accelerator,
    kind: str,
    schedule: str,
    t: Training,
    mem: S.TrainingMemory,
    flops: S.TrainingFlops,
    catalog: Catalog,
) -> tuple[int, int, float, float, str] | None:
    n_min = S.min_training_devices(mem, acc, catalog)
    if n_min is None:
        return None
    target, basis = training_target(kind, schedule, t, catalog)
    # The fixed overhead of a run comes before its compute: the compute has what is left.
    overhead = run_overhead(t, mem, catalog)["hours"]
    compute_target = max(target - overhead, 1e-6)
    counts = training_counts(acc, n_min, catalog)
    if not counts and beyond_one_pcie_node(acc, n_min, catalog):
        return None  # the run needs PCIe-only cards across nodes: not built (catalog rule)
    counts = counts or [n_min]
    n, hours = counts[0], S.training_hours(flops, acc, counts[0], t, kind, catalog)
    # Aim inside the target by the catalog's safety share (a thinner margin is inside the
    # estimate's own error), else at the target itself.
    aim = max(target * (1.0 - float(catalog.rule("target_safety_share"))) - overhead, 1e-6)
    if hours > aim:
        # Hours fall as 1/count: jump to the fewest whole nodes that meet the aim (the target
        # where no count does).
        first = counts[0] * hours
        n = next(
            (c for c in counts if c >= first / aim - 1e-9),
            next((c for c in counts if c >= first / compute_target - 1e-9), counts[-1]),
        )
        hours = S.training_hours(flops, acc, n, t, kind, catalog)
    return n_min, n, hours + overhead, target, basis


def _training_base(
    acc: Accelerator,
    kind: str,
    schedule: str,
    t: Training,
    mem: S.TrainingMemory,
    sized: tuple[int, int, float, float, str],
    catalog: Catalog,
) -> tuple[int, float, float, float, float, float | None, dict[str, Any]]:
    """What a training option is in every deployment mode (its money aside)."""
    n_min, n, hours, target, basis = sized
    hpm = catalog.hours_per_month
    runs = catalog.rule("training_runs_per_month")[schedule]
    run_device_hours = n * hours
    used = n * hpm if runs is None else min(n * hpm, run_device_hours * float(runs))
    dataset_gb = t.dataset_tokens * catalog.figure("dataset_bytes_per_token") / 1e9
    ckpt_gb = (mem.parts["weights"] + mem.parts["optimizer"]) / 1e9
    storage_gb = dataset_gb + catalog.figure("checkpoints_kept") * ckpt_gb
    peak, peak_note = S.peak_tflops(acc, t.precision, catalog)
    overhead = run_overhead(t, mem, catalog)
    base = {
        "accelerator_id": acc.id,
        "name": acc.name,
        "type": acc.type,
        "count": n,
        "min_count": n_min,
        "hours": round(hours, 2),
        # Included in `hours`: provisioning, container start and data staging of each run.
        "run_overhead": overhead,
        "target_hours": round(target, 2),
        "target_basis": basis,
        "device_hours": round(run_device_hours, 1),
        "meets_deadline": hours <= target + 1e-9,
        **target_margin(hours, target, catalog),
        "peak_tflops_per_device": peak,
        "peak_basis": peak_note,
        "mfu": round(S.training_mfu(kind, t, catalog), 3),
        "interconnect": S.interconnect_need(acc, n, training=True),
        # Tensor parallelism inside a unit (with ZeRO-3/FSDP over all devices).
        "tensor_parallel": S.training_tp(mem, acc, n, catalog) or 1,
    }
    return n, hours, run_device_hours, used, storage_gb, runs, base


def network_time(
    acc: Accelerator,
    t: Training,
    mem: S.TrainingMemory,
    flops: S.TrainingFlops,
    n: int,
    tp: int,
    kind: str,
    price: Mapping[str, Any] | None,
    catalog: Catalog,
) -> dict[str, Any] | None:
    """The time data parallelism across units costs a run on the offer's network between them
    (None on one unit or a TPU slice). Per micro-step every unit moves the sharded state across
    the others: ZeRO-3/FSDP all-gathers the weights twice and reduce-scatters the gradients
    (3 x the bf16 weights; 2 x the trainable gradients for LoRA's all-reduce), (k-1)/k of it
    over the unit's network. Overlapped with compute (FSDP prefetch), only the part longer than
    the micro-step's compute adds time: the published MFU already holds on a training fabric."""
    unit = (price or {}).get("sold_unit")
    if not unit or int(unit["units"]) <= 1:
        return None
    k, g = int(unit["units"]), int(unit["gpus"])
    gbps = unit.get("network_gbps")
    assumed = gbps is None
    if gbps is None:
        gbps = catalog.figure("unit_network_gbps_not_stated")
    full = t.method == "full"
    sync_bytes = (3.0 if full else 2.0) * 2.0 * mem.trainable_params
    comm_s = sync_bytes * (k - 1) / k / (float(gbps) * 1e9 / 8.0)
    per_unit = min(g, n)
    tokens = float(t.micro_batch_size) * t.sequence_length * max(1, per_unit // max(1, tp))
    per_token = flops.total / max(1.0, float(t.dataset_tokens) * t.epochs)
    peak, _ = S.peak_tflops(acc, t.precision, catalog)
    rate = per_unit * peak * 1e12 * S.training_mfu(kind, t, catalog)
    compute_s = per_token * tokens / rate if rate > 0 else math.inf
    factor = max(1.0, comm_s / compute_s) if compute_s > 0 else 1.0
    return {
        "units": k,
        "network": unit.get("network"),
        "network_gbps": float(gbps),
        "network_assumed": assumed,
        "fabric": unit.get("network") in FABRICS,
        "sync_gb_per_step": round(sync_bytes / 1e9, 2),
        "comm_s_per_step": round(comm_s, 3),
        "compute_s_per_step": round(compute_s, 3),
        "time_factor": round(factor, 3),
    }


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
    acc: Accelerator, money: Mapping[str, Any], catalog: Catalog
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
    block = money["prices"].get("capacity_block")
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


def training_option(
    acc: Accelerator,
    mode: str,
    kind: str,
    schedule: str,
    shape: S.ModelShape,
    t: Training,
    mem: S.TrainingMemory,
    flops: S.TrainingFlops,
    ci: CostInputs,
) -> dict[str, Any] | None:
    """One option for a training workload, scaled until the run meets its target hours (or the
    largest valid count, flagged); None when the run does not fit any count."""
    catalog = ci.catalog
    key = ("training", acc.id, kind, schedule)
    if key not in ci.sized:
        # Memoised on the catalog too: the count depends only on these inputs.
        ci.sized[key] = catalog.memo(
            ("training_count", acc.id, kind, schedule, shape, t),
            lambda: _training_count(acc, kind, schedule, t, mem, flops, catalog),
        )
    if ci.sized[key] is None:
        return None
    base_key = ("training_base", acc.id, kind, schedule)
    if base_key not in ci.sized:
        ci.sized[base_key] = _training_base(acc, kind, schedule, t, mem, ci.sized[key], catalog)
    n, hours, run_device_hours, used, storage_gb, runs, base = ci.sized[base_key]
    hpm = catalog.hours_per_month
    tp = int(base["tensor_parallel"])
    money = _money(acc, mode, n, used, storage_gb, 0.0, ci, tp=tp, training=True)
    if money["billed_count"] > n:
        # The price is sold in whole units (an 8-GPU node): the run uses every device paid for.
        bumped = ("training_base", acc.id, kind, schedule, money["billed_count"])
        if bumped not in ci.sized:
            n_min, _n, _h, target, basis = ci.sized[key]
            count = money["billed_count"]
            more = S.training_hours(flops, acc, count, t, kind, catalog)
            more += run_overhead(t, mem, catalog)["hours"]
            ci.sized[bumped] = _training_base(
                acc, kind, schedule, t, mem, (n_min, count, more, target, basis), catalog
            )
        n, hours, run_device_hours, used, storage_gb, runs, base = ci.sized[bumped]
        tp = int(base["tensor_parallel"])
        money = _money(acc, mode, n, used, storage_gb, 0.0, ci, tp=tp, training=True)
    slot_used = money["billing_used"] or "on_demand"
    network = network_time(acc, t, mem, flops, n, tp, kind, money["prices"].get(slot_used), catalog)
    if network is not None and network["time_factor"] > 1.0:
        # The network between units is slower than the compute it must keep up with: the run
        # takes longer on this offer, and costs the hours it takes.
        slow = ("training_base", acc.id, kind, schedule, n, network["time_factor"])
        if slow not in ci.sized:
            n_min, _n, _h, target, basis = ci.sized[key]
            longer = hours * network["time_factor"]
            ci.sized[slow] = _training_base(
                acc, kind, schedule, t, mem, (n_min, n, longer, target, basis), catalog
            )
        n, hours, run_device_hours, used, storage_gb, runs, base = ci.sized[slow]
        money = _money(acc, mode, n, used, storage_gb, 0.0, ci, tp=tp, training=True)
    per_run: dict[str, float | None] = {}
    for slot in ("on_demand", "spot", "flex_start", "capacity_block"):
        doc = money["prices"][slot]
        unit = (doc or {}).get("sold_unit")
        billed = (
            int(unit["gpus"]) * int(unit["units"])
            if unit
            else billed_devices(n, doc["gpus_per_unit"])
            if doc
            else n
        )
        per_run[slot] = (
            _r(run_device_hours * billed / n * doc["usd_per_device_hour"]) if doc else None
        )
    slot = money["billing_used"]
    to_result: float | None = None
    if slot in per_run:
        to_result = per_run[slot]
    elif slot is not None:
        # A fixed price is held for the share of the month(s) one run needs.
        share = max(hours / hpm, 1.0 / float(runs) if runs else 1.0)
        to_result = _r((money["compute_usd_per_month"][slot] or 0.0) * share)
    capacity = capacity_doc(acc, money, catalog)
    option = {
        **base,
        "cost_per_run_usd": per_run,
        "cost_to_result": {"usd": to_result, "per": "run"},
        **money,
        # Only when the run spans units / exceeds what is rented on demand.
        **({"network": network} if network is not None else {}),
        **({"capacity": capacity} if capacity is not None else {}),
    }
    if to_result is None:
        option["unpriced"] = unpriced_doc(acc, mode, n, ci)
    return option


def unit_tp_caps(acc: Accelerator, mode: str, ci: CostInputs) -> tuple[int, ...]:
    """The largest tensor-parallel group each of the card's offers can hold in one unit for this
    customer (mode, clouds, residency), distinct and ascending; the card's node when it has no
    such offer (owned hardware is built to order, and a TPU slice is its own unit)."""

    def build() -> tuple[int, ...]:
        node = max(1, acc.max_devices_per_node)
        if acc.type != "gpu":
            return (node,)
        unlisted = _not_offered(ci.catalog)
        caps: set[int] = set()
        for p in ci.catalog.prices_by_accelerator.get(acc.id, ()):
            if (
                mode not in p.modes
                or p.on_request
                or (p.region_key, p.provider, acc.id) in unlisted
            ):
                continue
            if mode == "public_cloud" and ci.clouds and p.cloud not in ci.clouds:
                continue
            if ci.residency == "in_region" and not in_country(p.region_key, ci.regions):
                continue
            unit = unit_of(ci.catalog, p)
            if unit is None:
                caps.add(node)
            else:
                caps.add(p.gpus_per_unit if p.gpus_per_unit > 1 else unit.max_gpus)
        return tuple(sorted(caps)) or (node,)

    key = ("unit_tp_caps", acc.id, mode, ci.clouds, ci.residency, ci.regions)
    return ci.catalog.memo(key, build)


def peak_to_average(inf: Inference, catalog: Catalog) -> float:
    """The busiest-hour token rate over the day's average: the answer, else the catalog's figure
    for the traffic shape (rule `traffic_peak_to_mean`)."""
    if inf.peak_to_average is not None:
        return float(inf.peak_to_average)
    return float(catalog.rule("traffic_peak_to_mean")[inf.traffic])


def serving_demand(
    catalog: Catalog,
    kind: str,
    inf: Inference,
    hours_per_day: float,
    weight_bytes: float | None = None,
) -> float:
    """Output tokens a second the serving plan must sustain: real-time serving at its peak (the
    day's mean times the peak-to-average ratio); batch work over its daily window (a window
    shorter than a minute is treated as one minute; no window = all day). A batch window the
    team answered (`inference.batch_window_hours`) is a deadline: the run computes in what the
    window leaves after each run's start-up (needs `weight_bytes`), aiming inside it by the
    catalog's `target_safety_share` as a deadline's plan does."""
    per_day = float(inf.tokens_per_day)
    if kind == "realtime_inference":
        return per_day / 86400.0 * peak_to_average(inf, catalog)
    if inf.batch_window_hours is not None:
        overhead = serving_run_overhead(weight_bytes, catalog)["hours"] if weight_bytes else 0.0
        aim = inf.batch_window_hours * (1.0 - float(catalog.rule("target_safety_share")))
        window = max(aim - overhead, 1.0 / 60.0)
        return per_day / (window * 3600.0)
    window = max(hours_per_day, 1.0 / 60.0) if hours_per_day > 0 else 24.0
    return per_day / (window * 3600.0)


def inference_option(
    acc: Accelerator,
    mode: str,
    kind: str,
    shape: S.ModelShape,
    inf: Inference,
    mem: S.InferenceMemory,
    hours_per_day: float,
    ci: CostInputs,
    rtt_ms: float | None = None,
) -> dict[str, Any] | None:
    """One ranked option for an inference workload; None when the model does not fit.

    Tensor parallelism stays inside one unit, so the card is planned once per largest group
    its offers sell (1-GPU VMs, 4-GPU instances, 8-GPU nodes) and the option is the plan that
    meets the latency target at the lowest cost to the result on an offer that can build it.
    `rtt_ms`: the round trip to the nearest region offering the card when it is not offered
    where the customer is (added to real-time latency)."""
    found = [
        o
        for cap in unit_tp_caps(acc, mode, ci)
        if (
            o := _inference_option(acc, mode, kind, shape, inf, mem, hours_per_day, ci, rtt_ms, cap)
        )
        is not None
    ]
    if len(found) <= 1:
        return found[0] if found else None

    def key(o: Mapping[str, Any]) -> tuple[Any, ...]:
        cost = (o.get("cost_to_result") or {}).get("usd")
        return (o.get("meets_latency") is False, cost is None, cost or 0.0, o["count"])

    return min(found, key=key)


def _inference_option(
    acc: Accelerator,
    mode: str,
    kind: str,
    shape: S.ModelShape,
    inf: Inference,
    mem: S.InferenceMemory,
    hours_per_day: float,
    ci: CostInputs,
    rtt_ms: float | None,
    cap: int,
) -> dict[str, Any] | None:
    """The option of a serving plan whose tensor-parallel group holds at most `cap` devices."""
    catalog = ci.catalog
    per_day = float(inf.tokens_per_day)
    hpm = catalog.hours_per_month
    realtime = kind == "realtime_inference"
    demand = serving_demand(catalog, kind, inf, hours_per_day, mem.weight_bytes)
    rtt = (rtt_ms or 0.0) if realtime else 0.0
    key = ("serving", acc.id, kind, rtt, cap)
    if key not in ci.sized:
        ci.sized[key] = catalog.memo(
            (
                "serving_plan",
                acc.id,
                shape,
                inf,
                mem.weight_bytes,
                mem.parts["activations"],
                demand,
                rtt,
                cap,
                ci.serving,
                realtime,
            ),
            lambda: S.serving_plan(
                shape,
                inf,
                mem,
                acc,
                catalog,
                demand,
                rtt_ms=rtt,
                max_tp=cap,
                serving=ci.serving,
                offline=not realtime,
            ),
        )
    plan = ci.sized[key]
    if plan is None:
        return None
    measured: dict[str, Any] | None = None
    if (m := M.find(ci.measurements, acc.id, ci.serving)) is not None:
        plan, measured = M.apply(plan, m, inf, demand, rtt)
    base_key = ("serving_base", acc.id, kind, rtt, cap)
    if base_key not in ci.sized:
        replicas = plan.replicas
        meets_latency = plan.meets
        overhead: dict[str, float] | None = None
        if realtime:
            # A real-time service is up all month on every device (catalog figure, 730 h).
            busy_hours_per_month = catalog.figure("realtime_hours_per_month")
        else:
            # A daily batch run pays its provisioning, container start and weight loading too.
            overhead = serving_run_overhead(mem.weight_bytes, catalog)
            run_hours = per_day / (plan.tokens_per_second * replicas * 3600.0)
            overhead["run_hours"] = round(run_hours + overhead["hours"], 4)
            busy_hours_per_month = min(hpm, (run_hours + overhead["hours"]) * hpm / 24.0)
        count = plan.tp * replicas
        used = count * busy_hours_per_month
        monthly_tokens = per_day * hpm / 24.0
        egress_gb = monthly_tokens * catalog.figure("response_bytes_per_token") / 1e9
        storage_gb = mem.weight_bytes / 1e9
        ci.sized[base_key] = (
            count,
            used,
            storage_gb,
            egress_gb,
            monthly_tokens,
            {
                "accelerator_id": acc.id,
                "name": acc.name,
                "type": acc.type,
                "count": count,
                "tensor_parallel": plan.tp,
                "replicas": replicas,
                # Issue 21: the peak the fleet is sized for and the replicas the average needs.
                **(
                    {
                        "peak_to_average": peak_to_average(inf, catalog),
                        "peak_traffic_basis": (
                            "answer" if inf.peak_to_average is not None else "traffic"
                        ),
                        "replicas_at_average": min(
                            replicas,
                            max(
                                1,
                                math.ceil(per_day / 86400.0 / plan.tokens_per_second),
                                math.ceil(
                                    inf.concurrent_sequences
                                    / peak_to_average(inf, catalog)
                                    / plan.batch
                                ),
                            ),
                        ),
                    }
                    if realtime
                    else {}
                ),
                "batch_per_replica": plan.batch,
                "hours": round(busy_hours_per_month, 1),
                # Issue 21: a batch run's fixed overhead, in `hours` (once a day).
                **({"run_overhead": overhead} if overhead else {}),
                "tokens_per_second_per_replica": round(plan.tokens_per_second, 1),
                "tpot_ms": round(plan.tpot_ms, 2),
                "ttft_ms": round(plan.ttft_ms, 1),
                "latency_ms": round(plan.latency_ms, 1),
                "latency_metric": inf.latency_metric,
                "latency_target_ms": inf.p95_latency_ms,
                "latency_at_metric_ms": round(plan.metric_ms, 1),
                "best_latency_at_metric_ms": round(plan.best_metric_ms, 1),
                "round_trip_ms": rtt_ms if realtime else None,
                "tp_comm_ms_per_token": round(plan.comm_ms_per_token, 3),
                "meets_latency": meets_latency,
                **target_margin(plan.metric_ms, inf.p95_latency_ms, catalog),
                "bound": plan.bound,
                "interconnect": S.interconnect_need(acc, plan.tp, training=False),
                **(batch_window(inf, overhead, catalog) if overhead is not None else {}),
                **({"measured": measured} if measured is not None else {}),
            },
        )
    count, used, storage_gb, egress_gb, monthly_tokens, base = ci.sized[base_key]
    china_need = None
    if ci.china:
        # Catalog rule `china_bandwidth_need`: real-time serving at its peak, batch results
        # shipped over the day at the mean rate (or as the batch makes them: "run_rate").
        basis = catalog.rule("china_bandwidth_need").get(kind, "daily_mean")
        rate = demand if basis in ("peak", "run_rate") else per_day / 86400.0
        china_need = (rate * catalog.figure("response_bytes_per_token") * 8.0 / 1e6, basis)
    money = _money(acc, mode, count, used, storage_gb, egress_gb, ci, china_need, tp=plan.tp)
    redundancy: dict[str, Any] | None = None
    if realtime:
        redundancy = spare_server(acc, inf, money, plan.tp)
        spare = int(redundancy["spare_replicas"])
        if spare:
            # N+1: one more unit's worth of replicas, so that a failed server still leaves
            # the capacity the peak needs; the option is priced with it.
            more = count + spare * plan.tp
            spared = _money(
                acc,
                mode,
                more,
                used * more / count,
                storage_gb,
                egress_gb,
                ci,
                china_need,
                tp=plan.tp,
            )
            before, after = money["monthly_cost_usd"], spared["monthly_cost_usd"]
            redundancy["spare_devices"] = spare * plan.tp
            redundancy["usd_per_month"] = (
                _r(after - before) if before is not None and after is not None else None
            )
            base = {**base, "count": more, "replicas": int(base["replicas"]) + spare}
            count, used, money = more, used * more / count, spared
    per_mtok: dict[str, float | None] = {}
    for slot, value in money["compute_usd_per_month"].items():
        per_mtok[slot] = (
            _r(value / monthly_tokens * 1e6) if value is not None and monthly_tokens else None
        )
    option = {
        **base,
        **({"redundancy": redundancy} if redundancy is not None else {}),
        "cost_per_million_output_tokens_usd": per_mtok,
        "cost_to_result": (
            {"usd": money["monthly_cost_usd"], "per": "month"}
            if kind == "realtime_inference"
            else {
                "usd": _r(money["monthly_cost_usd"] / monthly_tokens * 1e6)
                if money["monthly_cost_usd"] is not None and monthly_tokens
                else None,
                "per": "million_tokens",
            }
        ),
        **money,
    }
    capacity = capacity_doc(acc, money, catalog)
    if capacity is not None:
        option["capacity"] = capacity
    if option["cost_to_result"]["usd"] is None:
        option["unpriced"] = unpriced_doc(acc, mode, count, ci)
    return option


def spare_server(
    acc: Accelerator, inf: Inference, money: Mapping[str, Any], tp: int
) -> dict[str, Any]:
    """What a real-time service keeps spare (inference.availability): in production, one unit
    of the offer that prices it (N+1: its replicas, `spare_replicas`), so that one server
    failing still leaves the capacity for the peak; none when the team answered best effort or
    development and test. A TPU slice, an owned server or an offer without unit data spares
    one replica's devices."""
    if inf.availability != "survive_one_failure":
        return {"planned": False, "basis": inf.availability, "spare_replicas": 0}
    used = money.get("billing_used")
    price = (money["prices"].get(used) if used else None) or next(
        (p for p in money["prices"].values() if p), None
    )
    sold = (price or {}).get("sold_unit")
    if sold:
        gpus = int(sold["gpus"])
    elif acc.type == "tpu":
        gpus = tp
    elif price and int(price.get("gpus_per_unit") or 1) > 1:
        gpus = int(price["gpus_per_unit"])
    else:
        gpus = tp  # an owned server per replica (the report's server section sizes it so)
    return {
        "planned": True,
        "basis": inf.availability,
        "unit_gpus": gpus,
        "spare_units": 1,
        "spare_replicas": max(1, gpus // max(1, tp)),
    }


def batch_window(inf: Inference, overhead: Mapping[str, float], catalog: Catalog) -> dict[str, Any]:
    """A batch run checked against the window the team answered, as a deadline is: the run's
    hours with its start-up (`overhead["run_hours"]`) against the window's, with the margin and
    its status (met, at_risk, missed). A hard window that is missed ranks like a missed deadline;
    a soft one is flagged. Empty when no window was answered."""
    if inf.batch_window_hours is None:
        return {}
    run_hours = float(overhead["run_hours"])
    return {
        "window": {
            "hours": float(inf.batch_window_hours),
            "start_hour": inf.batch_window_start_hour,
            "firmness": inf.batch_window_firmness,
        },
        "meets_window": run_hours <= inf.batch_window_hours + 1e-9,
        **target_margin(run_hours, inf.batch_window_hours, catalog),
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


def _soft_window(option: Mapping[str, Any]) -> bool:
    return (option.get("window") or {}).get("firmness") == "soft"


def _meets(option: Mapping[str, Any]) -> bool:
    """Meets its deadline or latency target, and a hard batch window (a soft one is flagged,
    never disqualifying)."""
    if option.get("meets_window") is False and not _soft_window(option):
        return False
    return option.get("meets_deadline", option.get("meets_latency")) is not False


def _price_terms(option: Mapping[str, Any]) -> tuple[int, int, int]:
    """(away, indicative, stale), 0 = better: priced outside the customer's region group, an
    indicative price (undated list price, "from" price, undated marketplace row: a buyer cannot
    sign on it), a stale price."""
    used = option.get("billing_used")
    price = (option.get("prices") or {}).get(used) if used else None
    if not price:
        return 1, 1, 0
    return (
        0 if price["region_match"] in ("exact", "nearby") else 1,
        0 if price["as_of"] and not price["estimated"] else 1,
        1 if price["stale"] else 0,
    )


def _time(option: Mapping[str, Any]) -> float:
    """How fast the option gives its result: the answered latency metric for serving with one,
    else hours (per run for training, busy hours a month for batch work)."""
    if option.get("latency_at_metric_ms") is not None and "meets_latency" in option:
        return float(option["latency_at_metric_ms"])
    return float(option.get("hours") or 0.0)


def _away(option: Mapping[str, Any]) -> int:
    """1 when the card is not offered in the customer's regions (only nearest elsewhere)."""
    return 0 if option.get("availability", {}).get("available", True) else 1


# Work whose users wait on the answer: served from where the customer is, or the round trip
# adds to every request. Training and batch work on a public cloud ship data once to a region
# rented by the hour, so a card offered elsewhere is a tie-break among options of similar cost,
# never a tier above a much cheaper one. A hosted or owned server is rented for months and lives
# where it stands: there, where the customer is stays a tier.
_LATENCY_BOUND_KINDS = frozenset({"realtime_inference"})


def _away_is_a_tier(kind: str | None, mode: str | None) -> bool:
    return kind is None or kind in _LATENCY_BOUND_KINDS or mode != "public_cloud"


def _head(
    option: Mapping[str, Any], kind: str | None = None, mode: str | None = None
) -> tuple[int, int, int, int, int, int]:
    return (
        0 if option.get("stack", {}).get("runnable", True) else 1,
        _away(option) if _away_is_a_tier(kind, mode) else 0,
        0 if (option.get("cost_to_result") or {}).get("usd") is not None else 1,
        _target_tier(option),
        needs_reservation(option),
        lead(option),
    )


def needs_reservation(option: Mapping[str, Any]) -> int:
    """1 when the option bills more devices than its provider rents on demand and is not priced
    on a bookable capacity block (capacity_doc): a reservation negotiated with the provider,
    with no price or lead time in the catalog, and a price shown that nobody rents at that
    scale. It ranks after the plans that can be rented now (on demand within the ceiling, or a
    capacity block with its published terms), inside the same target tier: a buyer cannot sign
    a plan whose capacity nobody has offered yet."""
    capacity = option.get("capacity") or {}
    return int(bool(capacity) and not capacity.get("priced_on_block"))


def lead(option: Mapping[str, Any]) -> int:
    """1 when the option's price names no region and carries no date (or is an estimate): a
    lead to ask the provider about, not an offer a buyer can sign as it stands (no place to
    check latency, residency or egress against, no date to hold the provider to). It ranks
    after the options whose price names both, inside the same target tier, however cheap."""
    used = option.get("billing_used")
    price = (option.get("prices") or {}).get(used) if used else None
    if not price:
        return 0
    return int(price.get("region") is None and (not price["as_of"] or bool(price["estimated"])))


def _target_tier(option: Mapping[str, Any]) -> int:
    """0: meets its target with the catalog's safety share to spare (or has no target); 1: meets
    it inside the estimate's own error (`at_risk`); 2: misses it. An architect signs a plan
    that holds with a margin, so a thin one ranks after every comfortable one."""
    if not _meets(option):
        return 2
    return 1 if option.get("target_status") == "at_risk" and not _soft_window(option) else 0


def _unpriced_key(option: Mapping[str, Any], index: int) -> tuple[Any, ...]:
    size = option.get("unpriced") or {}
    return (
        0 if option.get("availability", {}).get("available", True) else 1,
        size.get("memory_gb", 0.0),
        size.get("dense_tflops", 0.0),
        option.get("hours") or 0.0,
        index,
    )


def _dominates(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether `a` is no worse than `b` on every axis a buyer weighs (runs the stack, offered
    where the customer is, meets the target, cost, time, region, firm and fresh price, devices)
    and better on at least one."""
    if a.get("billing_used") != b.get("billing_used"):
        return False  # priced on another billing (the one the team asked for) is its own axis
    pa, pb = _price_terms(a), _price_terms(b)
    worse_is_more = (
        (
            0 if a["stack"]["runnable"] else 1,
            0 if b["stack"]["runnable"] else 1,
        ),
        (
            0 if a["availability"]["available"] else 1,
            0 if b["availability"]["available"] else 1,
        ),
        (_target_tier(a), _target_tier(b)),
        (a["cost_to_result"]["usd"], b["cost_to_result"]["usd"]),
        (_time(a), _time(b)),
        (pa[0], pb[0]),
        (pa[1], pb[1]),
        (pa[2], pb[2]),
        (a["count"], b["count"]),
    )
    return all(x <= y for x, y in worse_is_more) and any(x < y for x, y in worse_is_more)


def rank(
    options: Sequence[dict[str, Any]],
    catalog: Catalog,
    *,
    kind: str | None = None,
    mode: str | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A workload's options in rank order, and the options dropped because another is at least
    as good on every axis (catalog rules `rank_order`, `rank_cost_tolerance`,
    `unpriced_rank_order`). Each option carries `_index` (its catalog order).

    Runnable with the team's stack first (needs porting after); offered where the customer is
    before offered elsewhere (for training and batch work of `kind` on a public cloud, `mode`,
    that is a tie-break inside a cost band, as the price's region is: data residency has
    already excluded what may not leave the country); priced before unpriced; meeting the target
    (deadline, schedule, latency) with the catalog's safety share to spare, then meeting it
    thinly (`at_risk`), then missing it. Then the cost to the result, in bands: a band holds
    every option
    up to (1 + tolerance) times its cheapest, and inside a band, priced in the customer's region
    group and a firm price break the tie before the cost itself; so neither ever lifts an
    option above one several times cheaper. Ties: fewer devices, less time, a fresh price,
    catalog order (never the card's name). Unpriced options (owned hardware has no purchase
    price) rank by the smallest hardware that does the job, never the fastest card by default.
    """
    tolerance = float(catalog.rule("rank_cost_tolerance"))
    tiers: dict[tuple[int, ...], list[dict[str, Any]]] = {}
    for o in options:
        tiers.setdefault(_head(o, kind, mode), []).append(o)
    ranked: list[dict[str, Any]] = []
    for head in sorted(tiers):
        tier = tiers[head]
        if head[2]:  # unpriced
            ranked += sorted(tier, key=lambda o: _unpriced_key(o, o["_index"]))
            continue
        by_cost = sorted(tier, key=lambda o: (o["cost_to_result"]["usd"], o["_index"]))
        band, start = 0, None
        bands: dict[int, int] = {}
        for o in by_cost:
            cost = o["cost_to_result"]["usd"]
            if start is None or cost > start * (1.0 + tolerance) + 1e-9:
                band, start = band + (start is not None), cost
            bands[id(o)] = band

        def key(o: Mapping[str, Any], bands: dict[int, int] = bands) -> tuple[Any, ...]:
            away, indicative, stale = _price_terms(o)
            return (
                bands[id(o)],
                _away(o),
                away,
                indicative,
                o["cost_to_result"]["usd"],
                o["count"],
                _time(o),
                stale,
                o["_index"],
            )

        ranked += sorted(tier, key=key)
    kept: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    for o in ranked:
        priced = (o.get("cost_to_result") or {}).get("usd") is not None
        better = next((k for k in kept if priced and _priced(k) and _dominates(k, o)), None)
        if better is None:
            kept.append(o)
        else:
            dropped.append({**o, "dominated_by": better["accelerator_id"]})
    return kept, dropped


def _priced(option: Mapping[str, Any]) -> bool:
    return (option.get("cost_to_result") or {}).get("usd") is not None
