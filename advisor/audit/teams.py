"""Hypothesis strategies of realistic teams: answers documents (version 2) as the site's users
fill them in, shared by the test suite and `make audit`.

Values are what a team answers (a 7B chat service at 32 concurrent sequences, a nightly batch
with an 8-hour window), not uniform draws over the schema's ranges: those are the fuzz tests'
job (tests/engine/strategies.py). The mix is weighted the way the operator's users are: about
half are its core customers (Hong Kong, Tokyo or Los Angeles, dedicated hosting or bare metal,
many serving mainland China).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from advisor.engine.answers import vocabulary

# Archetypes and their weights (out of 100). "core" is the operator's core customer.
ARCHETYPES = (
    ("core", 48),
    ("cloud_native", 20),
    ("regulated", 10),
    ("research", 10),
    ("unit_work", 12),
)
CORE_REGIONS = ("hong_kong", "tokyo", "los_angeles")
HOSTED = ("dedicated_hosting", "bare_metal")
# Model presets by how often teams name them (small chat models first).
PRESET_WEIGHTS = {
    "llama-3.2-1b": 2,
    "llama-3-8b": 6,
    "mistral-7b": 3,
    "qwen2.5-7b": 5,
    "llama-3-70b": 4,
    "mixtral-8x7b": 2,
    "deepseek-v3": 1,
}
# Round figures a team types; a bounded list keeps Hypothesis's shrinking meaningful.
CONTEXTS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)
OUTPUTS = (64, 128, 256, 512, 1024, 2048, 4096)
CONCURRENCY = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
BUDGETS = (500, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 250_000, 1_000_000)


def _weighted(pairs: dict[str, int] | tuple[tuple[str, int], ...]) -> st.SearchStrategy[str]:
    """One name, drawn in proportion to its weight; shrinks towards the most common one."""
    items = sorted(pairs.items() if isinstance(pairs, dict) else pairs, key=lambda p: -p[1])
    return st.sampled_from([name for name, weight in items for _ in range(weight)])


def _pick(values: tuple[Any, ...] | list[Any]) -> st.SearchStrategy[Any]:
    return st.sampled_from(list(values))


def _some(values: tuple[str, ...], lo: int, hi: int) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(values), min_size=lo, max_size=hi, unique=True)


@st.composite
def architectures(draw: st.DrawFn) -> dict[str, Any]:
    """A custom architecture whose shape agrees with its parameter count: dense, GQA or MoE,
    from about 0.5B to 1T parameters."""
    hidden = draw(_pick((896, 1536, 2048, 3072, 4096, 5120, 6144, 7168, 8192, 12288, 16384)))
    head_dim = 128 if hidden >= 2048 else 64
    heads = hidden // head_dim
    group = draw(_pick((1, 2, 4, 8, heads)))
    kv = max(1, heads // group) if heads % group == 0 else heads
    layers = draw(_pick((16, 24, 28, 32, 40, 48, 60, 64, 80, 96, 126)))
    moe = draw(st.booleans()) and hidden >= 2048
    experts = draw(_pick((8, 16, 64, 128, 256))) if moe else 1
    top_k = draw(_pick((1, 2, 4, 8))) if moe else 1
    top_k = min(top_k, experts)
    intermediate = (
        draw(_pick((1024, 1536, 2048, 4096)))
        if moe and experts >= 64
        else draw(_pick((2, 3, 4))) * hidden + (hidden // 2 if moe else 0)
    )
    vocab = draw(_pick((32_000, 50_257, 128_256, 151_936)))
    tied = draw(st.booleans()) and hidden <= 3072
    attention = hidden * head_dim * (heads + 2 * kv) + heads * head_dim * hidden
    mlp = 3 * hidden * intermediate
    embed = vocab * hidden * (1 if tied else 2)
    total = layers * (attention + mlp * experts) + embed
    # Answers version 3: the heads as KV heads x group size, the experts as used + not used.
    arch: dict[str, Any] = {
        "parameters": total,
        "layers": layers,
        "hidden_size": hidden,
        "intermediate_size": intermediate,
        "kv_heads": kv,
        "kv_group_size": heads // kv,
        "head_dim": head_dim,
        "vocab_size": vocab,
        "tied_embeddings": tied,
    }
    if moe:
        arch["experts_per_token"] = top_k
        arch["inactive_experts"] = experts - top_k
        arch["active_parameter_share"] = (layers * (attention + mlp * top_k) + embed) / total
    return arch


def _organization(draw: st.DrawFn, archetype: str) -> tuple[dict[str, Any], bool]:
    """Industry and regions; whether the team serves users in mainland China."""
    if archetype == "core":
        regions = draw(_some(CORE_REGIONS, 1, 2))
        regions += draw(_some(("singapore", "taipei", "japan", "us_west"), 0, 1))
        china = draw(st.integers(0, 9)) < 6
        if china and draw(st.booleans()):
            regions.append("mainland_china")
        industry = draw(_pick(("ecommerce", "media", "other", "finance", "research")))
    elif archetype == "regulated":
        regions = draw(_some(vocabulary.REGIONS, 1, 2))
        china = "mainland_china" in regions or draw(st.integers(0, 9)) < 2
        industry = draw(_pick(("finance", "insurance", "healthcare", "public_sector")))
    else:
        regions = draw(_some(vocabulary.REGIONS, 1, 3))
        china = "mainland_china" in regions or draw(st.integers(0, 9)) < 2
        industry = draw(_pick(vocabulary.INDUSTRIES))
    regions = list(dict.fromkeys(regions))
    return {"industry": industry, "regions": regions}, china


def _deployment(draw: st.DrawFn, archetype: str, china: bool) -> dict[str, Any]:
    residency = "none"
    if archetype == "core":
        modes = draw(_some(HOSTED, 1, 2))
        modes += draw(_some(("public_cloud", "private_cloud"), 0, 1))
        clouds = draw(_some(vocabulary.CLOUDS, 0, 2))
    elif archetype == "regulated":
        residency = draw(_pick(("in_region", "on_premises_only", "in_region")))
        modes = draw(_some(vocabulary.MODES, 1, 3))
        if residency == "on_premises_only" and not {"on_premises", "private_cloud"} & set(modes):
            modes.append(draw(_pick(("on_premises", "private_cloud"))))
        clouds = draw(_some(vocabulary.CLOUDS, 0, 2))
    elif archetype == "research":
        modes = ["public_cloud", *draw(_some(("bare_metal", "on_premises"), 0, 1))]
        clouds = ["gcp", *draw(_some(tuple(c for c in vocabulary.CLOUDS if c != "gcp"), 0, 1))]
    else:
        modes = draw(
            st.one_of(
                st.just(["public_cloud"]),
                _some(vocabulary.MODES, 1, 3),
            )
        )
        clouds = draw(_some(vocabulary.CLOUDS, 0, 3))
    return {
        "allowed_modes": list(dict.fromkeys(modes)),
        "clouds": list(dict.fromkeys(clouds)),
        "portability": draw(_pick(vocabulary.PORTABILITY)),
        "china_connectivity": china,
        "data_residency": residency,
    }


def _frameworks(draw: st.DrawFn, archetype: str, serving_needed: bool) -> dict[str, Any]:
    if archetype == "research":
        primary = draw(_pick(("jax", "tensorflow", "pytorch", "jax")))
    else:
        primary = draw(_pick(("pytorch", "pytorch", "pytorch", "tensorflow", "jax", "onnx")))
    serving = "none"
    if serving_needed:
        if primary == "tensorflow":
            serving = draw(_pick(("tf_serving", "triton", "vllm")))
        else:
            serving = draw(
                _pick(("vllm", "vllm", "sglang", "tgi", "tensorrt_llm", "triton", "custom"))
            )
    doc: dict[str, Any] = {
        "primary": primary,
        "others": draw(_some(tuple(f for f in vocabulary.FRAMEWORKS if f != primary), 0, 1)),
        "custom_kernels": draw(st.integers(0, 9)) == 0,
        "serving": serving,
    }
    if doc["custom_kernels"] and draw(st.booleans()):
        doc["kernel_architectures"] = draw(_some(("sm_80", "sm_89", "sm_90"), 1, 2))
    return doc


def _cost(draw: st.DrawFn, archetype: str) -> dict[str, Any]:
    billing_pool = ("no_preference", "pay_as_you_go", "monthly_fixed", "committed")
    if archetype == "core":
        billing_pool = ("monthly_fixed", "committed", "no_preference", "monthly_fixed")
    cost: dict[str, Any] = {
        "billing": draw(_pick(billing_pool)),
        "monthly_budget_usd": draw(st.one_of(st.none(), _pick(BUDGETS))),
        "hours_per_day": draw(_pick((24, 24, 16, 12, 8, 4))),
        "ops_capacity": draw(_pick(("part_time", "none", "dedicated_team"))),
    }
    if draw(st.booleans()):
        cost["ops_headcount"] = {"none": 0, "part_time": 1}.get(
            cost["ops_capacity"], draw(st.integers(2, 12))
        )
    if draw(st.integers(0, 3)) == 0:
        cost["amortisation_months"] = draw(_pick((24, 36, 48, 60)))
    return cost


def _workloads(draw: st.DrawFn, archetype: str) -> list[dict[str, str]]:
    if archetype == "unit_work":
        kinds = [draw(_pick(("batch_inference", "realtime_inference")))]
        if draw(st.integers(0, 3)) == 0:
            kinds.append("preprocessing")
        return [{"kind": k, "schedule": _schedule(draw, k)} for k in kinds]
    mixes: tuple[tuple[str, ...], ...] = (
        ("realtime_inference",),
        ("realtime_inference",),
        ("fine_tuning", "realtime_inference"),
        ("fine_tuning", "realtime_inference"),
        ("batch_inference",),
        ("fine_tuning",),
        ("realtime_inference", "batch_inference"),
        ("fine_tuning", "batch_inference", "realtime_inference"),
        ("pretraining",),
        ("preprocessing", "pretraining"),
        ("preprocessing", "fine_tuning", "realtime_inference"),
    )
    if archetype == "research":
        mixes = (("pretraining",), ("pretraining", "preprocessing"), ("fine_tuning",))
    kinds = draw(_pick(mixes))
    return [{"kind": k, "schedule": _schedule(draw, k)} for k in kinds]


def _schedule(draw: st.DrawFn, kind: str) -> str:
    by_kind = {
        "realtime_inference": ("continuous", "continuous", "daily"),
        "batch_inference": ("daily", "weekly", "ad_hoc"),
        "fine_tuning": ("weekly", "project_cycles", "ad_hoc", "daily"),
        "pretraining": ("project_cycles", "ad_hoc"),
        "preprocessing": ("daily", "weekly", "ad_hoc"),
    }
    return str(draw(_pick(by_kind[kind])))


def _model(draw: st.DrawFn, big: bool) -> dict[str, Any]:
    if draw(st.integers(0, 3)) == 0:
        return {"architecture": draw(architectures())}
    weights = dict(PRESET_WEIGHTS)
    if big:
        weights.update({"llama-3-70b": 6, "deepseek-v3": 3})
    preset = draw(_weighted(tuple(weights.items())))
    return {"preset": preset}


def _training(draw: st.DrawFn, kinds: list[str]) -> dict[str, Any]:
    pretraining = "pretraining" in kinds
    method = "full" if pretraining else draw(_pick(("lora", "qlora", "full", "lora")))
    doc: dict[str, Any] = {
        "method": method,
        "precision": draw(_pick(("bf16_mixed", "bf16_mixed", "bf16", "fp8_mixed", "fp32"))),
        "optimizer": draw(_pick(("adamw", "adamw", "adamw_8bit", "adafactor", "sgd"))),
        "micro_batch_size": draw(_pick((1, 2, 4, 8, 16))),
        "sequence_length": draw(_pick((1024, 2048, 4096, 8192, 16384, 32768))),
        "gradient_checkpointing": draw(st.booleans()),
        "dataset_tokens": draw(
            _pick((10**11, 10**12, 2 * 10**12))
            if pretraining
            else _pick((5 * 10**6, 5 * 10**7, 2 * 10**8, 10**9, 10**10))
        ),
        "epochs": draw(_pick((1, 1, 2, 3))),
        "deadline_hours": draw(st.one_of(st.none(), _pick((8, 24, 48, 168, 720, 2000)))),
    }
    if method != "full":
        doc["lora_rank"] = draw(_pick((8, 16, 32, 64)))
    return doc


def _inference(draw: st.DrawFn, kinds: list[str]) -> dict[str, Any]:
    context = draw(_pick(CONTEXTS))
    output = min(draw(_pick(OUTPUTS)), context // 2)
    realtime = "realtime_inference" in kinds
    concurrent = draw(_pick(CONCURRENCY))
    doc: dict[str, Any] = {
        "precision": draw(_pick(("bf16", "bf16", "fp8", "int4", "int8", "fp16"))),
        "prompt_tokens": context - output,
        "output_tokens": output,
        "concurrent_sequences": concurrent,
        "p95_latency_ms": (
            draw(st.one_of(st.none(), _pick((500, 1500, 4000, 10_000, 30_000, 120_000))))
            if realtime
            else None
        ),
        "tokens_per_day": draw(
            _pick((10**6, 10**7, 5 * 10**7, 2 * 10**8, 10**9, 10**10, 5 * 10**10))
        ),
        "traffic": draw(_pick(vocabulary.TRAFFIC)),
    }
    if realtime and draw(st.integers(0, 2)) == 0:
        doc["latency_metric"] = draw(_pick(("ttft", "tpot")))
        doc["p95_latency_ms"] = (
            draw(_pick((200, 500, 1000, 2000)))
            if doc["latency_metric"] == "ttft"
            else draw(_pick((20, 50, 100)))
        )
    if realtime and draw(st.integers(0, 3)) == 0:
        doc["availability"] = draw(_pick(("best_effort", "dev_test")))
    if realtime and draw(st.integers(0, 3)) == 0:
        doc["peak_to_average"] = draw(_pick((1.5, 2.0, 3.0, 5.0)))
    if "batch_inference" in kinds and draw(st.booleans()):
        doc["batch_window_hours"] = draw(_pick((2, 4, 8, 12)))
        doc["batch_window_firmness"] = draw(_pick(vocabulary.BATCH_WINDOW_FIRMNESS))
        if draw(st.booleans()):
            doc["batch_window_start_hour"] = draw(_pick((0, 1, 22)))
    return doc


def _work(draw: st.DrawFn) -> dict[str, Any]:
    model = draw(_pick(vocabulary.WORK_MODELS))
    unit = vocabulary.WORK_MODEL_UNIT[model]
    per_day = {
        "images": (10_000, 1_000_000, 50_000_000),
        "audio_hours": (10, 500, 20_000),
        "passages": (100_000, 10_000_000, 500_000_000),
        "pairs": (100_000, 10_000_000, 200_000_000),
    }[unit]
    return {
        "unit": unit,
        "model": model,
        "per_day": draw(_pick(per_day)),
        "p95_latency_ms": draw(st.one_of(st.none(), _pick((100, 500, 2000)))),
    }


@st.composite
def teams(draw: st.DrawFn) -> dict[str, Any]:
    """An answers document (version 2) a real team could submit."""
    archetype = draw(_weighted(ARCHETYPES))
    organization, china = _organization(draw, archetype)
    workloads = _workloads(draw, archetype)
    kinds = [w["kind"] for w in workloads]
    inference_kinds = set(kinds) & vocabulary.INFERENCE_KINDS
    doc: dict[str, Any] = {
        "schema_version": vocabulary.SCHEMA_VERSION,
        "organization": organization,
        "workloads": workloads,
        "maturity": {
            "stack_changes": draw(_pick(vocabulary.STACK_CHANGES)),
            "pipeline": draw(_pick(vocabulary.PIPELINES)),
            "demand": draw(_pick(vocabulary.DEMANDS)),
        },
        "frameworks": _frameworks(draw, archetype, bool(inference_kinds)),
        "deployment": _deployment(draw, archetype, china),
        "cost": _cost(draw, archetype),
    }
    if archetype == "unit_work":
        doc["work"] = _work(draw)
        return doc
    doc["model"] = _model(draw, big="pretraining" in kinds or archetype == "research")
    if set(kinds) & vocabulary.TRAINING_KINDS:
        doc["training"] = _training(draw, kinds)
    if inference_kinds:
        doc["inference"] = _inference(draw, kinds)
    return doc
