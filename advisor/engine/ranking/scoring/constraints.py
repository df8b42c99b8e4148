"""The hard constraints: the options the answers rule out, each naming the answer that
causes it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.ranking.scoring.facts import Context
from advisor.engine.ranking.scoring.model import PHASE_OF

# --------------------------------------------------------------------------- hard constraints


@dataclass(frozen=True, slots=True)
class Exclusion:
    option: str
    kind: str | None  # None = every workload
    code: str
    params: Mapping[str, Any]
    answer_path: str


def exclusions(facts: Mapping[str, Any], ctx: Context) -> list[Exclusion]:
    """Hard constraints, in a fixed order. Each names the answer that causes it."""
    return [Exclusion(*row) for row in _exclusion_rows(facts, ctx)]


def feasibility(facts: Mapping[str, Any], ctx: Context) -> frozenset[tuple[str, str | None]]:
    """`feasibility_key(exclusions(facts, ctx))` without building the exclusions."""
    return frozenset((row[0], row[1]) for row in _exclusion_rows(facts, ctx))


_Row = tuple[str, str | None, str, Mapping[str, Any], str]


def exclusion_inputs(facts: Mapping[str, Any], ctx: Context) -> tuple[Any, ...]:
    """Everything `feasibility` reads, as a hashable key (keep in step with _exclusion_rows)."""
    regions = facts["organization.regions"]
    return (
        tuple(k for k, _ in facts["workloads"]),
        tuple(facts["deployment.allowed_modes"]),
        tuple(facts["deployment.clouds"]),
        facts["deployment.data_residency"],
        any(ctx.region_tpus.get(r) for r in regions),
        bool(facts["frameworks.custom_kernels"]),
        facts["frameworks.primary"],
        facts["frameworks.serving"],
    )


def _exclusion_rows(facts: Mapping[str, Any], ctx: Context) -> list[_Row]:
    out: list[_Row] = []
    kinds = [k for k, _ in facts["workloads"]]
    modes = facts["deployment.allowed_modes"]
    clouds = facts["deployment.clouds"]
    residency = facts["deployment.data_residency"]
    if "public_cloud" not in modes:
        out.append(("tpu", None, "exclude.tpu_needs_public_cloud", {}, "deployment.allowed_modes"))
    if clouds and "gcp" not in clouds:
        out.append(("tpu", None, "exclude.tpu_needs_gcp", {}, "deployment.clouds"))
    if residency == "on_premises_only":
        out.append(("tpu", None, "exclude.tpu_on_premises_only", {}, "deployment.data_residency"))
    elif residency == "in_region":
        regions = facts["organization.regions"]
        if not any(ctx.region_tpus.get(r) for r in regions):
            out.append(
                (
                    "tpu",
                    None,
                    "exclude.tpu_no_region",
                    {"regions": tuple(regions)},
                    "organization.regions",
                )
            )
    if facts["frameworks.custom_kernels"]:
        out.append(("tpu", None, "exclude.tpu_custom_kernels", {}, "frameworks.custom_kernels"))
    inference_kinds = [k for k in kinds if PHASE_OF[k] == "inference"]
    for kind in inference_kinds:
        if facts["frameworks.primary"] == "onnx":
            out.append(("tpu", kind, "exclude.tpu_onnx", {}, "frameworks.primary"))
        serving = facts["frameworks.serving"]
        if serving in ("tensorrt_llm", "triton"):
            out.append(
                ("tpu", kind, "exclude.tpu_serving", {"serving": serving}, "frameworks.serving")
            )
    for mode in vocabulary.MODES:
        if mode not in modes:
            out.append(
                (
                    mode,
                    None,
                    "exclude.mode_not_allowed",
                    {"mode": mode},
                    "deployment.allowed_modes",
                )
            )
        elif residency == "on_premises_only" and mode in (
            "public_cloud",
            "dedicated_hosting",
            "bare_metal",
        ):
            out.append(
                (
                    mode,
                    None,
                    "exclude.mode_on_premises_only",
                    {"mode": mode},
                    "deployment.data_residency",
                )
            )
    return out
