"""The facts a decision reads: the answers flattened to answer paths, and the answers derived
from them and the context (utilisation, latency class, TPU coverage, training scale)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.ranking.scoring.model import ScoringModel

# --------------------------------------------------------------------------- facts


def answers_facts(answers: vocabulary.Answers) -> dict[str, Any]:
    """The answers a decision reads, flattened to answer paths."""
    facts: dict[str, Any] = {
        "organization.industry": answers.organization.industry,
        "organization.regions": answers.organization.regions,
        "maturity.stack_changes": answers.maturity.stack_changes,
        "maturity.pipeline": answers.maturity.pipeline,
        "maturity.demand": answers.maturity.demand,
        "frameworks.primary": answers.frameworks.primary,
        "frameworks.others": answers.frameworks.others,
        "frameworks.custom_kernels": answers.frameworks.custom_kernels,
        "frameworks.serving": answers.frameworks.serving,
        "deployment.allowed_modes": answers.deployment.allowed_modes,
        "deployment.clouds": answers.deployment.clouds,
        "deployment.portability": answers.deployment.portability,
        "deployment.china_connectivity": answers.deployment.china_connectivity,
        "deployment.data_residency": answers.deployment.data_residency,
        "cost.billing": answers.cost.billing,
        "cost.hours_per_day": answers.cost.hours_per_day,
        "cost.ops_capacity": answers.cost.ops_capacity,
        "inference.traffic": answers.inference.traffic if answers.inference else None,
        "inference.p95_latency_ms": answers.inference.p95_latency_ms if answers.inference else None,
        "workloads": tuple((w.kind, w.schedule) for w in answers.workloads),
    }
    return facts


def _bucket(value: float, buckets: Sequence[Mapping[str, Any]]) -> str:
    for b in buckets:
        if "below" not in b or value < float(b["below"]):
            return str(b["value"])
    return str(buckets[-1]["value"])


@dataclass(frozen=True, slots=True)
class Context:
    """What a decision needs besides the answers: region TPU coverage and the training scale."""

    region_tpus: Mapping[str, Sequence[str]]
    training_flops: float | None


def derive(facts: Mapping[str, Any], model: ScoringModel, ctx: Context) -> dict[str, Any]:
    """Derived answers (documented in the scoring model's `derived` buckets)."""
    derived = model.derived
    regions = facts["organization.regions"]
    covered = sum(1 for r in regions if ctx.region_tpus.get(r))
    coverage: str | None = "all" if covered == len(regions) else "none" if covered == 0 else "some"
    if not regions:  # a wizard draft may not have regions yet: neutral
        coverage = None
    p95 = facts.get("inference.p95_latency_ms")
    hours = facts.get("cost.hours_per_day")
    flops = ctx.training_flops
    return {
        "derived.utilisation": None
        if hours is None
        else _bucket(float(hours), derived["utilisation_buckets"]),
        "derived.latency_class": "none"
        if p95 is None
        else _bucket(float(p95), derived["latency_buckets_ms"]),
        "derived.tpu_region_coverage": coverage,
        "derived.training_scale": "unknown"
        if flops is None
        else _bucket(flops, derived["training_scale_flops"]),
    }
