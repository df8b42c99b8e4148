from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.engine import sizing
from advisor.engine.answers.vocabulary import Architecture, Inference, Training
from advisor.engine.catalog import Catalog
from advisor.engine.sizing import throughput
from tests.engine.conftest import sample

GIB = 2**30


from advisor.engine import load_catalog as _load_catalog  # noqa: E402
from advisor.engine import load_scoring_model as _load_scoring  # noqa: E402

CATALOG = _load_catalog()
SCORING = _load_scoring()


def shape(catalog: Catalog, preset: str) -> sizing.ModelShape:
    return sizing.shape_from_preset(catalog.presets[preset])


def training(**kw: object) -> Training:
    base: dict[str, object] = {
        "method": "full",
        "lora_rank": None,
        "precision": "bf16_mixed",
        "optimizer": "adamw",
        "micro_batch_size": 1,
        "sequence_length": 2048,
        "gradient_checkpointing": False,
        "dataset_tokens": 10**9,
    }
    base.update(kw)
    return Training(**base)  # type: ignore[arg-type]


def inference(**kw: object) -> Inference:
    base: dict[str, object] = {
        "precision": "bf16",
        "context_tokens": 8192,
        "output_tokens": 512,
        "concurrent_sequences": 1,
        "tokens_per_day": 10**6,
        "traffic": "steady",
    }
    base.update(kw)
    # Written as a context (prompt + output), as the sizing references state their runs.
    base["prompt_tokens"] = int(base.pop("context_tokens")) - int(base["output_tokens"])  # type: ignore[call-overload]
    return Inference(**base)  # type: ignore[arg-type]


LLAMA2_7B = sizing.shape_from_architecture(
    Architecture(6_738_415_616, 32, 4096, 11008, 32, 32, 32000, False)
)
LLAMA_65B = sizing.shape_from_architecture(
    Architecture(65_285_652_480, 80, 8192, 22016, 64, 64, 32000, False)
)


def state_bytes_per_param(mem: sizing.TrainingMemory) -> float:
    return (mem.sharded_step - mem.detail["optimizer_step_transient"]) / mem.trainable_params


@pytest.mark.parametrize(
    ("precision", "optimizer", "expected"),
    [
        ("bf16_mixed", "adamw", 16.0),  # Transformer Math 101: 2 + 2 + 12
        ("fp32", "adamw", 16.0),
        ("bf16", "adamw", 8.0),
        ("bf16_mixed", "adamw_8bit", 10.0),
        ("bf16_mixed", "sgd", 12.0),
    ],
)
def test_mixed_precision_adamw_keeps_16_bytes_per_parameter_of_state(
    catalog: Catalog, precision: str, optimizer: str, expected: float
) -> None:
    mem = sizing.training_memory(
        shape(catalog, "llama-3-8b"), training(precision=precision, optimizer=optimizer), catalog
    )
    assert state_bytes_per_param(mem) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("precision", "published_gb"),
    [("bf16", 12.37)],
)
def test_llama2_7b_weights_match_hf_accelerate(
    catalog: Catalog, precision: str, published_gb: float
) -> None:
    # HF accelerate estimate-memory for Llama-2-7B (sizing.md B5); the bot's "GB" are GiB-scaled.
    weights = sizing.inference_weight_bytes(LLAMA2_7B, precision) / GIB
    assert weights == pytest.approx(published_gb, rel=0.03)


@pytest.mark.parametrize(("precision", "published_gb"), [("int8", 6.18), ("int4", 3.09)])
def test_quantised_llama2_7b_weights_are_within_25_percent_of_hf_accelerate(
    precision: str, published_gb: float
) -> None:
    # We keep embeddings and the output head at 16 bits and count int4 group scales, so we sit above
    # the bot's params x bytes figure on purpose.
    weights = sizing.inference_weight_bytes(LLAMA2_7B, precision) / GIB
    assert published_gb <= weights <= published_gb * 1.25


@pytest.mark.parametrize(("precision", "published_gb"), [("fp32", 98.96), ("bf16", 49.48)])
def test_llama2_7b_adam_training_matches_hf_accelerate(
    catalog: Catalog, precision: str, published_gb: float
) -> None:
    # The bot's "training with Adam" = 4 x model size at that dtype (weights, grads, 2 moments).
    mem = sizing.training_memory(LLAMA2_7B, training(precision=precision), catalog)
    states = (mem.sharded_step - mem.detail["optimizer_step_transient"]) / GIB
    assert states == pytest.approx(published_gb, rel=0.03)


def test_llama3_8b_kv_cache_is_128_kib_per_token(catalog: Catalog) -> None:
    assert sizing.kv_bytes_per_token(shape(catalog, "llama-3-8b")) == 128 * 1024


@pytest.mark.parametrize(
    ("preset", "kib"), [("qwen2.5-7b", 56), ("llama-3.2-1b", 32), ("llama-3-70b", 320)]
)
def test_kv_cache_per_token_matches_sizing_reference(
    catalog: Catalog, preset: str, kib: int
) -> None:
    assert sizing.kv_bytes_per_token(shape(catalog, preset)) == kib * 1024


def test_lora_on_8b_fits_a_48gb_card(catalog: Catalog) -> None:
    t = training(method="lora", lora_rank=16, gradient_checkpointing=True)
    mem = sizing.training_memory(shape(catalog, "llama-3-8b"), t, catalog)
    assert mem.total <= sizing.usable_gib(catalog.by_id["nvidia-l40s"], catalog) * GIB


def test_full_fine_tune_of_8b_needs_more_than_one_80gb_card(catalog: Catalog) -> None:
    h100 = catalog.by_id["nvidia-h100-sxm"]
    fused = sizing.training_memory(shape(catalog, "llama-3-8b"), training(), catalog)
    assert fused.total > sizing.usable_gib(h100, catalog) * GIB
    # 16 B/param of state shards over 2 GPUs with fused AdamW (the default: no step scratch);
    # foreach AdamW adds a 4 B/param temporary (~150 GiB in all) and needs 4.
    assert sizing.min_training_devices(fused, h100, catalog) == 2
    foreach = sizing.training_memory(
        shape(catalog, "llama-3-8b"), training(optimizer_impl="foreach"), catalog
    )
    assert sizing.min_training_devices(foreach, h100, catalog) == 4


def test_fused_adamw_allocates_no_step_scratch(catalog: Catalog) -> None:
    fused = sizing.training_memory(shape(catalog, "llama-3-8b"), training(), catalog)
    foreach = sizing.training_memory(
        shape(catalog, "llama-3-8b"), training(optimizer_impl="foreach"), catalog
    )
    assert fused.detail["optimizer_step_transient"] == 0
    assert foreach.detail["optimizer_step_transient"] == pytest.approx(4 * 8.03e9, rel=0.01)


def test_qlora_fits_a_65b_model_on_one_48gb_card(catalog: Catalog) -> None:
    # QLoRA paper (arXiv 2305.14314, sizing.md B9): 65B fine-tuned on one 48 GB GPU. The paper's
    # rank 64 relies on paged optimizers spilling state to CPU, which we do not model; rank 16 fits.
    t = training(method="qlora", lora_rank=16, sequence_length=512, gradient_checkpointing=True)
    mem = sizing.training_memory(LLAMA_65B, t, catalog)
    assert mem.total <= sizing.usable_gib(catalog.by_id["nvidia-l40s"], catalog) * GIB


def test_8b_bf16_serving_fits_an_l4_but_not_a_t4(catalog: Catalog) -> None:
    mem = sizing.inference_memory(shape(catalog, "llama-3-8b"), inference(), catalog)
    assert mem.total <= sizing.usable_gib(catalog.by_id["nvidia-l4"], catalog) * GIB
    assert mem.total > sizing.usable_gib(catalog.by_id["nvidia-t4"], catalog) * GIB


def test_70b_bf16_weights_need_two_h200s(catalog: Catalog) -> None:
    # sizing.md B8: 141.1 GB of weights do not fit one H200.
    s = shape(catalog, "llama-3-70b")
    mem = sizing.inference_memory(s, inference(), catalog)
    assert sizing.min_inference_devices(mem, s, catalog.by_id["nvidia-h200"], catalog) == 2
    assert sizing.min_inference_devices(mem, s, catalog.by_id["nvidia-b200"], catalog) == 1


def test_8b_on_1t_tokens_takes_about_33800_h100_hours(catalog: Catalog) -> None:
    # Transformer Math 101 example in sizing.md B1: 6 x 8.03e9 x 1e12 at 40% of 989 TFLOP/s.
    s = shape(catalog, "llama-3-8b")
    t = training(dataset_tokens=10**12)
    flops = sizing.training_flops(s, t)
    dense_hours = flops.dense / (989e12 * 0.40) / 3600
    assert dense_hours == pytest.approx(33_800, rel=0.01)
    h100 = catalog.by_id["nvidia-h100-sxm"]
    mfu = sizing.training_mfu(s, t, h100, 1, 1, catalog)
    hours = sizing.training_hours(flops, h100, 1, t, mfu, catalog)
    # The engine runs at its regime's MFU (rule training_mfu), not the example's 40%.
    assert hours == pytest.approx(33_800 * 0.40 / mfu.value, rel=0.10)  # plus the attention term


def test_checkpointing_adds_no_model_flops_and_lora_costs_two_thirds(catalog: Catalog) -> None:
    # Recomputation is inside published MFU (model FLOPs over peak): 6*N*D, never 8*N*D.
    s = shape(catalog, "llama-3-8b")
    base = sizing.training_flops(s, training()).dense
    assert base == pytest.approx(6 * s.parameters * 10**9)
    assert sizing.training_flops(s, training(gradient_checkpointing=True)).dense == pytest.approx(
        base
    )
    assert sizing.training_flops(s, training(method="lora", lora_rank=8)).dense == pytest.approx(
        base * 2 / 3
    )


def test_batch_one_decode_on_h100_is_near_the_measured_vllm_rate(catalog: Catalog) -> None:
    # sizing.md C4: vLLM, 1xH100, Qwen3-8B BF16 128/128 at concurrency 1: 145.3 tok/s.
    s = shape(catalog, "qwen2.5-7b")
    inf = inference(context_tokens=256, output_tokens=128)
    mem = sizing.inference_memory(s, inf, catalog)
    cap = throughput.serving_capacity(s, inf, mem, catalog.by_id["nvidia-h100-sxm"], 1, catalog)
    assert cap.tokens_per_second == pytest.approx(145.3, rel=0.25)


def test_concurrency_128_throughput_on_h100_is_near_the_measured_vllm_rate(
    catalog: Catalog,
) -> None:
    # sizing.md C4: concurrency 128, 128/128 tokens: 11,194 output tok/s.
    s = shape(catalog, "qwen2.5-7b")
    inf = inference(context_tokens=256, output_tokens=128, concurrent_sequences=128)
    mem = sizing.inference_memory(s, inf, catalog)
    cap = throughput.serving_capacity(s, inf, mem, catalog.by_id["nvidia-h100-sxm"], 1, catalog)
    assert cap.tokens_per_second == pytest.approx(11_194, rel=0.30)


PRESETS = st.sampled_from(["llama-3.2-1b", "llama-3-8b", "mistral-7b", "qwen2.5-7b", "llama-3-70b"])


@settings(max_examples=60, deadline=None)
@given(
    preset=PRESETS,
    method=st.sampled_from(["full", "lora", "qlora"]),
    precision=st.sampled_from(["fp32", "bf16_mixed", "bf16", "fp8_mixed"]),
    optimizer=st.sampled_from(["adamw", "adamw_8bit", "sgd", "adafactor"]),
    batch=st.integers(1, 64),
    seq=st.integers(1, 65536),
    ckpt=st.booleans(),
)
def test_more_micro_batch_or_sequence_never_lowers_training_memory(
    preset: str, method: str, precision: str, optimizer: str, batch: int, seq: int, ckpt: bool
) -> None:
    s = shape(CATALOG, preset)
    kw = {
        "method": method,
        "lora_rank": 16 if method != "full" else None,
        "precision": precision,
        "optimizer": optimizer,
        "gradient_checkpointing": ckpt,
    }
    base = sizing.training_memory(
        s, training(micro_batch_size=batch, sequence_length=seq, **kw), CATALOG
    )
    more_b = sizing.training_memory(
        s, training(micro_batch_size=batch + 1, sequence_length=seq, **kw), CATALOG
    )
    more_s = sizing.training_memory(
        s, training(micro_batch_size=batch, sequence_length=seq + 1, **kw), CATALOG
    )
    assert more_b.total >= base.total
    assert more_s.total >= base.total
    for mem in (base, more_b, more_s):
        assert mem.total == pytest.approx(sum(mem.parts.values()))
        assert mem.total == pytest.approx(max(mem.phases.values()))
        gib = sizing.parts_gib(mem.parts)
        assert gib["total"] == pytest.approx(
            sum(v for k, v in gib.items() if k != "total"), abs=1e-9
        )


@settings(max_examples=60, deadline=None)
@given(
    preset=PRESETS,
    precision=st.sampled_from(["bf16", "fp16", "fp8", "int8", "int4"]),
    ctx=st.integers(2, 1_000_000),
    concurrent=st.integers(1, 1000),
)
def test_more_context_or_concurrency_never_lowers_inference_memory(
    preset: str, precision: str, ctx: int, concurrent: int
) -> None:
    s = shape(CATALOG, preset)
    base = sizing.inference_memory(
        s,
        inference(
            precision=precision,
            context_tokens=ctx,
            output_tokens=1,
            concurrent_sequences=concurrent,
        ),
        CATALOG,
    )
    more_c = sizing.inference_memory(
        s,
        inference(
            precision=precision,
            context_tokens=ctx + 1,
            output_tokens=1,
            concurrent_sequences=concurrent,
        ),
        CATALOG,
    )
    more_n = sizing.inference_memory(
        s,
        inference(
            precision=precision,
            context_tokens=ctx,
            output_tokens=1,
            concurrent_sequences=concurrent + 1,
        ),
        CATALOG,
    )
    assert more_c.total >= base.total
    assert more_n.total >= base.total
    assert base.total == pytest.approx(sum(base.parts.values()))


@settings(max_examples=60, deadline=None)
@given(
    preset=PRESETS,
    tokens=st.integers(1, 10**15 - 1),
    acc=st.sampled_from(["nvidia-h100-sxm", "nvidia-l4", "tpu-v5e", "nvidia-t4"]),
    n=st.sampled_from([1, 8, 64]),
    ckpt=st.booleans(),
)
def test_more_dataset_tokens_never_lowers_hours(
    preset: str, tokens: int, acc: str, n: int, ckpt: bool
) -> None:
    s = shape(CATALOG, preset)
    a = CATALOG.by_id[acc]
    mfu = sizing.training_mfu(s, training(), a, n, 1, CATALOG)
    h1 = sizing.training_hours(
        sizing.training_flops(s, training(dataset_tokens=tokens, gradient_checkpointing=ckpt)),
        a,
        n,
        training(),
        mfu,
        CATALOG,
    )
    h2 = sizing.training_hours(
        sizing.training_flops(s, training(dataset_tokens=tokens + 1, gradient_checkpointing=ckpt)),
        a,
        n,
        training(),
        mfu,
        CATALOG,
    )
    assert h2 >= h1
    assert math.isfinite(h1)


@pytest.mark.parametrize("serving", ["vllm", "tgi", "tensorrt_llm", "triton"])
def test_chunked_prefill_stacks_bound_the_prefill_workspace_by_a_chunk(
    catalog: Catalog, serving: str
) -> None:
    s = shape(catalog, "llama-3-8b")
    big = Inference("bf16", 7680, 512, 64, 0, "steady")
    whole = sizing.inference_memory(s, big, catalog, "none")
    chunked = sizing.inference_memory(s, big, catalog, serving)
    assert chunked.parts["activations"] < whole.parts["activations"] / 10
    assert sizing.prefill_tokens(big, catalog, serving) == catalog.figure(
        "serving_prefill_chunk_tokens"
    )
    small = Inference("bf16", 960, 64, 2, 0, "steady")
    assert sizing.inference_memory(s, small, catalog, serving).total == pytest.approx(
        sizing.inference_memory(s, small, catalog, "none").total
    )


@pytest.mark.parametrize("serving", ["none", "custom", "torchserve", "tf_serving", None])
def test_other_stacks_prefill_the_whole_batch_like_generate(
    catalog: Catalog, serving: str | None
) -> None:
    big = Inference("bf16", 7680, 512, 64, 0, "steady")
    assert sizing.prefill_tokens(big, catalog, serving) == (8192 - 512) * 64


def test_the_chunked_prefill_assumption_is_stated_with_its_source(
    catalog: Catalog,
) -> None:
    from advisor.engine import evaluate

    result = evaluate(sample(), catalog, SCORING)
    assert any("chunked prefill" in a for a in result["sizing"]["inference"]["assumptions"])
    figure = result["cost"]["figures_used"]["serving_prefill_chunk_tokens"]
    assert "max_num_batched_tokens" in figure["source"] and figure["as_of"]
    plain = evaluate(sample(**{"frameworks.serving": "none"}), catalog, SCORING)
    assert any("generate()" in a for a in plain["sizing"]["inference"]["assumptions"])


@pytest.mark.parametrize("preset", ["llama-3-8b", "llama-3-70b"])
def test_halving_device_memory_roughly_doubles_the_training_count(
    catalog: Catalog, preset: str
) -> None:
    """ZeRO-3 plus tensor parallelism inside a node when a micro-batch's
    activations do not fit one device: an A100 40GB needs about twice the A100 80GB count."""
    shape = sizing.shape_from_preset(catalog.presets[preset])
    t = training(sequence_length=8192, gradient_checkpointing=True)
    mem = sizing.training_memory(shape, t, catalog)
    big = sizing.min_training_devices(mem, catalog.by_id["nvidia-a100-80gb"], catalog)
    small = sizing.min_training_devices(mem, catalog.by_id["nvidia-a100-40gb"], catalog)
    assert big is not None and small is not None
    assert big <= small <= 4 * big
    tp = sizing.training_tp(mem, catalog.by_id["nvidia-a100-40gb"], small, catalog)
    assert tp is not None and tp <= catalog.by_id["nvidia-a100-40gb"].max_devices_per_node


def _first_count_scanned(mem: sizing.TrainingMemory, acc: object, catalog: Catalog) -> int | None:
    # The definition: every proposed count in order, the first that holds the run.
    for n in sizing.valid_counts(acc):  # type: ignore[arg-type]
        if sizing.training_tp(mem, acc, n, catalog) is not None:  # type: ignore[arg-type]
            return n
    return None


@settings(max_examples=300, deadline=None)
@given(
    sharded=st.floats(min_value=1e9, max_value=5e15),
    unsharded=st.floats(min_value=1e8, max_value=5e11),
    runtime=st.floats(min_value=0.0, max_value=4e9),
    step_share=st.floats(min_value=0.2, max_value=2.0),
)
def test_the_fewest_devices_found_by_bisection_are_the_first_count_that_holds_the_run(
    catalog: Catalog, sharded: float, unsharded: float, runtime: float, step_share: float
) -> None:
    # Counts beyond one node step in whole nodes up to a card's largest group (hundreds of
    # counts); the search bisects past the counts some tensor-parallel size cannot divide. It
    # must give what trying every count in order gives, on every card, fitting or not.
    runtime = min(runtime, unsharded)
    mem = sizing.TrainingMemory(
        parts={"weights": sharded, "other": unsharded},
        peak_phase="forward_backward",
        phases={},
        trainable_params=1,
        sharded_fb=sharded,
        unsharded_fb=unsharded,
        sharded_step=sharded * step_share,
        unsharded_step=unsharded * step_share,
        detail={"runtime": runtime},
    )
    for acc in catalog.accelerators:
        assert sizing.min_training_devices(mem, acc, catalog) == _first_count_scanned(
            mem, acc, catalog
        ), acc.id
