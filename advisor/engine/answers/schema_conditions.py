"""The schema's top-level `allOf`: the cross-field rules JSON Schema can state (a section required
by a workload kind, lora_rank for LoRA, unique kinds, residency), so that the schema alone tells a
client which documents are valid. problems.py says the same rules in the user's terms.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from advisor.engine.answers.vocabulary import (
    INFERENCE_KINDS,
    SCHEMA_VERSION,
    TRAINING_KINDS,
    WORK_MODEL_UNIT,
    WORKLOAD_KINDS,
)


def _kind_is(kinds: Iterable[str]) -> dict[str, Any]:
    return {"type": "object", "properties": {"kind": {"enum": sorted(kinds)}}, "required": ["kind"]}


def _when(condition: dict[str, Any], then: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "if": condition, "then": then}


def _architecture_is(node: dict[str, Any]) -> dict[str, Any]:
    return {
        "required": ["model"],
        "properties": {
            "model": {"required": ["architecture"], "properties": {"architecture": node}}
        },
    }


def _architecture_requires(field: str) -> dict[str, Any]:
    return {"properties": {"model": {"properties": {"architecture": {"required": [field]}}}}}


def _moe_rules(version: int) -> list[dict[str, Any]]:
    """A mixture of experts states its routing: version 3 by experts_per_token and
    inactive_experts together, versions 1 and 2 by experts_per_token when experts > 1."""
    if version < 3:
        return [
            _when(
                _architecture_is(
                    {"required": ["experts"], "properties": {"experts": {"minimum": 2}}}
                ),
                _architecture_requires("experts_per_token"),
                "model.architecture.experts_per_token is required for a mixture of experts "
                "(experts > 1).",
            )
        ]
    return [
        _when(
            _architecture_is({"required": [given]}),
            _architecture_requires(needed),
            f"model.architecture.{needed} is required with {given}: a mixture of experts "
            "states both.",
        )
        for given, needed in (
            ("inactive_experts", "experts_per_token"),
            ("experts_per_token", "inactive_experts"),
        )
    ]


def conditions(*, draft: bool = False, version: int = SCHEMA_VERSION) -> list[dict[str, Any]]:
    """The cross-field rules that JSON Schema can state, as the published schema's `allOf`.

    Each one restates a check of `cross_field_problems`, which keeps reporting it with its own
    message: the engine validates against the schema without these (`validator`). A draft is
    held to the two rules that `check_partial` applies.
    """
    training_workload = {"workloads": {"contains": _kind_is(TRAINING_KINDS)}}
    inference_workload = {"workloads": {"contains": _kind_is(INFERENCE_KINDS)}}
    one_of_each_kind = [
        {"contains": _kind_is([kind]), "minContains": 0, "maxContains": 1}
        for kind in WORKLOAD_KINDS
    ]
    unique_kinds = {
        "description": "Workload kinds are unique.",
        "properties": {"workloads": {"allOf": one_of_each_kind}},
    }
    residency = _when(
        {
            "required": ["deployment"],
            "properties": {
                "deployment": {
                    "required": ["data_residency", "allowed_modes"],
                    "properties": {
                        "data_residency": {"const": "on_premises_only"},
                        "allowed_modes": {"minItems": 1},
                    },
                }
            },
        },
        {
            "properties": {
                "deployment": {
                    "properties": {
                        "allowed_modes": {"contains": {"enum": ["on_premises", "private_cloud"]}}
                    }
                }
            }
        },
        "on_premises_only residency needs on_premises or private_cloud among allowed_modes.",
    )
    # Work in its own unit (values a draft may not hold either): its model's unit, no training.
    work_rules = [
        _when(
            {"required": ["work"]},
            {"properties": {"workloads": {"not": {"contains": _kind_is(TRAINING_KINDS)}}}},
            "work (a unit other than tokens) comes with no pretraining or fine_tuning workload.",
        ),
        *(
            _when(
                {
                    "required": ["work"],
                    "properties": {
                        "work": {"required": ["model"], "properties": {"model": {"const": m}}}
                    },
                },
                {"properties": {"work": {"properties": {"unit": {"const": u}}}}},
                f"work.model {m} works in {u}.",
            )
            for m, u in WORK_MODEL_UNIT.items()
        ),
    ]
    if draft:
        return [unique_kinds, residency, *work_rules]
    return [
        unique_kinds,
        residency,
        _when(
            {"required": ["workloads"], "properties": training_workload},
            {"required": ["training"]},
            "training is required when a pretraining or fine_tuning workload exists.",
        ),
        _when(
            {
                "required": ["workloads"],
                "properties": inference_workload,
                "not": {"required": ["work"]},
            },
            {"required": ["inference"]},
            "inference is required when a batch_inference or realtime_inference workload exists "
            "(unless work counts it in its own unit).",
        ),
        *work_rules,
        _when(
            {"required": ["workloads", "training"], "properties": training_workload},
            {"required": ["model"]},
            "model is required when training applies.",
        ),
        _when(
            {"required": ["workloads", "inference"], "properties": inference_workload},
            {"required": ["model"]},
            "model is required when inference applies.",
        ),
        *_moe_rules(version),
        _when(
            {
                "required": ["training"],
                "properties": {
                    "training": {
                        "required": ["method"],
                        "properties": {"method": {"enum": ["lora", "qlora"]}},
                    }
                },
            },
            {"properties": {"training": {"required": ["lora_rank"]}}},
            "training.lora_rank is required for the lora and qlora methods.",
        ),
        _when(
            {
                "required": ["inference"],
                "properties": {
                    "inference": {
                        "anyOf": [
                            {"required": ["batch_window_start_hour"]},
                            {"required": ["batch_window_firmness"]},
                        ]
                    }
                },
            },
            {"properties": {"inference": {"required": ["batch_window_hours"]}}},
            "inference.batch_window_hours is required when the window's start or firmness is "
            "given.",
        ),
    ]
