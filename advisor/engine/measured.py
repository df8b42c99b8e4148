"""Measured serving figures in place of the engine's estimates (issue 24 item 4).

A pilot runs the serving benchmark of the team's stack on one replica of the first option's
card (the plan's tensor-parallel group, at the plan's concurrency per replica). Its figures
replace the estimates for that card and stack: the throughput per replica sets the replica
count, the measured latency decides whether the target holds. Pure Python, no Django.

The benchmark's own output is parsed by `parse_vllm`: the JSON file `vllm bench serve
--save-result` (vllm-project/vllm, vllm/benchmarks/serve.py; benchmarks/benchmark_serving.py
before it) writes: the run's settings (`date`, `backend`, `model_id`, `max_concurrency`, ...)
merged with its BenchmarkMetrics (`completed`, `request_throughput`, `output_throughput`,
`mean_ttft_ms`, `p99_ttft_ms`, `mean_tpot_ms`, `p99_tpot_ms`, `mean_e2el_ms`, `p99_e2el_ms`,
and `p<N>_*_ms` for each of `--metric-percentiles`).
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from advisor.engine.answers import Inference
    from advisor.engine.sizing import ServingPlan

# Largest benchmark output accepted (a --save-result file without --save-detailed is a few KB;
# with per-request detail it grows with the prompts, which the plan does not need).
MAX_BYTES = 512 * 1024


@dataclass(frozen=True, slots=True)
class Measurement:
    """One benchmark run on one replica of `accelerator_id` with the `serving` stack."""

    accelerator_id: str
    serving: str
    model_id: str
    concurrency: int
    output_tokens_per_s: float
    request_throughput: float
    ttft_ms: float | None  # the percentile matching the target (p95, else p99), else mean
    tpot_ms: float | None
    e2el_ms: float | None
    percentile: str  # "p95", "p99" or "mean": which figure the latencies are
    measured_on: str  # ISO date of the run
    source: str  # the file name (or "pasted")


@dataclass(frozen=True, slots=True)
class ParseProblem:
    """A code (engine i18n, `measured.<code>`) and its field."""

    code: str
    field: str = ""


class MeasurementError(ValueError):
    def __init__(self, problems: list[ParseProblem]) -> None:
        super().__init__(", ".join(f"{p.code}:{p.field}" for p in problems))
        self.problems = problems


_REQUIRED_NUMBERS = ("request_throughput", "output_throughput", "mean_ttft_ms", "mean_tpot_ms")


def _number(doc: dict[str, Any], key: str) -> float | None:
    value = doc.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    value = float(value)
    return value if math.isfinite(value) and value >= 0 else None


def _latency(doc: dict[str, Any], metric: str) -> tuple[float | None, str]:
    for pct in ("p95", "p99"):
        value = _number(doc, f"{pct}_{metric}_ms")
        if value is not None:
            return value, pct
    return _number(doc, f"mean_{metric}_ms"), "mean"


def parse_vllm(raw: bytes | str, *, accelerator_id: str, serving: str, source: str) -> Measurement:
    """The measurement a vLLM serving benchmark result holds; MeasurementError naming every
    problem otherwise (not JSON, not that benchmark's result, a figure missing or not a
    number, no concurrency, nothing completed)."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_BYTES:
        raise MeasurementError([ParseProblem("too_large")])
    if not size:
        raise MeasurementError([ParseProblem("empty")])
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise MeasurementError([ParseProblem("not_json")]) from None
    if not isinstance(doc, dict):
        raise MeasurementError([ParseProblem("not_vllm")])
    problems: list[ParseProblem] = []
    if not any(k in doc for k in (*_REQUIRED_NUMBERS, "model_id", "max_concurrency")):
        raise MeasurementError([ParseProblem("not_vllm")])
    for key in _REQUIRED_NUMBERS:
        if key not in doc:
            problems.append(ParseProblem("missing", key))
        elif _number(doc, key) is None:
            problems.append(ParseProblem("not_number", key))
    model_id = doc.get("model_id")
    if not isinstance(model_id, str) or not model_id.strip():
        problems.append(ParseProblem("missing", "model_id"))
    concurrency = doc.get("max_concurrency")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        # Without --max-concurrency the run sent every request at once: no per-replica load.
        problems.append(ParseProblem("no_concurrency", "max_concurrency"))
    completed = doc.get("completed")
    if isinstance(completed, int) and not isinstance(completed, bool) and completed < 1:
        problems.append(ParseProblem("nothing_completed", "completed"))
    date = doc.get("date")
    day = ""
    if isinstance(date, str) and len(date) >= 8 and date[:8].isdigit():
        day = f"{date[:4]}-{date[4:6]}-{date[6:8]}"  # vLLM writes %Y%m%d-%H%M%S
    else:
        problems.append(ParseProblem("missing", "date"))
    if problems:
        raise MeasurementError(problems)
    ttft, pct = _latency(doc, "ttft")
    tpot, _ = _latency(doc, "tpot")
    e2el, _ = _latency(doc, "e2el")
    return Measurement(
        accelerator_id=accelerator_id,
        serving=serving,
        model_id=str(model_id),
        concurrency=int(cast(int, concurrency)),
        output_tokens_per_s=float(doc["output_throughput"]),
        request_throughput=float(doc["request_throughput"]),
        ttft_ms=ttft,
        tpot_ms=tpot,
        e2el_ms=e2el,
        percentile=pct,
        measured_on=day,
        source=source,
    )


def find(
    measurements: tuple[Measurement, ...], accelerator_id: str, serving: str | None
) -> Measurement | None:
    """The newest measurement for this card and stack (None: the estimates stand)."""
    found = [m for m in measurements if m.accelerator_id == accelerator_id and m.serving == serving]
    return max(found, key=lambda m: m.measured_on) if found else None


def apply(
    plan: ServingPlan,
    m: Measurement,
    inf: Inference,
    demand_tokens_per_s: float,
    rtt_ms: float = 0.0,
) -> tuple[ServingPlan, dict[str, Any]]:
    """`plan` with the measured figures in place of its estimates, and what was replaced.

    The throughput per replica is the measured output rate, scaled to the plan's batch when the
    run used another concurrency (decode reads the weights once per step for the whole batch,
    so the rate grows with the batch; the note says it was scaled). Replicas are recounted as
    sizing.serving_plan counts them; the latency target is checked on the measured figure."""
    tps = m.output_tokens_per_s
    if m.concurrency != plan.batch:
        tps = tps * plan.batch / m.concurrency
    replicas = max(
        math.ceil(inf.concurrent_sequences / plan.batch),
        math.ceil(demand_tokens_per_s / tps) if demand_tokens_per_s > 0 and tps > 0 else 1,
        1,
    )
    ttft = (m.ttft_ms if m.ttft_ms is not None else plan.ttft_ms - rtt_ms) + rtt_ms
    tpot = m.tpot_ms if m.tpot_ms is not None else plan.tpot_ms
    latency = m.e2el_ms + rtt_ms if m.e2el_ms is not None else ttft + inf.output_tokens * tpot
    metric = {"ttft": ttft, "tpot": tpot}.get(inf.latency_metric, latency)
    target = inf.p95_latency_ms
    measured = dataclasses.replace(
        plan,
        replicas=replicas,
        tokens_per_second=tps,
        tpot_ms=tpot,
        ttft_ms=ttft,
        latency_ms=latency,
        metric_ms=metric,
        meets=target is None or metric <= target + 1e-9,
    )
    doc = {
        "source": m.source,
        "measured_on": m.measured_on,
        "model_id": m.model_id,
        "serving": m.serving,
        "concurrency": m.concurrency,
        "scaled_to_batch": m.concurrency != plan.batch,
        "percentile": m.percentile,
        "fields": ["tokens_per_second_per_replica", "tpot_ms", "ttft_ms", "latency_at_metric_ms"],
        "estimated": {
            "tokens_per_second_per_replica": round(plan.tokens_per_second, 1),
            "tpot_ms": round(plan.tpot_ms, 2),
            "ttft_ms": round(plan.ttft_ms, 1),
            "replicas": plan.replicas,
            "meets_latency": plan.meets,
        },
    }
    return measured, doc
