from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from advisor.engine import answers as A


def _subset(values: tuple[str, ...], min_size: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(values), min_size=min_size, max_size=len(values), unique=True)


@st.composite
def answers_docs(draw: st.DrawFn) -> dict[str, Any]:
    """Valid answers documents across the whole enum space."""
    kinds = draw(st.lists(st.sampled_from(A.WORKLOAD_KINDS), min_size=1, max_size=5, unique=True))
    modes = draw(_subset(A.MODES, 1))
    residency = draw(st.sampled_from(A.RESIDENCY))
    if residency == "on_premises_only" and not {"on_premises", "private_cloud"} & set(modes):
        modes.append("on_premises")
    doc: dict[str, Any] = {
        "schema_version": 3,
        "organization": {
            "industry": draw(st.sampled_from(A.INDUSTRIES)),
            "regions": draw(_subset(A.REGIONS, 1)),
        },
        "workloads": [{"kind": k, "schedule": draw(st.sampled_from(A.SCHEDULES))} for k in kinds],
        "maturity": {
            "stack_changes": draw(st.sampled_from(A.STACK_CHANGES)),
            "pipeline": draw(st.sampled_from(A.PIPELINES)),
            "demand": draw(st.sampled_from(A.DEMANDS)),
        },
        "frameworks": {
            "primary": draw(st.sampled_from(A.FRAMEWORKS)),
            "others": draw(_subset(A.FRAMEWORKS, 0)),
            "custom_kernels": draw(st.booleans()),
            "serving": draw(st.sampled_from(A.SERVING)),
        },
        "deployment": {
            "allowed_modes": modes,
            "clouds": draw(_subset(A.CLOUDS, 0)),
            "portability": draw(st.sampled_from(A.PORTABILITY)),
            "china_connectivity": draw(st.booleans()),
            "data_residency": residency,
        },
        "cost": {
            "billing": draw(st.sampled_from(A.BILLING)),
            "monthly_budget_usd": draw(st.one_of(st.none(), st.floats(0, 1e7))),
            "hours_per_day": draw(st.floats(0, 24)),
            "ops_capacity": draw(st.sampled_from(A.OPS_CAPACITY)),
        },
    }
    # Optional answers added in v1: China reach left to the regions, the ops team's size and place.
    if draw(st.booleans()):
        del doc["deployment"]["china_connectivity"]
    if draw(st.booleans()):
        doc["cost"]["ops_headcount"] = draw(st.integers(0, A.MAX_OPS_HEADCOUNT))
    if draw(st.booleans()):
        doc["cost"]["ops_region"] = draw(st.sampled_from(A.REGIONS))
    with_model = draw(st.booleans()) or bool(set(kinds) & (A.TRAINING_KINDS | A.INFERENCE_KINDS))
    if with_model:
        doc["model"] = {"preset": draw(st.sampled_from(A.preset_ids()))}
    if set(kinds) & A.TRAINING_KINDS:
        method = draw(st.sampled_from(A.TRAINING_METHODS))
        training: dict[str, Any] = {
            "method": method,
            "precision": draw(st.sampled_from(A.TRAINING_PRECISIONS)),
            "optimizer": draw(st.sampled_from(A.OPTIMIZERS)),
            "micro_batch_size": draw(st.integers(1, 64)),
            "sequence_length": draw(st.integers(1, 32768)),
            "gradient_checkpointing": draw(st.booleans()),
            "dataset_tokens": draw(st.integers(1, 10**13)),
            "epochs": draw(st.floats(0.1, 10)),
            "deadline_hours": draw(st.one_of(st.none(), st.floats(1, 10_000))),
        }
        if method != "full":
            training["lora_rank"] = draw(st.integers(1, 256))
        doc["training"] = training
    if set(kinds) & A.INFERENCE_KINDS:
        doc["inference"] = {
            "precision": draw(st.sampled_from(A.INFERENCE_PRECISIONS)),
            "prompt_tokens": draw(st.integers(0, 131072)),
            "output_tokens": draw(st.integers(1, 131072)),
            "concurrent_sequences": draw(st.integers(1, 512)),
            "p95_latency_ms": draw(st.one_of(st.none(), st.floats(1, 600_000))),
            "tokens_per_day": draw(st.integers(0, 10**11)),
            "traffic": draw(st.sampled_from(A.TRAFFIC)),
        }
    return doc


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)

KEYS = [
    "schema_version",
    "organization",
    "workloads",
    "maturity",
    "frameworks",
    "deployment",
    "cost",
    "model",
    "training",
    "inference",
    "kind",
    "schedule",
    "regions",
    "preset",
    "architecture",
]


@st.composite
def draft_docs(draw: st.DrawFn) -> dict[str, Any]:
    """Arbitrary JSON-like dicts, biased towards the answers' own keys."""
    keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=8))
    return draw(st.dictionaries(keys, json_values, max_size=8))
