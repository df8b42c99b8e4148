"""Ranking options: tiers (meets the target, needs a reservation, lead time), dominance and the
final order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine.catalog import Catalog


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


def house(option: Mapping[str, Any]) -> int:
    """0 when the option is billed on the operator's own server where the customer is (its
    region group), else 1."""
    used = option.get("billing_used")
    price = (option.get("prices") or {}).get(used) if used else None
    return 0 if price and price.get("house") and price["region_match"] != "elsewhere" else 1


def _head(
    option: Mapping[str, Any], kind: str | None = None, mode: str | None = None
) -> tuple[int, int, int, int, int, int, int]:
    # Meeting the target comes before where the option runs: a plan elsewhere that meets it
    # (its round trip counted) is signed before one here that misses it, and says so. Among
    # the plans that meet it, the operator's own servers come first (the business); a note
    # says what a cheaper option would save.
    return (
        0 if option.get("stack", {}).get("runnable", True) else 1,
        0 if (option.get("cost_to_result") or {}).get("usd") is not None else 1,
        _target_tier(option),
        house(option),
        _away(option) if _away_is_a_tier(kind, mode) else 0,
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
    """1 when the option's price names no region and carries no date (or is an estimate), or
    names no region the customer could be in (`location_unknown`: "global (not stated)" while
    the customer names theirs): a lead to ask the provider about, not an offer a buyer can sign
    as it stands (no place to check latency, residency or egress against, no date to hold the
    provider to). It ranks after the options whose price names both, inside the same target
    tier, however cheap, for every kind of work: unlike a card in a known region elsewhere,
    nobody can ship the data to it knowing where it goes."""
    used = option.get("billing_used")
    price = (option.get("prices") or {}).get(used) if used else None
    if not price:
        return 0
    if (option.get("availability") or {}).get("location_unknown"):
        return 1
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
    return _dominates_on(_axes(a), _axes(b))


def _axes(o: Mapping[str, Any]) -> tuple[Any, tuple[Any, ...]]:
    """An option's billing and its place on each axis `_dominates` weighs (less is better)."""
    terms = _price_terms(o)
    return o.get("billing_used"), (
        0 if o["stack"]["runnable"] else 1,
        0 if o["availability"]["available"] else 1,
        _target_tier(o),
        house(o),
        o["cost_to_result"]["usd"],
        _time(o),
        terms[0],
        terms[1],
        terms[2],
        o["count"],
    )


def _dominates_on(a: tuple[Any, tuple[Any, ...]], b: tuple[Any, tuple[Any, ...]]) -> bool:
    if a[0] != b[0]:
        return False  # priced on another billing (the one the team asked for) is its own axis
    # No worse on any axis and not equal on all of them: better on one (the axes are numbers).
    return all(x <= y for x, y in zip(a[1], b[1], strict=True)) and a[1] != b[1]


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
    An option planned on measured figures that meets its target ranks ahead of every option
    neither measured nor firmly better (`_measured_first`).
    """
    tolerance = float(catalog.rule("rank_cost_tolerance"))
    tiers: dict[tuple[int, ...], list[dict[str, Any]]] = {}
    for o in options:
        tiers.setdefault(_head(o, kind, mode), []).append(o)
    ranked: list[dict[str, Any]] = []
    for head in sorted(tiers):
        tier = tiers[head]
        if head[1]:  # unpriced
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
    ranked = _measured_first(ranked, tolerance, kind, mode)
    kept: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []
    # The priced options kept so far, each with its axes (read once) and whether it is
    # measured: only a priced option dominates, and only a priced one is dominated.
    kept_priced: list[tuple[dict[str, Any], tuple[Any, tuple[Any, ...]], bool]] = []
    for o in ranked:
        if not _priced(o):
            kept.append(o)
            continue
        axes = _axes(o)
        measured = bool(o.get("measured"))
        # A measured option is never dropped for an estimate that looks as good.
        better = next(
            (
                k
                for k, k_axes, k_measured in kept_priced
                if (k_measured or not measured) and _dominates_on(k_axes, axes)
            ),
            None,
        )
        if better is None:
            kept.append(o)
            kept_priced.append((o, axes, measured))
        else:
            dropped.append({**o, "dominated_by": better["accelerator_id"]})
    return kept, dropped


def _firmly_better(
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    tolerance: float,
    kind: str | None,
    mode: str | None,
) -> bool:
    """Whether `a` beats `b` by more than the estimates' own error: a better tier (runs the
    stack, priced, meets the target with the catalog's safety share where `b` meets it
    thinly or misses it, the operator's own server, where the customer is, rentable now, a
    price a buyer can sign), or a cost to the result lower by more than `rank_cost_tolerance`.
    Inside a tier and that tolerance the order is tie-breaks (region of the price, devices,
    time, memory x count for unpriced hardware), which a measurement outweighs."""
    head_a, head_b = _head(a, kind, mode), _head(b, kind, mode)
    if head_a != head_b:
        return head_a < head_b
    cost_a = (a.get("cost_to_result") or {}).get("usd")
    cost_b = (b.get("cost_to_result") or {}).get("usd")
    if cost_a is None or cost_b is None:
        return False
    return float(cost_a) * (1.0 + tolerance) < float(cost_b) - 1e-9


def _measured_first(
    ranked: list[dict[str, Any]], tolerance: float, kind: str | None, mode: str | None
) -> list[dict[str, Any]]:
    """`ranked` with each option planned on measured figures that meets its target moved up
    past every option that is neither measured too nor firmly better (`_firmly_better`): a
    card the team has run stays ahead of one only estimated to do as well."""
    out = list(ranked)
    for option in ranked:
        if not option.get("measured") or not _meets(option):
            continue
        at = next(i for i, o in enumerate(out) if o is option)
        stop = max(
            (
                i + 1
                for i, other in enumerate(out[:at])
                if other.get("measured") or _firmly_better(other, option, tolerance, kind, mode)
            ),
            default=0,
        )
        if stop < at:
            out.insert(stop, out.pop(at))
    return out


def _priced(option: Mapping[str, Any]) -> bool:
    return (option.get("cost_to_result") or {}).get("usd") is not None
