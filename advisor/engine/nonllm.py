"""Work counted in its own unit where tokens are wrong (issue 21 item 7): images (vision), audio
hours (speech recognition), passages (embedding) and query-passage pairs (reranking).

Sized from the catalog's `unit_workloads`: each model's published parameter count (memory) and a
per-card throughput from a published benchmark (MLPerf Inference or a vendor's or third party's
measurement), marked derived (a multi-GPU result divided by its GPU count) or estimated (scaled
from a card of the same vendor by the ratio of dense FP16 peaks). A card with no row is not sized.
The option is whole units of a real offer, priced and ranked by the same machinery as the token
workloads (costing.option_money, ranking.rank), and its cost to the result is per the team's unit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from advisor.engine import answers as A
from advisor.engine import billing as BL
from advisor.engine import costing as C
from advisor.engine import i18n
from advisor.engine import owned as OW
from advisor.engine import serving_cost as SV
from advisor.engine import sizing as S
from advisor.engine.catalog import Accelerator, Catalog

# The unit a team counts in, the benchmark's unit per one of them, and what its cost is quoted per.
_SAMPLES_PER_UNIT = {"images": 1.0, "audio_hours": 3600.0, "passages": 1.0, "pairs": 1.0}
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


def peak_to_average(work: A.Work, catalog: Catalog) -> float:
    """The answer, else the catalog's figure for a daily cycle (rule `traffic_peak_to_mean`)."""
    if work.peak_to_average is not None:
        return float(work.peak_to_average)
    return float(catalog.rule("traffic_peak_to_mean")["daily_cycle"])


def option(
    catalog: Catalog,
    work: A.Work,
    kind: str,
    acc: Accelerator,
    mode: str,
    hours_per_day: float,
    ci: BL.CostInputs,
    rtt_ms: float | None,
) -> dict[str, Any] | None:
    """One card's option for work in its own unit; None when the catalog has no throughput for
    the card (it is then listed as excluded with the reason) or the model does not fit."""
    m = model(catalog, work.model)
    if m is None:
        return None
    row = throughput(catalog, m["benchmark"], acc.id)
    if row is None:
        return None
    bench = benchmark(catalog, m["benchmark"])
    weight_bytes = float(m["parameters"]) * _WEIGHT_BYTES
    if weight_bytes / 2**30 > S.usable_gib(acc, catalog):
        return None
    realtime = kind == "realtime_inference"
    samples_per_day = work.per_day * _SAMPLES_PER_UNIT[work.unit] / float(m["work_per_sample"])
    offline = float(row["per_second"])
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
        overhead = SV.serving_run_overhead(weight_bytes, catalog)
        run_hours = samples_per_day / (per_card * count * 3600.0)
        overhead["run_hours"] = round(run_hours + overhead["hours"], 4)
        busy_hours = min(hpm, (run_hours + overhead["hours"]) * hpm / 24.0)
    used = count * busy_hours
    money = C.option_money(
        acc, mode, count, used, weight_bytes / 1e9, 0.0, ci, None, tp=1, continuous=realtime
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
            **C.target_margin(latency, target, catalog),
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
        "interconnect": S.interconnect_need(acc, 1, training=False),
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
            "samples_per_second_per_card": offline,
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
    capacity = C.capacity_doc(acc, money, catalog, continuous=kind == "realtime_inference")
    if capacity is not None:
        out["capacity"] = capacity
    if out["cost_to_result"]["usd"] is None:
        out["unpriced"] = OW.unpriced_doc(acc, mode, count, ci)
    return out


def unsized_reason(catalog: Catalog, work: A.Work, acc: Accelerator, lang: str) -> str:
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
        basis=i18n.message(basis, lang),
        source=t["source"],
        as_of=t["as_of"] or i18n.message("work.undated", lang),
        count=first["count"],
        cost="—" if cost is None else money_text(float(cost)),
        per=i18n.message(f"per.{w['per']}", lang),
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
