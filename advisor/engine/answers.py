"""Answers document v1: its JSON Schema, the parser into frozen dataclasses, cross-field rules.

The schema is the single source of truth for field names, types, enums and bounds; the wizard, the
API and the CLI all validate against it. Cross-field rules live in `_cross_field_problems`, which
says what is wrong in the user's terms; those JSON Schema can state (a section required by a
workload kind, lora_rank for LoRA, unique kinds, residency) are also in the published schema's
top-level `allOf` (`_conditions`), so that the schema alone tells a client which documents are
valid. Only comparisons between two numbers (output <= context, kv_heads divides
attention_heads, attention_heads divides hidden_size) are beyond JSON Schema; the schema says
them in the fields' descriptions.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, TypeGuard

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from advisor.engine import i18n

SCHEMA_VERSION = 1

INDUSTRIES = (
    "ecommerce",
    "media",
    "finance",
    "insurance",
    "healthcare",
    "life_sciences",
    "research",
    "public_sector",
    "other",
)
REGIONS = (
    "hong_kong",
    "tokyo",
    "japan",
    "singapore",
    "taipei",
    "los_angeles",
    "us_east",
    "us_west",
    "europe",
    "mainland_china",
)
WORKLOAD_KINDS = (
    "pretraining",
    "fine_tuning",
    "batch_inference",
    "realtime_inference",
    "preprocessing",
)
SCHEDULES = ("continuous", "daily", "weekly", "project_cycles", "ad_hoc")
STACK_CHANGES = ("weekly", "monthly", "quarterly", "rarely")
PIPELINES = ("exploratory", "evolving", "standardized")
DEMANDS = ("unpredictable", "seasonal", "predictable")
FRAMEWORKS = ("pytorch", "tensorflow", "jax", "onnx", "other")
SERVING = ("vllm", "tgi", "tensorrt_llm", "triton", "tf_serving", "torchserve", "custom", "none")
MODES = ("public_cloud", "dedicated_hosting", "bare_metal", "private_cloud", "on_premises")
CLOUDS = ("gcp", "aws", "azure", "other")
PORTABILITY = ("required", "preferred", "not_needed")
RESIDENCY = ("none", "in_region", "on_premises_only")
BILLING = ("pay_as_you_go", "monthly_fixed", "committed", "no_preference")
OPS_CAPACITY = ("none", "part_time", "dedicated_team")
TRAINING_METHODS = ("full", "lora", "qlora")
TRAINING_PRECISIONS = ("fp32", "bf16_mixed", "bf16", "fp8_mixed")
OPTIMIZERS = ("adamw", "adamw_8bit", "sgd", "adafactor")
OPTIMIZER_IMPLS = ("fused", "foreach")
LATENCY_METRICS = ("whole_response", "ttft", "tpot")
INFERENCE_PRECISIONS = ("bf16", "fp16", "fp8", "int8", "int4")
# CUDA architectures a team's custom kernels are built for (nvcc -gencode / TORCH_CUDA_ARCH_LIST).
KERNEL_ARCHITECTURES = ("sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120")
TRAFFIC = ("steady", "daily_cycle", "bursty", "seasonal_peaks")
# A batch job's window (issue 21 item 8): hard = the results are useless after it; soft = late is
# a nuisance, flagged but not disqualifying.
BATCH_WINDOW_FIRMNESS = ("hard", "soft")
# What a real-time service must survive (issue 21): one server failing (N+1, the default for
# production), nothing (best effort: an outage is accepted), or it is for development and test.
AVAILABILITY = ("survive_one_failure", "best_effort", "dev_test")
# Issue 21 item 7: work counted in its own unit where tokens are wrong (the `work` section).
WORK_UNITS = ("images", "audio_hours", "passages", "pairs")
# The models the catalog's `unit_workloads` sizes, and the unit each one works in.
WORK_MODEL_UNIT = {
    "resnet-50": "images",
    "whisper-large-v3-turbo": "audio_hours",
    "bge-large-en-v1.5": "passages",
    "bge-reranker-large": "pairs",
}
WORK_MODELS = tuple(WORK_MODEL_UNIT)
# Units a day (10^12 images a day is ~100x the largest published image-serving fleets).
MAX_WORK_PER_DAY = 1e13

TRAINING_KINDS = frozenset({"pretraining", "fine_tuning"})
INFERENCE_KINDS = frozenset({"batch_inference", "realtime_inference"})

# Bounds of answers v1. They are part of the public contract: tightening one later would make stored
# documents invalid, so they are generous (10^13 parameters is ~20x the largest published dense
# model).
MAX_PARAMETERS = 10**13
MAX_DATASET_TOKENS = 10**15
MAX_TOKENS_PER_DAY = 10**13
MAX_CONTEXT_TOKENS = 2_000_000
MAX_SEQUENCE_LENGTH = 1_048_576
MAX_OPS_HEADCOUNT = 10_000
MIN_AMORTISATION_MONTHS = 6
MAX_AMORTISATION_MONTHS = 120
# Routed experts per layer (DeepSeek-V3 has 256; 4x headroom).
MAX_EXPERTS = 1_024

# What a caller lists of an invalid document; the rest is counted ("and 12 more"). A wrong
# document rarely has more than a handful of problems, and an answer that grows with the input
# lets a small request cost the server a large one (issue 11).
MAX_PROBLEMS = 50
# Unknown keys reported one by one per object; more are summed up in one problem.
MAX_UNKNOWN_KEYS = 10
# Room for a key in a path or message; the rest of a long key is elided.
MAX_KEY_CHARS = 60


@cache
def preset_ids() -> tuple[str, ...]:
    """Ids of the bundled model presets (data/presets.json), in file order."""
    raw = resources.files("advisor.engine").joinpath("data/presets.json").read_text("utf-8")
    return tuple(p["id"] for p in json.loads(raw)["presets"])


def _enum(values: Sequence[str], description: str) -> dict[str, Any]:
    return {
        "type": "string",
        "enum": list(values),
        "maxLength": max(len(v) for v in values),
        "description": description,
    }


def _int(lo: int, hi: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": lo, "maximum": hi, "description": description}


def _obj(properties: dict[str, Any], required: Iterable[str], description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


def _unique_list(values: Sequence[str], lo: int, description: str) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {
            "type": "string",
            "enum": list(values),
            "maxLength": max(len(v) for v in values),
        },
        "minItems": lo,
        "maxItems": len(values),
        "uniqueItems": True,
        "description": description,
    }


@cache
def _schema() -> dict[str, Any]:
    architecture = _obj(
        {
            "parameters": _int(1_000_000, MAX_PARAMETERS, "Total parameter count (10^6 .. 10^13)."),
            "layers": _int(1, 1_000, "Decoder layers."),
            "hidden_size": _int(
                64, 131_072, "Model width; a multiple of attention_heads unless head_dim is given."
            ),
            "intermediate_size": _int(64, 1_048_576, "MLP width (per projection)."),
            "attention_heads": _int(1, 1_024, "Query heads."),
            "kv_heads": _int(1, 1_024, "Key/value heads (GQA); must divide attention_heads."),
            "head_dim": _int(
                8,
                1_024,
                "Optional, added in v1: head dimension. Default hidden_size / attention_heads.",
            ),
            "vocab_size": _int(1, 2_000_000, "Vocabulary size."),
            "tied_embeddings": {
                "type": "boolean",
                "description": "Input embedding and output head share weights.",
            },
            "experts": _int(
                1,
                MAX_EXPERTS,
                "Optional, added in v1: routed experts per MoE layer (mixture of experts); "
                "intermediate_size is then one expert's MLP width. Default 1 (a dense model).",
            ),
            "experts_per_token": _int(
                1,
                MAX_EXPERTS,
                "Optional, added in v1: experts each token is routed to (top-k); at most experts. "
                "Required with experts > 1.",
            ),
            "active_parameters": _int(
                1_000_000,
                MAX_PARAMETERS,
                "Optional, added in v1: parameters used per token (<= parameters). Default for a "
                "mixture of experts: parameters less the experts a token does not use, in every "
                "layer.",
            ),
        },
        [
            "parameters",
            "layers",
            "hidden_size",
            "intermediate_size",
            "attention_heads",
            "kv_heads",
            "vocab_size",
            "tied_embeddings",
        ],
        "Decoder-only Transformer shape (Llama-style: SwiGLU MLP, RMSNorm, GQA).",
    )
    model = {
        "type": "object",
        "description": "Needed for sizing. Exactly one of preset or architecture. Required when a "
        "training or inference section is given.",
        "properties": {
            "preset": _enum(preset_ids(), "A bundled model preset (published config.json)."),
            "architecture": architecture,
        },
        "additionalProperties": False,
        "oneOf": [{"required": ["preset"]}, {"required": ["architecture"]}],
    }
    training = _obj(
        {
            "method": _enum(TRAINING_METHODS, "full fine-tune / pre-train, LoRA or QLoRA."),
            "lora_rank": _int(1, 4_096, "LoRA rank; required for lora and qlora."),
            "precision": _enum(
                TRAINING_PRECISIONS,
                "fp32 | bf16_mixed (fp32 master weights, bf16 compute) | bf16 (params, grads and "
                "optimizer state all bf16) | fp8_mixed.",
            ),
            "optimizer": _enum(OPTIMIZERS, "Optimizer."),
            "optimizer_impl": {
                **_enum(
                    OPTIMIZER_IMPLS,
                    "Optional, added in v1: how AdamW runs its step. fused (default) allocates no "
                    "step scratch; foreach allocates a parameter-sized temporary.",
                ),
                "default": "fused",
            },
            "micro_batch_size": _int(1, 4_096, "Sequences per device per step."),
            "sequence_length": _int(1, MAX_SEQUENCE_LENGTH, "Tokens per training sequence."),
            "gradient_checkpointing": {
                "type": "boolean",
                "description": "Activation checkpointing per decoder layer.",
            },
            "dataset_tokens": _int(1, MAX_DATASET_TOKENS, "Tokens per epoch (1 .. 10^15)."),
            "epochs": {
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": 1_000,
                "default": 1,
                "description": "Passes over the dataset; default 1.",
            },
            "deadline_hours": {
                "type": ["number", "null"],
                "exclusiveMinimum": 0,
                "maximum": 100_000,
                "default": None,
                "description": "Wall-clock hours the run must finish in; null = no deadline.",
            },
        },
        [
            "method",
            "precision",
            "optimizer",
            "micro_batch_size",
            "sequence_length",
            "gradient_checkpointing",
            "dataset_tokens",
        ],
        "Required when a pretraining or fine_tuning workload exists; ignored otherwise.",
    )
    inference = _obj(
        {
            "precision": _enum(INFERENCE_PRECISIONS, "Weight precision when serving."),
            "context_tokens": _int(1, MAX_CONTEXT_TOKENS, "Prompt + output tokens per sequence."),
            "output_tokens": _int(
                1, MAX_CONTEXT_TOKENS, "Generated tokens per sequence; <= context_tokens."
            ),
            "concurrent_sequences": _int(1, 100_000, "Sequences in flight at once."),
            "p95_latency_ms": {
                "type": ["number", "null"],
                "exclusiveMinimum": 0,
                "maximum": 600_000,
                "default": None,
                "description": "p95 latency target in ms, measured as latency_metric says "
                "(default: the whole response, first token + all output tokens); null = no target.",
            },
            "latency_metric": {
                **_enum(
                    LATENCY_METRICS,
                    "Optional, added in v1: what p95_latency_ms measures. whole_response "
                    "(default): time to the last output token; ttft: time to first token; tpot: "
                    "time per output token after the first.",
                ),
                "default": "whole_response",
            },
            "tokens_per_day": _int(0, MAX_TOKENS_PER_DAY, "Output tokens generated per day."),
            "traffic": _enum(TRAFFIC, "Shape of the request load."),
            "peak_to_average": {
                "type": "number",
                "minimum": 1,
                "maximum": 100,
                "description": "Optional, added in v1 (issue 21): busiest-hour token rate over the "
                "day's average (10 = peaks at ten times the average). Real-time serving is sized "
                "for the peak. Default: the catalog's figure for `traffic`.",
            },
            "batch_window_hours": {
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": 24,
                "description": "Optional, added in v1 (issue 21): hours a batch_inference run must "
                "finish in each day, from batch_window_start_hour; its run time (with "
                "provisioning, container start and loading the weights) is checked against it as "
                "a deadline is. Default: none (the run spreads over cost.hours_per_day).",
            },
            "batch_window_start_hour": _int(
                0,
                23,
                "Optional, added in v1 (issue 21): local hour the batch window opens (1 = 01:00); "
                "needs batch_window_hours. Default: not stated.",
            ),
            "batch_window_firmness": {
                **_enum(
                    BATCH_WINDOW_FIRMNESS,
                    "Optional, added in v1 (issue 21): hard = a run past the window is a missed "
                    "deadline (ranks after every option that meets it); soft = it is flagged. "
                    "Needs batch_window_hours.",
                ),
                "default": "hard",
            },
            "availability": {
                **_enum(
                    AVAILABILITY,
                    "Optional, added in v1 (issue 21): what a realtime_inference service must "
                    "survive. survive_one_failure (default): one spare server (N+1) so a failed "
                    "server still leaves capacity for the peak; best_effort: no spare, an outage "
                    "is accepted; dev_test: development or test, no spare.",
                ),
                "default": "survive_one_failure",
            },
        },
        [
            "precision",
            "context_tokens",
            "output_tokens",
            "concurrent_sequences",
            "tokens_per_day",
            "traffic",
        ],
        "Required when a batch_inference or realtime_inference workload exists; ignored otherwise.",
    )
    work = _obj(
        {
            "unit": _enum(
                WORK_UNITS,
                "What the model works on: images (vision), audio_hours (speech recognition), "
                "passages (embedding) or pairs (query-passage reranking).",
            ),
            "model": _enum(
                WORK_MODELS,
                "The model, from the catalog's unit_workloads (each works in one unit: resnet-50 "
                "images, whisper-large-v3-turbo audio_hours, bge-large-en-v1.5 passages, "
                "bge-reranker-large pairs).",
            ),
            "per_day": {
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": MAX_WORK_PER_DAY,
                "description": "Volume a day in the unit: images, hours of audio, passages or "
                "pairs.",
            },
            "p95_latency_ms": {
                "type": ["number", "null"],
                "exclusiveMinimum": 0,
                "maximum": 600_000,
                "default": None,
                "description": "p95 latency target per image or per request in ms; null = none.",
            },
            "peak_to_average": {
                "type": "number",
                "minimum": 1,
                "maximum": 100,
                "description": "Busiest hour over the day's average for real-time serving. "
                "Default: the catalog's figure for a daily cycle.",
            },
        },
        ["unit", "model", "per_day"],
        "Optional, added in v1 (issue 21): inference work counted in its own unit instead of "
        "tokens. With it, an inference workload needs no inference or model section (both are "
        "ignored for it); training stays in tokens, so no pretraining or fine_tuning workload "
        "may come with it.",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://advisor.example/schemas/answers-v1.json",
        "title": "Advisor answers document, version 1",
        "description": "Unknown keys are errors. Sections that do not apply may be absent; a "
        "section present but not applicable (e.g. training without a training workload) is "
        "accepted "
        "and ignored. Fields added later are optional with documented defaults.",
        "type": "object",
        "properties": {
            "schema_version": {"const": SCHEMA_VERSION, "description": "Always 1."},
            "organization": _obj(
                {
                    "industry": _enum(INDUSTRIES, "Industry."),
                    "regions": _unique_list(REGIONS, 1, "Where users and data are (>= 1)."),
                },
                ["industry", "regions"],
                "Who the customer is.",
            ),
            "workloads": {
                "type": "array",
                "minItems": 1,
                "maxItems": 5,
                "description": "1..5 workloads; kinds are unique.",
                "items": _obj(
                    {
                        "kind": _enum(WORKLOAD_KINDS, "Workload kind."),
                        "schedule": _enum(SCHEDULES, "How often it runs."),
                    },
                    ["kind", "schedule"],
                    "One workload.",
                ),
            },
            "maturity": _obj(
                {
                    "stack_changes": _enum(STACK_CHANGES, "How often the ML stack changes."),
                    "pipeline": _enum(PIPELINES, "Pipeline maturity."),
                    "demand": _enum(DEMANDS, "Predictability of demand."),
                },
                ["stack_changes", "pipeline", "demand"],
                "Team and demand maturity.",
            ),
            "frameworks": _obj(
                {
                    "primary": _enum(FRAMEWORKS, "Main framework."),
                    "others": {
                        **_unique_list(FRAMEWORKS, 0, "Other frameworks in use; default []."),
                        "default": [],
                    },
                    "custom_kernels": {
                        "type": "boolean",
                        "description": "Custom CUDA/Triton ops or CUDA-only libraries.",
                    },
                    "serving": _enum(SERVING, "Serving stack."),
                    "kernel_architectures": {
                        **_unique_list(
                            KERNEL_ARCHITECTURES,
                            0,
                            "Optional, added in v1: CUDA architectures the custom kernels are "
                            "built for (sm_80 = A100, sm_90 = H100/H200, ...). A card of a newer "
                            "architecture needs a rebuild; an older one cannot run them. Default "
                            "[] (not stated). Read only when custom_kernels is true.",
                        ),
                        "default": [],
                    },
                },
                ["primary", "custom_kernels", "serving"],
                "Software stack.",
            ),
            "deployment": _obj(
                {
                    "allowed_modes": _unique_list(MODES, 1, "Deployment modes allowed (>= 1)."),
                    "clouds": {
                        **_unique_list(
                            CLOUDS, 0, "Clouds in use or acceptable; empty = any; default []."
                        ),
                        "default": [],
                    },
                    "portability": _enum(PORTABILITY, "Need to move between providers."),
                    "china_connectivity": {
                        "type": "boolean",
                        "description": "Optional since v1 (was required): users or data in "
                        "mainland China must be reached. Default: whether organization.regions "
                        "includes mainland_china, so the question is asked once.",
                    },
                    "data_residency": _enum(RESIDENCY, "Where data may live."),
                },
                ["allowed_modes", "portability", "data_residency"],
                "Deployment constraints.",
            ),
            "cost": _obj(
                {
                    "billing": _enum(BILLING, "Billing preference."),
                    "monthly_budget_usd": {
                        "type": ["number", "null"],
                        "minimum": 0,
                        "maximum": 1e10,
                        "default": None,
                        "description": "Monthly budget in USD; null = not stated.",
                    },
                    "hours_per_day": {
                        "type": "number",
                        "minimum": 0,
                        "maximum": 24,
                        "description": "Hours per day the accelerators are busy (0..24).",
                    },
                    "ops_capacity": _enum(OPS_CAPACITY, "Operations staff available."),
                    "ops_headcount": _int(
                        0,
                        MAX_OPS_HEADCOUNT,
                        "Optional, added in v1: people who operate the infrastructure. When "
                        "given, the staff cost prices the operations hours at the team's regional "
                        "rate up to what this many people work in a month, and buys the rest in "
                        "(the ops_capacity none premium); without it, ops_capacity decides.",
                    ),
                    "ops_region": _enum(
                        REGIONS,
                        "Optional, added in v1: where the operations staff work, for their wage. "
                        "Default: the first of organization.regions.",
                    ),
                    "amortisation_months": _int(
                        MIN_AMORTISATION_MONTHS,
                        MAX_AMORTISATION_MONTHS,
                        "Optional, added in v1 (issue 22): months over which owned hardware "
                        "(private cloud, on premises) is paid off in its monthly cost. Default: "
                        "the catalog's default_amortisation_months (36).",
                    ),
                    "capex_budget_usd": {
                        "type": ["number", "null"],
                        "minimum": 0,
                        "maximum": 1e11,
                        "default": None,
                        "description": "Optional, added in v1 (issue 22): the most the team "
                        "may spend buying owned hardware, in USD; an owned option whose purchase "
                        "exceeds it says so. null = not stated.",
                    },
                },
                ["billing", "hours_per_day", "ops_capacity"],
                "Cost preferences.",
            ),
            "model": model,
            "training": training,
            "inference": inference,
            "work": work,
        },
        "required": [
            "schema_version",
            "organization",
            "workloads",
            "maturity",
            "frameworks",
            "deployment",
            "cost",
        ],
        "additionalProperties": False,
        "allOf": _conditions(),
    }


def _kind_is(kinds: Iterable[str]) -> dict[str, Any]:
    return {"type": "object", "properties": {"kind": {"enum": sorted(kinds)}}, "required": ["kind"]}


def _when(condition: dict[str, Any], then: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "if": condition, "then": then}


def _conditions(*, draft: bool = False) -> list[dict[str, Any]]:
    """The cross-field rules that JSON Schema can state, as the published schema's `allOf`.

    Each one restates a check of `_cross_field_problems`, which keeps reporting it with its own
    message: the engine validates against the schema without these (`_validator`). A draft is
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
        _when(
            {
                "required": ["model"],
                "properties": {
                    "model": {
                        "required": ["architecture"],
                        "properties": {
                            "architecture": {
                                "required": ["experts"],
                                "properties": {"experts": {"minimum": 2}},
                            }
                        },
                    }
                },
            },
            {
                "properties": {
                    "model": {"properties": {"architecture": {"required": ["experts_per_token"]}}}
                }
            },
            "model.architecture.experts_per_token is required for a mixture of experts "
            "(experts > 1).",
        ),
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


def answers_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of answers document v1 (a fresh copy)."""
    return copy.deepcopy(_schema())


@cache
def _draft_schema() -> dict[str, Any]:
    base = {k: v for k, v in _schema().items() if k != "allOf"}
    return {
        **_strip_for_partial(base),
        "$id": "https://advisor.example/schemas/answers-v1-draft.json",
        "title": "Advisor answers document, version 1, draft",
        "description": "What a draft may hold (check_partial): any part of an answers document, "
        "with no wrong values; required fields, minimum list sizes and the conditional "
        "sections do not apply until it is submitted.",
        "allOf": _conditions(draft=True),
    }


def answers_draft_schema() -> dict[str, Any]:
    """Return the JSON Schema of what a draft may hold (`check_partial`), a fresh copy."""
    return copy.deepcopy(_draft_schema())


def _strip_for_partial(node: Any) -> Any:
    # A wizard draft may lack anything; it may not hold wrong values. So drop "required", minimum
    # list sizes and the preset/architecture choice, and keep types, enums, bounds and unknown keys.
    if isinstance(node, dict):
        return {
            k: _strip_for_partial(v)
            for k, v in node.items()
            if k not in ("required", "minItems", "oneOf")
        }
    if isinstance(node, list):
        return [_strip_for_partial(v) for v in node]
    return node


@cache
def _validator(partial: bool) -> Draft202012Validator:
    # The conditions are checked by _cross_field_problems, with messages that name the rule
    # (a bare "training is required" would not say which workload needs it).
    schema = {k: v for k, v in _schema().items() if k != "allOf"}
    return Draft202012Validator(_strip_for_partial(schema) if partial else schema)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an answers document: where (`path`), what (`code`) and details."""

    path: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        """The problem as a sentence in `lang` ("en" or "zh-hant")."""
        return i18n.problem_message(self.code, self.path, self.params, lang)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """JSON form: path, code, params and the message in `lang`."""
        return {
            "path": self.path,
            "code": self.code,
            "params": dict(self.params),
            "message": self.message(lang),
        }


class AnswersError(ValueError):
    """An answers document is invalid; `.problems` lists every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        summary = "; ".join(f"{p.path or '(root)'}: {p.message()}" for p in self.problems[:5])
        super().__init__(f"{len(self.problems)} problem(s): {summary}")


def join_path(parts: Iterable[str | int]) -> str:
    """Render a JSON path as `workloads[1].kind`."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _fmt_value(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return i18n.fmt_number(value)
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _schema_problems(error: ValidationError) -> list[Problem]:
    parts = list(error.absolute_path)
    path = join_path(parts)
    kind = error.validator
    value: Any = error.instance
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    rule: Any = error.validator_value
    if kind == "additionalProperties":
        known = set(schema.get("properties", {}))
        extras = (
            sorted(str(k) for k in value if k not in known) if isinstance(value, Mapping) else []
        )
        return [
            Problem(
                join_path([*parts, _short_key(k)]),
                "unknown_key",
                {"key": _short_key(k), "allowed": sorted(known)},
            )
            for k in extras
        ]
    if kind == "required":
        missing = [r for r in rule if r not in value]
        return [Problem(join_path([*parts, r]), "required", {"field": r}) for r in missing]
    if kind == "type":
        expected = rule
        expected_text = " | ".join(expected) if isinstance(expected, list) else str(expected)
        return [Problem(path, "type", {"expected": expected_text, "actual": _type_name(value)})]
    if kind == "enum":
        return [
            Problem(
                path,
                "enum",
                {"value": _fmt_value(value), "allowed": ", ".join(map(str, rule))},
            )
        ]
    if kind == "const":
        return [
            Problem(
                path, "schema_version", {"expected": SCHEMA_VERSION, "value": _fmt_value(value)}
            )
        ]
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return [
            Problem(
                path,
                kind.replace("M", "_m").lower(),
                {"limit": i18n.fmt_number(rule), "value": _fmt_value(value)},
            )
        ]
    if kind in ("minItems", "maxItems"):
        return [
            Problem(
                path,
                "min_items" if kind == "minItems" else "max_items",
                {"limit": rule, "count": len(value)},
            )
        ]
    if kind == "maxLength":
        return [Problem(path, "max_length", {"limit": rule, "count": len(value)})]
    if kind == "uniqueItems":
        return [Problem(path, "unique_items", {})]
    if kind == "oneOf":
        return [Problem(path, "model_one_of", {})]
    return [Problem(path, "invalid", {"detail": _short_key(error.message)})]


def _short_key(text: str) -> str:
    return text if len(text) <= MAX_KEY_CHARS else text[: MAX_KEY_CHARS - 1] + "…"


def _bounded(
    node: Any, schema: Mapping[str, Any], parts: list[str | int]
) -> tuple[Any, list[Problem]]:
    """`node` cut down to what its schema allows, with a problem for each cut.

    Arrays keep their first maxItems items and objects their known keys plus the first few
    unknown ones, so that validating (and reporting on) the result takes bounded work whatever
    the input holds: 190,000 bad regions were once 190,000 problems and a 65 MB answer.
    Only nodes the schema describes are walked; the values of unknown keys are never read.
    """
    problems: list[Problem] = []
    if isinstance(node, list) and schema.get("type") == "array":
        limit = schema.get("maxItems")
        if isinstance(limit, int) and len(node) > limit:
            problems.append(
                Problem(join_path(parts), "max_items", {"limit": limit, "count": len(node)})
            )
            node = node[:limit]
        items = schema.get("items")
        if not isinstance(items, Mapping):
            return node, problems
        out: list[Any] = []
        for i, value in enumerate(node):
            value, found = _bounded(value, items, [*parts, i])
            out.append(value)
            problems.extend(found)
        return out, problems
    properties = schema.get("properties")
    if isinstance(node, Mapping) and isinstance(properties, Mapping):
        unknown = [k for k in node if k not in properties]
        if schema.get("additionalProperties") is False and len(unknown) > MAX_UNKNOWN_KEYS:
            problems.append(
                Problem(
                    join_path(parts),
                    "unknown_keys",
                    {
                        "count": len(unknown) - MAX_UNKNOWN_KEYS,
                        "allowed": sorted(properties),
                    },
                )
            )
            dropped = set(unknown[MAX_UNKNOWN_KEYS:])
            node = {k: v for k, v in node.items() if k not in dropped}
        kept: dict[str, Any] = {}
        for key, value in node.items():
            if key in properties:
                value, found = _bounded(value, properties[key], [*parts, key])
                problems.extend(found)
            kept[key] = value
        return kept, problems
    return node, problems


def first_problems(
    problems: Sequence[Problem], limit: int = MAX_PROBLEMS
) -> tuple[list[Problem], int]:
    """The problems a caller lists (at most `limit`) and how many more there are."""
    return list(problems[:limit]), max(0, len(problems) - limit)


def _as_mapping(value: Any) -> Mapping[str, Any] | None:
    return value if isinstance(value, Mapping) else None


def _cross_field_problems(doc: Mapping[str, Any], *, partial: bool) -> list[Problem]:
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
        ctx, out = inference.get("context_tokens"), inference.get("output_tokens")
        if _is_int(ctx) and _is_int(out) and out > ctx:
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
    if arch is not None:
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
            problems.append(
                Problem("model.architecture.experts_per_token", "experts_k_required", {})
            )
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


def _collect(doc: Any, *, partial: bool) -> list[Problem]:
    if not isinstance(doc, Mapping):
        return [Problem("", "not_object", {"actual": _type_name(doc)})]
    problems: list[Problem] = []
    try:
        doc, problems = _bounded(doc, _schema(), [])
        for error in _validator(partial).iter_errors(doc):
            problems.extend(_schema_problems(error))
    except Exception as exc:  # noqa: BLE001 - arbitrary draft input must never escape as a crash
        problems.append(Problem("", "invalid", {"detail": type(exc).__name__}))
        return problems
    try:
        problems.extend(_cross_field_problems(doc, partial=partial))
    except Exception as exc:  # noqa: BLE001
        problems.append(Problem("", "invalid", {"detail": type(exc).__name__}))
    # Stable order (document order is not guaranteed by iter_errors) and no duplicates; a wrong type
    # makes enum and bound checks at the same path noise, so only the type problem is kept.
    # The same goes for enum problems on a string far longer than any allowed value.
    typed = {p.path for p in problems if p.code == "type"}
    problems = [p for p in problems if p.code == "type" or p.path not in typed]
    too_long = {p.path for p in problems if p.code == "max_length"}
    problems = [p for p in problems if p.code != "enum" or p.path not in too_long]
    seen: set[tuple[str, str, str]] = set()
    unique: list[Problem] = []
    for p in sorted(problems, key=lambda p: (p.path, p.code)):
        key = (p.path, p.code, json.dumps(p.params, sort_keys=True, default=str))
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


def check_partial(doc: Mapping[str, Any]) -> list[Problem]:
    """Validate a wizard draft: only what is present. Never raises; missing sections are fine."""
    return _collect(doc, partial=True)


def validate(doc: Mapping[str, Any]) -> list[Problem]:
    """Every problem of a complete answers document (empty list = valid)."""
    return _collect(doc, partial=False)


# What a complete validation reports that a draft may still lack (a missing key or section, a
# list not filled in yet, neither preset nor architecture chosen); every other problem is a value
# present and wrong, which check_partial reports too.
_MISSING = frozenset(
    {
        "required",
        "min_items",
        "model_one_of",
        "section_required",
        "model_required",
        "lora_rank_required",
        "experts_k_required",
    }
)


def draft_problems(problems: Iterable[Problem]) -> list[Problem]:
    """`check_partial`'s problems out of `validate`'s for the same document, without a second
    pass: `draft_problems(validate(doc)) == check_partial(doc)`."""
    return [p for p in problems if p.code not in _MISSING]


# ---------------------------------------------------------------------------- dataclasses


@dataclass(frozen=True, slots=True)
class Organization:
    industry: str
    regions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Workload:
    kind: str
    schedule: str


@dataclass(frozen=True, slots=True)
class Maturity:
    stack_changes: str
    pipeline: str
    demand: str


@dataclass(frozen=True, slots=True)
class Frameworks:
    primary: str
    others: tuple[str, ...]
    custom_kernels: bool
    serving: str
    kernel_architectures: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Deployment:
    allowed_modes: tuple[str, ...]
    clouds: tuple[str, ...]
    portability: str
    china_connectivity: bool
    data_residency: str


@dataclass(frozen=True, slots=True)
class Cost:
    billing: str
    monthly_budget_usd: float | None
    hours_per_day: float
    ops_capacity: str
    ops_headcount: int | None = None
    ops_region: str | None = None
    amortisation_months: int | None = None
    capex_budget_usd: float | None = None


@dataclass(frozen=True, slots=True)
class Architecture:
    parameters: int
    layers: int
    hidden_size: int
    intermediate_size: int
    attention_heads: int
    kv_heads: int
    vocab_size: int
    tied_embeddings: bool
    head_dim: int | None = None
    # Mixture of experts (optional, added in v1): memory holds every expert, compute the active.
    experts: int = 1
    experts_per_token: int = 1
    active_parameters: int | None = None


@dataclass(frozen=True, slots=True)
class Model:
    preset: str | None
    architecture: Architecture | None


@dataclass(frozen=True, slots=True)
class Training:
    method: str
    lora_rank: int | None
    precision: str
    optimizer: str
    micro_batch_size: int
    sequence_length: int
    gradient_checkpointing: bool
    dataset_tokens: int
    epochs: float = 1.0
    deadline_hours: float | None = None
    optimizer_impl: str = "fused"


@dataclass(frozen=True, slots=True)
class Inference:
    precision: str
    context_tokens: int
    output_tokens: int
    concurrent_sequences: int
    tokens_per_day: int
    traffic: str
    p95_latency_ms: float | None = None
    latency_metric: str = "whole_response"
    peak_to_average: float | None = None
    batch_window_hours: float | None = None
    batch_window_start_hour: int | None = None
    batch_window_firmness: str = "hard"
    availability: str = "survive_one_failure"


@dataclass(frozen=True, slots=True)
class Work:
    """Inference work in its own unit (issue 21 item 7): images, audio hours, passages, pairs."""

    unit: str
    model: str
    per_day: float
    p95_latency_ms: float | None = None
    peak_to_average: float | None = None


@dataclass(frozen=True, slots=True)
class Answers:
    """A valid answers document v1 (build with `parse_answers`)."""

    schema_version: int
    organization: Organization
    workloads: tuple[Workload, ...]
    maturity: Maturity
    frameworks: Frameworks
    deployment: Deployment
    cost: Cost
    model: Model | None = None
    training: Training | None = None
    inference: Inference | None = None
    work: Work | None = None

    @property
    def kinds(self) -> tuple[str, ...]:
        """Workload kinds in document order."""
        return tuple(w.kind for w in self.workloads)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (defaults filled in)."""
        doc: dict[str, Any] = {
            "schema_version": self.schema_version,
            "organization": {
                "industry": self.organization.industry,
                "regions": list(self.organization.regions),
            },
            "workloads": [{"kind": w.kind, "schedule": w.schedule} for w in self.workloads],
            "maturity": {
                "stack_changes": self.maturity.stack_changes,
                "pipeline": self.maturity.pipeline,
                "demand": self.maturity.demand,
            },
            "frameworks": {
                "primary": self.frameworks.primary,
                "others": list(self.frameworks.others),
                "custom_kernels": self.frameworks.custom_kernels,
                "serving": self.frameworks.serving,
            },
            "deployment": {
                "allowed_modes": list(self.deployment.allowed_modes),
                "clouds": list(self.deployment.clouds),
                "portability": self.deployment.portability,
                "china_connectivity": self.deployment.china_connectivity,
                "data_residency": self.deployment.data_residency,
            },
            "cost": {
                "billing": self.cost.billing,
                "monthly_budget_usd": self.cost.monthly_budget_usd,
                "hours_per_day": self.cost.hours_per_day,
                "ops_capacity": self.cost.ops_capacity,
            },
        }
        # Optional fields added in v1: only when given.
        if self.frameworks.kernel_architectures:
            doc["frameworks"]["kernel_architectures"] = list(self.frameworks.kernel_architectures)
        if self.cost.ops_headcount is not None:
            doc["cost"]["ops_headcount"] = self.cost.ops_headcount
        if self.cost.ops_region is not None:
            doc["cost"]["ops_region"] = self.cost.ops_region
        if self.cost.amortisation_months is not None:
            doc["cost"]["amortisation_months"] = self.cost.amortisation_months
        if self.cost.capex_budget_usd is not None:
            doc["cost"]["capex_budget_usd"] = self.cost.capex_budget_usd
        if self.model is not None:
            if self.model.preset is not None:
                doc["model"] = {"preset": self.model.preset}
            elif self.model.architecture is not None:
                a = self.model.architecture
                arch: dict[str, Any] = {
                    "parameters": a.parameters,
                    "layers": a.layers,
                    "hidden_size": a.hidden_size,
                    "intermediate_size": a.intermediate_size,
                    "attention_heads": a.attention_heads,
                    "kv_heads": a.kv_heads,
                    "vocab_size": a.vocab_size,
                    "tied_embeddings": a.tied_embeddings,
                }
                if a.head_dim is not None:
                    arch["head_dim"] = a.head_dim
                if a.experts > 1:
                    arch["experts"] = a.experts
                    arch["experts_per_token"] = a.experts_per_token
                if a.active_parameters is not None:
                    arch["active_parameters"] = a.active_parameters
                doc["model"] = {"architecture": arch}
        if self.training is not None:
            t = self.training
            training: dict[str, Any] = {
                "method": t.method,
                "precision": t.precision,
                "optimizer": t.optimizer,
                "micro_batch_size": t.micro_batch_size,
                "sequence_length": t.sequence_length,
                "gradient_checkpointing": t.gradient_checkpointing,
                "dataset_tokens": t.dataset_tokens,
                "epochs": t.epochs,
                "deadline_hours": t.deadline_hours,
            }
            if t.optimizer_impl != "fused":  # optional fields added in v1: only when not default
                training["optimizer_impl"] = t.optimizer_impl
            if t.lora_rank is not None:
                training["lora_rank"] = t.lora_rank
            doc["training"] = training
        if self.inference is not None:
            i = self.inference
            doc["inference"] = {
                "precision": i.precision,
                "context_tokens": i.context_tokens,
                "output_tokens": i.output_tokens,
                "concurrent_sequences": i.concurrent_sequences,
                "p95_latency_ms": i.p95_latency_ms,
                "tokens_per_day": i.tokens_per_day,
                "traffic": i.traffic,
            }
            if i.latency_metric != "whole_response":
                doc["inference"]["latency_metric"] = i.latency_metric
            if i.peak_to_average is not None:
                doc["inference"]["peak_to_average"] = i.peak_to_average
            if i.batch_window_hours is not None:
                doc["inference"]["batch_window_hours"] = i.batch_window_hours
                doc["inference"]["batch_window_firmness"] = i.batch_window_firmness
            if i.batch_window_start_hour is not None:
                doc["inference"]["batch_window_start_hour"] = i.batch_window_start_hour
            if i.availability != "survive_one_failure":
                doc["inference"]["availability"] = i.availability
        if self.work is not None:
            w = self.work
            doc["work"] = {
                "unit": w.unit,
                "model": w.model,
                "per_day": w.per_day,
                "p95_latency_ms": w.p95_latency_ms,
            }
            if w.peak_to_average is not None:
                doc["work"]["peak_to_average"] = w.peak_to_average
        return doc


def china_by_region(regions: Iterable[Any]) -> bool:
    """deployment.china_connectivity when a document leaves it out: mainland China is among
    the regions where the users and data are (step 1 already asks it)."""
    return "mainland_china" in regions


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def parse_answers(doc: Mapping[str, Any]) -> Answers:
    """Validate `doc` against answers v1 and the cross-field rules; return frozen dataclasses.

    Raises AnswersError carrying every problem (schema and cross-field), not just the first.
    """
    problems = validate(doc)
    if problems:
        raise AnswersError(problems)
    org, fw, dep, cost, mat = (
        doc["organization"],
        doc["frameworks"],
        doc["deployment"],
        doc["cost"],
        doc["maturity"],
    )
    kinds = {w["kind"] for w in doc["workloads"]}
    model: Model | None = None
    if "model" in doc:
        m = doc["model"]
        arch: Architecture | None = None
        if "architecture" in m:
            a = m["architecture"]
            arch = Architecture(
                parameters=int(a["parameters"]),
                layers=int(a["layers"]),
                hidden_size=int(a["hidden_size"]),
                intermediate_size=int(a["intermediate_size"]),
                attention_heads=int(a["attention_heads"]),
                kv_heads=int(a["kv_heads"]),
                vocab_size=int(a["vocab_size"]),
                tied_embeddings=bool(a["tied_embeddings"]),
                head_dim=int(a["head_dim"]) if "head_dim" in a else None,
                experts=int(a.get("experts", 1)),
                experts_per_token=int(a.get("experts_per_token", 1)),
                active_parameters=int(a["active_parameters"]) if "active_parameters" in a else None,
            )
        model = Model(preset=m.get("preset"), architecture=arch)
    training: Training | None = None
    # A section present but not applicable is accepted and ignored (documented in the schema).
    if "training" in doc and kinds & TRAINING_KINDS:
        t = doc["training"]
        training = Training(
            method=t["method"],
            lora_rank=int(t["lora_rank"]) if "lora_rank" in t else None,
            precision=t["precision"],
            optimizer=t["optimizer"],
            micro_batch_size=int(t["micro_batch_size"]),
            sequence_length=int(t["sequence_length"]),
            gradient_checkpointing=bool(t["gradient_checkpointing"]),
            dataset_tokens=int(t["dataset_tokens"]),
            epochs=float(t.get("epochs", 1)),
            deadline_hours=_opt_float(t.get("deadline_hours")),
            optimizer_impl=t.get("optimizer_impl", "fused"),
        )
    inference: Inference | None = None
    if "inference" in doc and kinds & INFERENCE_KINDS:
        i = doc["inference"]
        inference = Inference(
            precision=i["precision"],
            context_tokens=int(i["context_tokens"]),
            output_tokens=int(i["output_tokens"]),
            concurrent_sequences=int(i["concurrent_sequences"]),
            tokens_per_day=int(i["tokens_per_day"]),
            traffic=i["traffic"],
            p95_latency_ms=_opt_float(i.get("p95_latency_ms")),
            latency_metric=i.get("latency_metric", "whole_response"),
            peak_to_average=_opt_float(i.get("peak_to_average")),
            batch_window_hours=_opt_float(i.get("batch_window_hours")),
            batch_window_start_hour=(
                int(i["batch_window_start_hour"]) if "batch_window_start_hour" in i else None
            ),
            batch_window_firmness=i.get("batch_window_firmness", "hard"),
            availability=i.get("availability", "survive_one_failure"),
        )
    work: Work | None = None
    if "work" in doc and kinds & INFERENCE_KINDS:
        w = doc["work"]
        work = Work(
            unit=w["unit"],
            model=w["model"],
            per_day=float(w["per_day"]),
            p95_latency_ms=_opt_float(w.get("p95_latency_ms")),
            peak_to_average=_opt_float(w.get("peak_to_average")),
        )
        # The work section sizes the inference workloads: a token inference section is ignored.
        inference = None
    return Answers(
        schema_version=SCHEMA_VERSION,
        organization=Organization(org["industry"], tuple(org["regions"])),
        workloads=tuple(Workload(w["kind"], w["schedule"]) for w in doc["workloads"]),
        maturity=Maturity(mat["stack_changes"], mat["pipeline"], mat["demand"]),
        frameworks=Frameworks(
            fw["primary"],
            tuple(fw.get("others", ())),
            bool(fw["custom_kernels"]),
            fw["serving"],
            tuple(fw.get("kernel_architectures", ())),
        ),
        deployment=Deployment(
            tuple(dep["allowed_modes"]),
            tuple(dep.get("clouds", ())),
            dep["portability"],
            bool(dep.get("china_connectivity", china_by_region(org["regions"]))),
            dep["data_residency"],
        ),
        cost=Cost(
            cost["billing"],
            _opt_float(cost.get("monthly_budget_usd")),
            float(cost["hours_per_day"]),
            cost["ops_capacity"],
            int(cost["ops_headcount"]) if "ops_headcount" in cost else None,
            cost.get("ops_region"),
            int(cost["amortisation_months"]) if "amortisation_months" in cost else None,
            _opt_float(cost.get("capex_budget_usd")),
        ),
        model=model,
        training=training,
        inference=inference,
        work=work,
    )
