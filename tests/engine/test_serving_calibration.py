"""The serving model against an independent kernel-data model (aiconfigurator, stored figures):
the engine's TTFT, TPOT and served throughput over every case of advisor/calibration/serving.py,
median within x0.8-1.25 and nine in ten within x0.7-1.4; and docs/calibration.md is what the
engine prints today."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.calibration import report, serving
from advisor.engine.catalog import Catalog


@pytest.fixture(scope="module")
def rows(catalog: Catalog) -> list[dict]:
    return serving.ratios(catalog)


def test_every_case_has_the_independent_models_figures(rows: list[dict]) -> None:
    assert len(rows) == len(serving.CASES) >= 40
    assert {r["case"].card for r in rows} == set(serving.SYSTEMS)
    assert {r["case"].tp for r in rows} >= {1, 2, 4, 8}


@pytest.mark.parametrize("metric", serving.METRICS)
def test_the_median_and_nine_in_ten_are_in_the_band(rows: list[dict], metric: str) -> None:
    spread = serving.spread(rows)[metric]
    assert 0.8 <= spread["median"] <= 1.25, spread
    assert spread["within_07_14"] >= 0.9, spread


def test_prefill_counts_attention_at_long_prompts(catalog: Catalog) -> None:
    # A 16K prompt on Qwen3-32B: attention's quadratic FLOPs are a quarter of the linear ones;
    # without them the TTFT would come out well under the independent model's.
    case = next(c for c in serving.CASES if c.prompt == 16384)
    ttft = serving.engine(case, catalog)["ttft_ms"]
    theirs = serving.stored()["cases"][case.key]["ttft_ms"]
    assert 0.8 <= ttft / theirs <= 1.25


def test_fp8_prefill_gains_less_than_the_peak_doubles(catalog: Catalog) -> None:
    bf16 = serving.Case("llama-3.1-70b", "nvidia-h100-sxm", "bf16", 4, 16, 2048, 512)
    fp8 = serving.Case("llama-3.1-70b", "nvidia-h100-sxm", "fp8", 4, 16, 2048, 512)
    gain = serving.engine(bf16, catalog)["ttft_ms"] / serving.engine(fp8, catalog)["ttft_ms"]
    assert 1.1 <= gain <= 1.5


def test_the_calibration_page_is_current(catalog: Catalog) -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "calibration.md"
    assert page.read_text() == report.markdown(catalog), (
        "docs/calibration.md is stale: run `python -m advisor.calibration`"
    )
