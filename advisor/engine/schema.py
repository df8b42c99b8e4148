"""The answers document's JSON Schema (published at /api/v1/schema and used by every validator)
and the draft schema the wizard saves against; versions 1 and 2, which the API still accepts
(upgrade.py reads them as v3), are built from version 3's.

The schema is the single source of truth for field names, types, enums and bounds; the wizard, the
API and the CLI all validate against it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from advisor.engine.answers import (
    AVAILABILITY,
    BATCH_WINDOW_FIRMNESS,
    BILLING,
    CLOUDS,
    DEMANDS,
    FRAMEWORKS,
    INDUSTRIES,
    INFERENCE_PRECISIONS,
    KERNEL_ARCHITECTURES,
    LATENCY_METRICS,
    MAX_AMORTISATION_MONTHS,
    MAX_CONTEXT_TOKENS,
    MAX_DATASET_TOKENS,
    MAX_EXPERTS,
    MAX_HEAD_DIM,
    MAX_HEADS,
    MAX_OPS_HEADCOUNT,
    MAX_PARAMETERS,
    MAX_SEQUENCE_LENGTH,
    MAX_TOKENS_PER_DAY,
    MAX_WORK_PER_DAY,
    MIN_ACTIVE_PARAMETERS,
    MIN_AMORTISATION_MONTHS,
    MIN_HEAD_DIM,
    MIN_WORK_PER_DAY,
    MODES,
    OPS_CAPACITY,
    OPTIMIZER_IMPLS,
    OPTIMIZERS,
    PIPELINES,
    PORTABILITY,
    REGIONS,
    RESIDENCY,
    SCHEDULES,
    SCHEMA_VERSION,
    SCHEMA_VERSIONS,
    SERVING,
    STACK_CHANGES,
    TRAFFIC,
    TRAINING_METHODS,
    TRAINING_PRECISIONS,
    WORK_MODELS,
    WORK_UNITS,
    WORKLOAD_KINDS,
    preset_ids,
)
from advisor.engine.schema_conditions import conditions


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
def schema_doc(version: int = SCHEMA_VERSION) -> dict[str, Any]:
    """The answers schema of `version` (1, 2 or 3); shared, never to be changed: copy it first."""
    if version == 1:
        return _v1(schema_doc(2))
    if version == 2:
        return _v2(schema_doc(SCHEMA_VERSION))
    architecture = _obj(
        {
            "parameters": _int(1_000_000, MAX_PARAMETERS, "Total parameter count (10^6 .. 10^13)."),
            "layers": _int(1, 1_000, "Decoder layers."),
            "hidden_size": _int(
                64,
                131_072,
                "Model width (the residual stream). Independent of the heads: the attention "
                "projects it to kv_heads x kv_group_size x head_dim, which need not equal it "
                "(Gemma 7B: 3,072 wide, 16 x 256 = 4,096).",
            ),
            "intermediate_size": _int(64, 1_048_576, "MLP width (per projection)."),
            "kv_heads": _int(
                1, MAX_HEADS, "Key/value heads (GQA; 1 = multi-query, as many as heads = MHA)."
            ),
            "kv_group_size": _int(
                1,
                MAX_HEADS,
                "Added in v3 (with kv_heads, replaces v2's attention_heads): query heads that "
                "share one key/value head. The attention heads are kv_heads x kv_group_size "
                "(Llama-3-70B: 8 x 8 = 64; 1 = multi-head attention).",
            ),
            "head_dim": _int(
                MIN_HEAD_DIM,
                MAX_HEAD_DIM,
                "Required since v3 (v2 derived it from hidden_size / attention_heads): the size "
                "of one attention head (64, 128, 256 in published models).",
            ),
            "vocab_size": _int(1, 2_000_000, "Vocabulary size."),
            "tied_embeddings": {
                "type": "boolean",
                "description": "Input embedding and output head share weights.",
            },
            "experts_per_token": _int(
                1,
                MAX_EXPERTS,
                "Optional, mixture of experts (with inactive_experts): routed experts each "
                "token is sent to (top-k); intermediate_size is then one expert's MLP width. "
                "Default: a dense model.",
            ),
            "inactive_experts": _int(
                0,
                MAX_EXPERTS - 1,
                "Added in v3 (with experts_per_token, replaces v2's experts): routed experts per "
                "MoE layer that a token is not sent to. The experts per layer are "
                "experts_per_token + inactive_experts (Mixtral-8x7B: 2 + 6 = 8; DeepSeek-V3: "
                "8 + 248 = 256).",
            ),
            "active_parameter_share": {
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": 1,
                "description": "Added in v3 (replaces v2's active_parameters): the share of the "
                "parameters a token uses, in (0, 1]; the active parameters are parameters x this "
                f"share, rounded, at least {MIN_ACTIVE_PARAMETERS:,} (DeepSeek-V3: 37.6 of 671 "
                "billion = 0.056). Default for a mixture of experts: parameters less the experts "
                "a token does not use, in every layer.",
            },
        },
        [
            "parameters",
            "layers",
            "hidden_size",
            "intermediate_size",
            "kv_heads",
            "kv_group_size",
            "head_dim",
            "vocab_size",
            "tied_embeddings",
        ],
        "Decoder-only Transformer shape (Llama-style: SwiGLU MLP, RMSNorm, GQA). Every "
        "number is free within its bounds: none has to divide or stay below another.",
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
            "prompt_tokens": _int(
                0,
                MAX_CONTEXT_TOKENS,
                "Added in v2 (replaces v1's context_tokens): prompt tokens per sequence, the "
                "input before the answer. The context a sequence holds is prompt_tokens + "
                "output_tokens (v1's context_tokens).",
            ),
            "output_tokens": _int(1, MAX_CONTEXT_TOKENS, "Generated (answer) tokens per sequence."),
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
                "description": "Optional, added in v1: busiest-hour token rate over the "
                "day's average (10 = peaks at ten times the average). Real-time serving is sized "
                "for the peak. Default: the catalog's figure for `traffic`.",
            },
            "batch_window_hours": {
                "type": "number",
                "exclusiveMinimum": 0,
                "maximum": 24,
                "description": "Optional, added in v1: hours a batch_inference run must "
                "finish in each day, from batch_window_start_hour; its run time (with "
                "provisioning, container start and loading the weights) is checked against it as "
                "a deadline is. Default: none (the run spreads over cost.hours_per_day).",
            },
            "batch_window_start_hour": _int(
                0,
                23,
                "Optional, added in v1: local hour the batch window opens (1 = 01:00); "
                "needs batch_window_hours. Default: not stated.",
            ),
            "batch_window_firmness": {
                **_enum(
                    BATCH_WINDOW_FIRMNESS,
                    "Optional, added in v1: hard = a run past the window is a missed "
                    "deadline (ranks after every option that meets it); soft = it is flagged. "
                    "Needs batch_window_hours.",
                ),
                "default": "hard",
            },
            "availability": {
                **_enum(
                    AVAILABILITY,
                    "Optional, added in v1: what a realtime_inference service must "
                    "survive. survive_one_failure (default): one spare server (N+1) so a failed "
                    "server still leaves capacity for the peak; best_effort: no spare, an outage "
                    "is accepted; dev_test: development or test, no spare.",
                ),
                "default": "survive_one_failure",
            },
        },
        [
            "precision",
            "prompt_tokens",
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
                "minimum": MIN_WORK_PER_DAY,
                "maximum": MAX_WORK_PER_DAY,
                "description": f"Volume a day in the unit (at least {MIN_WORK_PER_DAY}): "
                "images, hours of audio, passages or pairs.",
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
        "Optional, added in v1: inference work counted in its own unit instead of "
        "tokens. With it, an inference workload needs no inference or model section (both are "
        "ignored for it); training stays in tokens, so no pretraining or fine_tuning workload "
        "may come with it.",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://advisor.example/schemas/answers-v3.json",
        "title": "Advisor answers document, version 3",
        "description": "Unknown keys are errors. Sections that do not apply may be absent; a "
        "section present but not applicable (e.g. training without a training workload) is "
        "accepted "
        "and ignored. Fields added later are optional with documented defaults.",
        "type": "object",
        "properties": {
            "schema_version": {
                "const": SCHEMA_VERSION,
                "description": "Always 3. Version 2 documents (AnswersV2: a custom "
                "architecture by attention_heads, kv_heads, experts and active_parameters) and "
                "version 1 documents (AnswersV1: also inference context_tokens instead of "
                "prompt_tokens) are still accepted and read as version 3.",
            },
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
                        "Optional, added in v1: months over which owned hardware "
                        "(private cloud, on premises) is paid off in its monthly cost. Default: "
                        "the catalog's default_amortisation_months (36).",
                    ),
                    "capex_budget_usd": {
                        "type": ["number", "null"],
                        "minimum": 0,
                        "maximum": 1e11,
                        "default": None,
                        "description": "Optional, added in v1: the most the team "
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
        "allOf": conditions(version=SCHEMA_VERSION),
    }


def _architecture_v2() -> dict[str, Any]:
    """Version 2's (and 1's) custom architecture, whose numbers had to agree with each other in
    four ways the fields' descriptions state (problems.py checks them for those versions)."""
    return _obj(
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


def _v2(v3: dict[str, Any]) -> dict[str, Any]:
    """Version 2 of the schema: version 3 with v2's custom architecture (attention_heads,
    kv_heads and hidden_size that must divide each other, experts and experts_per_token <=
    experts, active_parameters <= parameters)."""
    doc = copy.deepcopy(v3)
    doc["$id"] = "https://advisor.example/schemas/answers-v2.json"
    doc["title"] = "Advisor answers document, version 2"
    doc["description"] = (
        "Version 2, still accepted: a document is read as version 3 with kv_group_size = "
        "attention_heads / kv_heads, head_dim = hidden_size / attention_heads when not given, "
        "inactive_experts = experts - experts_per_token and active_parameter_share = "
        "active_parameters / parameters. Four rules of its custom architecture compare two "
        "numbers, which JSON Schema cannot state: kv_heads divides attention_heads "
        "(kv_heads_divide), attention_heads divides hidden_size unless head_dim is given "
        "(heads_divide_hidden; the head dimension so derived must be within 8..1,024: "
        "head_dim_out_of_range), experts_per_token <= experts (experts_per_token_exceed) and "
        "active_parameters <= parameters (active_exceeds_total); such a document is refused "
        "with the rule's code. " + v3["description"]
    )
    doc["properties"]["schema_version"] = {"const": 2, "description": "Always 2."}
    doc["properties"]["model"]["properties"]["architecture"] = _architecture_v2()
    doc["allOf"] = conditions(version=2)
    return doc


def _v1(v2: dict[str, Any]) -> dict[str, Any]:
    """Version 1 of the schema: version 2 with inference.context_tokens (prompt + output, at
    least the output) in place of prompt_tokens."""
    doc = copy.deepcopy(v2)
    doc["$id"] = "https://advisor.example/schemas/answers-v1.json"
    doc["title"] = "Advisor answers document, version 1"
    doc["description"] = (
        "Version 1, still accepted: a document is read as version 2 with prompt_tokens = "
        "context_tokens - output_tokens. inference.output_tokens must not exceed "
        "inference.context_tokens (a rule JSON Schema cannot state; such a document is refused "
        "with output_exceeds_context at inference.output_tokens). " + v2["description"]
    )
    doc["properties"]["schema_version"] = {"const": 1, "description": "Always 1."}
    inference = doc["properties"]["inference"]
    inference["properties"] = {
        ("context_tokens" if key == "prompt_tokens" else key): value
        for key, value in inference["properties"].items()
    }
    inference["properties"]["context_tokens"] = _int(
        1, MAX_CONTEXT_TOKENS, "Prompt + output tokens per sequence."
    )
    inference["properties"]["output_tokens"] = _int(
        1, MAX_CONTEXT_TOKENS, "Generated tokens per sequence; <= context_tokens."
    )
    inference["required"] = [
        "context_tokens" if key == "prompt_tokens" else key for key in inference["required"]
    ]
    return doc


def version_of(doc: Any) -> int:
    """The schema version a document is checked against: 1 when it says so, else the current
    one (which reports a missing or unknown version)."""
    version = doc.get("schema_version") if isinstance(doc, Mapping) else None
    if (
        isinstance(version, int | float)
        and not isinstance(version, bool)
        and version in SCHEMA_VERSIONS
    ):
        return int(version)
    return SCHEMA_VERSION


def _property(path: str) -> dict[str, Any]:
    node: dict[str, Any] = schema_doc()
    for key in path.split("."):
        node = node.get("items", node)["properties"][key]
    return node


@cache
def number_range(path: str) -> tuple[float, float, bool]:
    """A number answer's bounds as the published schema states them: (minimum, maximum, whether
    the minimum itself is refused). The wizard's preview reads them here, never restated."""
    node = _property(path)
    if "exclusiveMinimum" in node:
        return float(node["exclusiveMinimum"]), float(node["maximum"]), True
    return float(node["minimum"]), float(node["maximum"]), False


@cache
def nullable_fields(section: str) -> frozenset[str]:
    """The answers of a section that may be null ("no target", "not stated"): a blank field the
    person saw stands for null there, and is left out elsewhere."""
    return frozenset(
        name
        for name, node in _property(section).get("items", _property(section))["properties"].items()
        if isinstance(node.get("type"), list) and "null" in node["type"]
    )


def answers_schema(version: int = SCHEMA_VERSION) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of answers document `version` (a fresh copy)."""
    return copy.deepcopy(schema_doc(version))


@cache
def _draft_schema(version: int) -> dict[str, Any]:
    base = {k: v for k, v in schema_doc(version).items() if k != "allOf"}
    draft = {
        **strip_for_partial(base),
        "$id": f"https://advisor.example/schemas/answers-v{version}-draft.json",
        "title": f"Advisor answers document, version {version}, draft",
        "description": "What a draft may hold (check_partial): any part of an answers document, "
        "with no wrong values; required fields, minimum list sizes and the conditional "
        "sections do not apply until it is submitted.",
        "allOf": conditions(draft=True, version=version),
    }
    if version != SCHEMA_VERSION:
        # A draft that does not state its version is read as the current one (version_of), so
        # an older version's draft must say which it is.
        draft["required"] = ["schema_version"]
        draft["description"] += (
            f" A version {version} draft states schema_version {version}; it is read as "
            f"version {SCHEMA_VERSION}"
            + (
                ": prompt_tokens = context_tokens - output_tokens when both are given "
                "(output_tokens at most context_tokens); a context without its output cannot be "
                "split and is not kept; and as version 2 is"
                if version == 1
                else ""
            )
            + ": kv_group_size = attention_heads / kv_heads when both are given, head_dim = "
            "hidden_size / attention_heads when not given and both are, inactive_experts = "
            "experts - experts_per_token and active_parameter_share = active_parameters / "
            "parameters when both are; one of a pair without the other cannot be converted and "
            "is not kept (kv_heads and hidden_size are)."
        )
    return draft


def answers_draft_schema(version: int = SCHEMA_VERSION) -> dict[str, Any]:
    """Return the JSON Schema of what a draft of answers `version` may hold (`check_partial`), a
    fresh copy."""
    return copy.deepcopy(_draft_schema(version))


def strip_for_partial(node: Any) -> Any:
    # A wizard draft may lack anything; it may not hold wrong values. So drop "required", minimum
    # list sizes and the preset/architecture choice, and keep types, enums, bounds and unknown keys.
    if isinstance(node, dict):
        return {
            k: strip_for_partial(v)
            for k, v in node.items()
            if k not in ("required", "minItems", "oneOf")
        }
    if isinstance(node, list):
        return [strip_for_partial(v) for v in node]
    return node


@cache
def validator(partial: bool, version: int = SCHEMA_VERSION) -> Draft202012Validator:
    # The conditions are checked by cross_field_problems, with messages that name the rule
    # (a bare "training is required" would not say which workload needs it).
    schema = {k: v for k, v in schema_doc(version).items() if k != "allOf"}
    return Draft202012Validator(strip_for_partial(schema) if partial else schema)


@cache
def sections() -> frozenset[str]:
    """The document's sections: its top-level keys other than schema_version."""
    return frozenset(k for k in schema_doc()["properties"] if k != "schema_version")


@cache
def root_validator(partial: bool, version: int = SCHEMA_VERSION) -> Draft202012Validator:
    """`validator(partial)` for the document's own keys only (the sections it requires, unknown
    keys, schema_version), without looking inside a section: `section_validator` does that."""
    schema = {k: v for k, v in schema_doc(version).items() if k != "allOf"}
    schema["properties"] = {
        k: (v if k == "schema_version" else {}) for k, v in schema["properties"].items()
    }
    return Draft202012Validator(strip_for_partial(schema) if partial else schema)


@cache
def section_validator(
    partial: bool, section: str, version: int = SCHEMA_VERSION
) -> Draft202012Validator:
    """`validator(partial)`'s checks of one section, for a document holding only that section
    (its errors' paths start with the section, as they do in the whole document)."""
    schema = {
        "type": "object",
        "properties": {section: schema_doc(version)["properties"][section]},
    }
    return Draft202012Validator(strip_for_partial(schema) if partial else schema)
