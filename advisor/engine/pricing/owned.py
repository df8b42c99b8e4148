"""Owned hardware: the owned-cost document (purchase, amortisation, operations), what renting the
same card would cost, and the document of a card nobody prices.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from advisor.engine.catalog import Accelerator
from advisor.engine.pricing import tco
from advisor.engine.pricing.billing import CostInputs
from advisor.engine.pricing.price_rows import PriceChoice, is_stale


def owned_doc(
    acc: Accelerator,
    mode: str,
    count: int,
    compute: Mapping[str, float | None],
    ci: CostInputs,
    min_servers: int = 1,
) -> dict[str, Any] | None:
    """Owned hardware's cost of ownership and its break-even against renting the same cards
    (tco.py), when the mode is owned, no rental row prices it and the card has a sourced
    purchase price."""
    if mode not in OWNED_MODES or any(v is not None for v in compute.values()):
        return None

    def build() -> dict[str, Any] | None:
        doc = tco.owned_tco(
            acc,
            count,
            ci.catalog,
            ci.regions,
            ci.amortisation_months,
            ci.capex_budget_usd,
            min_servers,
        )
        if doc is None:
            return None
        return {**doc, "break_even": tco.break_even(doc, rental_equivalent(acc, ci), count)}

    key = (
        "owned_tco",
        acc.id,
        count,
        min_servers,
        ci.regions,
        ci.amortisation_months,
        ci.capex_budget_usd,
        ci.today,
        ci.stale_days,
    )
    return ci.catalog.memo(key, build)


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
        # The rental proxy is gone: owned hardware is priced by its cost of ownership
        # (tco.py), and a card with no sourced purchase price says so instead.
        "rental_equivalent": None,
    }
