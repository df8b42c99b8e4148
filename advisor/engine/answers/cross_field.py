"""The answers' rules across fields, which JSON Schema cannot state in older versions.

Only comparisons between two numbers are beyond JSON Schema, and only documents of an older
version hold any (version 1: output <= context; versions 1 and 2: kv_heads divides
attention_heads, attention_heads divides hidden_size, experts_per_token <= experts,
active_parameters <= parameters); their schemas say them in the fields' descriptions and
`cross_field_problems` checks them. Version 3 states every rule in the schema's own terms: a
document valid by its schema meets every rule here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from advisor.engine.answers.problem import Problem
from advisor.engine.answers.upgrade import v2_head_dim
from advisor.engine.answers.vocabulary import (
    INFERENCE_KINDS,
    MAX_HEAD_DIM,
    MIN_HEAD_DIM,
    SCHEMA_VERSION,
    TRAINING_KINDS,
    WORK_MODEL_UNIT,
    WORK_UNITS,
    WORKLOAD_KINDS,
)
from advisor.engine.text import i18n


def _as_mapping(value: Any) -> Mapping[str, Any] | None:
    return value if isinstance(value, Mapping) else None


def cross_field_problems(
    doc: Mapping[str, Any], *, partial: bool, version: int = SCHEMA_VERSION
) -> list[Problem]:
    """Rules across fields. Each rule only runs on values that are structurally valid."""
    problems: list[Problem] = []
    workloads = doc.get("workloads")
    kinds: list[str] = []
    if isinstance(workloads, list):
        first_seen: dict[str, int] = {}
        for i, w in enumerate(workloads):
            kind = w.get("kind") if isinstance(w, Mapping) else None
            if not isinstance(kind, str) or kind not in WORKLOAD_KINDS:
                continue
            if kind in first_seen:
                problems.append(
                    Problem(
                        f"workloads[{i}].kind",
                        "duplicate_workload",
                        {"kind": kind, "first": f"workloads[{first_seen[kind]}]"},
                    )
                )
            else:
                first_seen[kind] = i
                kinds.append(kind)
    training = _as_mapping(doc.get("training"))
    inference = _as_mapping(doc.get("inference"))
    if not partial:
        needs_training = [k for k in kinds if k in TRAINING_KINDS]
        if needs_training and "training" not in doc:
            problems.append(
                Problem(
                    "training",
                    "section_required",
                    {"section": "training", "kinds": ", ".join(needs_training)},
                )
            )
        needs_inference = [k for k in kinds if k in INFERENCE_KINDS]
        if needs_inference and "inference" not in doc and "work" not in doc:
            problems.append(
                Problem(
                    "inference",
                    "section_required",
                    {"section": "inference", "kinds": ", ".join(needs_inference)},
                )
            )
        # Work counted in its own unit needs no token inference section (nor a model for it).
        applicable = {
            "training": bool(needs_training),
            "inference": bool(needs_inference) and "work" not in doc,
        }
        present = [s for s in ("training", "inference") if s in doc and applicable[s]]
        if present and "model" not in doc:
            problems.append(Problem("model", "model_required", {"sections": ", ".join(present)}))
    if training is not None:
        method = training.get("method")
        if method in ("lora", "qlora") and "lora_rank" not in training and not partial:
            problems.append(Problem("training.lora_rank", "lora_rank_required", {"method": method}))
    if inference is not None:
        # Version 1 only: its context included the output, so the two could contradict.
        ctx, out = inference.get("context_tokens"), inference.get("output_tokens")
        if version == 1 and _is_int(ctx) and _is_int(out) and out > ctx:
            problems.append(
                Problem(
                    "inference.output_tokens",
                    "output_exceeds_context",
                    {"output": i18n.fmt_number(out), "context": i18n.fmt_number(ctx)},
                )
            )
        if "batch_window_hours" not in inference and not partial:
            # The start and the firmness describe a window: without its length there is none.
            for key in ("batch_window_start_hour", "batch_window_firmness"):
                if key in inference:
                    problems.append(Problem(f"inference.{key}", "batch_window_hours_required", {}))
    problems.extend(_work_problems(doc, kinds))
    model = _as_mapping(doc.get("model"))
    arch = _as_mapping(model.get("architecture")) if model is not None else None
    if arch is not None and version >= 3:
        # Version 3's numbers are free within their bounds; a mixture of experts states both
        # of its routing numbers (the schema's allOf says so too).
        if not partial:
            for given, needed, code in (
                ("inactive_experts", "experts_per_token", "experts_k_required"),
                ("experts_per_token", "inactive_experts", "inactive_experts_required"),
            ):
                if given in arch and needed not in arch:
                    problems.append(Problem(f"model.architecture.{needed}", code, {}))
    elif arch is not None:
        problems.extend(_v2_architecture_problems(arch, partial=partial))
    deployment = _as_mapping(doc.get("deployment"))
    if deployment is not None:
        modes = deployment.get("allowed_modes")
        if (
            deployment.get("data_residency") == "on_premises_only"
            and isinstance(modes, list)
            and modes
            and not {"on_premises", "private_cloud"} & {m for m in modes if isinstance(m, str)}
        ):
            problems.append(Problem("deployment.data_residency", "residency_needs_on_premises", {}))
    return problems


def _v2_architecture_problems(arch: Mapping[str, Any], *, partial: bool) -> list[Problem]:
    """Version 1 and 2's architecture rules: four comparisons of two numbers, and a head
    dimension that version 3 (which asks it) can hold."""
    problems: list[Problem] = []
    heads, kv = arch.get("attention_heads"), arch.get("kv_heads")
    if _is_int(heads) and _is_int(kv) and kv > 0 and heads % kv != 0:
        problems.append(
            Problem(
                "model.architecture.kv_heads",
                "kv_heads_divide",
                {"kv_heads": kv, "heads": heads},
            )
        )
    experts, top_k = arch.get("experts", 1), arch.get("experts_per_token")
    if _is_int(experts) and _is_int(top_k) and top_k > experts:
        problems.append(
            Problem(
                "model.architecture.experts_per_token",
                "experts_per_token_exceed",
                {"k": top_k, "experts": experts},
            )
        )
    if _is_int(experts) and experts > 1 and top_k is None and not partial:
        problems.append(Problem("model.architecture.experts_per_token", "experts_k_required", {}))
    total, active = arch.get("parameters"), arch.get("active_parameters")
    if _is_int(total) and _is_int(active) and active > total:
        problems.append(
            Problem(
                "model.architecture.active_parameters",
                "active_exceeds_total",
                {"active": i18n.fmt_number(active), "total": i18n.fmt_number(total)},
            )
        )
    hidden = arch.get("hidden_size")
    if (
        "head_dim" not in arch
        and _is_int(hidden)
        and _is_int(heads)
        and heads > 0
        and hidden % heads != 0
    ):
        problems.append(
            Problem(
                "model.architecture.hidden_size",
                "heads_divide_hidden",
                {"hidden": hidden, "heads": heads},
            )
        )
    head_dim = v2_head_dim(arch)
    if (
        "head_dim" not in arch
        and head_dim is not None
        and not (MIN_HEAD_DIM <= head_dim <= MAX_HEAD_DIM)
    ):
        problems.append(
            Problem(
                "model.architecture.hidden_size",
                "head_dim_out_of_range",
                {
                    "hidden": hidden,
                    "heads": heads,
                    "head_dim": head_dim,
                    "low": MIN_HEAD_DIM,
                    "high": i18n.fmt_number(MAX_HEAD_DIM),
                },
            )
        )
    return problems


def _work_problems(doc: Mapping[str, Any], kinds: Sequence[Any]) -> list[Problem]:
    """The work section's own rules: its model works in the unit given, and training (sized in
    tokens) does not come with it."""
    work = _as_mapping(doc.get("work"))
    if work is None:
        return []
    out = []
    model, unit = work.get("model"), work.get("unit")
    expected = WORK_MODEL_UNIT.get(model) if isinstance(model, str) else None
    if expected is not None and unit in WORK_UNITS and unit != expected:
        out.append(
            Problem("work.model", "work_model_unit", {"work_model": model, "work_unit": unit})
        )
    training = [k for k in kinds if k in TRAINING_KINDS]
    if training:
        out.append(Problem("work", "work_with_training", {"kinds": ", ".join(training)}))
    return out


def _is_int(value: Any) -> TypeGuard[int | float]:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )
