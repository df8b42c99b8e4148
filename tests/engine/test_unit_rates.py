"""Rates of work in its own unit: each card's own published figure where one exists, scaling only
as a stated fallback that names its card and ratio, the team's serving stack by a sourced
factor, and the host's vCPUs bounding what the card can be fed (JPEG decode per vCPU)."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate
from advisor.engine.answers import vocabulary
from advisor.engine.planning import nonllm
from tests.engine.test_expert_cases import CASES

TOKYO = "tokyo_ecommerce_classifies_200m_product_images_a_day"
STACKS = ("tensorrt", "pytorch", "tensorflow")


def _case(name: str = TOKYO) -> dict[str, Any]:
    return copy.deepcopy(next(doc for n, doc, _check in CASES if n == name))


def _rows(catalog: Catalog) -> list[dict[str, Any]]:
    return list(catalog.raw["unit_workloads"]["throughput"])


def _first(result: dict[str, Any], card: str) -> dict[str, Any]:
    (w,) = result["workloads"]
    return next(o for o in w["options"] if o["accelerator_id"] == card)


def test_every_throughput_row_has_a_source_a_date_or_says_undated_and_its_stack(
    catalog: Catalog,
) -> None:
    for row in _rows(catalog):
        assert row["source"].startswith("https://"), row
        assert row["as_of"] is not None or "undated" in row["note"], row
        assert row["stack"] in STACKS and row["precision"], row


def test_one_row_per_card_and_benchmark(catalog: Catalog) -> None:
    keys = [(r["benchmark"], r["accelerator_id"]) for r in _rows(catalog)]
    assert len(keys) == len(set(keys))


def test_an_estimated_row_names_the_published_card_and_ratio_it_is_scaled_from(
    catalog: Catalog,
) -> None:
    rows = {(r["benchmark"], r["accelerator_id"]): r for r in _rows(catalog)}
    for row in rows.values():
        scaled = row["scaled_from"]
        if not row["estimated"]:
            assert scaled is None, row
            continue
        assert scaled["card"] and scaled["basis"] in row["note"], row
        expected = scaled["per_second"] * scaled["ratio"]
        assert row["per_second"] == pytest.approx(expected, rel=1e-4, abs=0.051)  # one decimal
        if scaled["accelerator_id"] is not None:
            # Scaled from a card in the catalog: that card's own row, itself published.
            base = rows[(row["benchmark"], scaled["accelerator_id"])]
            assert not base["estimated"] and base["per_second"] == scaled["per_second"]
            vendor = catalog.by_id[row["accelerator_id"]].vendor
            assert catalog.by_id[scaled["accelerator_id"]].vendor == vendor


# MLPerf Inference Offline results of the card itself, one per catalog card that has one
# (results repositories v2.1-v4.1; the per-GPU share of a multi-GPU system where that is all).
OWN_ROWS = {
    ("resnet50", "nvidia-t4"): 6121.33,  # v3.0 Dell XE2420 T4x1
    ("resnet50", "nvidia-l40s"): 87978.3 / 2,  # v4.1 Cisco C240M7 L40Sx2
    ("resnet50", "nvidia-a100-40gb"): 311662.0 / 8,  # v2.1 HPE Apollo 6500 A100-SXM-40GBx8
    ("resnet50", "nvidia-h100-pcie"): 56635.0,  # v3.0 NVIDIA H100-PCIe-80GBx1
    ("resnet50", "nvidia-h200"): 756960.0 / 8,  # v4.1 NVIDIA H200-SXM-141GBx8
    ("resnet50", "nvidia-gh200"): 95104.5,  # v4.1 Oracle GH200-96GB x1
    ("bert-large-384", "nvidia-t4"): 427.452,
    ("bert-large-384", "nvidia-h100-pcie"): 5878.44,
    ("bert-large-384", "nvidia-gh200"): 9864.25,
}


@pytest.mark.parametrize(("key", "published"), sorted(OWN_ROWS.items()))
def test_a_card_with_its_own_published_figure_is_sized_from_it(
    catalog: Catalog, key: tuple[str, str], published: float
) -> None:
    row = nonllm.throughput(catalog, *key)
    assert row is not None and not row["estimated"]
    assert row["per_second"] == pytest.approx(published, abs=0.1)


def test_the_t4_resnet_rate_is_its_own_mlperf_row_not_the_l4_scaled(catalog: Catalog) -> None:
    row = nonllm.throughput(catalog, "resnet50", "nvidia-t4")
    assert row is not None
    assert row["per_second"] == pytest.approx(6121.33) and not row["estimated"]
    assert "XE2420_T4x1_TRT" in row["source"] and row["as_of"] == "2023-04-05"
    assert (row["stack"], row["precision"]) == ("tensorrt", "int8")


@pytest.mark.parametrize(
    ("serving", "primary", "stack"),
    [
        ("triton", "pytorch", "tensorrt"),
        ("tensorrt_llm", "pytorch", "tensorrt"),
        ("tf_serving", "pytorch", "tensorflow"),
        ("custom", "tensorflow", "tensorflow"),
        ("torchserve", "pytorch", "pytorch"),
        ("vllm", "jax", "pytorch"),
    ],
)
def test_a_teams_serving_stack_is_read_from_its_answers(
    serving: str, primary: str, stack: str
) -> None:
    frameworks = vocabulary.Frameworks(
        primary=primary, others=(), custom_kernels=False, serving=serving
    )
    assert nonllm.team_stack(frameworks) == stack


def test_every_stack_factor_is_sourced_and_none_exceeds_the_measured_stack(
    catalog: Catalog,
) -> None:
    factors = catalog.raw["unit_workloads"]["stack_factors"]
    for bench_id, bench in catalog.raw["unit_workloads"]["benchmarks"].items():
        assert set(factors[bench_id]) == set(STACKS)
        for stack in STACKS:
            doc = nonllm.stack_factor(catalog, bench_id, stack)
            assert 0 < doc["value"] <= 1.0
            if stack == bench["stack_measured"]:
                assert doc["value"] == 1.0
            else:
                raw = factors[bench_id][stack]
                assert raw["source"].startswith("https://") and raw["note"]


@pytest.mark.parametrize("serving", ["triton", "torchserve", "tf_serving"])
def test_each_option_runs_at_its_cards_published_rate_times_the_teams_stack_factor(
    catalog: Catalog, scoring: ScoringModel, serving: str
) -> None:
    doc = _case()
    doc["frameworks"]["serving"] = serving
    doc["workloads"] = [{"kind": "batch_inference", "schedule": "daily"}]
    doc["work"] = {"unit": "images", "model": "resnet-50", "per_day": 1_000_000}
    (w,) = evaluate(doc, catalog, scoring)["workloads"]
    assert w["options"]
    stack = {"triton": "tensorrt", "torchserve": "pytorch", "tf_serving": "tensorflow"}[serving]
    factor = nonllm.stack_factor(catalog, "resnet50", stack)["value"]
    for option in w["options"]:
        row = nonllm.throughput(catalog, "resnet50", option["accelerator_id"])
        assert row is not None
        assert option["work"]["published_per_second"] == row["per_second"]
        assert option["work"]["samples_per_second_per_card"] == pytest.approx(
            row["per_second"] * factor, abs=0.1
        )


def test_a_pytorch_team_gets_about_a_fifth_of_the_t4s_int8_tensorrt_rate(
    catalog: Catalog,
) -> None:
    row = nonllm.throughput(catalog, "resnet50", "nvidia-t4")
    assert row is not None
    pytorch = nonllm.stack_factor(catalog, "resnet50", "pytorch")
    # NVIDIA's PyTorch mixed-precision T4 figure (1,198 images/s) against its MLPerf INT8 row.
    assert row["per_second"] * pytorch["value"] == pytest.approx(1198, rel=0.01)
    assert nonllm.stack_factor(catalog, "resnet50", "tensorrt")["value"] == 1.0
    assert nonllm.stack_factor(catalog, "resnet50", "tensorflow")["value"] < pytorch["value"]


def test_a_hosts_preprocessing_rate_scales_with_its_vcpus(catalog: Catalog) -> None:
    per_vcpu, figure = nonllm.host_rate_per_vcpu(catalog, "images") or (0.0, "")
    assert figure == "jpeg_decode_images_per_vcpu_second" and per_vcpu > 0
    feeds = []
    for vcpu in (4, 8, 16):
        money = {
            "billing_used": "on_demand",
            "prices": {"on_demand": {"sold_unit": {"vcpu": vcpu, "gpus": 1, "name": "x"}}},
        }
        doc = nonllm.host_feed(catalog, "images", money, 1, 1e9, 6000.0, 730.0, False)
        assert doc is not None
        feeds.append(doc["host_per_second"])
    assert feeds[1] == pytest.approx(2 * feeds[0]) and feeds[2] == pytest.approx(4 * feeds[0])


def test_a_four_vcpu_host_cannot_decode_thousands_of_jpegs_a_second(catalog: Catalog) -> None:
    per_vcpu, _ = nonllm.host_rate_per_vcpu(catalog, "images") or (0.0, "")
    assert 4 * per_vcpu < 1000


def test_a_t4_on_a_four_vcpu_host_is_said_to_starve_and_its_cpu_tier_is_priced(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = _case()
    doc["workloads"] = [{"kind": "batch_inference", "schedule": "daily"}]
    doc["work"] = {"unit": "images", "model": "resnet-50", "per_day": 100_000_000}
    result = evaluate(doc, catalog, scoring)
    for option in result["workloads"][0]["options"]:
        host = option["work"]["host"]
        demand = option["work"]["demand_per_second"]
        fed = host["host_per_second"] + host["extra_vcpu"] * host["per_vcpu_per_second"]
        # Whatever the card, its hosts plus the CPU tier prepare what the cards must take.
        assert fed >= demand - 1e-6
        assert host["starved"] == (host["extra_vcpu"] > 0)
        if host["starved"]:
            assert host["extra_usd_per_month"] > 0
    (w,) = result["workloads"]
    first = w["options"][0]
    if first["work"]["host"]["starved"]:
        said = next(n for n in result["cost"]["notes"] if "is sized in images" in n)
        assert "the cards would starve" in said


def test_a_team_with_a_preprocessing_workload_feeds_the_cards_from_its_cpu_server(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = _case()
    doc["workloads"] = [
        {"kind": "batch_inference", "schedule": "daily"},
        {"kind": "preprocessing", "schedule": "daily"},
    ]
    doc["work"] = {"unit": "images", "model": "resnet-50", "per_day": 100_000_000}
    result = evaluate(doc, catalog, scoring)
    inference = next(w for w in result["workloads"] if w["kind"] == "batch_inference")
    assert all(not o["work"]["host"]["starved"] for o in inference["options"])
    server = next(s for s in result["servers"] if s.get("workload") == "preprocessing")
    per_vcpu = catalog.figure("jpeg_decode_images_per_vcpu_second")
    hours = doc["cost"].get("hours_per_day") or 24
    assert server["cpu_cores"] == max(4, math.ceil(100_000_000 / (per_vcpu * hours * 3600)))
