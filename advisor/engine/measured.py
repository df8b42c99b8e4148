"""Measured serving figures in place of the engine's estimates (issue 24 item 4).

A pilot runs the serving benchmark of the team's stack on one replica of the first option's
card (the plan's tensor-parallel group, at the plan's concurrency per replica). Its figures
replace the estimates for that card and stack: the throughput per replica sets the replica
count, the measured latency decides whether the target holds. Pure Python, no Django.

The benchmark's own output is parsed by `parse`, which tells the formats apart by their keys
(tests/engine/data/README.md names the writer of each recorded sample):

- vLLM-style JSON, `parse_vllm`: the file `vllm bench serve --save-result` (vllm-project/vllm,
  vllm/benchmarks/serve.py; benchmarks/benchmark_serving.py before it) writes, and TensorRT-LLM's
  copy of it (`python -m tensorrt_llm.serve.scripts.benchmark_serving --save-result`): the run's
  settings (`date`, `backend`, `model_id`, `max_concurrency`, ...) merged with its metrics
  (`completed`, `request_throughput`, `output_throughput`, `mean_ttft_ms`, `mean_tpot_ms`,
  `mean_e2el_ms` and `p<N>_*_ms` for each of `--metric-percentiles`).
- SGLang JSONL, `_parse_sglang`: `python -m sglang.bench_serving` appends one JSON line per run to
  `--output-file` (sgl-project/sglang, python/sglang/bench_serving.py): `max_concurrency`,
  `completed`, `request_throughput`, `output_throughput`, `mean_ttft_ms`, `p99_ttft_ms`,
  `mean_tpot_ms`, `p99_tpot_ms`, `mean_e2e_latency_ms`, `p99_e2e_latency_ms`; no date (the run is
  dated the day it is pasted) and, in older versions, no model. Its `backend` names the server
  the run drove: an SGLang server's run is read for an SGLang team only, and an SGLang team's
  run against another engine's server is refused.
- trtllm-bench JSON, `_parse_trtllm_bench`: `trtllm-bench ... throughput --streaming
  --report_json` (NVIDIA/TensorRT-LLM, tensorrt_llm/bench/dataclasses/reporting.py
  get_statistics_dict): `engine.model`, `request_info.num_requests` and
  `avg_num_concurrent_requests`, `performance.request_throughput_req_s` and
  `system_output_throughput_tok_s`, `streaming_metrics.ttft_percentiles` / `tpot_percentiles`
  (ms; p50 ... p99, average), `performance.request_latency_percentiles_ms`.
- GenAI-Perf CSV, `_parse_genai_perf_csv`: `profile_export_genai_perf.csv`
  (triton-inference-server/perf_analyzer, genai-perf/genai_perf/export_data/csv_exporter.py), the
  client NVIDIA documents for TensorRT-LLM and Triton: a table `Metric,avg,min,max,p99,p95,...`
  (values with thousands commas), a blank row, then `Metric,Value` for the throughputs. It
  records neither the concurrency (the caller passes the one the team typed) nor a date.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from advisor.engine.answers import Inference
    from advisor.engine.throughput import ServingPlan

# Largest benchmark output accepted (a --save-result file without --save-detailed is a few KB;
# with per-request detail it grows with the prompts, which the plan does not need).
MAX_BYTES = 512 * 1024


@dataclass(frozen=True, slots=True)
class Measurement:
    """One benchmark run on one replica of `accelerator_id` with the `serving` stack."""

    accelerator_id: str
    serving: str
    model_id: str
    concurrency: int
    output_tokens_per_s: float
    request_throughput: float
    ttft_ms: float | None  # the percentile matching the target (p95, else p99), else mean
    tpot_ms: float | None
    e2el_ms: float | None
    percentile: str  # "p95", "p99" or "mean": which figure the latencies are
    measured_on: str  # ISO date of the run (the day it was pasted when the file has none)
    source: str  # the file name (or "pasted")
    tool: str = "vllm"  # which writer's format it was read from (FORMATS)


@dataclass(frozen=True, slots=True)
class ParseProblem:
    """A code (engine i18n, `measured.<code>`) and its field."""

    code: str
    field: str = ""


class MeasurementError(ValueError):
    def __init__(self, problems: list[ParseProblem]) -> None:
        super().__init__(", ".join(f"{p.code}:{p.field}" for p in problems))
        self.problems = problems


_REQUIRED_NUMBERS = ("request_throughput", "output_throughput", "mean_ttft_ms", "mean_tpot_ms")
# The formats `parse` reads, in the order it tries them (engine i18n `measured.tool.<name>`).
FORMATS = ("vllm", "sglang", "trtllm_bench", "genai_perf_csv")


def _number(doc: dict[str, Any], key: str) -> float | None:
    value = doc.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    value = float(value)
    return value if math.isfinite(value) and value >= 0 else None


def _latency(doc: dict[str, Any], metric: str) -> tuple[float | None, str]:
    for pct in ("p95", "p99"):
        value = _number(doc, f"{pct}_{metric}_ms")
        if value is not None:
            return value, pct
    return _number(doc, f"mean_{metric}_ms"), "mean"


def parse_vllm(raw: bytes | str, *, accelerator_id: str, serving: str, source: str) -> Measurement:
    """The measurement a vLLM serving benchmark result holds; MeasurementError naming every
    problem otherwise (not JSON, not that benchmark's result, a figure missing or not a
    number, no concurrency, nothing completed)."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_BYTES:
        raise MeasurementError([ParseProblem("too_large")])
    if not size:
        raise MeasurementError([ParseProblem("empty")])
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise MeasurementError([ParseProblem("not_json")]) from None
    if not isinstance(doc, dict):
        raise MeasurementError([ParseProblem("not_vllm")])
    problems: list[ParseProblem] = []
    if not any(k in doc for k in (*_REQUIRED_NUMBERS, "model_id", "max_concurrency")):
        raise MeasurementError([ParseProblem("not_vllm")])
    for key in _REQUIRED_NUMBERS:
        if key not in doc:
            problems.append(ParseProblem("missing", key))
        elif _number(doc, key) is None:
            problems.append(ParseProblem("not_number", key))
    model_id = doc.get("model_id")
    if not isinstance(model_id, str) or not model_id.strip():
        problems.append(ParseProblem("missing", "model_id"))
    concurrency = doc.get("max_concurrency")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        # Without --max-concurrency the run sent every request at once: no per-replica load.
        problems.append(ParseProblem("no_concurrency", "max_concurrency"))
    completed = doc.get("completed")
    if isinstance(completed, int) and not isinstance(completed, bool) and completed < 1:
        problems.append(ParseProblem("nothing_completed", "completed"))
    day = _day(doc.get("date")) or ""  # vLLM writes %Y%m%d-%H%M%S
    if not day:
        problems.append(ParseProblem("missing", "date"))
    if problems:
        raise MeasurementError(problems)
    ttft, pct = _latency(doc, "ttft")
    tpot, _ = _latency(doc, "tpot")
    e2el, _ = _latency(doc, "e2el")
    return Measurement(
        accelerator_id=accelerator_id,
        serving=serving,
        model_id=str(model_id),
        concurrency=int(cast(int, concurrency)),
        output_tokens_per_s=float(doc["output_throughput"]),
        request_throughput=float(doc["request_throughput"]),
        ttft_ms=ttft,
        tpot_ms=tpot,
        e2el_ms=e2el,
        percentile=pct,
        measured_on=day,
        source=source,
    )


def _int_at_least_one(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return value


def _day(date: Any) -> str | None:
    """`%Y%m%d-%H%M%S` (vLLM's `date`) as an ISO day; None when it is not that."""
    if isinstance(date, str) and len(date) >= 8 and date[:8].isdigit():
        return f"{date[:4]}-{date[4:6]}-{date[6:8]}"
    return None


def _text(raw: bytes | str) -> str:
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_BYTES:
        raise MeasurementError([ParseProblem("too_large")])
    try:
        text = raw.decode() if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise MeasurementError([ParseProblem("not_json")]) from None
    if not text.strip():
        raise MeasurementError([ParseProblem("empty")])
    return text.lstrip("\ufeff").strip()


def _json_docs(text: str) -> list[Any]:
    """One JSON document, or the lines of a JSONL file (SGLang appends one line per run)."""
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    lines = [line for line in text.splitlines() if line.strip()]
    docs = []
    for number, line in enumerate(lines, 1):
        try:
            docs.append(json.loads(line))
        except ValueError:
            if len(lines) == 1 or number == 1:
                raise MeasurementError([ParseProblem("not_json")]) from None
            raise MeasurementError([ParseProblem("bad_line", str(number))]) from None
    return docs


def parse(
    raw: bytes | str,
    *,
    accelerator_id: str,
    serving: str,
    source: str,
    today: str,
    concurrency: int | None = None,
) -> Measurement:
    """The measurement a serving benchmark's own output holds, whichever of FORMATS it is in;
    MeasurementError naming every problem otherwise. `today` (ISO) dates a run whose file has no
    date; `concurrency` is the one the team says the run used, read only from a format that does
    not record it (GenAI-Perf's CSV)."""
    text = _text(raw)
    if text.startswith("Metric,") or text.startswith('"Metric",'):
        return _parse_genai_perf_csv(
            text,
            accelerator_id=accelerator_id,
            serving=serving,
            source=source,
            today=today,
            concurrency=concurrency,
        )
    docs = _json_docs(text)
    # SGLang's file gathers every run at the same path: the last line is the newest run.
    doc = docs[-1]
    if not isinstance(doc, dict) or (len(docs) > 1 and not all(isinstance(d, dict) for d in docs)):
        raise MeasurementError([ParseProblem("unknown_format")])
    args = {"accelerator_id": accelerator_id, "serving": serving, "source": source}
    if isinstance(doc.get("performance"), dict) and (
        "engine" in doc or "request_info" in doc or "world_info" in doc
    ):
        return _parse_trtllm_bench(doc, today=today, **args)
    if any(k in doc for k in ("mean_e2e_latency_ms", "median_e2e_latency_ms", "accept_length")):
        return _parse_sglang(doc, today=today, **args)
    if len(docs) == 1 and any(
        k in doc for k in (*_REQUIRED_NUMBERS, "model_id", "max_concurrency")
    ):
        return parse_vllm(text, **args)
    raise MeasurementError([ParseProblem("unknown_format")])


def _require(
    doc: dict[str, Any], keys: tuple[str, ...], problems: list[ParseProblem], prefix: str = ""
) -> None:
    for key in keys:
        if key not in doc:
            problems.append(ParseProblem("missing", prefix + key))
        elif _number(doc, key) is None:
            problems.append(ParseProblem("not_number", prefix + key))


# sglang.bench_serving's --backend names the server the run drove (ASYNC_REQUEST_FUNCS in
# python/sglang/bench_serving.py, 0033168f; sgl-jax in SGLang-JAX's copy): SGLang's own, or
# another engine's (vllm, lmdeploy, trt: Triton's TensorRT-LLM ensemble, truss, gserver). A run
# of one stack's server never stands in for another stack's estimates.
_SGLANG_SERVERS = frozenset({"sglang", "sglang-native", "sglang-oai", "sglang-oai-chat", "sgl-jax"})
_OTHER_SERVERS = frozenset(
    {"vllm", "vllm-chat", "lmdeploy", "lmdeploy-chat", "trt", "truss", "gserver"}
)


def _server_problem(doc: dict[str, Any], serving: str) -> ParseProblem | None:
    backend = doc.get("backend")
    if not isinstance(backend, str):
        return None
    if (backend in _SGLANG_SERVERS and serving != "sglang") or (
        backend in _OTHER_SERVERS and serving == "sglang"
    ):
        return ParseProblem("other_server", backend)
    return None


def _parse_sglang(
    doc: dict[str, Any], *, accelerator_id: str, serving: str, source: str, today: str
) -> Measurement:
    problems: list[ParseProblem] = []
    other = _server_problem(doc, serving)
    if other is not None:
        problems.append(other)
    _require(doc, _REQUIRED_NUMBERS, problems)
    concurrency = _int_at_least_one(doc.get("max_concurrency"))
    if concurrency is None:
        # Without --max-concurrency every request was sent at once: no per-replica load.
        problems.append(ParseProblem("no_concurrency", "max_concurrency"))
    completed = doc.get("completed")
    if isinstance(completed, int) and not isinstance(completed, bool) and completed < 1:
        problems.append(ParseProblem("nothing_completed", "completed"))
    if problems:
        raise MeasurementError(problems)
    p99 = _number(doc, "p99_ttft_ms")
    model = doc.get("model_id")
    return Measurement(
        accelerator_id=accelerator_id,
        serving=serving,
        model_id=model if isinstance(model, str) else "",
        concurrency=int(cast(int, concurrency)),
        output_tokens_per_s=float(doc["output_throughput"]),
        request_throughput=float(doc["request_throughput"]),
        ttft_ms=p99 if p99 is not None else _number(doc, "mean_ttft_ms"),
        tpot_ms=_number(doc, "p99_tpot_ms") or _number(doc, "mean_tpot_ms"),
        e2el_ms=_number(doc, "p99_e2e_latency_ms") or _number(doc, "mean_e2e_latency_ms"),
        percentile="p99" if p99 is not None else "mean",
        measured_on=_day(doc.get("date")) or today,
        source=source,
        tool="sglang",
    )


def _percentile(stats: Any) -> tuple[float | None, str]:
    if not isinstance(stats, dict):
        return None, "mean"
    for pct in ("p95", "p99"):
        if (value := _number(stats, pct)) is not None:
            return value, pct
    return _number(stats, "average"), "mean"


def _section(doc: dict[str, Any], key: str) -> dict[str, Any]:
    value = doc.get(key)
    return value if isinstance(value, dict) else {}


def _parse_trtllm_bench(
    doc: dict[str, Any], *, accelerator_id: str, serving: str, source: str, today: str
) -> Measurement:
    problems: list[ParseProblem] = []
    perf = doc["performance"]
    _require(
        perf,
        ("request_throughput_req_s", "system_output_throughput_tok_s"),
        problems,
        "performance.",
    )
    info = _section(doc, "request_info")
    num_requests = info.get("num_requests")
    if "num_requests" not in info:
        problems.append(ParseProblem("missing", "request_info.num_requests"))
    elif _int_at_least_one(num_requests) is None:
        problems.append(ParseProblem("nothing_completed", "request_info.num_requests"))
    average = _number(info, "avg_num_concurrent_requests")
    if average is None or average < 0.5:
        problems.append(ParseProblem("missing", "request_info.avg_num_concurrent_requests"))
    streaming = doc.get("streaming_metrics")
    if not isinstance(streaming, dict):
        # Without --streaming trtllm-bench measures neither time to first token nor per token.
        problems.append(ParseProblem("no_streaming", "streaming_metrics"))
        streaming = {}
    else:
        _require(streaming, ("avg_ttft_ms", "avg_tpot_ms"), problems, "streaming_metrics.")
    if problems:
        raise MeasurementError(problems)
    ttft, pct = _percentile(streaming.get("ttft_percentiles"))
    tpot, _ = _percentile(streaming.get("tpot_percentiles"))
    e2el, _ = _percentile(perf.get("request_latency_percentiles_ms"))
    engine = _section(doc, "engine")
    model = engine.get("model")
    return Measurement(
        accelerator_id=accelerator_id,
        serving=serving,
        model_id=model if isinstance(model, str) else "",
        # trtllm-bench records the concurrency it kept up on average, not the --concurrency cap.
        concurrency=max(1, round(cast(float, average))),
        output_tokens_per_s=float(perf["system_output_throughput_tok_s"]),
        request_throughput=float(perf["request_throughput_req_s"]),
        ttft_ms=ttft if ttft is not None else _number(streaming, "avg_ttft_ms"),
        tpot_ms=tpot if tpot is not None else _number(streaming, "avg_tpot_ms"),
        e2el_ms=e2el,
        percentile=pct,
        measured_on=today,
        source=source,
        tool="trtllm_bench",
    )


# GenAI-Perf's metric names, without their unit (" (ms)", " (per sec)", " (tokens/sec)").
_CSV_TTFT = "time to first token"
_CSV_ITL = "inter token latency"
_CSV_LATENCY = "request latency"
_CSV_OUTPUT = "output token throughput"
_CSV_REQUESTS = "request throughput"


def _parse_genai_perf_csv(
    text: str,
    *,
    accelerator_id: str,
    serving: str,
    source: str,
    today: str,
    concurrency: int | None,
) -> Measurement:
    stats: dict[str, dict[str, str]] = {}
    header: list[str] = []
    for row in csv.reader(io.StringIO(text)):
        if not row or not any(cell.strip() for cell in row):
            header = []
            continue
        if row[0].strip() == "Metric":
            header = [cell.strip().lower() for cell in row]
            continue
        name = row[0].split(" (")[0].strip().lower()
        if header and name not in stats:
            stats[name] = dict(zip(header[1:], (cell.strip() for cell in row[1:]), strict=False))

    def value(metric: str, column: str, problems: list[ParseProblem] | None) -> float | None:
        cell = stats.get(metric, {}).get(column)
        if cell is None:
            if problems is not None:
                problems.append(ParseProblem("missing", f"{metric} ({column})"))
            return None
        try:
            number = float(cell.replace(",", ""))
        except ValueError:
            number = -1.0
        if not math.isfinite(number) or number < 0:
            if problems is not None:
                problems.append(ParseProblem("not_number", f"{metric} ({column})"))
            return None
        return number

    problems: list[ParseProblem] = []
    if not stats:
        raise MeasurementError([ParseProblem("unknown_format")])
    output = value(_CSV_OUTPUT, "value", problems)
    requests = value(_CSV_REQUESTS, "value", problems)
    ttft_avg = value(_CSV_TTFT, "avg", problems)
    itl_avg = value(_CSV_ITL, "avg", problems)
    if concurrency is None or concurrency < 1:
        problems.append(ParseProblem("csv_concurrency", "concurrency"))
    if problems:
        raise MeasurementError(problems)
    ttft = value(_CSV_TTFT, "p95", None)
    return Measurement(
        accelerator_id=accelerator_id,
        serving=serving,
        model_id="",
        concurrency=int(cast(int, concurrency)),
        output_tokens_per_s=cast(float, output),
        request_throughput=cast(float, requests),
        ttft_ms=ttft if ttft is not None else ttft_avg,
        # GenAI-Perf's inter-token latency is the time per output token after the first.
        tpot_ms=value(_CSV_ITL, "p95", None) or itl_avg,
        e2el_ms=value(_CSV_LATENCY, "p95", None) or value(_CSV_LATENCY, "avg", None),
        percentile="p95" if ttft is not None else "mean",
        measured_on=today,
        source=source,
        tool="genai_perf_csv",
    )


def find(
    measurements: tuple[Measurement, ...], accelerator_id: str, serving: str | None
) -> Measurement | None:
    """The newest measurement for this card and stack (None: the estimates stand)."""
    found = [m for m in measurements if m.accelerator_id == accelerator_id and m.serving == serving]
    return max(found, key=lambda m: m.measured_on) if found else None


def apply(
    plan: ServingPlan,
    m: Measurement,
    inf: Inference,
    demand_tokens_per_s: float,
    rtt_ms: float = 0.0,
) -> tuple[ServingPlan, dict[str, Any]]:
    """`plan` with the measured figures in place of its estimates, and what was replaced.

    The throughput per replica is the measured output rate, scaled to the plan's batch when the
    run used another concurrency (decode reads the weights once per step for the whole batch,
    so the rate grows with the batch; the note says it was scaled). Replicas are recounted as
    throughput.serving_plan counts them; the latency target is checked on the measured figure."""
    tps = m.output_tokens_per_s
    if m.concurrency != plan.batch:
        tps = tps * plan.batch / m.concurrency
    replicas = max(
        math.ceil(inf.concurrent_sequences / plan.batch),
        math.ceil(demand_tokens_per_s / tps) if demand_tokens_per_s > 0 and tps > 0 else 1,
        1,
    )
    ttft = (m.ttft_ms if m.ttft_ms is not None else plan.ttft_ms - rtt_ms) + rtt_ms
    tpot = m.tpot_ms if m.tpot_ms is not None else plan.tpot_ms
    latency = m.e2el_ms + rtt_ms if m.e2el_ms is not None else ttft + inf.output_tokens * tpot
    metric = {"ttft": ttft, "tpot": tpot}.get(inf.latency_metric, latency)
    target = inf.p95_latency_ms
    measured = dataclasses.replace(
        plan,
        replicas=replicas,
        tokens_per_second=tps,
        tpot_ms=tpot,
        ttft_ms=ttft,
        latency_ms=latency,
        metric_ms=metric,
        meets=target is None or metric <= target + 1e-9,
    )
    doc = {
        "source": m.source,
        "tool": m.tool,
        "measured_on": m.measured_on,
        "model_id": m.model_id,
        "serving": m.serving,
        "concurrency": m.concurrency,
        "scaled_to_batch": m.concurrency != plan.batch,
        "percentile": m.percentile,
        "fields": ["tokens_per_second_per_replica", "tpot_ms", "ttft_ms", "latency_at_metric_ms"],
        "estimated": {
            "tokens_per_second_per_replica": round(plan.tokens_per_second, 1),
            "tpot_ms": round(plan.tpot_ms, 2),
            "ttft_ms": round(plan.ttft_ms, 1),
            "replicas": plan.replicas,
            "meets_latency": plan.meets,
        },
    }
    return measured, doc
