"""Which price applies: billing slots, the unit that fits, the region match, the chosen price
and slot per option, and the price document the report shows.

Every price in the output carries provider, region, source, as_of and `stale` (older than the
catalog's stale rule relative to `today`, or undated). Missing prices are reported as missing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from advisor.engine.catalog import Accelerator, Catalog, Price, Unit
from advisor.engine.sizing import measured as M
from advisor.engine.text import clouds

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


# Regions served from a neighbour outside their region group: mainland China from Hong Kong,
# over the China-optimised routes (CN2 GIA/CMI) its hosts sell.
NEIGHBOURS: dict[str, tuple[str, ...]] = {"mainland_china": ("hong_kong",)}


def region_match(catalog: Catalog, key: str | None, regions: Sequence[str]) -> str:
    """How a price's or offer's region (catalog key) stands to the customer's regions: "exact"
    (one of them, or Tokyo for a customer anywhere in Japan), "nearby" (same region group, or
    the neighbour a region is served from) or "elsewhere"."""
    if key is None:
        return "elsewhere"
    if key in regions or (key == "tokyo" and "japan" in regions):
        return "exact"
    if _group(catalog, key) in {_group(catalog, r) for r in regions}:
        return "nearby"
    if any(key in NEIGHBOURS.get(r, ()) for r in regions):
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


def not_offered(catalog: Catalog) -> frozenset[tuple[str | None, str, str]]:
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
    skip_house: bool = False,
    min_units: int = 1,
) -> PriceChoice | None:
    """Cheapest price for the slot: the customer's regions first, then nearby, then anywhere;
    within a region match, the anchor's provider and region first (so that one option's
    on-demand, spot and commitment prices are one offer), then the cost of `count` devices
    billed in the price's whole units (an 8-GPU node is never a 1-GPU purchase), plus, when
    `china_mbps` are needed, the premium China bandwidth beyond what the row's servers include
    at the row's own price per Mbps-month (a row without one adds nothing it could price).
    Only rows whose unit can build the option (`tp` devices in one unit) price it; a training
    run over several units prefers an offer with an RDMA-class fabric between them. The
    operator's own rows come first where the customer is; `skip_house` leaves them out (what
    the cheapest other offer would cost). `min_units`: the fewest units the option must span
    (a service with its spare: two)."""
    best: tuple[int, int, int, int, int, float, str] | None = None
    chosen: PriceChoice | None = None
    unlisted = not_offered(catalog)
    for p in catalog.prices_by_accelerator.get(acc_id, ()):
        if p.billing not in PRICE_SLOTS[slot] or mode not in p.modes:
            continue
        if p.on_request and not p.indicative:
            continue  # a price on request with no figure to indicate: listed, never priced
        if skip_house and p.house:
            continue
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
        if fit.units < min_units:
            continue  # a service's spare must not share the only unit with it
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
        # The operator's own server comes first among the offers where the customer is: the
        # report says what a cheaper offer of the same card would save (`cheaper_elsewhere`).
        house = 0 if p.house and match != "elsewhere" else 1
        key = (
            _MATCH_RANK[match],
            0 if country else 1,
            house,
            0 if same else 1,
            no_fabric,
            cost,
            p.id,
        )
        if best is None or key < best:
            best, chosen = key, choice
    return chosen


def cheaper_elsewhere(
    acc_id: str,
    mode: str,
    slot: str,
    chosen: PriceChoice,
    usd_per_month: float,
    ci: CostInputs,
    china_mbps: float | None = None,
    tp: int = 1,
    training: bool = False,
) -> dict[str, Any] | None:
    """When the operator's own server prices an option: the cheapest other offer of the same
    card, billing and place, and what it would save a month (None when none costs less)."""
    if not chosen.price.house:
        return None

    def build() -> dict[str, Any] | None:
        other = choose_price(
            ci.catalog,
            acc_id,
            mode,
            slot,
            ci.regions,
            ci.clouds,
            ci.residency,
            chosen.fit.billed if chosen.fit else 1,
            None,
            china_mbps,
            tp,
            training,
            skip_house=True,
        )
        if other is None or other.match != chosen.match or other.fit is None:
            return None
        cost = other.monthly * other.fit.billed
        if cost >= usd_per_month - 0.005:
            return None
        return {
            "price_id": other.price.id,
            "provider": other.price.provider,
            "region": other.price.region,
            "billing": slot,
            "usd_per_month": round(cost, 2),
            "saves_usd_per_month": round(usd_per_month - cost, 2),
            "saves_share": round(1.0 - cost / usd_per_month, 4) if usd_per_month else None,
            "source": other.price.source,
            "as_of": other.price.as_of,
        }

    key = (
        "cheaper_elsewhere",
        acc_id,
        mode,
        slot,
        chosen.price.id,
        round(usd_per_month, 2),
        ci.regions,
        ci.clouds,
        ci.residency,
        china_mbps,
        tp,
        training,
    )
    return ci.catalog.memo(key, build)


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
    if "_Ngpu" in name and shape.vcpu and shape.ram_gb:
        # Nebius names a preset by its GPUs, vCPUs and memory (gpu-h200-sxm_8gpu-128vcpu-1600gb).
        name = name.replace("_Ngpu", f"_{fit.unit_gpus}gpu-{shape.vcpu:g}vcpu-{shape.ram_gb:g}gb")
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
        # Only on rows sold on request: the figure indicates, a quote decides.
        **(
            {"indicative": True, "on_request": True, "basis": dict(p.indicative_basis or {})}
            if p.indicative
            else {}
        ),
        # Only on house offers, so that results priced without one keep their bytes.
        **(
            {
                "house": True,
                "server": dict(p.server or {}),
                "modes": list(p.modes),
                **({"demo": True} if p.demo else {}),
            }
            if p.house
            else {}
        ),
    }


def on_request_offers(acc_id: str, mode: str, ci: CostInputs) -> list[dict[str, Any]]:
    """The card's offers in this mode sold on request (no figure, so they price nothing):
    listed beside the option so that a buyer can ask for a quote. Same region rules as a price
    (not where the availability table says the card is not offered; in-region when residency
    requires it); the customer's regions first."""

    def build() -> list[dict[str, Any]]:
        unlisted = not_offered(ci.catalog)
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
                        # The modes the operator sells its server in, named on the report.
                        **({"modes": list(p.modes)} if p.house else {}),
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
    # Benchmark runs of the team's stack (engine/sizing/measured/): in place of the estimates.
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
    min_units: int = 1,
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
            min_units=min_units,
        )

    def choose() -> dict[str, PriceChoice | None]:
        out: dict[str, PriceChoice | None] = {}
        anchor: Price | None = None
        for slot in ANCHOR_SLOTS:
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
        min_units,
    )
    return ci.catalog.memo(key, choose)


def _storage_rate(cloud: str | None, mode: str, catalog: Catalog) -> float:
    if mode != "public_cloud":
        return 0.0  # local NVMe in the server (sized under `server`)
    named = clouds.public(cloud)
    return catalog.figure(named.storage_figure if named else "other_storage_usd_per_gb_month")


@dataclass(frozen=True, slots=True)
class _Offer:
    """What the money of an (accelerator, mode) needs from the catalog, for one customer."""

    prices: Mapping[str, PriceChoice | None]
    docs: Mapping[str, dict[str, Any] | None]
    missing: tuple[str, ...]
    storage_rate: float
    break_even: Mapping[str, float | None]


def best_offer(
    acc: Accelerator,
    mode: str,
    count: int,
    ci: CostInputs,
    china_mbps: float | None = None,
    tp: int = 1,
    training: bool = False,
    min_units: int = 1,
) -> _Offer:
    local = ("offer", acc.id, mode, count, china_mbps, tp, training, min_units)
    found = ci.sized.get(local)
    if found is None:
        found = ci.sized[local] = _offer_memo(
            acc, mode, count, ci, china_mbps, tp, training, min_units
        )
    return found


def _offer_memo(
    acc: Accelerator,
    mode: str,
    count: int,
    ci: CostInputs,
    china_mbps: float | None,
    tp: int,
    training: bool,
    min_units: int = 1,
) -> _Offer:
    def build() -> _Offer:
        prices = _prices(acc, mode, count, ci, china_mbps, tp, training, min_units)
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
        min_units,
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
