"""The price row an option is billed on per slot, and the price document the report shows.

Every price in the output carries provider, region, source, as_of and `stale` (older than the
catalog's stale rule relative to `today`, or undated). Missing prices are reported as missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from advisor.engine.catalog import Catalog, Price, Unit
from advisor.engine.pricing.billing import (
    FABRICS,
    PRICE_SLOTS,
    CostInputs,
    UnitFit,
    china_bandwidth_cost,
    unit_fit,
    unit_of,
)
from advisor.engine.pricing.regions import in_country, not_offered, region_match

_MATCH_RANK = {"exact": 0, "nearby": 1, "elsewhere": 2}


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
