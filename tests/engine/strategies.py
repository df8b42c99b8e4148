from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from advisor.engine.answers import vocabulary


def _subset(values: tuple[str, ...], min_size: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(values), min_size=min_size, max_size=len(values), unique=True)


# The strategies are built once, here, not inside the composites on every draw: Hypothesis
# then computes each one's properties once, which was half the time a generated document took
# (the documents drawn are the same).
_KINDS = st.lists(st.sampled_from(vocabulary.WORKLOAD_KINDS), min_size=1, max_size=5, unique=True)
_MODES = _subset(vocabulary.MODES, 1)
_RESIDENCY = st.sampled_from(vocabulary.RESIDENCY)
_INDUSTRY = st.sampled_from(vocabulary.INDUSTRIES)
_REGIONS = _subset(vocabulary.REGIONS, 1)
_SCHEDULE = st.sampled_from(vocabulary.SCHEDULES)
_STACK_CHANGES = st.sampled_from(vocabulary.STACK_CHANGES)
_PIPELINE = st.sampled_from(vocabulary.PIPELINES)
_DEMAND = st.sampled_from(vocabulary.DEMANDS)
_FRAMEWORK = st.sampled_from(vocabulary.FRAMEWORKS)
_OTHER_FRAMEWORKS = _subset(vocabulary.FRAMEWORKS, 0)
_SERVING = st.sampled_from(vocabulary.SERVING)
_CLOUDS = _subset(vocabulary.CLOUDS, 0)
_PORTABILITY = st.sampled_from(vocabulary.PORTABILITY)
_BILLING = st.sampled_from(vocabulary.BILLING)
_BUDGET = st.one_of(st.none(), st.floats(0, 1e7))
_HOURS = st.floats(0, 24)
_OPS_CAPACITY = st.sampled_from(vocabulary.OPS_CAPACITY)
_OPS_HEADCOUNT = st.integers(0, vocabulary.MAX_OPS_HEADCOUNT)
_OPS_REGION = st.sampled_from(vocabulary.REGIONS)
_PRESET = st.sampled_from(vocabulary.preset_ids())
_METHOD = st.sampled_from(vocabulary.TRAINING_METHODS)
_TRAINING_PRECISION = st.sampled_from(vocabulary.TRAINING_PRECISIONS)
_OPTIMIZER = st.sampled_from(vocabulary.OPTIMIZERS)
_MICRO_BATCH = st.integers(1, 64)
_SEQUENCE = st.integers(1, 32768)
_DATASET_TOKENS = st.integers(1, 10**13)
_EPOCHS = st.floats(0.1, 10)
_DEADLINE = st.one_of(st.none(), st.floats(1, 10_000))
_LORA_RANK = st.integers(1, 256)
_INFERENCE_PRECISION = st.sampled_from(vocabulary.INFERENCE_PRECISIONS)
_PROMPT_TOKENS = st.integers(0, 131072)
_OUTPUT_TOKENS = st.integers(1, 131072)
_CONCURRENT = st.integers(1, 512)
_P95 = st.one_of(st.none(), st.floats(1, 600_000))
_TOKENS_PER_DAY = st.integers(0, 10**11)
_TRAFFIC = st.sampled_from(vocabulary.TRAFFIC)


@st.composite
def answers_docs(draw: st.DrawFn) -> dict[str, Any]:
    """Valid answers documents across the whole enum space."""
    kinds = draw(_KINDS)
    modes = draw(_MODES)
    residency = draw(_RESIDENCY)
    if residency == "on_premises_only" and not {"on_premises", "private_cloud"} & set(modes):
        modes.append("on_premises")
    doc: dict[str, Any] = {
        "schema_version": 3,
        "organization": {
            "industry": draw(_INDUSTRY),
            "regions": draw(_REGIONS),
        },
        "workloads": [{"kind": k, "schedule": draw(_SCHEDULE)} for k in kinds],
        "maturity": {
            "stack_changes": draw(_STACK_CHANGES),
            "pipeline": draw(_PIPELINE),
            "demand": draw(_DEMAND),
        },
        "frameworks": {
            "primary": draw(_FRAMEWORK),
            "others": draw(_OTHER_FRAMEWORKS),
            "custom_kernels": draw(st.booleans()),
            "serving": draw(_SERVING),
        },
        "deployment": {
            "allowed_modes": modes,
            "clouds": draw(_CLOUDS),
            "portability": draw(_PORTABILITY),
            "china_connectivity": draw(st.booleans()),
            "data_residency": residency,
        },
        "cost": {
            "billing": draw(_BILLING),
            "monthly_budget_usd": draw(_BUDGET),
            "hours_per_day": draw(_HOURS),
            "ops_capacity": draw(_OPS_CAPACITY),
        },
    }
    # Optional answers added in v1: China reach left to the regions, the ops team's size and place.
    if draw(st.booleans()):
        del doc["deployment"]["china_connectivity"]
    if draw(st.booleans()):
        doc["cost"]["ops_headcount"] = draw(_OPS_HEADCOUNT)
    if draw(st.booleans()):
        doc["cost"]["ops_region"] = draw(_OPS_REGION)
    with_model = draw(st.booleans()) or bool(
        set(kinds) & (vocabulary.TRAINING_KINDS | vocabulary.INFERENCE_KINDS)
    )
    if with_model:
        doc["model"] = {"preset": draw(_PRESET)}
    if set(kinds) & vocabulary.TRAINING_KINDS:
        method = draw(_METHOD)
        training: dict[str, Any] = {
            "method": method,
            "precision": draw(_TRAINING_PRECISION),
            "optimizer": draw(_OPTIMIZER),
            "micro_batch_size": draw(_MICRO_BATCH),
            "sequence_length": draw(_SEQUENCE),
            "gradient_checkpointing": draw(st.booleans()),
            "dataset_tokens": draw(_DATASET_TOKENS),
            "epochs": draw(_EPOCHS),
            "deadline_hours": draw(_DEADLINE),
        }
        if method != "full":
            training["lora_rank"] = draw(_LORA_RANK)
        doc["training"] = training
    if set(kinds) & vocabulary.INFERENCE_KINDS:
        doc["inference"] = {
            "precision": draw(_INFERENCE_PRECISION),
            "prompt_tokens": draw(_PROMPT_TOKENS),
            "output_tokens": draw(_OUTPUT_TOKENS),
            "concurrent_sequences": draw(_CONCURRENT),
            "p95_latency_ms": draw(_P95),
            "tokens_per_day": draw(_TOKENS_PER_DAY),
            "traffic": draw(_TRAFFIC),
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

_DRAFTS = st.dictionaries(
    st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), json_values, max_size=8
)


@st.composite
def draft_docs(draw: st.DrawFn) -> dict[str, Any]:
    """Arbitrary JSON-like dicts, biased towards the answers' own keys."""
    return draw(_DRAFTS)
