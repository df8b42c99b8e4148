from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, load_catalog, load_scoring_model


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    # Overrides the project-wide fixture of the same name: engine tests never touch Django.
    yield


@pytest.fixture(autouse=True)
def _fast_password_hashing() -> None:
    # Likewise: no Django settings in engine tests.
    return None


SAMPLE: dict[str, Any] = {
    "schema_version": 1,
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
        "context_tokens": 8192,
        "output_tokens": 512,
        "concurrent_sequences": 32,
        "p95_latency_ms": 15000,
        "tokens_per_day": 50_000_000,
        "traffic": "daily_cycle",
    },
}

JAX_PRETRAIN: dict[str, Any] = {
    "schema_version": 1,
    "organization": {"industry": "research", "regions": ["tokyo", "us_east"]},
    "workloads": [{"kind": "pretraining", "schedule": "continuous"}],
    "maturity": {"stack_changes": "rarely", "pipeline": "standardized", "demand": "predictable"},
    "frameworks": {"primary": "jax", "others": [], "custom_kernels": False, "serving": "none"},
    "deployment": {
        "allowed_modes": ["public_cloud"],
        "clouds": ["gcp"],
        "portability": "not_needed",
        "china_connectivity": False,
        "data_residency": "none",
    },
    "cost": {"billing": "committed", "hours_per_day": 24, "ops_capacity": "none"},
    "model": {"preset": "llama-3-8b"},
    "training": {
        "method": "full",
        "precision": "bf16_mixed",
        "optimizer": "adamw",
        "micro_batch_size": 1,
        "sequence_length": 2048,
        "gradient_checkpointing": True,
        "dataset_tokens": 1_000_000_000_000,
    },
}


def sample(**overrides: Any) -> dict[str, Any]:
    """A deep copy of SAMPLE with dotted-path overrides ("cost.hours_per_day": 4)."""
    doc = copy.deepcopy(SAMPLE)
    for dotted, value in overrides.items():
        set_path(doc, dotted, value)
    return doc


def set_path(doc: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    node: Any = doc
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if value is _DELETE:
        del node[last]
    else:
        node[last] = value


_DELETE = object()
DELETE = _DELETE


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def scoring() -> ScoringModel:
    return load_scoring_model()


@pytest.fixture
def sample_path(tmp_path: Path) -> Path:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(SAMPLE), encoding="utf-8")
    return path
