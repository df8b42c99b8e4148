"""Form posts that fill in a blank assessment step by step and reproduce the
"llm-fine-tuning-startup" starter (advisor/starters.py): the wizard's tests post them, and so do
`make load`'s simulated people (loadtest/locustfile.py imports this module, so it stays plain
data: no Django, no pytest)."""

from __future__ import annotations

from typing import Any

POSTS: dict[str, dict[str, Any]] = {
    "organization": {"industry": "research", "regions": ["hong_kong", "singapore"]},
    "workloads": {
        "fine_tuning": "on",
        "fine_tuning_schedule": "weekly",
        "realtime_inference": "on",
        "realtime_inference_schedule": "continuous",
    },
    # Asked only of serving-only teams (this one also trains, so it never meets it): text
    # tokens, the default, for a walk that does.
    "work": {"unit": "tokens"},
    "model": {"source": "preset", "preset": "llama-3-8b"},
    "training": {
        "method": "lora",
        "lora_rank": "16",
        "precision": "bf16_mixed",
        "optimizer": "adamw",
        "micro_batch_size": "4",
        "sequence_length": "4096",
        "gradient_checkpointing": "yes",
        "dataset_tokens": "200000000",
        "epochs": "2",
        "deadline_hours": "24",
    },
    "inference": {
        "precision": "bf16",
        "prompt_tokens": "3584",
        "output_tokens": "512",
        "concurrent_sequences": "32",
        "p95_latency_ms": "8000",
        "tokens_per_day": "20000000",
        "traffic": "bursty",
    },
    "maturity": {"stack_changes": "weekly", "pipeline": "exploratory", "demand": "unpredictable"},
    "frameworks": {"primary": "pytorch", "custom_kernels": "yes", "serving": "vllm"},
    "deployment": {
        "allowed_modes": ["public_cloud", "dedicated_hosting"],
        "portability": "preferred",
        "data_residency": "none",
    },
    "cost": {
        "billing": "pay_as_you_go",
        "monthly_budget_usd": "15000",
        "hours_per_day": "8",
        "ops_capacity": "part_time",
    },
}
