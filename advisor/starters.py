"""Starting points for a new assessment, drawn from the teams that use the product.

Each is a complete, valid answers document (tests check that the engine accepts every one);
people start from one and edit what differs.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from advisor.engine.answers.samples import DELETE, sample


@dataclass(frozen=True)
class Starter:
    slug: str
    title: str | Promise
    description: str | Promise
    answers: dict[str, Any]

    def document(self) -> dict[str, Any]:
        return copy.deepcopy(self.answers)


STARTERS: tuple[Starter, ...] = (
    Starter(
        "llm-fine-tuning-startup",
        _("LLM fine-tuning start-up"),
        _("LoRA fine-tunes of an 8B model each week, a changing PyTorch stack, hourly cloud."),
        # The engine's shared sample, as a research start-up that pays by the hour.
        sample(
            **{
                "organization.industry": "research",
                "maturity": {
                    "stack_changes": "weekly",
                    "pipeline": "exploratory",
                    "demand": "unpredictable",
                },
                "frameworks.custom_kernels": True,
                # China reach follows the regions (none of them is mainland China).
                "deployment.china_connectivity": DELETE,
                "cost.billing": "pay_as_you_go",
                "cost.monthly_budget_usd": 15000,
                "cost.hours_per_day": 8,
                "training.epochs": 2,
                "training.deadline_hours": 24,
                "inference.prompt_tokens": 3584,  # a context of 4,096 with the sample's 512
                "inference.p95_latency_ms": 8000,
                "inference.tokens_per_day": 20_000_000,
                "inference.traffic": "bursty",
            }
        ),
    ),
    Starter(
        "ecommerce-recommender",
        _("E-commerce recommender retrained daily"),
        _("A TensorFlow recommender retrained every night on a stable pipeline, served in region."),
        {
            "schema_version": 3,
            "organization": {"industry": "ecommerce", "regions": ["tokyo", "hong_kong"]},
            "workloads": [
                {"kind": "pretraining", "schedule": "daily"},
                {"kind": "batch_inference", "schedule": "daily"},
                {"kind": "preprocessing", "schedule": "daily"},
            ],
            "maturity": {
                "stack_changes": "rarely",
                "pipeline": "standardized",
                "demand": "predictable",
            },
            "frameworks": {
                "primary": "tensorflow",
                "others": ["jax"],
                "custom_kernels": False,
                "serving": "tf_serving",
            },
            "deployment": {
                "allowed_modes": ["public_cloud"],
                "clouds": ["gcp"],
                "portability": "not_needed",
                "data_residency": "in_region",
            },
            "cost": {
                "billing": "committed",
                "monthly_budget_usd": 60000,
                "hours_per_day": 10,
                "ops_capacity": "dedicated_team",
            },
            "model": {"preset": "llama-3.2-1b"},
            "training": {
                "method": "full",
                "precision": "bf16_mixed",
                "optimizer": "adafactor",
                "micro_batch_size": 16,
                "sequence_length": 1024,
                "gradient_checkpointing": False,
                "dataset_tokens": 2_000_000_000,
                "epochs": 1,
                "deadline_hours": 6,
            },
            "inference": {
                "precision": "bf16",
                "prompt_tokens": 960,
                "output_tokens": 64,
                "concurrent_sequences": 256,
                "p95_latency_ms": None,
                "tokens_per_day": 500_000_000,
                "traffic": "daily_cycle",
            },
        },
    ),
    Starter(
        "realtime-chatbot",
        _("Real-time chatbot"),
        _("A 70B assistant served around the clock with a latency target, on monthly servers."),
        {
            "schema_version": 3,
            "organization": {"industry": "insurance", "regions": ["los_angeles", "us_west"]},
            "workloads": [{"kind": "realtime_inference", "schedule": "continuous"}],
            "maturity": {"stack_changes": "monthly", "pipeline": "evolving", "demand": "seasonal"},
            "frameworks": {
                "primary": "pytorch",
                "others": [],
                "custom_kernels": False,
                "serving": "vllm",
            },
            "deployment": {
                "allowed_modes": ["public_cloud", "dedicated_hosting", "bare_metal"],
                "clouds": ["aws", "gcp"],
                "portability": "required",
                "data_residency": "none",
            },
            "cost": {
                "billing": "monthly_fixed",
                "monthly_budget_usd": None,
                "hours_per_day": 24,
                "ops_capacity": "part_time",
            },
            "model": {"preset": "llama-3-70b"},
            "inference": {
                "precision": "fp8",
                "prompt_tokens": 7_680,
                "output_tokens": 512,
                "concurrent_sequences": 64,
                "p95_latency_ms": 6000,
                "tokens_per_day": 150_000_000,
                "traffic": "daily_cycle",
            },
        },
    ),
    Starter(
        "media-batch-transcription",
        _("Media batch transcription"),
        _("Nightly batch jobs over a media archive, ONNX models, cheapest capacity wins."),
        {
            "schema_version": 3,
            "organization": {
                "industry": "media",
                "regions": ["taipei", "hong_kong", "mainland_china"],
            },
            "workloads": [
                {"kind": "batch_inference", "schedule": "daily"},
                {"kind": "preprocessing", "schedule": "daily"},
            ],
            "maturity": {
                "stack_changes": "quarterly",
                "pipeline": "standardized",
                "demand": "predictable",
            },
            "frameworks": {
                "primary": "onnx",
                "others": ["pytorch"],
                "custom_kernels": False,
                "serving": "triton",
            },
            "deployment": {
                "allowed_modes": ["dedicated_hosting", "bare_metal", "public_cloud"],
                "clouds": [],
                "portability": "preferred",
                "data_residency": "none",
            },
            "cost": {
                "billing": "monthly_fixed",
                "monthly_budget_usd": 8000,
                "hours_per_day": 12,
                "ops_capacity": "part_time",
            },
            "model": {"preset": "mistral-7b"},
            "inference": {
                "precision": "int8",
                "prompt_tokens": 1_024,
                "output_tokens": 1024,
                "concurrent_sequences": 64,
                "p95_latency_ms": None,
                "tokens_per_day": 300_000_000,
                "traffic": "steady",
            },
        },
    ),
    Starter(
        "regulated-finance-private-cloud",
        _("Regulated finance on private cloud"),
        _("A bank fine-tunes and serves a 7B model; data never leaves its own premises."),
        {
            "schema_version": 3,
            "organization": {"industry": "finance", "regions": ["hong_kong"]},
            "workloads": [
                {"kind": "fine_tuning", "schedule": "project_cycles"},
                {"kind": "realtime_inference", "schedule": "continuous"},
            ],
            "maturity": {
                "stack_changes": "quarterly",
                "pipeline": "evolving",
                "demand": "predictable",
            },
            "frameworks": {
                "primary": "pytorch",
                "others": ["onnx"],
                "custom_kernels": False,
                "serving": "tgi",
            },
            "deployment": {
                "allowed_modes": ["private_cloud", "on_premises"],
                "clouds": [],
                "portability": "required",
                "data_residency": "on_premises_only",
            },
            "cost": {
                "billing": "committed",
                "monthly_budget_usd": 40000,
                "hours_per_day": 16,
                "ops_capacity": "dedicated_team",
            },
            "model": {"preset": "qwen2.5-7b"},
            "training": {
                "method": "qlora",
                "lora_rank": 32,
                "precision": "bf16_mixed",
                "optimizer": "adamw_8bit",
                "micro_batch_size": 2,
                "sequence_length": 8192,
                "gradient_checkpointing": True,
                "dataset_tokens": 50_000_000,
                "epochs": 3,
                "deadline_hours": None,
            },
            "inference": {
                "precision": "bf16",
                "prompt_tokens": 7_168,
                "output_tokens": 1024,
                "concurrent_sequences": 16,
                "p95_latency_ms": 10000,
                "tokens_per_day": 5_000_000,
                "traffic": "daily_cycle",
            },
        },
    ),
)

BY_SLUG = {s.slug: s for s in STARTERS}
