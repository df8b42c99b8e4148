from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, load_catalog, load_scoring_model
from advisor.engine.answers.samples import DELETE, SAMPLE, sample, set_path

__all__ = ["DELETE", "JAX_PRETRAIN", "SAMPLE", "sample", "set_path"]


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    # Overrides the project-wide fixture of the same name: engine tests never touch Django.
    yield


@pytest.fixture(autouse=True)
def _fast_password_hashing() -> None:
    # Likewise: no Django settings in engine tests.
    return None


JAX_PRETRAIN: dict[str, Any] = {
    "schema_version": 3,
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
