"""SGLang as a serving stack a team can answer: which cards it runs on and in
which numeric formats, each from SGLang's own documentation at a commit, as catalog data beside
the other stacks' support."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog, load_scoring_model
from advisor.engine.answers import vocabulary
from advisor.engine.bench import variants
from advisor.engine.catalog.stack import stack_fit
from tests.engine.test_expert_cases import team, workload

SGLANG = "sgl-project/sglang"


def _fit(catalog: Catalog, card: str, precision: str = "fp16") -> Any:
    acc = catalog.by_id[card]
    return stack_fit(catalog, acc, "inference", "pytorch", "sglang", False, precision)


def test_sglang_is_an_answer_beside_the_other_stacks() -> None:
    assert "sglang" in vocabulary.SERVING
    assert vocabulary.SERVING.index("sglang") == vocabulary.SERVING.index("vllm") + 1


def test_every_card_states_sglangs_support_from_sglangs_docs_at_a_commit(
    catalog: Catalog,
) -> None:
    for acc in catalog.accelerators:
        compat = acc.compatibility or {}
        assert compat["serving"]["sglang"] in ("native", "supported", "needs_porting"), acc.id
        cited = compat["serving_sources"]["sglang"]
        assert cited["as_of"] == "2026-12-02", acc.id
        # A repository path and the 40-hex commit it was read at.
        assert re.search(rf"{SGLANG} docs/\S+\.md at [0-9a-f]{{40}}", cited["source"]), acc.id


@pytest.mark.parametrize(
    ("card", "status"),
    [
        ("nvidia-h100-sxm", "native"),
        ("nvidia-l4", "native"),
        ("nvidia-a100-80gb", "native"),
        ("nvidia-b200", "native"),
        ("nvidia-t4", "supported"),
        ("nvidia-gh200", "supported"),
        ("amd-mi300x", "supported"),
        ("tpu-v6e", "supported"),
        ("tpu-7x", "supported"),
        ("tpu-v5e", "needs_porting"),
        ("tpu-v4", "needs_porting"),
    ],
)
def test_sglang_runs_where_its_docs_say(catalog: Catalog, card: str, status: str) -> None:
    fit = _fit(catalog, card)
    assert fit.status == status
    assert f"{SGLANG} docs/" in (fit.source or "")
    assert fit.as_of == "2026-12-02"


def test_sglang_serves_only_bf16_on_a_tpu_where_the_card_has_int8(catalog: Catalog) -> None:
    # SGLang-JAX's quantisation is "in development" (docs/platforms/tpu.md at 10c578e3): the
    # card computes in int8 (vLLM serves it there) but SGLang does not.
    assert catalog.by_id["tpu-v6e"].format_support("int8") == "native"
    assert _fit(catalog, "tpu-v6e", "bf16").runnable
    fit = _fit(catalog, "tpu-v6e", "int8")
    assert fit.status == "unsupported"
    assert ("serving_format.int8", "unsupported") in fit.checks
    assert fit.blocking == ("stack_format:sglang:int8",)
    vllm = stack_fit(
        catalog, catalog.by_id["tpu-v6e"], "inference", "pytorch", "vllm", False, "int8"
    )
    assert vllm.runnable
    # On NVIDIA and AMD cards the card's own formats decide, as for the other stacks.
    assert _fit(catalog, "nvidia-h100-sxm", "fp8").runnable
    assert _fit(catalog, "amd-mi300x", "int4").runnable
    assert not _fit(catalog, "nvidia-a100-80gb", "fp8").runnable  # no fp8 units


def _jax_team_on_google_cloud(precision: str) -> dict[str, Any]:
    return team(
        organization={"industry": "research", "regions": ["us_east"]},
        model={"preset": "qwen2.5-7b"},
        maturity={"stack_changes": "rarely"},
        frameworks={"primary": "jax", "serving": "sglang"},
        deployment={"allowed_modes": ["public_cloud"], "clouds": ["gcp"]},
        inference={"precision": precision},
    )


@pytest.mark.parametrize(
    ("lang", "said", "fallback"),
    [
        ("en", "SGLang does not serve int8 on this card", "so it is planned on GPU"),
        ("zh-hant", "SGLang 在此卡片上無法以 int8 服務", "因此改以 GPU 規劃"),
    ],
)
def test_an_sglang_team_that_quantises_is_not_planned_on_a_tpu(
    catalog: Catalog, scoring: ScoringModel, lang: str, said: str, fallback: str
) -> None:
    # In bf16 the JAX team is planned on TPU v6e with SGLang-JAX; in int8 no TPU serves it with
    # SGLang: it is planned on GPU, and the report says why.
    bf16 = workload(
        evaluate(_jax_team_on_google_cloud("bf16"), catalog, scoring, lang=lang),
        "realtime_inference",
    )
    assert bf16["accelerator"] == "tpu" and bf16["options"][0]["accelerator_id"] == "tpu-v6e"
    result = evaluate(_jax_team_on_google_cloud("int8"), catalog, scoring, lang=lang)
    int8 = workload(result, "realtime_inference")
    # No TPU serves int8 with SGLang: the workload is planned on the GPUs whose formats SGLang
    # runs, and the report says why the TPU the scores preferred is not the plan.
    assert int8["accelerator"] == "gpu" and "dead_end" not in int8
    assert int8["options"] and all(o["type"] == "gpu" for o in int8["options"])
    notes = result["cost"]["notes"]
    assert any(said in n and fallback in n for n in notes)


def test_a_catalog_published_before_sglang_reads_its_bundled_support(catalog: Catalog) -> None:
    data = copy.deepcopy(catalog.to_dict())
    for acc in data["accelerators"]:
        compat = acc["compatibility"]
        compat["serving"].pop("sglang")
        compat.pop("serving_sources")
        compat.pop("serving_formats", None)
    older = load_catalog(data)
    for card in ("nvidia-h100-sxm", "amd-mi300x", "tpu-v6e", "tpu-v4"):
        before, now = _fit(older, card), _fit(catalog, card)
        assert (before.status, before.source, before.as_of) == (now.status, now.source, now.as_of)
    assert _fit(older, "tpu-v6e", "int8").blocking == ("stack_format:sglang:int8",)
    # What the published catalog says about the other stacks stays its own.
    assert older.by_id["nvidia-t4"].compatibility["serving"]["tensorrt_llm"] == "needs_porting"


def test_would_change_if_says_a_switch_to_vllm_once_not_again_for_sglang(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # The benchmark sample's TensorFlow team on TensorRT-LLM: moving to vLLM flips it to TPUs.
    # SGLang is scored and constrained as vLLM is (scoring v1), so it would say the same again.
    # Serving a 70B model: its DeepSeek-V3 fits no TPU serving slice, so no flip to TPUs is
    # stated for it (a lever never leads to a dead end).
    doc = {**variants(40)[19].to_dict(), "model": {"preset": "llama-3-70b"}}
    assert doc["frameworks"]["serving"] == "tensorrt_llm"
    changes = evaluate(doc, catalog, scoring)["recommendation"]["would_change_if"]
    to = [
        c["changes"][0]["to"] for c in changes if c["changes"][0]["answer_path"].endswith("serving")
    ]
    assert "vllm" in to and "sglang" not in to
    # A scoring model that tells them apart lists both.
    data = scoring.to_dict()
    for criterion in data["criteria"]:
        if criterion["id"] == "serving_stack":
            criterion["contributions"]["sglang"] = {"gpu": 0.5, "tpu": -0.1}
    apart = evaluate(doc, catalog, load_scoring_model(data))["recommendation"]
    to = [
        c["changes"][0]["to"]
        for c in apart["would_change_if"]
        if c["changes"][0]["answer_path"].endswith("serving")
    ]
    assert "vllm" in to and "sglang" in to
