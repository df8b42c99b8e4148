"""Card capabilities as data: numeric formats and CUDA compute capability per card,
and what they decide for a team's precision and custom kernels."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog
from advisor.engine.answers.parse import parse_answers
from advisor.engine.answers.problems import AnswersError
from tests.engine.test_expert_cases import team

FORMATS = ("bf16", "fp16", "fp8", "int8", "int4")


def _options(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    # An option another beats on every axis is listed under dominated_options.
    w = result["workloads"][0]
    return {o["accelerator_id"]: o for o in [*w["options"], *w.get("dominated_options", [])]}


def _excluded(result: dict[str, Any]) -> dict[str, str]:
    return {e["accelerator_id"]: e["reason"] for e in result["workloads"][0]["excluded_options"]}


def test_every_card_states_its_formats_with_a_source(catalog: Catalog) -> None:
    for acc in catalog.accelerators:
        caps = acc.capabilities or {}
        assert caps.get("source") and caps.get("as_of"), acc.id
        assert set(caps["formats"]) == set(FORMATS), acc.id
        assert set(caps["formats"].values()) <= {"native", "weight_only", "none"}, acc.id
        # A native format is one the card has a dense figure for, and the other way round.
        assert (acc.format_support("bf16") == "native") == bool(acc.bf16_dense_tflops), acc.id
        assert (acc.format_support("fp8") == "native") == bool(acc.fp8_dense_tflops), acc.id
        assert (acc.compute_capability is not None) == (acc.vendor == "NVIDIA"), acc.id


@pytest.mark.parametrize(
    ("card", "cc"),
    [
        ("nvidia-t4", (7, 5)),
        ("nvidia-a100-80gb", (8, 0)),
        ("nvidia-a10g", (8, 6)),
        ("nvidia-l4", (8, 9)),
        ("nvidia-h100-sxm", (9, 0)),
        ("nvidia-b200", (10, 0)),
    ],
)
def test_compute_capability_follows_nvidias_table(catalog: Catalog, card: str, cc: tuple) -> None:
    assert catalog.by_id[card].compute_capability == cc


def test_a_catalog_without_capabilities_reads_the_bundled_ones(catalog: Catalog) -> None:
    data = copy.deepcopy(catalog.to_dict())
    for acc in data["accelerators"]:
        acc.pop("capabilities", None)
    older = load_catalog(data)
    assert older.by_id["nvidia-t4"].capabilities == catalog.by_id["nvidia-t4"].capabilities


def _lora_on_t4(precision: str) -> dict[str, Any]:
    return team(
        organization={"industry": "research", "regions": ["us_east"]},
        workloads=[{"kind": "fine_tuning", "schedule": "weekly"}],
        deployment={"allowed_modes": ["public_cloud"], "clouds": ["aws"]},
        model={"preset": "llama-3.2-1b"},
        training={"precision": precision, "sequence_length": 2048},
    )


def test_bf16_mixed_training_on_a_t4_is_replanned_in_fp16_with_loss_scaling(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    result = evaluate(_lora_on_t4("bf16_mixed"), catalog, scoring)
    t4 = _options(result)["nvidia-t4"]
    assert t4["stack"]["status"] == "needs_porting"
    assert t4["peak_basis"] == "peak.fp16_only"
    (what,) = t4["stack"]["porting"]
    assert "fp16 mixed precision" in what and "GradScaler" in what
    zh = _options(evaluate(_lora_on_t4("bf16_mixed"), catalog, scoring, lang="zh-hant"))
    assert "損失縮放" in zh["nvidia-t4"]["stack"]["porting"][0]


def test_pure_bf16_training_is_not_offered_on_a_t4(catalog: Catalog, scoring: ScoringModel) -> None:
    result = evaluate(_lora_on_t4("bf16"), catalog, scoring)
    assert "nvidia-t4" not in _options(result)
    assert "no fp16 equivalent" in _excluded(result)["nvidia-t4"]


def test_fp8_serving_only_on_cards_with_fp8(catalog: Catalog, scoring: ScoringModel) -> None:
    doc = team(
        organization={"industry": "media", "regions": ["us_east"]},
        inference={"precision": "fp8"},
    )
    result = evaluate(doc, catalog, scoring)
    options, excluded = _options(result), _excluded(result)
    for card in ("nvidia-a100-80gb", "nvidia-a10g", "nvidia-t4"):
        assert card not in options and "no fp8 units" in excluded[card]
    assert {"nvidia-h100-sxm", "nvidia-l4"} <= set(options)
    assert all(catalog.by_id[c].fp8_dense_tflops for c in options)


def _kernels(*archs: str) -> dict[str, Any]:
    return team(
        organization={"industry": "research", "regions": ["us_east"]},
        frameworks={"custom_kernels": True, "kernel_architectures": list(archs)},
    )


def test_kernels_run_on_later_revisions_of_their_architecture(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    result = evaluate(_kernels("sm_80"), catalog, scoring)
    options = _options(result)
    # sm_80 binaries run on sm_86 (A10G) and sm_89 (L4, L40S) as they are.
    for card in ("nvidia-a100-80gb", "nvidia-a10g", "nvidia-l4"):
        assert options[card]["stack"]["runnable"], card
    h100 = options["nvidia-h100-sxm"]["stack"]
    assert h100["status"] == "needs_porting" and "for sm_90" in h100["porting"][0]
    assert "newer than this card (sm_75)" in _excluded(result)["nvidia-t4"]


def test_kernel_architectures_are_read_only_with_custom_kernels(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = _kernels("sm_90")
    doc["frameworks"]["custom_kernels"] = False
    assert "nvidia-a100-80gb" in _options(evaluate(doc, catalog, scoring))


def test_kernel_architectures_answer_is_validated() -> None:
    doc = _kernels("sm_80", "sm_90")
    assert parse_answers(doc).frameworks.kernel_architectures == ("sm_80", "sm_90")
    assert parse_answers(parse_answers(doc).to_dict()) == parse_answers(doc)
    with pytest.raises(AnswersError):
        parse_answers(_kernels("sm_81"))
