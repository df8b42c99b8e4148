"""The offer of a card in a mode for one customer: its prices per slot, memoised."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from advisor.engine.catalog import Accelerator, Catalog, Price
from advisor.engine.pricing.billing import ANCHOR_SLOTS, PRICE_SLOTS, CostInputs, billed_devices
from advisor.engine.pricing.price_rows import (
    PriceChoice,
    choose_price,
    on_request_offers,
    price_doc,
)
from advisor.engine.text import clouds


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
    # What costing reads of the prices for every option on this offer, read once: the price
    # that anchors the offer (the first of ANCHOR_SLOTS priced), the slots whose price may be
    # the headline (the anchor's provider and region, or read where the anchor is), each
    # priced slot's devices billed (whole units) and rate per device-hour, and the offers of
    # the card in this mode sold on request.
    anchor: PriceChoice | None
    headline: frozenset[str]
    billed: Mapping[str, int]
    hourly: Mapping[str, float]
    on_request: list[dict[str, Any]]


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
        anchor = next((prices[s] for s in ANCHOR_SLOTS if prices.get(s)), None)
        # Another provider's or region's price (the anchor's offer has none for the slot) is
        # the headline only when it is read in the customer's region group, or the anchor is
        # not either: never a Hong Kong commitment under a Los Angeles on-demand price.
        headline = frozenset(
            s
            for s, c in prices.items()
            if anchor is None
            or c is None
            or c.same_offer
            or c.match != "elsewhere"
            or anchor.match == "elsewhere"
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
            anchor=anchor,
            headline=headline,
            # A price sold in units of several devices is paid for in whole units.
            billed={
                s: c.fit.billed if c.fit else billed_devices(count, c.price.gpus_per_unit)
                for s, c in prices.items()
                if c is not None
            },
            hourly={s: c.hourly for s, c in prices.items() if c is not None},
            on_request=on_request_offers(acc.id, mode, ci),
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
