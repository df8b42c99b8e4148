"""Serving options: demand at the peak, the server count and tensor-parallel split that meet it,
the spare server, the batch window and their money.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers.vocabulary import Inference
from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.pricing import tco
from advisor.engine.pricing.billing import CostInputs, unit_of
from advisor.engine.pricing.costing import capacity_doc, option_money, round_or_none, target_margin
from advisor.engine.pricing.owned import unpriced_doc
from advisor.engine.pricing.regions import in_country, not_offered
from advisor.engine.sizing import measured, throughput


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


def unit_tp_caps(acc: Accelerator, mode: str, ci: CostInputs) -> tuple[int, ...]:
    """The largest tensor-parallel group each of the card's offers can hold in one unit for this
    customer (mode, clouds, residency), distinct and ascending; the card's node when it has no
    such offer (owned hardware is built to order, and a TPU slice is its own unit)."""

    def build() -> tuple[int, ...]:
        node = max(1, acc.max_devices_per_node)
        if acc.type != "gpu":
            return (node,)
        unlisted = not_offered(ci.catalog)
        caps: set[int] = set()
        for p in ci.catalog.prices_by_accelerator.get(acc.id, ()):
            if (
                mode not in p.modes
                or (p.on_request and not p.indicative)
                or (p.region_key, p.provider, acc.id) in unlisted
            ):
                continue
            if mode == "public_cloud" and ci.clouds and p.cloud not in ci.clouds:
                continue
            if ci.residency == "in_region" and not in_country(p.region_key, ci.regions):
                continue
            unit = unit_of(ci.catalog, p)
            if unit is None:
                # A server sold whole (a host's 4-card server) holds a group of its cards.
                caps.add(min(node, p.gpus_per_unit) if p.gpus_per_unit > 1 else node)
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
    shape: sizing.ModelShape,
    inf: Inference,
    mem: sizing.InferenceMemory,
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
    shape: sizing.ModelShape,
    inf: Inference,
    mem: sizing.InferenceMemory,
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
            lambda: throughput.serving_plan(
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
    measured_run: dict[str, Any] | None = None
    if ci.measurements:
        # A stored run beyond the card's physics (kept from before it was checked) never
        # re-plans: the estimates stand, or the newest run within it.
        within = measured.bounds(shape, inf, acc, plan.devices, mem)
        m = measured.find(ci.measurements, acc.id, ci.serving, within) if within else None
        if m is not None:
            plan, measured_run = measured.apply(plan, m, inf, demand, rtt)
            # Which of the result's `measurements` this is, so the report names that run.
            measured_run["run"] = measured.index_of(ci.measurements, m)
    base_key = ("serving_base", acc.id, kind, rtt, cap)
    if base_key not in ci.sized:

        def make_base() -> tuple[int, float, float, float, float, dict[str, Any]]:
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
            count = plan.devices * replicas
            used = count * busy_hours_per_month
            monthly_tokens = per_day * hpm / 24.0
            egress_gb = monthly_tokens * catalog.figure("response_bytes_per_token") / 1e9
            storage_gb = mem.weight_bytes / 1e9
            return (
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
                    # A model no server holds: pipeline stages across this many servers.
                    **({"pipeline_parallel": plan.pp} if plan.pp > 1 else {}),
                    "replicas": replicas,
                    # The peak the fleet is sized for and the replicas the average needs.
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
                    # A batch run's fixed overhead, in `hours` (once a day).
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
                    "interconnect": sizing.interconnect_need(acc, plan.tp, training=False),
                    **(batch_window(inf, overhead, catalog) if overhead is not None else {}),
                    **({"measured": measured_run} if measured_run is not None else {}),
                },
            )

        # Memoised on the catalog too: the plan's inputs (its memo key), the round trip as given
        # and the measurements determine it; nothing of the customer's cost inputs does.
        ci.sized[base_key] = catalog.memo(
            (
                "serving_base",
                acc.id,
                kind,
                shape,
                inf,
                mem.weight_bytes,
                mem.parts["activations"],
                demand,
                rtt,
                rtt_ms,
                cap,
                ci.serving,
                ci.measurements,
            ),
            make_base,
        )
    count, used, storage_gb, egress_gb, monthly_tokens, base = ci.sized[base_key]
    china_need = None
    if ci.china:
        # Catalog rule `china_bandwidth_need`: real-time serving at its peak, batch results
        # shipped over the day at the mean rate (or as the batch makes them: "run_rate").
        basis = catalog.rule("china_bandwidth_need").get(kind, "daily_mean")
        rate = demand if basis in ("peak", "run_rate") else per_day / 86400.0
        china_need = (rate * catalog.figure("response_bytes_per_token") * 8.0 / 1e6, basis)

    def priced(devices: int, device_hours: float, min_units: int = 1) -> dict[str, Any]:
        return option_money(
            acc,
            mode,
            devices,
            device_hours,
            storage_gb,
            egress_gb,
            ci,
            china_need,
            tp=plan.tp,
            continuous=realtime,
            min_units=min_units,
        )

    money = priced(count, used)
    redundancy: dict[str, Any] | None = None
    if realtime:
        redundancy = spare_server(acc, inf, money, plan.devices, count)
        spare = int(redundancy["spare_replicas"])
        if spare:
            # N+1: one more unit's worth of replicas, so that a failed server still leaves
            # the capacity the peak needs; the option is priced with it.
            more = count + spare * plan.devices
            # One server more than the service needs (owned), at least two (rented): the spare
            # never shares the only server with the service.
            servers = int((money.get("tco") or {}).get("servers") or 0)
            spared = priced(more, used * more / count, servers + 1 if servers else 2)
            before, after = money["monthly_cost_usd"], spared["monthly_cost_usd"]
            redundancy["spare_devices"] = spare * plan.devices
            redundancy["usd_per_month"] = (
                round_or_none(after - before) if before is not None and after is not None else None
            )
            base = {**base, "count": more, "replicas": int(base["replicas"]) + spare}
            count, used, money = more, used * more / count, spared
    per_mtok: dict[str, float | None] = {}
    for slot, value in money["compute_usd_per_month"].items():
        per_mtok[slot] = (
            round_or_none(value / monthly_tokens * 1e6)
            if value is not None and monthly_tokens
            else None
        )
    option = {
        **base,
        **({"redundancy": redundancy} if redundancy is not None else {}),
        "cost_per_million_output_tokens_usd": per_mtok,
        "cost_to_result": (
            {"usd": money["monthly_cost_usd"], "per": "month"}
            if kind == "realtime_inference"
            else {
                "usd": round_or_none(money["monthly_cost_usd"] / monthly_tokens * 1e6)
                if money["monthly_cost_usd"] is not None and monthly_tokens
                else None,
                "per": "million_tokens",
            }
        ),
        **money,
    }
    capacity = capacity_doc(acc, money, catalog, continuous=realtime)
    if capacity is not None:
        option["capacity"] = capacity
    if option["cost_to_result"]["usd"] is None:
        option["unpriced"] = unpriced_doc(acc, mode, count, ci)
    return option


def spare_server(
    acc: Accelerator, inf: Inference, money: Mapping[str, Any], tp: int, count: int = 1
) -> dict[str, Any]:
    """What a real-time service keeps spare (inference.availability): in production, one unit
    of the offer that prices it (N+1: its replicas, `spare_replicas`), so that one server
    failing still leaves the capacity for the peak; none when the team answered best effort or
    development and test. Owned hardware spares one vendor-built server's worth (`count`: the
    devices the service needs), and so does an option no row prices yet; a TPU slice or an
    offer without unit data, one replica's devices."""
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
    elif acc.type == "gpu" and (
        (not money["prices"].get("on_demand") and money.get("tco")) or price is None
    ):
        gpus = tco.vendor_build(acc, count)[1]  # owned or unpriced: the server a vendor builds
    else:
        gpus = tp
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
