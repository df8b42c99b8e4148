"""How plans are built, the planner's own work: I2 built as sold, I7 the operator first,
I8 one count, I9 one fleet."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from advisor.audit.invariants.case import (
    HOSTED,
    OPERATOR_REGIONS,
    Case,
    Violation,
    _first,
    _price,
    _sized,
    _v,
    _workloads,
)

# -------------------------------------------------------------------------- I2: built as sold


def i2_built_as_sold(case: Case) -> Iterator[Violation]:
    """The first GPU option is bought in whole units as sold (its `unit`): the billed cards are
    the units' cards, a tensor-parallel group fits in one unit, a price sold per unit counts that
    unit's cards, a host's server is priced for the cards it holds, and a vendor's SXM build is
    an HGX board of 4 or 8."""
    for _, w in _workloads(case):
        for option in (w.get("options") or [])[:1]:
            if option.get("type") != "gpu":
                continue
            count = int(option["count"])
            billed = int(option.get("billed_count") or count)
            tp = int(option.get("tensor_parallel") or 1)
            name = f"{option['name']} × {count}"
            unit = option.get("unit")
            if not unit:
                yield _v("I2", w, f"{name}: no unit as sold")
                continue
            per_unit, units = int(unit["gpus"]), int(unit["count"])
            if billed != per_unit * units:
                yield _v(
                    "I2",
                    w,
                    f"{name} is billed as {billed} cards, not {units} unit(s) of {per_unit}",
                )
            if tp > per_unit:
                yield _v(
                    "I2",
                    w,
                    f"{name}: a tensor-parallel group of {tp} spans units of {per_unit} card(s)",
                )
            if count > billed:
                yield _v("I2", w, f"{name}: {count} cards needed, {billed} bought")
            price = _price(option) or {}
            priced_per_unit = int(price.get("gpus_per_unit") or 1)
            if priced_per_unit > 1 and priced_per_unit != per_unit:
                yield _v(
                    "I2",
                    w,
                    f"{name}: the unit sold has {per_unit} cards, the price counts "
                    f"{priced_per_unit}",
                )
            server = price.get("server") or {}
            if server and int(server.get("gpus") or per_unit) != per_unit:
                yield _v("I2", w, f"{name}: a server of {server.get('gpus')} priced as {per_unit}")
            board = unit["kind"] == "vendor_build" and unit["name"] in ("HGX", "OAM")
            if board and per_unit not in (4, 8):
                yield _v("I2", w, f"{name}: an HGX board of {per_unit} cards")


# ------------------------------------------------------------------------ I7: operator first


def i7_operator_first(case: Case) -> Iterator[Violation]:
    regions = set(case.answers["organization"]["regions"])
    china = bool(case.answers["deployment"].get("china_connectivity")) or (
        "mainland_china" in regions
    )
    if not (regions & OPERATOR_REGIONS or china):
        return
    if not HOSTED & set(case.answers["deployment"]["allowed_modes"]):
        return
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w) or w.get("dead_end"):
            continue  # a dead end offers the operator's sized server as its quote (I1q)
        price = _price(first) or {}
        # The operator's server fits: an option billed on it runs the team's stack as it is,
        # meets its target (one that misses it fits nothing) with no less margin than the first
        # option, and stands where the customer is (its region group, or Hong Kong for mainland
        # China: a Tokyo server is away for a team in Europe that also reaches China). A server
        # on request listed beside the first option fits by being listed. An option billed on
        # another host in the customer's own country, whose other terms the operator sells next
        # door, is that host's plan.
        house_fits = bool(first.get("house_on_request")) or any(
            o.get("house_on_request")
            or (
                bool((_price(o) or {}).get("house"))
                and (_price(o) or {}).get("region_match") != "elsewhere"
                and o["stack"]["runnable"]
                and _tier(o) <= min(_tier(first), 1)
            )
            for o in w.get("options") or []
        )
        if house_fits and not price.get("house"):
            yield _v(
                "I7",
                w,
                f"an operator's server fits, yet the first option is {first['name']} from "
                f"{price.get('provider') or 'no priced offer'}",
            )
        if price.get("house") and first.get("monthly_cost_usd") is None:
            yield _v("I7", w, "the operator's server is first but carries no price")


def _tier(option: Mapping[str, Any]) -> int:
    """0: meets its target with margin (or has none), 1: inside the estimate's error, 2: misses."""
    return {"missed": 2, "at_risk": 1}.get(str(option.get("target_status")), 0)


# ----------------------------------------------------------------------------- I8: one count


_BUY = re.compile(r"(?:Buy|購買)\s*[:：]?\s*(.+?) × (\d+)")


def i8_one_count(case: Case) -> Iterator[Violation]:
    by_workload = {c["workload"]: c for c in case.result["cost"].get("by_workload") or []}
    servers = {s.get("workload"): s for s in case.result.get("servers") or []}
    for _, w in _workloads(case):
        first = _first(w)
        if first is None or not _sized(w):
            continue
        count = int(first["count"])
        cost = by_workload.get(w["kind"])
        if cost is not None and cost.get("count") not in (None, count):
            yield _v("I8", w, f"the plan says {count} cards, the cost table {cost['count']}")
        server = servers.get(w["kind"])
        if server and server.get("accelerator_id") == first["accelerator_id"]:
            cards = int(server.get("devices_per_node") or 0) * int(server.get("nodes") or 0)
            billed = int(first.get("billed_count") or count)
            if cards and cards not in (count, billed):
                yield _v(
                    "I8",
                    w,
                    f"the plan says {count} cards, the balanced server "
                    f"{server['nodes']} × {server['devices_per_node']}",
                )
        for offer in first.get("house_on_request") or []:
            needed = offer.get("needed_count")
            same_card = offer.get("accelerator_id") == first["accelerator_id"]
            if same_card and needed is not None and int(needed) != count:
                yield _v(
                    "I8",
                    w,
                    f"the plan says {count} cards, the operator's server beside it sizes {needed}",
                )
        redundancy = first.get("redundancy") or {}
        units = int((first.get("unit") or {}).get("count") or 0)
        if redundancy.get("spare_units") and units == 1:
            yield _v("I8", w, "a spare server is counted inside one server")
        unit = first.get("unit") or {}
        if unit and int(unit["billed"]) != int(first.get("billed_count") or count):
            yield _v(
                "I8",
                w,
                f"the plan bills {first.get('billed_count') or count} cards, its servers "
                f"{unit['count']} × {unit['gpus']}",
            )


# --------------------------------------------------------------------------- I9: one fleet


def i9_one_fleet(case: Case) -> Iterator[Violation]:
    """Workloads whose first options run on the same card, hosted or owned mode, provider and
    server are planned as one fleet or said to be separate, with the reason; a shared fleet has
    fewer servers than separate ones and its saving is in the total."""
    firsts = [
        (w, _first(w)) for w in case.result["workloads"] if _sized(w) and _first(w) is not None
    ]
    fleet = case.result.get("fleet") or {}
    groups = [set(g["workloads"]) for g in fleet.get("groups") or []]
    keyed: dict[tuple[str, str, str, str], list[str]] = {}
    for w, option in firsts:
        if option is None or option.get("monthly_cost_usd") is None:
            continue
        price = _price(option) or {}
        unit = option.get("unit") or {}
        key = (
            option["accelerator_id"],
            w["deployment_mode"],
            str(price.get("provider") or ""),
            str(unit.get("name")),
        )
        keyed.setdefault(key, []).append(w["kind"])
    for (card, mode, _provider, _server), kinds in keyed.items():
        shareable = mode in HOSTED | {"on_premises", "private_cloud"}
        if len(kinds) > 1 and shareable and set(kinds) not in groups:
            yield _v(
                "I9",
                None,
                f"{' and '.join(kinds)} run on {card} in {mode} as separate fleets; no shared "
                "fleet is offered",
            )
    for g in fleet.get("groups") or []:
        if g["shared"] and not g["servers_shared"] < g["servers_separate"]:
            yield _v("I9", None, "a shared fleet is no smaller than separate fleets")
        if not g["shared"] and not g.get("reason"):
            yield _v("I9", None, "separate fleets on one server with no reason given")
    saves = float(fleet.get("saves_usd_per_month") or 0)
    if saves and abs(float(case.result["cost"].get("fleet_saves_usd_per_month") or 0) - saves) > 1:
        yield _v("I9", None, "the shared fleet's saving is not in the cost")
