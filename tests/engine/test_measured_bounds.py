"""The measured-results parser within bounds: whatever text or bytes arrive within the size
limit, it answers a measurement or its own MeasurementError, never another exception; the
card's physics bounds every figure; the run applied is the newest (ties: pasted last); a
measured card that meets its target outranks an estimate that is not firmly better."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog, parse_answers
from advisor.engine.planning.decide import answers_shape
from advisor.engine.ranking import tiers as ranking
from advisor.engine.sizing import inference_memory
from advisor.engine.sizing.measured import (
    MAX_BYTES,
    Bounds,
    Measurement,
    MeasurementError,
    bounds,
    find,
    implausible,
    parse,
)

from .conftest import sample

DATA = Path(__file__).parent / "data"
H100 = "nvidia-h100-sxm"
BUSY = sample(**{"inference.tokens_per_day": 150_000_000})
RECORDED = [
    (DATA / name).read_text()
    for name in (
        "vllm_bench_serve_h100.json",
        "sglang_bench_serving_h100.jsonl",
        "trtllm_bench_report_h100.json",
        "genai_perf_h100.csv",
    )
]


@functools.cache
def _h100_bounds() -> Bounds:
    catalog = load_catalog()
    answers = parse_answers(BUSY)
    shape = answers_shape(answers, catalog)
    assert shape is not None and answers.inference is not None
    mem = inference_memory(shape, answers.inference, catalog, answers.frameworks.serving)
    found = bounds(shape, answers.inference, catalog.by_id[H100], 1, mem)
    assert found is not None
    return found


def _parse_or_refuse(raw: str | bytes, concurrency: int | None = 32) -> None:
    """Parse, and check what parses against the card's physics: either answers or refuses."""
    with contextlib.suppress(MeasurementError):
        m = parse(
            raw,
            accelerator_id=H100,
            serving="vllm",
            source="x",
            today="2026-12-02",
            concurrency=concurrency,
        )
        implausible(m, _h100_bounds())


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=2000), st.binary(max_size=2000)))
@example("\ufeff")  # a byte-order mark and nothing else, which Hypothesis found
@example(b"\xef\xbb\xbf \n")
def test_arbitrary_text_or_bytes_never_raise_anything_but_its_own_error(raw: str | bytes) -> None:
    _parse_or_refuse(raw)


@pytest.mark.parametrize("raw", ["\ufeff", b"\xef\xbb\xbf", "\ufeff\n  "])
def test_a_file_of_only_byte_order_marks_is_empty(raw: str | bytes) -> None:
    with pytest.raises(MeasurementError) as refused:
        parse(raw, accelerator_id=H100, serving="vllm", source="x", today="2026-12-02")
    assert [p.code for p in refused.value.problems] == ["empty"]


# The shapes that reach past Python's own limits: nesting (RecursionError), digits (int() and
# float() of a long integer), a CSV field (csv's 131,072-character limit); each within MAX_BYTES.
PAST_PYTHONS_LIMITS = st.one_of(
    st.integers(min_value=1, max_value=200_000).map(lambda n: "[" * n),
    st.integers(min_value=1, max_value=200_000).map(lambda n: '{"a": 1}\n' + "[" * n),
    st.integers(min_value=30, max_value=6_000).map(
        lambda n: '{"output_throughput": ' + "9" * n + ', "max_concurrency": 8}'
    ),
    st.integers(min_value=1, max_value=300_000).map(lambda n: "Metric,avg\n" + "x" * n + ",1\n"),
)


@settings(max_examples=100, deadline=None)
@given(PAST_PYTHONS_LIMITS)
def test_input_past_pythons_own_limits_is_refused_not_raised(raw: str) -> None:
    _parse_or_refuse(raw)


# Values a hostile file puts in place of a figure: numbers at and past every edge, deep
# nesting, text, dates that are not.
EDGES = st.one_of(
    st.integers(min_value=-(10**45), max_value=10**45),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        ["99999999-000000", "20261399-000000", "29991231-235959", "", "\x00", "[" * 200]
    ),
    st.text(max_size=30),
    st.none(),
    st.booleans(),
    st.recursive(st.none(), lambda inner: st.lists(inner, max_size=2), max_leaves=80),
)


def _json_value(value: Any) -> str:
    if isinstance(value, float) and value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return json.dumps(value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(min_value=0, max_value=len(RECORDED) - 1),
    changes=st.dictionaries(
        st.sampled_from(
            [
                "date",
                "max_concurrency",
                "output_throughput",
                "request_throughput",
                "mean_ttft_ms",
                "p99_ttft_ms",
                "mean_tpot_ms",
                "completed",
                "model_id",
                "backend",
                "performance",
                "request_info",
                "streaming_metrics",
            ]
        ),
        EDGES,
        max_size=4,
    ),
    concurrency=st.one_of(st.none(), st.integers(min_value=-5, max_value=10**12)),
)
def test_recorded_results_with_hostile_figures_never_raise_anything_else(
    which: int, changes: dict[str, Any], concurrency: int | None
) -> None:
    text = RECORDED[which]
    if text.startswith("Metric"):
        # The CSV: a hostile cell in place of each changed figure.
        for value in changes.values():
            text = text.replace("1,012.88", str(value)[:2000], 1)
        _parse_or_refuse(text, concurrency)
        return
    lines = text.splitlines()
    last = lines[-1].rstrip()
    extra = "".join(f', "{k}": {_json_value(v)}' for k, v in changes.items())
    lines[-1] = last[:-1] + extra + "}"
    raw = "\n".join(lines)
    if len(raw.encode("utf-8", "surrogatepass")) <= MAX_BYTES:
        _parse_or_refuse(raw, concurrency)


def _run(tps: float, day: str = "2026-12-01", source: str = "run.json") -> Measurement:
    return Measurement(
        accelerator_id=H100,
        serving="vllm",
        model_id="m",
        concurrency=32,
        output_tokens_per_s=tps,
        request_throughput=1.0,
        ttft_ms=300.0,
        tpot_ms=30.0,
        e2el_ms=None,
        percentile="p99",
        measured_on=day,
        source=source,
    )


def test_the_newest_run_applies_and_of_one_day_the_one_pasted_last() -> None:
    a, b = _run(500.0, source="a"), _run(600.0, source="b")
    older = _run(700.0, day="2026-11-01", source="older")
    assert find((a, b), H100, "vllm") is b
    assert find((a, b, older), H100, "vllm") is b
    assert find((older, a), H100, "vllm") is a


def _first(result: dict[str, Any]) -> dict[str, Any]:
    w = next(w for w in result["workloads"] if w["kind"] == "realtime_inference")
    first: dict[str, Any] = w["options"][0]
    return first


def test_a_run_beyond_the_cards_physics_never_re_plans(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    estimated = _first(evaluate(BUSY, catalog, scoring))
    assert estimated["accelerator_id"] == H100
    for tps in (1e308, 5e-324):
        forged = dataclasses.replace(_run(tps), concurrency=estimated["batch_per_replica"])
        result = evaluate(BUSY, catalog, scoring, measurements=[forged])
        first = _first(result)
        assert "measured" not in first and first["count"] == estimated["count"]


def test_a_measured_card_stays_first_unless_another_is_firmly_better(catalog: Catalog) -> None:
    tolerance = float(catalog.rule("rank_cost_tolerance"))

    def option(acc: str, cost: float, measured: bool, index: int) -> dict[str, Any]:
        return {
            "accelerator_id": acc,
            "cost_to_result": {"usd": cost},
            "count": 8,
            "hours": 730.0,
            "billing_used": "on_demand",
            "meets_latency": True,
            "stack": {"runnable": True},
            "availability": {"available": True},
            "_index": index,
            **({"measured": {"source": "run.json"}} if measured else {}),
        }

    untested = option("l40s", 100.0, False, 0)
    # Within the tolerance: a tie on price, and the measurement outweighs it.
    measured = option("h100", 100.0 * (1 + tolerance) - 0.01, True, 1)
    kept, _ = ranking.rank([untested, measured], catalog)
    assert [o["accelerator_id"] for o in kept] == ["h100", "l40s"]
    # Cheaper by more than the tolerance: firmly better, ranked first.
    far = option("h100", 100.0 * (1 + tolerance) + 1.0, True, 1)
    kept, _ = ranking.rank([untested, far], catalog)
    assert [o["accelerator_id"] for o in kept] == ["l40s", "h100"]
    # Also measured: the ordinary order stands (the cheaper one first, the other dropped as
    # no better on any axis).
    both = option("l40s", 100.0, True, 0)
    kept, dropped = ranking.rank([both, measured], catalog)
    assert [o["accelerator_id"] for o in kept] == ["l40s"]
    assert [o["dominated_by"] for o in dropped] == ["l40s"]
    # An estimate that looks as good on every axis never drops a measured option.
    kept, dropped = ranking.rank([untested, measured], catalog)
    assert not dropped
    # Unpriced (owned) cards: memory x count is a tie-break, never firmer than a measurement.
    owned = [
        {**o, "cost_to_result": {"usd": None}, "unpriced": {"memory_gb": m}}
        for o, m in ((untested, 48.0 * 8), (measured, 80.0 * 8))
    ]
    kept, _ = ranking.rank(owned, catalog)
    assert [o["accelerator_id"] for o in kept] == ["h100", "l40s"]
