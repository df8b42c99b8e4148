"""Answers document v3: its vocabulary (enums, bounds, the schema version) and the frozen
dataclasses a parsed document becomes. v1 and v2 documents are still read: upgrade.py turns them
into v3.

The JSON Schema is built from these and the field registry (fields/) in schema.py (its
cross-field `allOf` in schema_conditions.py), validated in problems.py and parsed into the
dataclasses in parse.py: each section's attributes are read by their registry entries, and an
answer the registry declares and a dataclass does not is kept and read all the same
(sections.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from advisor.engine.answers.sections import Section, extra_doc, read
from advisor.engine.text import clouds

SCHEMA_VERSION = 3
# Version 1 gave inference.context_tokens (prompt + output) and output_tokens, which could
# contradict each other (output > context); version 2 gives prompt_tokens and output_tokens,
# which cannot. Version 2's custom architecture still had four such pairs (kv_heads divides
# attention_heads, attention_heads divides hidden_size, experts_per_token <= experts,
# active_parameters <= parameters); version 3 states the shape by numbers that are each free
# within their bounds (kv_group_size, head_dim, inactive_experts, active_parameter_share). All
# three are accepted; an older document is upgraded (upgrade.py) and stored as v3.
SCHEMA_VERSIONS = (1, 2, SCHEMA_VERSION)

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
SERVING = (
    "vllm",
    "sglang",
    "tgi",
    "tensorrt_llm",
    "triton",
    "tf_serving",
    "torchserve",
    "custom",
    "none",
)
MODES = ("public_cloud", "dedicated_hosting", "bare_metal", "private_cloud", "on_premises")
CLOUDS = clouds.CLOUDS
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
# A dense model's architecture as a catalog preset's columns keep it (its published config.json).
ARCHITECTURE_FIELDS = (
    "parameters",
    "layers",
    "hidden_size",
    "intermediate_size",
    "attention_heads",
    "kv_heads",
    "head_dim",
    "vocab_size",
    "tied_embeddings",
)
# A dense model's architecture as answers version 3 states it (and the wizard asks it): the
# attention heads are kv_heads x kv_group_size, so no two of these can contradict each other.
ARCHITECTURE_ANSWERS = (
    "parameters",
    "layers",
    "hidden_size",
    "intermediate_size",
    "kv_heads",
    "kv_group_size",
    "head_dim",
    "vocab_size",
    "tied_embeddings",
)
# A mixture of experts in version 3 (optional, both or neither): experts = experts_per_token +
# inactive_experts; active parameters = parameters x active_parameter_share.
MOE_ANSWERS = ("experts_per_token", "inactive_experts", "active_parameter_share")
TRAFFIC = ("steady", "daily_cycle", "bursty", "seasonal_peaks")
# A batch job's window: hard = the results are useless after it; soft = late is
# a nuisance, flagged but not disqualifying.
BATCH_WINDOW_FIRMNESS = ("hard", "soft")
# What a real-time service must survive: one server failing (N+1, the default for
# production), nothing (best effort: an outage is accepted), or it is for development and test.
AVAILABILITY = ("survive_one_failure", "best_effort", "dev_test")
# Work counted in its own unit where tokens are wrong (the `work` section).
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
# A thousandth of a unit a day (3.6 s of audio) is the least that is a workload. The cost per
# unit divides a month's cost by the month's volume: with no floor, a volume such as 5e-324 (a
# positive double, found by Schemathesis) made it Infinity, which JSON and PostgreSQL refuse.
MIN_WORK_PER_DAY = 0.001

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
# Heads and their size. Answers v1/v2 bounded attention_heads and kv_heads by 1..1,024 and an
# explicit head_dim by 8..1,024; v3 keeps those bounds for kv_heads, kv_group_size (v2's
# attention_heads / kv_heads, at most 1,024) and head_dim, so every valid v2 shape has a v3 form
# (bar a derived hidden_size / attention_heads outside 8..1,024, refused with its own problem).
# Published configs (config.json, 2026-12): head_dim 64 (Llama-3.2-1B, gpt-oss), 128 (Llama 3,
# Qwen2.5, Mistral, DeepSeek-V3's value heads), 192 (DeepSeek-V3's query/key heads, MLA), 256
# (Gemma); query heads per KV head 1 (MHA) .. 71 (Falcon-7B, MQA).
MAX_HEADS = 1_024
MIN_HEAD_DIM = 8
MAX_HEAD_DIM = 1_024
# The least active parameters version 3 derives from a share: v2's least active_parameters (and
# least parameters), so that a tiny share never sizes a model that computes with nothing.
MIN_ACTIVE_PARAMETERS = 1_000_000

# What a caller lists of an invalid document; the rest is counted ("and 12 more"). A wrong
# document rarely has more than a handful of problems, and an answer that grows with the input
# lets a small request cost the server a large one.
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


# ---------------------------------------------------------------------------- dataclasses


@dataclass(frozen=True, slots=True)
class Organization(Section):
    PATH = "organization"

    industry: str
    regions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Workload(Section):
    PATH = "workloads[]"

    kind: str
    schedule: str


@dataclass(frozen=True, slots=True)
class Maturity(Section):
    PATH = "maturity"

    stack_changes: str
    pipeline: str
    demand: str


@dataclass(frozen=True, slots=True)
class Frameworks(Section):
    PATH = "frameworks"

    primary: str
    others: tuple[str, ...]
    custom_kernels: bool
    serving: str
    kernel_architectures: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Deployment(Section):
    PATH = "deployment"

    allowed_modes: tuple[str, ...]
    clouds: tuple[str, ...]
    portability: str
    china_connectivity: bool
    data_residency: str


@dataclass(frozen=True, slots=True)
class Cost(Section):
    PATH = "cost"

    billing: str
    monthly_budget_usd: float | None
    hours_per_day: float
    ops_capacity: str
    ops_headcount: int | None = None
    ops_region: str | None = None
    amortisation_months: int | None = None
    capex_budget_usd: float | None = None


@dataclass(frozen=True, slots=True)
class Architecture(Section):
    PATH = "model.architecture"
    DERIVED_FROM = frozenset({"kv_group_size", "inactive_experts", "active_parameter_share"})

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

    def to_dict(self) -> dict[str, Any]:
        """The architecture as answers version 3 states it (`architecture_from` reads it back
        into the same dataclass)."""
        head_dim = self.head_dim or max(1, self.hidden_size // self.attention_heads)
        arch: dict[str, Any] = {
            "parameters": self.parameters,
            "layers": self.layers,
            "hidden_size": self.hidden_size,
            "intermediate_size": self.intermediate_size,
            "kv_heads": self.kv_heads,
            "kv_group_size": self.attention_heads // self.kv_heads,
            "head_dim": head_dim,
            "vocab_size": self.vocab_size,
            "tied_embeddings": self.tied_embeddings,
        }
        if self.experts > 1:
            arch["experts_per_token"] = self.experts_per_token
            arch["inactive_experts"] = self.experts - self.experts_per_token
        if self.active_parameters is not None:
            # round(parameters x (active / parameters)) is active again for any two integers
            # below 2^53 (the error of the two roundings is far below one half).
            arch["active_parameter_share"] = self.active_parameters / self.parameters
        return arch | extra_doc(self)


def architecture_from(a: Mapping[str, Any]) -> Architecture:
    """A version 3 architecture (valid by the schema) as the engine's dataclass: the attention
    heads are kv_heads x kv_group_size, the experts experts_per_token + inactive_experts, the
    active parameters parameters x active_parameter_share (at least MIN_ACTIVE_PARAMETERS)."""
    parameters = int(a["parameters"])
    k = int(a.get("experts_per_token", 1))
    share = a.get("active_parameter_share")
    return read(
        Architecture,
        a,
        attention_heads=int(a["kv_heads"]) * int(a["kv_group_size"]),
        experts=k + int(a.get("inactive_experts", 0)),
        experts_per_token=k,
        active_parameters=None
        if share is None
        else max(MIN_ACTIVE_PARAMETERS, round(parameters * float(share))),
    )


@dataclass(frozen=True, slots=True)
class Model(Section):
    PATH = "model"

    preset: str | None
    architecture: Architecture | None


@dataclass(frozen=True, slots=True)
class Training(Section):
    PATH = "training"

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
class Inference(Section):
    PATH = "inference"

    precision: str
    prompt_tokens: int
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

    @property
    def context_tokens(self) -> int:
        """Tokens a sequence holds at its end: the prompt plus the output (what answers v1
        asked, and what the KV cache and a server's maximum model length are sized for)."""
        return self.prompt_tokens + self.output_tokens


@dataclass(frozen=True, slots=True)
class Work(Section):
    """Inference work in its own unit: images, audio hours, passages, pairs."""

    PATH = "work"

    unit: str
    model: str
    per_day: float
    p95_latency_ms: float | None = None
    peak_to_average: float | None = None


@dataclass(frozen=True, slots=True)
class Answers:
    """A valid answers document v3 (build with `parse_answers`, which also reads v1 and v2)."""

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
            "workloads": [
                {"kind": w.kind, "schedule": w.schedule, **extra_doc(w)} for w in self.workloads
            ],
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
        # The answers only the registry declares: only when not default.
        for name in ("organization", "maturity", "frameworks", "deployment", "cost"):
            doc[name].update(extra_doc(getattr(self, name)))
        if self.model is not None:
            if self.model.preset is not None:
                doc["model"] = {"preset": self.model.preset, **extra_doc(self.model)}
            elif self.model.architecture is not None:
                arch = self.model.architecture.to_dict()
                doc["model"] = {"architecture": arch, **extra_doc(self.model)}
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
            doc["training"] = training | extra_doc(t)
        if self.inference is not None:
            i = self.inference
            doc["inference"] = {
                "precision": i.precision,
                "prompt_tokens": i.prompt_tokens,
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
            doc["inference"].update(extra_doc(i))
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
            doc["work"].update(extra_doc(w))
        return doc
