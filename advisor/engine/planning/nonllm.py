"""Work counted in its own unit where tokens are wrong: images (vision), audio
hours (speech recognition), passages (embedding) and query-passage pairs (reranking).

Sized from the catalog's `unit_workloads`: each model's published parameter count (memory) and a
per-card throughput, the card's own published figure where one exists (MLPerf Inference or a
vendor's or third party's measurement, with the stack and precision it was measured with), else
scaled from a named card of the same vendor (marked estimated, with the ratio). A card with
neither is not sized. The figure is turned into the team's serving stack by a sourced stack
factor (an INT8 TensorRT rate is not what a PyTorch team gets), and the host's vCPUs bound what
it can be fed: the CPU work per sample (JPEG decode, audio features, tokenising) at a sourced
rate per vCPU. A card its host would starve gets the missing vCPUs as a priced CPU tier.
The option is whole units of a real offer, priced and ranked by the same machinery as the token
workloads (costing.option_money, ranking.rank), and its cost to the result is per the team's unit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.planning import serving_cost
from advisor.engine.pricing import billing, costing, owned
from advisor.engine.text import i18n, labels

# The unit a team counts in, the benchmark's unit per one of them, and what its cost is quoted per.
SAMPLES_PER_UNIT = {"images": 1.0, "audio_hours": 3600.0, "passages": 1.0, "pairs": 1.0}
PER = {
    "images": ("thousand_images", 1_000.0),
    "audio_hours": ("audio_hour", 1.0),
    "passages": ("million_passages", 1_000_000.0),
    "pairs": ("million_pairs", 1_000_000.0),
}
# Serving weights in 16-bit (bf16/fp16): bytes per parameter.
_WEIGHT_BYTES = 2.0


def _sig(value: float | None) -> float | None:
    """A cost per unit to four significant figures (a thousand images can cost a fraction of a
    cent: two decimals would round it to nothing)."""
    if value is None or value == 0:
        return value
    return float(f"{value:.4g}")


def money_text(value: float) -> str:
    """A cost per unit as the report writes it: cents for a dollar or more, else its first
    three significant figures."""
    if value >= 1 or value <= 0:
        return f"{value:,.2f}"
    decimals = max(2, 2 - math.floor(math.log10(value)))
    return f"{value:.{decimals}f}"


def _table(catalog: Catalog) -> Mapping[str, Any]:
    table = catalog.raw.get("unit_workloads")
    return table if isinstance(table, Mapping) else {}


def model(catalog: Catalog, model_id: str) -> Mapping[str, Any] | None:
    """The catalog's row for a unit model (parameters, unit, benchmark, source)."""
    return next((m for m in _table(catalog).get("models", ()) if m["id"] == model_id), None)


def benchmark(catalog: Catalog, bench_id: str) -> Mapping[str, Any]:
    return dict(_table(catalog).get("benchmarks", {}).get(bench_id) or {})


def throughput(catalog: Catalog, bench_id: str, acc_id: str) -> Mapping[str, Any] | None:
    """A card's published (or derived, or estimated) samples a second on a benchmark."""
    return catalog.memo(
        ("unit_throughput", bench_id, acc_id),
        lambda: next(
            (
                r
                for r in _table(catalog).get("throughput", ())
                if r["benchmark"] == bench_id and r["accelerator_id"] == acc_id
            ),
            None,
        ),
    )


# A team's serving stack, from its answers: the stack factor that turns a published rate into it.
_TENSORRT_SERVING = ("triton", "tensorrt_llm")


def team_stack(frameworks: vocabulary.Frameworks) -> str:
    """The stack a team serves a unit model on: TensorRT (Triton, TensorRT-LLM), TensorFlow (TF
    Serving, or TensorFlow first with no TensorRT server), else PyTorch (vLLM, TorchServe, a
    custom server, ONNX or JAX first: an eager framework's rate, the closest sourced one)."""
    if frameworks.serving in _TENSORRT_SERVING:
        return "tensorrt"
    if frameworks.serving == "tf_serving" or frameworks.primary == "tensorflow":
        return "tensorflow"
    return "pytorch"


def stack_factor(catalog: Catalog, bench_id: str, stack: str) -> Mapping[str, Any]:
    """The sourced factor from the stack a benchmark's rows were measured on to the team's
    (1.0 when they are the same): the catalog's `stack_factors`, each divided by the measured
    stack's own factor."""
    factors = _table(catalog).get("stack_factors", {}).get(bench_id) or {}
    measured = benchmark(catalog, bench_id).get("stack_measured", stack)
    doc = factors.get(stack)
    if doc is None or stack == measured:
        return {"value": 1.0, "stack": stack, "measured_on": measured, "source": None}
    base = float((factors.get(measured) or {"value": 1.0})["value"])
    return {
        "value": round(float(doc["value"]) / base, 4),
        "stack": stack,
        "measured_on": measured,
        "source": doc["source"],
        "as_of": doc["as_of"],
        "estimated": bool(doc["estimated"]),
        "note": doc["note"],
    }


def host_rate_per_vcpu(catalog: Catalog, unit: str) -> tuple[float, str] | None:
    """Samples a second one host vCPU prepares for the card (decode, features, tokenising), and
    the sourced figure it comes from; None for a unit with no CPU work counted."""
    prep = _table(catalog).get("host_preprocessing", {}).get(unit)
    if not prep:
        return None
    key = str(prep["figure"])
    return catalog.figure(key) / float(prep["per_sample"]), key


def _host_vcpu_per_card(catalog: Catalog, money: Mapping[str, Any]) -> tuple[float, str]:
    """The vCPUs per card of the unit the option is priced on (its offer's own shape), else the
    catalog's serving figure."""
    used = money.get("billing_used")
    price = (money.get("prices") or {}).get(used) if used else None
    sold = (price or {}).get("sold_unit") or {}
    if sold.get("vcpu") and sold.get("gpus"):
        return float(sold["vcpu"]) / float(sold["gpus"]), str(sold["name"])
    return catalog.figure("serving_vcpu_per_device"), "serving_vcpu_per_device"


def host_feed(
    catalog: Catalog,
    unit: str,
    money: Mapping[str, Any],
    count: int,
    demand: float,
    card_rate: float,
    busy_hours: float,
    separate: bool,
) -> dict[str, Any] | None:
    """Whether the cards' hosts can prepare the samples the cards serve: the host's vCPUs at the
    sourced rate per vCPU. A team with its own preprocessing workload feeds the cards from that
    CPU server (sized there); else a shortfall is a CPU tier of the missing vCPUs, priced at
    the sourced on-demand vCPU hour for the hours the cards run."""
    rate = host_rate_per_vcpu(catalog, unit)
    if rate is None:
        return None
    per_vcpu, figure = rate
    vcpu, shape = _host_vcpu_per_card(catalog, money)
    host = per_vcpu * vcpu * count
    short = not separate and host < demand - 1e-9
    extra = math.ceil((demand - host) / per_vcpu - 1e-9) if short else 0
    usd = extra * catalog.figure("cpu_server_usd_per_vcpu_hour") * busy_hours
    return {
        "figure": figure,
        "per_vcpu_per_second": round(per_vcpu, 2),
        "vcpu_per_card": vcpu,
        "shape": shape,
        "host_per_second": round(host, 1),
        # The cards' own rate the hosts must keep up with, against what they need to prepare.
        "card_per_second": round(card_rate * count, 1),
        "starved": short,
        "separate_preprocessing": separate,
        "extra_vcpu": extra,
        "extra_usd_per_month": round(usd, 2),
    }


def peak_to_average(work: vocabulary.Work, catalog: Catalog) -> float:
    """The answer, else the catalog's figure for a daily cycle (rule `traffic_peak_to_mean`)."""
    if work.peak_to_average is not None:
        return float(work.peak_to_average)
    return float(catalog.rule("traffic_peak_to_mean")["daily_cycle"])


def option(
    catalog: Catalog,
    work: vocabulary.Work,
    kind: str,
    acc: Accelerator,
    mode: str,
    hours_per_day: float,
    ci: billing.CostInputs,
    rtt_ms: float | None,
    frameworks: vocabulary.Frameworks,
    separate_preprocessing: bool = False,
) -> dict[str, Any] | None:
    """One card's option for work in its own unit; None when the catalog has no throughput for
    the card (it is then listed as excluded with the reason) or the model does not fit. The
    card's rate is its published one in the team's stack; its hosts' vCPUs must feed it."""
    m = model(catalog, work.model)
    if m is None:
        return None
    row = throughput(catalog, m["benchmark"], acc.id)
    if row is None:
        return None
    bench = benchmark(catalog, m["benchmark"])
    weight_bytes = float(m["parameters"]) * _WEIGHT_BYTES
    if weight_bytes / 2**30 > sizing.usable_gib(acc, catalog):
        return None
    realtime = kind == "realtime_inference"
    samples_per_day = work.per_day * SAMPLES_PER_UNIT[work.unit] / float(m["work_per_sample"])
    factor = stack_factor(catalog, m["benchmark"], team_stack(frameworks))
    published = float(row["per_second"])
    offline = published * float(factor["value"])
    ratio = bench.get("server_ratio") if realtime else None
    # Real-time serving holds the latency bound only below the offline rate: the benchmark's
    # server-scenario share of it (MLPerf Server runs are valid only with p99 under the bound).
    per_card = offline * float(ratio) if ratio else offline
    hpm = catalog.hours_per_month
    overhead: dict[str, float] | None = None
    if realtime:
        peak = peak_to_average(work, catalog)
        demand = samples_per_day / 86400.0 * peak
        count = max(1, math.ceil(demand / per_card - 1e-9))
        busy_hours = catalog.figure("realtime_hours_per_month")
    else:
        peak = None
        window = max(hours_per_day, 1.0 / 60.0) if hours_per_day > 0 else 24.0
        demand = samples_per_day / (window * 3600.0)
        count = max(1, math.ceil(demand / per_card - 1e-9))
        overhead = serving_cost.serving_run_overhead(weight_bytes, catalog)
        run_hours = samples_per_day / (per_card * count * 3600.0)
        overhead["run_hours"] = round(run_hours + overhead["hours"], 4)
        busy_hours = min(hpm, (run_hours + overhead["hours"]) * hpm / 24.0)
    used = count * busy_hours
    money = costing.option_money(
        acc, mode, count, used, weight_bytes / 1e9, 0.0, ci, None, tp=1, continuous=realtime
    )
    host = host_feed(
        catalog, work.unit, money, count, demand, per_card, busy_hours, separate_preprocessing
    )
    if host is not None and host["extra_usd_per_month"] and money["monthly_cost_usd"] is not None:
        # The CPU tier that feeds the cards is part of what the option costs.
        money["monthly_cost_usd"] = round(
            money["monthly_cost_usd"] + host["extra_usd_per_month"], 2
        )
    per, scale = PER[work.unit]
    monthly_units = work.per_day * hpm / 24.0
    per_unit = {
        slot: (None if value is None else _sig(value / monthly_units * scale))
        for slot, value in money["compute_usd_per_month"].items()
    }
    total = money["monthly_cost_usd"]
    bound = bench.get("latency_bound_ms")
    latency = None if bound is None or not realtime else float(bound) + (rtt_ms or 0.0)
    target = work.p95_latency_ms if realtime else None
    latency_doc: dict[str, Any] = {}
    if realtime and target is not None and latency is not None:
        latency_doc = {
            "meets_latency": latency <= target + 1e-9,
            "latency_at_metric_ms": round(latency, 1),
            "best_latency_at_metric_ms": round(latency, 1),
            "latency_target_ms": target,
            **costing.target_margin(latency, target, catalog),
        }
    else:
        latency_doc = {"target_margin": None, "target_status": None}
    out: dict[str, Any] = {
        "accelerator_id": acc.id,
        "name": acc.name,
        "type": acc.type,
        "count": count,
        "tensor_parallel": 1,
        "replicas": count,
        "hours": round(busy_hours, 1),
        **({"run_overhead": overhead} if overhead else {}),
        "round_trip_ms": rtt_ms if realtime else None,
        "bound": "compute",
        "interconnect": sizing.interconnect_need(acc, 1, training=False),
        **latency_doc,
        "work": {
            "unit": work.unit,
            "model": work.model,
            "model_name": m["name"],
            "parameters": int(m["parameters"]),
            "model_source": m["source"],
            "weights_gib": round(weight_bytes / 2**30, 2),
            "per_day": work.per_day,
            "demand_per_second": round(demand, 2),
            "peak_to_average": peak,
            "peak_basis": None
            if peak is None
            else ("answer" if work.peak_to_average is not None else "daily_cycle"),
            "benchmark": bench.get("name", m["benchmark"]),
            "samples_per_second_per_card": round(offline, 1),
            "published_per_second": published,
            "stack_factor": factor,
            "host": host,
            "serving_share": ratio,
            "per_card_per_second": round(per_card, 1),
            "capacity_per_second": round(per_card * count, 1),
            "seconds_per_sample": bench.get("seconds_per_sample"),
            "latency_bound_ms": bound,
            "latency_ms": None if latency is None else round(latency, 1),
            "latency_target_ms": work.p95_latency_ms,
            "throughput": {
                "source": row["source"],
                "as_of": row["as_of"],
                "estimated": bool(row["estimated"]),
                "derived": bool(row["derived"]),
                "note": row["note"],
                "stack": row.get("stack"),
                "precision": row.get("precision"),
                "scaled_from": row.get("scaled_from"),
            },
            "server_source": bench.get("server_source") if realtime else None,
            "server_note": bench.get("server_note") if realtime else None,
            "per": per,
            "cost_per_unit_usd": per_unit,
        },
        "cost_to_result": {
            "usd": None if total is None else _sig(total / monthly_units * scale),
            "per": per,
        },
        **money,
    }
    capacity = costing.capacity_doc(acc, money, catalog, continuous=kind == "realtime_inference")
    if capacity is not None:
        out["capacity"] = capacity
    if out["cost_to_result"]["usd"] is None:
        out["unpriced"] = owned.unpriced_doc(acc, mode, count, ci)
    return out


def unsized_reason(catalog: Catalog, work: vocabulary.Work, acc: Accelerator, lang: str) -> str:
    """Why a card has no option for the unit's model: no published throughput for it."""
    m = model(catalog, work.model)
    return i18n.message(
        "work.unsized",
        lang,
        card=acc.name,
        model=m["name"] if m else work.model,
        benchmark=(
            i18n.catalog_text(benchmark(catalog, m["benchmark"]).get("name", ""), lang) if m else ""
        ),
    )


def _number(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def statement(kind: str, first: Mapping[str, Any] | None, lang: str) -> str | None:
    """What page one says of work in its own unit: the volume, the card's throughput with its
    source and basis, the fleet and the cost per the team's unit."""
    if first is None or "work" not in first:
        return None
    w = first["work"]
    t = w["throughput"]
    basis = (
        "work.basis_estimated"
        if t["estimated"]
        else "work.basis_derived"
        if t["derived"]
        else "work.basis_published"
    )
    scaled = t.get("scaled_from") or {}
    basis_text = (
        i18n.message(
            basis,
            lang,
            card=str(scaled.get("card", "")).split(" (")[0],
            ratio=f"{float(scaled.get('ratio', 0.0)):.3g}",
        )
        if basis == "work.basis_estimated"
        else i18n.message(basis, lang)
    )
    unit = i18n.value_label("work.unit", w["unit"], lang)
    cost = first["cost_to_result"]["usd"]
    text = i18n.message(
        "work.sized",
        lang,
        kind=i18n.label(kind, lang),
        model=w["model_name"],
        parameters=f"{w['parameters'] / 1e6:,.1f}M",
        weights=f"{w['weights_gib']:,.2f}",
        per_day=_number(float(w["per_day"])),
        unit=unit,
        demand=_number(float(w["demand_per_second"])),
        samples=i18n.message(f"work.samples.{w['unit']}", lang),
        card=first["name"],
        per_card=_number(float(w["per_card_per_second"])),
        benchmark=i18n.catalog_text(w["benchmark"], lang),
        basis=basis_text,
        source=t["source"],
        as_of=t["as_of"] or i18n.message("work.undated", lang),
        count=first["count"],
        cost="—" if cost is None else money_text(float(cost)),
        per=i18n.message(f"per.{w['per']}", lang),
    )
    factor = w.get("stack_factor") or {}
    if factor.get("source") is not None:
        text += " " + i18n.message(
            "work.stack_factor",
            lang,
            published=_number(float(w["published_per_second"])),
            measured=i18n.message(f"work.stack.{factor['measured_on']}", lang),
            stack=i18n.message(f"work.stack.{factor['stack']}", lang),
            factor=f"{float(factor['value']):.3g}",
            note=factor["source"],
            per_card=_number(float(w["samples_per_second_per_card"])),
        )
    host = w.get("host") or {}
    if host.get("starved"):
        text += " " + i18n.message(
            "work.host_starved",
            lang,
            shape=host["shape"],
            vcpu=f"{float(host['vcpu_per_card']):g}",
            host=_number(float(host["host_per_second"])),
            samples=i18n.message(f"work.samples.{w['unit']}", lang),
            per_vcpu=_number(float(host["per_vcpu_per_second"])),
            figure=labels.shown("figure", host["figure"], lang),
            demand=_number(float(w["demand_per_second"])),
            extra=host["extra_vcpu"],
            usd=f"{float(host['extra_usd_per_month']):,.0f}",
        )
    elif host.get("separate_preprocessing"):
        text += " " + i18n.message(
            "work.host_separate", lang, samples=i18n.message(f"work.samples.{w['unit']}", lang)
        )
    if w.get("serving_share") is not None:
        text += " " + i18n.message(
            "work.serving_share",
            lang,
            share=i18n.percent(float(w["serving_share"])),
            bound=f"{float(w['latency_bound_ms']):,.0f}",
            source=w["server_source"],
        )
    elif w.get("latency_target_ms") is not None and w.get("latency_bound_ms") is None:
        text += " " + i18n.message("work.latency_unchecked", lang)
    if first.get("target_status") == "missed":
        text += " " + i18n.message(
            "work.latency_missed",
            lang,
            target=f"{float(w['latency_target_ms']):,.0f}",
            bound=f"{float(w['latency_bound_ms']):,.0f}",
        )
    return text
