"""The one sample answers document (answers v1) that tests, the benchmark and the wizard's first
starter derive from: a team that fine-tunes an 8B model with LoRA each week and serves it.

Each user names only what it changes: `sample(**{"cost.hours_per_day": 4})`.
"""

from __future__ import annotations

import copy
from typing import Any, Final

SAMPLE: Final[dict[str, Any]] = {
    "schema_version": 3,
    "organization": {"industry": "ecommerce", "regions": ["hong_kong", "singapore"]},
    "workloads": [
        {"kind": "fine_tuning", "schedule": "weekly"},
        {"kind": "realtime_inference", "schedule": "continuous"},
    ],
    "maturity": {"stack_changes": "monthly", "pipeline": "evolving", "demand": "seasonal"},
    "frameworks": {"primary": "pytorch", "others": [], "custom_kernels": False, "serving": "vllm"},
    "deployment": {
        "allowed_modes": ["public_cloud", "dedicated_hosting"],
        "clouds": [],
        "portability": "preferred",
        "china_connectivity": True,
        "data_residency": "none",
    },
    "cost": {
        "billing": "no_preference",
        "monthly_budget_usd": 20000,
        "hours_per_day": 16,
        "ops_capacity": "part_time",
    },
    "model": {"preset": "llama-3-8b"},
    "training": {
        "method": "lora",
        "lora_rank": 16,
        "precision": "bf16_mixed",
        "optimizer": "adamw",
        "micro_batch_size": 4,
        "sequence_length": 4096,
        "gradient_checkpointing": True,
        "dataset_tokens": 200_000_000,
        "epochs": 3,
        "deadline_hours": 48,
    },
    "inference": {
        "precision": "bf16",
        "prompt_tokens": 7680,
        "output_tokens": 512,
        "concurrent_sequences": 32,
        "p95_latency_ms": 15000,
        "tokens_per_day": 50_000_000,
        "traffic": "daily_cycle",
    },
}


class _Delete:
    def __repr__(self) -> str:
        return "DELETE"


# An override value that removes the answer instead of setting it.
DELETE: Final = _Delete()


def sample(**overrides: Any) -> dict[str, Any]:
    """A deep copy of SAMPLE with dotted-path overrides ("cost.hours_per_day": 4,
    "workloads.0.schedule": "daily", "training.epochs": DELETE)."""
    doc = copy.deepcopy(SAMPLE)
    for dotted, value in overrides.items():
        set_path(doc, dotted, value)
    return doc


def set_path(doc: dict[str, Any], dotted: str, value: Any) -> None:
    """Set (or with DELETE, remove) one answer in `doc` by its dotted path."""
    *parents, last = dotted.split(".")
    node: Any = doc
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if value is DELETE:
        del node[last]
    else:
        node[last] = copy.deepcopy(value)
