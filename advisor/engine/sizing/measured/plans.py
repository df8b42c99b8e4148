"""Which run a plan uses (`find`), and the plan with the run's figures in place of its
estimates (`apply`)."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Any

from advisor.engine.sizing.measured.measurement import Measurement
from advisor.engine.sizing.measured.physics import Bounds, implausible

if TYPE_CHECKING:
    from advisor.engine.answers.vocabulary import Inference
    from advisor.engine.sizing.throughput import ServingPlan


def find(
    measurements: tuple[Measurement, ...] | list[Measurement],
    accelerator_id: str,
    serving: str | None,
    within: Bounds | None = None,
) -> Measurement | None:
    """The measurement for this card and stack that the plan applies: the newest run (its
    `measured_on`), of runs of one day the one pasted last (`measurements` are in the order
    they were pasted); only runs within the card's physics when `within` is given (None: the
    estimates stand)."""
    found = [
        (m.measured_on, i, m)
        for i, m in enumerate(measurements)
        if m.accelerator_id == accelerator_id
        and m.serving == serving
        and (within is None or not implausible(m, within))
    ]
    return max(found, key=lambda row: row[:2])[2] if found else None


def index_of(measurements: tuple[Measurement, ...] | list[Measurement], m: Measurement) -> int:
    """The position of `m` itself (the object `find` returned) in `measurements`."""
    return next(i for i in range(len(measurements) - 1, -1, -1) if measurements[i] is m)


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
    throughput.serving_plan counts them; the latency target is checked on the measured figure."""
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
        "tool": m.tool,
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
