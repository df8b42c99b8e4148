"""Levers: the changes to the answers that would let a workload run on less or smaller hardware,
checked by sizing the workload again.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from functools import partial
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Accelerator, Catalog, stack
from advisor.engine.planning import serving_cost
from advisor.engine.planning.options import Sized
from advisor.engine.ranking import scoring
from advisor.engine.sizing import throughput
from advisor.engine.text import i18n

# --------------------------------------------------------------------------- numeric levers


def levers(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    first: Mapping[str, Any] | None,
    sized: Sized,
    lang: str,
) -> list[dict[str, Any]]:
    """Numeric answer changes an expert would try on the first option, each kept only when it
    gives a different sizing of it: relax the latency target to what the card reaches, serve in
    FP8, enable checkpointing, lower the micro-batch, add a deadline."""
    if first is None or sized.shape is None:
        return []
    acc = catalog.by_id[first["accelerator_id"]]
    out: list[tuple[str, Any, Any, int]] = []
    inf, t = answers.inference, answers.training
    # A lever re-plans on the first option's own offer: tensor parallelism within its unit.
    used = first.get("billing_used")
    sold = (first["prices"].get(used) or {}).get("sold_unit") if used else None
    max_tp = int(sold["gpus"]) if sold else None
    spare = first.get("redundancy") or {}

    def with_spare(plan: throughput.ServingPlan) -> int:
        # A real-time service's spare server (N+1) is kept under any lever.
        unit = int(spare.get("unit_gpus") or 0) if spare.get("planned") else 0
        return plan.devices * plan.replicas + (
            max(1, unit // plan.devices) * plan.devices if unit else 0
        )

    if scoring.PHASE_OF[kind] == "inference" and inf is not None and sized.imem is not None:
        demand = serving_cost.serving_demand(
            catalog, kind, inf, answers.cost.hours_per_day, sized.imem.weight_bytes
        )
        if not first["meets_latency"] and inf.p95_latency_ms is not None:
            relaxed = float(math.ceil(first["best_latency_at_metric_ms"] / 10.0) * 10)
            plan = throughput.serving_plan(
                sized.shape,
                dataclasses.replace(inf, p95_latency_ms=relaxed),
                sized.imem,
                acc,
                catalog,
                demand,
                serving=answers.frameworks.serving,
                offline=kind == "batch_inference",
                max_tp=max_tp,
            )
            if plan is not None and plan.meets:
                out.append(
                    (
                        "inference.p95_latency_ms",
                        inf.p95_latency_ms,
                        relaxed,
                        with_spare(plan),
                    )
                )
        if inf.precision in ("bf16", "fp16") and acc.fp8_dense_tflops:
            fp8 = dataclasses.replace(inf, precision="fp8")
            serving = answers.frameworks.serving
            shape = sized.shape

            def fp8_plan() -> throughput.ServingPlan | None:
                mem = sizing.inference_memory(shape, fp8, catalog, serving)
                return throughput.serving_plan(
                    shape,
                    fp8,
                    mem,
                    acc,
                    catalog,
                    demand,
                    serving=serving,
                    offline=offline,
                    max_tp=max_tp,
                )

            offline = kind == "batch_inference"
            plan = catalog.memo(
                ("fp8_plan", acc.id, shape, fp8, serving, demand, offline, max_tp), fp8_plan
            )
            if plan is not None and with_spare(plan) < first["count"]:
                out.append(("inference.precision", inf.precision, "fp8", with_spare(plan)))
    if scoring.PHASE_OF[kind] == "training" and t is not None and sized.tmem is not None:
        trials: list[tuple[str, Any, Any]] = []
        if not t.gradient_checkpointing:
            trials.append(("training.gradient_checkpointing", False, True))
        if t.micro_batch_size > 1:
            trials.append(("training.micro_batch_size", t.micro_batch_size, 1))
        field = {
            "training.gradient_checkpointing": "gradient_checkpointing",
            "training.micro_batch_size": "micro_batch_size",
        }
        for path, old, new in trials:
            trial = dataclasses.replace(t, **{field[path]: new})
            shape = sized.shape
            n = catalog.memo(
                ("lever_min_devices", acc.id, shape, trial),
                partial(_lever_min_devices, catalog, acc, shape, trial),
            )
            if n is not None and n < first["min_count"] and first["count"] == first["min_count"]:
                out.append((path, old, new, n))
        if t.deadline_hours is None and first["hours"] > 24:
            # Half the compute; each run's fixed overhead (in its hours) does not halve. The
            # deadline leaves the catalog's safety share, so that the plan it buys meets it with
            # room to spare (a thinner one ranks after every comfortable option).
            overhead = float((first.get("run_overhead") or {}).get("hours", 0.0))
            safety = float(catalog.rule("target_safety_share"))
            half = (first["hours"] - overhead) / 2.0 + overhead
            deadline = float(math.ceil(half / (1.0 - safety)))
            counts = [c for c in sizing.valid_counts(acc) if c >= 2 * first["count"]]
            if counts and counts[0] <= acc.max_devices_per_group:
                out.append(("training.deadline_hours", None, deadline, counts[0]))
    smaller = _smaller_hardware_lever(catalog, answers, kind, first, sized, lang)
    return [
        *(
            {
                "kind": "lever",
                "workload": kind,
                "changes": [{"answer_path": path, "from": old, "to": new}],
                "option": {"accelerator_id": acc.id, "count": count},
                "explanation": i18n.message(
                    "lever.line",
                    lang,
                    field=i18n.field_label(path, lang),
                    value=i18n.value_label(path, new, lang)
                    if not isinstance(new, float)
                    else f"{new:,.0f}",
                    current=i18n.value_label(path, old, lang)
                    if not isinstance(old, float)
                    else f"{old:,.0f}",
                    kind=i18n.label(kind, lang),
                    count=count,
                    card=acc.name,
                    old_count=first["count"],
                ),
            }
            for path, old, new, count in out
        ),
        *([smaller] if smaller else []),
    ]


def _smaller_hardware_lever(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    first: Mapping[str, Any],
    sized: Sized,
    lang: str,
) -> dict[str, Any] | None:
    """Owned serving hardware ranked by size that a latency target pushes up: the least relaxed
    target that would let less hardware (nominal memory x count) serve the same load, and on
    what. Only for an unpriced first option on the customer's own hardware that meets its
    target."""
    inf = answers.inference
    unpriced = first.get("unpriced")
    if (
        scoring.PHASE_OF[kind] != "inference"
        or inf is None
        or inf.p95_latency_ms is None
        or sized.imem is None
        or sized.shape is None
        or unpriced is None
        or not first["availability"].get("owned")
        or not first["meets_latency"]
    ):
        return None
    shape, imem = sized.shape, sized.imem
    demand = serving_cost.serving_demand(
        catalog, kind, inf, answers.cost.hours_per_day, imem.weight_bytes
    )
    fw = answers.frameworks
    loose = dataclasses.replace(inf, p95_latency_ms=None)
    best: tuple[float, float, int, Accelerator] | None = None
    for acc in catalog.accelerators:
        if acc.type != first["type"] or acc.id == first["accelerator_id"]:
            continue
        if not stack.stack_fit(
            catalog,
            acc,
            "inference",
            fw.primary,
            fw.serving,
            fw.custom_kernels,
            inf.precision,
            fw.kernel_architectures,
        ).runnable:
            continue
        plan = catalog.memo(
            (
                "serving_plan_loose",
                acc.id,
                shape,
                loose,
                imem.weight_bytes,
                demand,
                fw.serving,
                kind,
            ),
            partial(
                throughput.serving_plan,
                shape,
                loose,
                imem,
                acc,
                catalog,
                demand,
                serving=fw.serving,
                offline=kind == "batch_inference",
            ),
        )
        if plan is None:
            continue
        # With the spare replica (N+1) the first option keeps, so the two compare like for like.
        spare = plan.devices if (first.get("redundancy") or {}).get("planned") else 0
        count = plan.devices * plan.replicas + spare
        memory = acc.memory_gb * count
        if memory >= unpriced["memory_gb"]:
            continue
        # The target this plan reaches, rounded up to 100 ms; it must hold at that target too.
        target = float(math.ceil(plan.metric_ms / 100.0) * 100)
        if target <= inf.p95_latency_ms:
            continue
        # The least relaxation first, then the least hardware.
        key = (target, memory)
        if best is None or key < best[:2]:
            best = (*key, count, acc)
    if best is None:
        return None
    target, memory, count, acc = best
    path = "inference.p95_latency_ms"
    return {
        "kind": "lever",
        "workload": kind,
        "changes": [{"answer_path": path, "from": inf.p95_latency_ms, "to": target}],
        "option": {"accelerator_id": acc.id, "count": count},
        "explanation": i18n.message(
            "lever.smaller_hardware",
            lang,
            field=i18n.field_label(path, lang),
            value=f"{target:,.0f}",
            current=f"{inf.p95_latency_ms:,.0f}",
            kind=i18n.label(kind, lang),
            count=count,
            card=acc.name,
            memory=f"{memory:,.0f}",
            old_count=first["count"],
            old_card=first["name"],
            old_memory=f"{unpriced['memory_gb']:,.0f}",
        ),
    }


def _lever_min_devices(
    catalog: Catalog, acc: Accelerator, shape: sizing.ModelShape, trial: vocabulary.Training
) -> int | None:
    return sizing.min_training_devices(sizing.training_memory(shape, trial, catalog), acc, catalog)
