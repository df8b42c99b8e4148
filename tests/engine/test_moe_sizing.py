"""Mixture of experts: memory holds every expert, compute uses the active ones."""

from __future__ import annotations

import dataclasses

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate, sizing
from advisor.engine.answers.parse import parse_answers
from advisor.engine.answers.problems import AnswersError
from advisor.engine.answers.vocabulary import Architecture, Inference, Training
from advisor.engine.sizing import throughput
from tests.engine.conftest import sample

# Mixtral-8x7B's published config.json as an architecture answer, once as the dense model the
# engine used to see (46.7B parameters all computed) and once with its experts.
MIXTRAL = {
    "parameters": 46_702_792_704,
    "layers": 32,
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "attention_heads": 32,
    "kv_heads": 8,
    "head_dim": 128,
    "vocab_size": 32000,
    "tied_embeddings": False,
}
MIXTRAL_MOE = {**MIXTRAL, "experts": 8, "experts_per_token": 2}
# The same as answers version 3 state them: 8 KV heads of 4 query heads each, 2 experts of 8
# used per token (6 not).
MIXTRAL_DOC = {
    **{k: v for k, v in MIXTRAL.items() if k != "attention_heads"},
    "kv_group_size": 4,
}
MIXTRAL_MOE_DOC = {**MIXTRAL_DOC, "experts_per_token": 2, "inactive_experts": 6}


def _training() -> Training:
    return Training("full", None, "bf16_mixed", "adamw", 1, 4096, True, 10**10)


def _inference(**kw: object) -> Inference:
    base: dict[str, object] = {
        "precision": "bf16",
        "prompt_tokens": 3584,
        "output_tokens": 512,
        "concurrent_sequences": 64,
        "tokens_per_day": 10**8,
        "traffic": "steady",
    }
    base.update(kw)
    return Inference(**base)  # type: ignore[arg-type]


def _shape(arch: dict[str, object]) -> sizing.ModelShape:
    return sizing.shape_from_architecture(Architecture(**arch))  # type: ignore[arg-type]


def test_mixtral_preset_matches_its_published_sizes(catalog: Catalog) -> None:
    shape = sizing.shape_from_preset(catalog.presets["mixtral-8x7b"])
    # Mistral AI: 46.7B parameters, 12.9B used per token.
    assert shape.parameters == pytest.approx(46.7e9, rel=0.002)
    assert shape.active == pytest.approx(12.9e9, rel=0.002)
    assert shape.active == _shape(MIXTRAL_MOE).active  # derived from the shape as published


def test_deepseek_v3_preset_matches_its_published_sizes(catalog: Catalog) -> None:
    shape = sizing.shape_from_preset(catalog.presets["deepseek-v3"])
    # DeepSeek-V3 technical report: 671B total, 37B activated; MLA caches 512 + 64 per layer.
    assert shape.parameters == pytest.approx(671e9, rel=0.002)
    assert shape.active == pytest.approx(37e9, rel=0.02)
    assert sizing.kv_bytes_per_token(shape) == 61 * 576 * 2
    assert shape.kv_split(8) == 1  # the latent cache is replicated, not split by heads


def test_moe_memory_holds_every_expert(catalog: Catalog) -> None:
    dense, moe = _shape(MIXTRAL), _shape(MIXTRAL_MOE)
    t = _training()
    assert sizing.training_memory(moe, t, catalog).parts["optimizer"] == pytest.approx(
        sizing.training_memory(dense, t, catalog).parts["optimizer"]
    )
    assert sizing.inference_weight_bytes(moe, "bf16") == sizing.inference_weight_bytes(
        dense, "bf16"
    )
    assert sizing.inference_weight_bytes(moe, "bf16") / 1e9 == pytest.approx(93.4, rel=0.01)


def test_moe_training_flops_count_the_active_parameters() -> None:
    dense, moe = _shape(MIXTRAL), _shape(MIXTRAL_MOE)
    t = _training()
    assert sizing.training_flops(moe, t).dense == pytest.approx(6 * moe.active * 10**10)
    ratio = sizing.training_flops(dense, t).dense / sizing.training_flops(moe, t).dense
    assert ratio == pytest.approx(46.7 / 12.9, rel=0.01)


def test_moe_decode_reads_the_experts_its_batch_routes_to() -> None:
    moe = _shape(MIXTRAL_MOE)
    assert sizing.expert_fraction_read(moe, 1) == pytest.approx(2 / 8)
    assert sizing.expert_fraction_read(moe, 64) == pytest.approx(1.0, abs=1e-6)
    assert sizing.expert_fraction_read(_shape(MIXTRAL), 1) == 1.0


def test_moe_serving_computes_with_the_active_parameters(catalog: Catalog) -> None:
    dense, moe = _shape(MIXTRAL), _shape(MIXTRAL_MOE)
    h100 = catalog.by_id["nvidia-h100-sxm"]
    inf = _inference()
    mem_d = sizing.inference_memory(dense, inf, catalog, "vllm")
    mem_m = sizing.inference_memory(moe, inf, catalog, "vllm")
    assert mem_m.parts["weights"] == mem_d.parts["weights"]
    cap_d = throughput.serving_capacity(dense, inf, mem_d, h100, 2, catalog)
    cap_m = throughput.serving_capacity(moe, inf, mem_m, h100, 2, catalog)
    # Prefill is compute over the active parameters only, but each expert's GEMM holds only
    # the tokens routed to it and runs less efficiently: faster than the dense model of the
    # same total size, by less than the active share.
    assert 1.5 < cap_d.ttft_ms / cap_m.ttft_ms < dense.active / moe.active
    # At batch 1 a decode step reads the shared weights and two of eight experts.
    one = dataclasses.replace(inf, concurrent_sequences=1)
    s1 = throughput.serving_capacity(
        moe, one, sizing.inference_memory(moe, one, catalog), h100, 1, catalog
    )
    d1 = throughput.serving_capacity(
        dense, one, sizing.inference_memory(dense, one, catalog), h100, 1, catalog
    )
    assert s1.tpot_ms < 0.45 * d1.tpot_ms


def test_architecture_answer_carries_experts() -> None:
    doc = sample(**{"model": {"architecture": MIXTRAL_MOE_DOC}})
    arch = parse_answers(doc).model.architecture  # type: ignore[union-attr]
    assert (arch.experts, arch.experts_per_token) == (8, 2)
    assert parse_answers(parse_answers(doc).to_dict()) == parse_answers(doc)


@pytest.mark.parametrize(
    ("arch", "code"),
    [
        ({**MIXTRAL, "experts": 8}, "experts_k_required"),
        ({**MIXTRAL, "experts": 2, "experts_per_token": 4}, "experts_per_token_exceed"),
        ({**MIXTRAL, "active_parameters": 50_000_000_000}, "active_exceeds_total"),
    ],
)
def test_inconsistent_experts_are_refused_in_a_version_2_document(
    arch: dict[str, object], code: str
) -> None:
    # Version 3 cannot state these (experts = used + not used; active = a share of the total).
    with pytest.raises(AnswersError) as err:
        parse_answers(sample(**{"schema_version": 2, "model": {"architecture": arch}}))
    assert code in {p.code for p in err.value.problems}


def test_mixtral_served_costs_about_its_active_share(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    """Long prompts, short answers: the count is driven by prefill compute, which a mixture of
    experts does with its 12.9B active parameters, not all 46.7B (its grouped GEMMs at a lower
    efficiency than dense ones, docs/calibration.md: under half the cards, not a quarter)."""
    from tests.engine.test_expert_cases import LA_MIXTRAL

    dense_doc = {**LA_MIXTRAL, "model": {"architecture": MIXTRAL_DOC}}
    moe = evaluate(LA_MIXTRAL, catalog, scoring)["workloads"][0]["options"][0]
    dense = evaluate(dense_doc, catalog, scoring)["workloads"][0]["options"]
    same = next(o for o in dense if o["accelerator_id"] == moe["accelerator_id"])
    assert moe["count"] <= same["count"] / 2
    slot = moe["billing_used"]
    per_mtok = moe["cost_per_million_output_tokens_usd"][slot]
    assert per_mtok <= same["cost_per_million_output_tokens_usd"][slot] / 2
