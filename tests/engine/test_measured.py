"""Measured serving figures replace the estimates, through `evaluate`."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate
from advisor.engine.sizing.measured import (
    MAX_BYTES,
    Measurement,
    MeasurementError,
    parse,
    parse_vllm,
)

from .conftest import sample

# A result file in the shape `vllm bench serve --save-result` writes (vllm/benchmarks/serve.py):
# the run's settings merged with its BenchmarkMetrics, without --save-detailed.
RECORDED = (Path(__file__).parent / "data" / "vllm_bench_serve_h100.json").read_text()
H100 = "nvidia-h100-sxm"
BUSY = sample(**{"inference.tokens_per_day": 150_000_000})


def _option(result: dict[str, Any], acc: str) -> dict[str, Any]:
    w = next(w for w in result["workloads"] if w["kind"] == "realtime_inference")
    return next(o for o in w["options"] if o["accelerator_id"] == acc)


def _codes(raw: str | bytes) -> list[tuple[str, str]]:
    with pytest.raises(MeasurementError) as caught:
        parse_vllm(raw, accelerator_id=H100, serving="vllm", source="x.json")
    return [(p.code, p.field) for p in caught.value.problems]


def test_parses_a_vllm_bench_serve_result() -> None:
    m = parse_vllm(RECORDED, accelerator_id=H100, serving="vllm", source="run.json")
    assert (m.model_id, m.concurrency, m.output_tokens_per_s) == (
        "meta-llama/Llama-3.1-8B-Instruct",
        32,
        874.3,
    )
    assert (m.ttft_ms, m.tpot_ms, m.e2el_ms, m.percentile) == (388.0, 40.8, 19900.0, "p99")
    assert (m.measured_on, m.source) == ("2026-12-01", "run.json")


def test_prefers_p95_when_the_run_asked_for_it() -> None:
    doc = json.loads(RECORDED) | {"p95_ttft_ms": 300.0, "p95_tpot_ms": 38.0}
    m = parse_vllm(json.dumps(doc), accelerator_id=H100, serving="vllm", source="run.json")
    assert (m.ttft_ms, m.tpot_ms, m.percentile) == (300.0, 38.0, "p95")


def test_names_every_problem_of_a_wrong_result() -> None:
    doc = json.loads(RECORDED)
    del doc["output_throughput"]
    doc["mean_tpot_ms"] = "fast"
    doc["max_concurrency"] = None
    assert _codes(json.dumps(doc)) == [
        ("missing", "output_throughput"),
        ("not_number", "mean_tpot_ms"),
        ("no_concurrency", "max_concurrency"),
    ]


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("Successful requests: 320\nOutput token throughput (tok/s): 874.3", "not_json"),
        ('{"loss": 1.2}', "not_vllm"),
        ("[1, 2]", "not_vllm"),
        ("", "empty"),
        (b"\xff\xfe", "not_json"),
        (" " * (MAX_BYTES + 1), "too_large"),
    ],
)
def test_refuses_what_is_not_a_vllm_result(raw: str | bytes, code: str) -> None:
    assert _codes(raw) == [(code, "")]


def test_half_the_estimated_throughput_doubles_the_replicas(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    estimated = _option(evaluate(BUSY, catalog, scoring), H100)
    assert "measured" not in estimated
    m = Measurement(
        accelerator_id=H100,
        serving="vllm",
        model_id="meta-llama/Llama-3.1-8B-Instruct",
        concurrency=estimated["batch_per_replica"],
        output_tokens_per_s=estimated["tokens_per_second_per_replica"] / 2,
        request_throughput=1.0,
        ttft_ms=200.0,
        tpot_ms=30.0,
        e2el_ms=None,
        percentile="p99",
        measured_on="2026-12-01",
        source="run.json",
    )
    measured = _option(evaluate(BUSY, catalog, scoring, measurements=[m]), H100)
    spare = (measured.get("redundancy") or {}).get("spare_replicas", 0)
    spare_before = (estimated.get("redundancy") or {}).get("spare_replicas", 0)
    assert estimated["replicas"] - spare_before >= 2
    assert measured["replicas"] - spare == 2 * (estimated["replicas"] - spare_before)
    assert measured["measured"]["estimated"]["replicas"] == estimated["replicas"] - spare_before
    assert measured["measured"]["source"] == "run.json"
    assert measured["measured"]["measured_on"] == "2026-12-01"
    assert measured["tpot_ms"] == 30.0
    # Another stack's or card's measurement leaves the estimates alone.
    other = dataclasses.replace(m, serving="tgi")
    assert "measured" not in _option(evaluate(BUSY, catalog, scoring, measurements=[other]), H100)


def test_a_measured_latency_over_the_target_says_it_no_longer_holds(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    m = parse_vllm(RECORDED, accelerator_id=H100, serving="vllm", source="run.json")
    slow = dataclasses.replace(m, e2el_ms=16_000.0)  # the sample's target is 15,000 ms
    option = _option(evaluate(BUSY, catalog, scoring, measurements=[slow]), H100)
    assert option["measured"]["estimated"]["meets_latency"] is True
    assert option["meets_latency"] is False


DATA = Path(__file__).parent / "data"
TODAY = "2026-12-02"


def _parse(name: str, concurrency: int | None = None) -> Measurement:
    # SGLang's file records the server it drove (--backend sglang): it is read for SGLang.
    return parse(
        (DATA / name).read_bytes(),
        accelerator_id=H100,
        serving="sglang" if name.startswith("sglang") else "tensorrt_llm",
        source=name,
        today=TODAY,
        concurrency=concurrency,
    )


def _problems(
    raw: str, concurrency: int | None = None, serving: str = "vllm"
) -> list[tuple[str, str]]:
    with pytest.raises(MeasurementError) as caught:
        parse(
            raw,
            accelerator_id=H100,
            serving=serving,
            source="x",
            today=TODAY,
            concurrency=concurrency,
        )
    return [(p.code, p.field) for p in caught.value.problems]


def test_reads_each_recorded_format() -> None:
    got = {
        name: (m.tool, m.model_id, m.concurrency, m.output_tokens_per_s, m.ttft_ms, m.tpot_ms)
        for name, m in (
            ("vllm_bench_serve_h100.json", _parse("vllm_bench_serve_h100.json")),
            ("trtllm_benchmark_serving_h100.json", _parse("trtllm_benchmark_serving_h100.json")),
            ("sglang_bench_serving_h100.jsonl", _parse("sglang_bench_serving_h100.jsonl")),
            ("trtllm_bench_report_h100.json", _parse("trtllm_bench_report_h100.json")),
            ("genai_perf_h100.csv", _parse("genai_perf_h100.csv", concurrency=32)),
        )
    }
    llama = "meta-llama/Llama-3.1-8B-Instruct"
    assert got == {
        "vllm_bench_serve_h100.json": ("vllm", llama, 32, 874.3, 388.0, 40.8),
        "trtllm_benchmark_serving_h100.json": ("vllm", llama, 32, 1031.1, 650.4, 31.5),
        # The newest of the two runs the file gathered; SGLang writes p99, no model, no date.
        "sglang_bench_serving_h100.jsonl": ("sglang", "", 32, 1003.5, 655.0, 29.8),
        # trtllm-bench's average concurrency (31.62) is the load its throughput was measured at.
        "trtllm_bench_report_h100.json": ("trtllm_bench", llama, 32, 1016.4, 661.0, 31.4),
        "genai_perf_h100.csv": ("genai_perf_csv", "", 32, 1012.88, 640.75, 31.62),
    }


def test_dates_a_file_without_a_date_the_day_it_is_pasted() -> None:
    assert _parse("vllm_bench_serve_h100.json").measured_on == "2026-12-01"
    assert _parse("sglang_bench_serving_h100.jsonl").measured_on == TODAY
    assert _parse("trtllm_bench_report_h100.json").measured_on == TODAY


def test_reads_thousands_commas_in_genai_perf_figures() -> None:
    m = _parse("genai_perf_h100.csv", concurrency=32)
    assert (m.e2el_ms, m.percentile) == (16598.90, "p95")


def test_genai_perf_csv_needs_the_concurrency_the_team_ran() -> None:
    raw = (DATA / "genai_perf_h100.csv").read_text()
    assert _problems(raw) == [("csv_concurrency", "concurrency")]
    broken = raw.replace("1012.88", "fast").replace("Request Throughput (per sec),1.98", "")
    assert _problems(broken, concurrency=8) == [
        ("not_number", "output token throughput (value)"),
        ("missing", "request throughput (value)"),
    ]


def test_names_every_problem_of_a_trtllm_bench_report_without_streaming() -> None:
    doc = json.loads((DATA / "trtllm_bench_report_h100.json").read_text())
    del doc["streaming_metrics"]
    doc["performance"]["system_output_throughput_tok_s"] = None
    doc["request_info"]["num_requests"] = 0
    assert _problems(json.dumps(doc)) == [
        ("not_number", "performance.system_output_throughput_tok_s"),
        ("nothing_completed", "request_info.num_requests"),
        ("no_streaming", "streaming_metrics"),
    ]


def test_names_every_problem_of_an_sglang_run() -> None:
    line = json.loads((DATA / "sglang_bench_serving_h100.jsonl").read_text().splitlines()[0])
    line |= {"max_concurrency": None, "mean_tpot_ms": "n/a", "completed": 0}
    del line["output_throughput"]
    assert _problems(json.dumps(line), serving="sglang") == [
        ("missing", "output_throughput"),
        ("not_number", "mean_tpot_ms"),
        ("no_concurrency", "max_concurrency"),
        ("nothing_completed", "completed"),
    ]


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("============ Serving Benchmark Result ============", ("not_json", "")),
        ('{"loss": 1.2}', ("unknown_format", "")),
        ("[1, 2]", ("unknown_format", "")),
        ('{"a": 1}\n{"b": 2', ("bad_line", "2")),
        ("Metric,Value\n", ("unknown_format", "")),
        ("\n \n", ("empty", "")),
    ],
)
def test_refuses_what_is_no_benchmark_result(raw: str, problem: tuple[str, str]) -> None:
    assert _problems(raw) == [problem]


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_every_problem_has_words_in_both_languages(lang: str) -> None:
    from advisor.engine.text import i18n

    for code in (
        "too_large",
        "empty",
        "not_json",
        "unknown_format",
        "bad_line",
        "missing",
        "not_number",
        "no_concurrency",
        "nothing_completed",
        "no_streaming",
        "csv_concurrency",
    ):
        text = i18n.message(f"measured.{code}", lang, field="x", limit=512)
        assert text and "{" not in text


def _sglang_run(backend: str) -> str:
    last = (DATA / "sglang_bench_serving_h100.jsonl").read_text().splitlines()[-1]
    return json.dumps(json.loads(last) | {"backend": backend})


@pytest.mark.parametrize("backend", ["sglang", "sglang-oai", "sgl-jax"])
def test_an_sglang_server_run_stands_only_for_an_sglang_team(backend: str) -> None:
    # python/sglang/bench_serving.py (0033168f): --backend names the server the run drove.
    m = parse(_sglang_run(backend), accelerator_id=H100, serving="sglang", source="x", today=TODAY)
    assert (m.serving, m.tool, m.concurrency) == ("sglang", "sglang", 32)
    for other in ("vllm", "tensorrt_llm", "custom"):
        with pytest.raises(MeasurementError) as caught:
            parse(_sglang_run(backend), accelerator_id=H100, serving=other, source="x", today=TODAY)
        assert [(p.code, p.field) for p in caught.value.problems] == [("other_server", backend)]


@pytest.mark.parametrize("backend", ["vllm", "trt", "lmdeploy"])
def test_an_sglang_teams_run_against_another_engines_server_is_refused(backend: str) -> None:
    with pytest.raises(MeasurementError) as caught:
        parse(_sglang_run(backend), accelerator_id=H100, serving="sglang", source="x", today=TODAY)
    assert [(p.code, p.field) for p in caught.value.problems] == [("other_server", backend)]
    # The same client driving vLLM's server is a vLLM team's measurement.
    if backend == "vllm":
        m = parse(
            _sglang_run(backend), accelerator_id=H100, serving="vllm", source="x", today=TODAY
        )
        assert (m.serving, m.tool) == ("vllm", "sglang")
