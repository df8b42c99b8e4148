"""China reach: the path an option's traffic takes to users in mainland China
- a premium route (CN2 GIA, CMI) where the option's server includes one, else the ordinary
internet - with the cross-border round trip from where the option runs, the packet loss at the
evening peak, and what both add to a mainland user's time to first token at the 95th
percentile. Catalog figures, marked estimated where no published measurement exists."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from advisor.engine.catalog import Catalog, Price

# Where no figure is sourced for the option's region, the longest of the three stands in.
_STAND_IN = "china_rtt_ms_internet_los_angeles"
_STAND_IN_PREMIUM = "china_rtt_ms_premium_los_angeles"


def public_path(catalog: Catalog, region_key: str | None) -> dict[str, Any]:
    """The ordinary-internet path from `region_key` to mainland China users."""
    key = catalog.rule("china_rtt_by_region").get(region_key or "", _STAND_IN)
    return {
        "route": "internet",
        "premium_route": None,
        "round_trip_ms": catalog.figure(key),
        "round_trip_figure": key,
        "peak_loss": catalog.figure("china_loss_internet_peak"),
        "loss_figure": "china_loss_internet_peak",
    }


def user_path(catalog: Catalog, region_key: str | None, route: str | None) -> dict[str, Any]:
    """The path from `region_key` to a user in mainland China over `route` (a premium route
    such as "cn2_gia", or None for the ordinary internet), and what it adds to that user's
    time to first token at the 95th percentile (catalog rule `china_user_latency`).

    The allowance for loss: a request's first token needs `packets_to_first_token` packets
    across the border; at the answered percentile, as many of them are lost as a binomial count
    at the path's loss rate reaches, and each lost one waits a retransmission timeout, which
    Linux sets at the smoothed round trip plus at least TCP_RTO_MIN."""
    if region_key == "mainland_china":
        # Served from inside mainland China: no border to cross.
        return {
            "route": "domestic",
            "premium_route": None,
            "region": region_key,
            "round_trip_ms": 0.0,
            "round_trip_figure": None,
            "peak_loss": 0.0,
            "loss_figure": None,
            "lost_packets": 0,
            "retransmit_ms": 0.0,
            "added_ms": 0.0,
        }
    if route:
        key = catalog.rule("china_rtt_premium_by_region").get(region_key or "", _STAND_IN_PREMIUM)
        loss_key = "china_loss_premium_peak"
    else:
        key = catalog.rule("china_rtt_by_region").get(region_key or "", _STAND_IN)
        loss_key = "china_loss_internet_peak"
    rtt = catalog.figure(key)
    loss = catalog.figure(loss_key)
    rule = catalog.rule("china_user_latency")
    lost = lost_at(loss, int(rule["packets_to_first_token"]), float(rule["percentile"]))
    retransmit = lost * (rtt + catalog.figure("tcp_rto_min_ms"))
    return {
        "route": "premium" if route else "internet",
        "premium_route": route or None,
        "region": region_key,
        "round_trip_ms": rtt,
        "round_trip_figure": key,
        "peak_loss": loss,
        "loss_figure": loss_key,
        "lost_packets": lost,
        "retransmit_ms": round(retransmit, 1),
        "added_ms": round(rtt + retransmit, 1),
    }


def lost_at(loss: float, packets: int, percentile: float) -> int:
    """The packets lost out of `packets` at the `percentile` of a binomial count with rate
    `loss`: the fewest losses whose cumulative probability reaches the percentile."""
    if loss <= 0.0:
        return 0
    total = 0.0
    for k in range(packets + 1):
        total += math.comb(packets, k) * loss**k * (1.0 - loss) ** (packets - k)
        if total + 1e-12 >= percentile:
            return k
    return packets


def option_path(
    catalog: Catalog,
    option: Mapping[str, Any],
    acc_id: str,
    mode: str,
    regions: Sequence[str],
) -> dict[str, Any]:
    """The path an option's traffic takes to mainland users: from the region of the price row it
    is billed on, over that row's premium route when its server includes one (a hosted offer);
    an owned or unpriced option runs where the customer is (its first region), over the
    ordinary internet."""
    price = billed_row(catalog, option, acc_id)
    if price is not None:
        server = price.server or {}
        route = server.get("china_bandwidth_type") if mode != "public_cloud" else None
        return user_path(catalog, price.region_key, route or None)
    # The customer's first region is where its own servers stand.
    return user_path(catalog, regions[0] if regions else None, None)


def billed_row(catalog: Catalog, option: Mapping[str, Any], acc_id: str) -> Price | None:
    """The catalog row an option is billed on (its billing's price, else its first price)."""
    prices = option.get("prices") or {}
    used = option.get("billing_used")
    doc = prices.get(used) if used else next((p for p in prices.values() if p), None)
    if not doc:
        return None
    return _row_index(catalog).get((acc_id, doc["price_id"]))


def _row_index(catalog: Catalog) -> dict[tuple[str, str], Price]:
    """(card, price id) -> the card's first catalog row with that id, built once per catalog."""

    def build() -> dict[tuple[str, str], Price]:
        index: dict[tuple[str, str], Price] = {}
        for acc_id, rows in catalog.prices_by_accelerator.items():
            for p in rows:
                index.setdefault((acc_id, p.id), p)
        return index

    return catalog.memo("billed_row_index", build)


def with_reach(
    catalog: Catalog,
    acc_id: str,
    mode: str,
    regions: Sequence[str],
    base_rtt: float | None,
    plan: Callable[[float | None], dict[str, Any] | None],
) -> dict[str, Any] | None:
    """A real-time option for a team serving mainland China users, planned with its path's
    round trip and loss allowance, so that the latency target is met, or missed, for a mainland
    user: the slower of that and the round trip the plan already counts for the customer's own
    regions (`base_rtt`, to the nearest region offering the card) sets the 95th percentile. The
    path depends on the row that prices the plan, and the row on the
    plan's size: planned again until the path holds (three times at most; the last plan stands
    with the path it was planned for)."""
    option = plan(base_rtt)
    if option is None:
        return None
    path = option_path(catalog, option, acc_id, mode, regions)
    tried = [path]
    for _ in range(3):
        planned = plan(max(base_rtt or 0.0, float(path["added_ms"])))
        if planned is None:
            return option
        option = planned
        found = option_path(catalog, option, acc_id, mode, regions)
        if found == path:
            option["china_reach"] = path
            return option
        path = found
        tried.append(path)
    # The plan's size and its row keep moving each other between cities: planned once more for
    # the longest path any of them gives, the plan holds wherever it is billed, and its reach
    # is the path of the row that bills it.
    slowest = max(float(p["added_ms"]) for p in tried)
    planned = plan(max(base_rtt or 0.0, slowest))
    if planned is not None:
        option = planned
    option["china_reach"] = option_path(catalog, option, acc_id, mode, regions)
    return option
