"""The indicative month of a row sold on request: the median of the same card's sourced prices
for a rented server, its basis named."""

from __future__ import annotations

from dataclasses import replace

from advisor.engine.catalog.entries import Price

# Where a server is rented by the month, and the prices that say what such a month costs.
_HOSTED_MODES = frozenset({"dedicated_hosting", "bare_metal"})
_TERM_BILLINGS = frozenset({"monthly", "commit_1y", "commit_3y"})


def with_indicative(p: Price, prices: tuple[Price, ...], hours: float) -> Price:
    """A row sold on request with an indicative figure: the median per-GPU month of the same
    card's sourced, located and dated prices for a rented server (dedicated or bare metal, by
    the month or term), else of its on-demand rates over a month of hours. The figure names
    its basis (row, provider, place, date); a buyer is told to ask for a quote. A row with a
    figure, or a card with no such price, is returned as it is."""
    if not p.on_request or p.usd_per_device_month is not None or p.usd_per_device_hour:
        return p
    firm = [
        q
        for q in prices
        if q.accelerator_id == p.accelerator_id
        and not q.on_request
        and q.region is not None
        and q.as_of is not None
        and (q.usd_per_device_month or q.usd_per_device_hour)
    ]
    hosted = [q for q in firm if set(q.modes) & _HOSTED_MODES and q.billing in _TERM_BILLINGS]
    pool, basis = (
        (hosted, "rented server")
        if hosted
        else (
            [q for q in firm if q.billing == "on_demand"],
            "on-demand",
        )
    )
    if not pool:
        return p

    def month(q: Price) -> float:
        return float(q.usd_per_device_month or float(q.usd_per_device_hour or 0) * hours)

    ranked = sorted(pool, key=lambda q: (month(q), q.id))
    median = ranked[(len(ranked) - 1) // 2]  # the lower median: a real row, named
    figure = round(month(median), 2)
    return replace(
        p,
        usd_per_device_month=figure,
        estimated=True,
        derived=True,
        indicative=True,
        indicative_basis={
            "rows": len(ranked),
            "kind": "rented_server" if hosted else "on_demand",
            "row": median.id,
            "provider": median.provider,
            "region": median.region,
            "usd_per_device_month": figure,
            "as_of": median.as_of,
        },
        as_of=median.as_of,
        source=(
            f"Indicative, not a quote: the median of {len(ranked)} sourced {basis} price(s) "
            f"per GPU-month for this card, {median.provider} ({median.region}) at "
            f"${figure:,.2f} (catalog row {median.id}, {median.as_of}). Ask for a quote. "
            f"{p.source}"
        ),
    )
