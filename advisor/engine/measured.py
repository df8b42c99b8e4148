"""Measured serving figures in place of the engine's estimates.

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
import datetime
import io
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from advisor.engine import jsonbound
from advisor.engine import sizing as S

if TYPE_CHECKING:
    from advisor.engine.answers import Inference
    from advisor.engine.catalog import Accelerator
    from advisor.engine.throughput import ServingPlan

# Largest benchmark output accepted (a --save-result file without --save-detailed is a few KB;
# with per-request detail it grows with the prompts, which the plan does not need).
MAX_BYTES = 512 * 1024
# Lines of a JSONL or CSV file read (SGLang appends one line per run; genai-perf's CSV has about
# 20 rows), and the characters of one CSV field (its longest is a metric's name with its unit).
MAX_LINES = 1_000
MAX_CSV_FIELD = 1_000
# The largest concurrency a run may state: the measurement form's own bound on what is typed.
MAX_CONCURRENCY = 100_000


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
    """A code (engine i18n, `measured.<code>`), its field and the figures its message names."""

    code: str
    field: str = ""
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)


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
    try:
        value = float(value)
    except OverflowError:  # an integer beyond a float (the reader bounds its digits too)
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _positive(doc: dict[str, Any], keys: tuple[str, ...], problems: list[ParseProblem]) -> None:
    """A throughput of zero plans no replica: the run measured nothing."""
    for key in keys:
        if _number(doc, key) == 0.0:
            problems.append(ParseProblem("not_positive", key))


def _concurrency(value: Any, problems: list[ParseProblem], key: str = "max_concurrency") -> int:
    found = _int_at_least_one(value)
    if found is None:
        # Without --max-concurrency the run sent every request at once: no per-replica load.
        problems.append(ParseProblem("no_concurrency", key))
        return 0
    if found > MAX_CONCURRENCY:
        problems.append(
            ParseProblem(
                "too_many", key, {"value": jsonbound.shown(str(found)), "limit": MAX_CONCURRENCY}
            )
        )
    return found


def _latency(doc: dict[str, Any], metric: str) -> tuple[float | None, str]:
    for pct in ("p95", "p99"):
        value = _number(doc, f"{pct}_{metric}_ms")
        if value is not None:
            return value, pct
    return _number(doc, f"mean_{metric}_ms"), "mean"


def parse_vllm(
    raw: bytes | str,
    *,
    accelerator_id: str,
    serving: str,
    source: str,
    today: str | None = None,
) -> Measurement:
    """The measurement a vLLM serving benchmark result holds; MeasurementError naming every
    problem otherwise (not JSON, not that benchmark's result, a figure missing or not a
    number, no concurrency, nothing completed, a date that is none or after `today`)."""
    doc = _json_docs(_text(raw))
    if len(doc) != 1 or not isinstance(doc[0], dict):
        raise MeasurementError([ParseProblem("not_vllm")])
    return _parse_vllm(
        doc[0], accelerator_id=accelerator_id, serving=serving, source=source, today=today
    )


def _parse_vllm(
    doc: dict[str, Any], *, accelerator_id: str, serving: str, source: str, today: str | None
) -> Measurement:
    problems: list[ParseProblem] = []
    if not any(k in doc for k in (*_REQUIRED_NUMBERS, "model_id", "max_concurrency")):
        raise MeasurementError([ParseProblem("not_vllm")])
    for key in _REQUIRED_NUMBERS:
        if key not in doc:
            problems.append(ParseProblem("missing", key))
        elif _number(doc, key) is None:
            problems.append(ParseProblem("not_number", key))
    _positive(doc, ("output_throughput", "request_throughput"), problems)
    model_id = doc.get("model_id")
    if not isinstance(model_id, str) or not model_id.strip():
        problems.append(ParseProblem("missing", "model_id"))
    concurrency = _concurrency(doc.get("max_concurrency"), problems)
    completed = doc.get("completed")
    if isinstance(completed, int) and not isinstance(completed, bool) and completed < 1:
        problems.append(ParseProblem("nothing_completed", "completed"))
    day = _day(doc.get("date"), today, problems)  # vLLM writes %Y%m%d-%H%M%S
    if "date" not in doc:
        problems.append(ParseProblem("missing", "date"))
    if problems:
        raise MeasurementError(problems)
    ttft, pct = _latency(doc, "ttft")
    tpot, _ = _latency(doc, "tpot")
    e2el, _ = _latency(doc, "e2el")
    return Measurement(
        accelerator_id=accelerator_id,
        serving=serving,
        model_id=_stored_text(str(model_id)),
        concurrency=concurrency,
        output_tokens_per_s=float(doc["output_throughput"]),
        request_throughput=float(doc["request_throughput"]),
        ttft_ms=ttft,
        tpot_ms=tpot,
        e2el_ms=e2el,
        percentile=pct,
        measured_on=cast(str, day),
        source=source,
    )


def _int_at_least_one(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return value


def _day(date: Any, today: str | None, problems: list[ParseProblem]) -> str | None:
    """`%Y%m%d-%H%M%S` (vLLM's `date`) as an ISO day; None, with a problem, when it is not a
    real date of that form or is after `today` (a run is measured before it is pasted). None,
    without one, when there is no date."""
    if date is None:
        return None
    shown = jsonbound.shown(str(date))
    try:
        if not isinstance(date, str) or len(date) != len("20261201-143012"):
            raise ValueError(date)
        when = datetime.datetime.strptime(date, "%Y%m%d-%H%M%S")
    except ValueError:
        problems.append(ParseProblem("bad_date", "date", {"value": shown}))
        return None
    day = when.date().isoformat()
    if today is not None and day > today:
        problems.append(ParseProblem("future_date", "date", {"value": shown, "today": today}))
        return None
    return day


def _stored_text(text: str) -> str:
    """A name from the file as the database stores it: no NUL, no lone surrogate."""
    return text.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")


def _text(raw: bytes | str) -> str:
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > MAX_BYTES:
        raise MeasurementError([ParseProblem("too_large")])
    try:
        text = raw.decode() if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise MeasurementError([ParseProblem("not_json")]) from None
    if not text.strip():
        raise MeasurementError([ParseProblem("empty")])
    return text.lstrip("\ufeff").strip()


_JSON_CODES = {
    "too_large": "too_large",
    "too_deep": "too_deep",
    "number_too_long": "number_too_long",
    "number_too_large": "bad_number",
    "constant": "bad_number",
    "nul": "nul",
}


def _json_problem(error: jsonbound.JSONBoundError, line: int | None = None) -> ParseProblem:
    params = {k: (f"{v:,}" if isinstance(v, int) else v) for k, v in error.params.items()}
    return ParseProblem(_JSON_CODES[error.code], str(line or 1), params)


def _json_docs(text: str) -> list[Any]:
    """One JSON document, or the lines of a JSONL file (SGLang appends one line per run), each
    read within the bounds the API and the admin imports read JSON with (engine.jsonbound)."""
    try:
        return [jsonbound.load(text, max_bytes=MAX_BYTES, constants=True)]
    except jsonbound.JSONBoundError as error:
        if error.code != "not_json":
            raise MeasurementError([_json_problem(error)]) from None
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_LINES:
        raise MeasurementError([ParseProblem("too_many_lines", "", {"limit": f"{MAX_LINES:,}"})])
    docs = []
    for number, line in enumerate(lines, 1):
        try:
            docs.append(jsonbound.load(line, max_bytes=MAX_BYTES, constants=True))
        except jsonbound.JSONBoundError as error:
            if error.code != "not_json":
                raise MeasurementError([_json_problem(error, number)]) from None
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
        return _parse_vllm(doc, today=today, **args)
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
    _positive(doc, ("output_throughput", "request_throughput"), problems)
    concurrency = _concurrency(doc.get("max_concurrency"), problems)
    completed = doc.get("completed")
    if isinstance(completed, int) and not isinstance(completed, bool) and completed < 1:
        problems.append(ParseProblem("nothing_completed", "completed"))
    day = _day(doc.get("date"), today, problems)
    if problems:
        raise MeasurementError(problems)
    p99 = _number(doc, "p99_ttft_ms")
    model = doc.get("model_id")
    return Measurement(
        accelerator_id=accelerator_id,
        serving=serving,
        model_id=_stored_text(model) if isinstance(model, str) else "",
        concurrency=concurrency,
        output_tokens_per_s=float(doc["output_throughput"]),
        request_throughput=float(doc["request_throughput"]),
        ttft_ms=p99 if p99 is not None else _number(doc, "mean_ttft_ms"),
        tpot_ms=_number(doc, "p99_tpot_ms") or _number(doc, "mean_tpot_ms"),
        e2el_ms=_number(doc, "p99_e2e_latency_ms") or _number(doc, "mean_e2e_latency_ms"),
        percentile="p99" if p99 is not None else "mean",
        measured_on=day or today,
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
    _positive(perf, ("request_throughput_req_s", "system_output_throughput_tok_s"), problems)
    info = _section(doc, "request_info")
    num_requests = info.get("num_requests")
    if "num_requests" not in info:
        problems.append(ParseProblem("missing", "request_info.num_requests"))
    elif _int_at_least_one(num_requests) is None:
        problems.append(ParseProblem("nothing_completed", "request_info.num_requests"))
    average = _number(info, "avg_num_concurrent_requests")
    if average is None or average < 0.5:
        problems.append(ParseProblem("missing", "request_info.avg_num_concurrent_requests"))
    elif average > MAX_CONCURRENCY:
        field_name = "request_info.avg_num_concurrent_requests"
        problems.append(
            ParseProblem(
                "too_many", field_name, {"value": f"{average:,.0f}", "limit": MAX_CONCURRENCY}
            )
        )
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
        model_id=_stored_text(model) if isinstance(model, str) else "",
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
    if text.count("\n") >= MAX_LINES:
        raise MeasurementError([ParseProblem("too_many_lines", "", {"limit": f"{MAX_LINES:,}"})])
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as error:  # a field past the csv module's own limit (131,072 characters)
        code = "csv_field_too_long" if "field larger" in str(error) else "unknown_format"
        raise MeasurementError([ParseProblem(code, "", {"limit": f"{MAX_CSV_FIELD:,}"})]) from None
    for row in rows:
        if any(len(cell) > MAX_CSV_FIELD for cell in row):
            limit = f"{MAX_CSV_FIELD:,}"
            raise MeasurementError([ParseProblem("csv_field_too_long", "", {"limit": limit})])
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
        if number == 0.0 and column == "value":
            if problems is not None:
                problems.append(ParseProblem("not_positive", f"{metric} ({column})"))
            return None
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
    elif concurrency > MAX_CONCURRENCY:
        problems.append(
            ParseProblem(
                "too_many", "concurrency", {"value": concurrency, "limit": MAX_CONCURRENCY}
            )
        )
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


# How far a measured figure may pass the card's own physics before it is refused as no run of
# this card and model. A run legitimately beats the engine's roofline when it reads fewer bytes
# than the plan assumes or makes several tokens per weight read: speculative decoding accepts
# a few draft tokens per step (SGLang records the mean as accept_length), a KV cache or weights
# quantised below the answered precision read half the bytes. A factor of 4 leaves room for
# those together; a figure beyond it is a typo, another card or a forged file.
PLAUSIBLE_FACTOR = 4.0
# A run below 1/1,000 of the card's roofline is no serving run (a throttled or broken one):
# re-planned on it, the plan would buy a thousand times the devices the physics needs.
SLOWEST_SHARE = 1e-3
# The longest latency figure a run may report: an hour for one request's answer.
MAX_LATENCY_MS = 3_600_000.0


@dataclass(frozen=True, slots=True)
class Bounds:
    """What one replica of `devices` cards can do at most for this model, from the card's
    catalog figures (memory bandwidth, the highest dense peak it has, memory) and the model's
    bytes and parameters; `implausible` compares a run with it."""

    card: str
    bandwidth: float  # bytes/s of the replica's memory
    peak: float  # FLOP/s, the replica's highest dense figure
    shape: S.ModelShape
    mem: S.InferenceMemory
    memory_bytes: float  # the replica's device memory
    prompt_tokens: int
    context_tokens: int

    def read_bytes(self, batch: float) -> float:
        """Weight bytes one decode step reads for `batch` sequences (a MoE: the experts used)."""
        experts = self.mem.expert_weight_bytes
        return self.mem.weight_bytes - experts + experts * S.expert_fraction_read(self.shape, batch)

    def max_tokens_per_s(self, concurrency: int) -> float:
        """The roofline: each decode step reads the weights once for the whole batch, and
        makes at most peak / (2 x active parameters) tokens a second."""
        memory = concurrency * self.bandwidth / max(self.read_bytes(concurrency), 1.0)
        compute = self.peak / (2.0 * max(self.shape.active, 1))
        return min(memory, compute)

    def min_tpot_ms(self) -> float:
        """One decode step of one sequence reads the weights it uses once."""
        return self.read_bytes(1) / self.bandwidth * 1000.0

    def min_ttft_ms(self) -> float:
        """The prefill floor: the prompt's 2 x active parameters per token at the card's peak,
        and never less than one read of the weights."""
        compute = 2.0 * self.shape.active * self.prompt_tokens / self.peak
        return max(compute * 1000.0, self.min_tpot_ms())

    def max_concurrency(self) -> float:
        """Sequences of the answered context whose KV cache the memory left by the weights
        holds (at least one: a plan exists only where the model fits)."""
        per_sequence = self.mem.kv_bytes_per_token * self.context_tokens
        free = self.memory_bytes - self.mem.weight_bytes
        if per_sequence <= 0:
            return math.inf
        return max(1.0, free / per_sequence)


def bounds(
    shape: S.ModelShape,
    inf: Inference,
    acc: Accelerator,
    devices: int,
    mem: S.InferenceMemory,
) -> Bounds | None:
    """The physics of one replica of `devices` `acc` cards serving `shape` (None when the
    catalog has no dense peak or bandwidth for the card: nothing to compare with)."""
    peaks = (
        acc.bf16_dense_tflops,
        acc.fp16_dense_tflops,
        acc.fp8_dense_tflops,
        acc.int8_dense_tops,
    )
    peak = max((p for p in peaks if p), default=0.0)
    devices = max(1, devices)
    if peak <= 0 or acc.memory_bw_tbps <= 0:
        return None
    return Bounds(
        card=acc.name,
        bandwidth=devices * acc.memory_bw_tbps * 1e12,
        peak=devices * peak * 1e12,
        shape=shape,
        mem=mem,
        memory_bytes=devices * acc.memory_gb * 1e9,
        prompt_tokens=max(1, inf.prompt_tokens),
        context_tokens=max(1, inf.context_tokens),
    )


def _figure(value: float) -> str:
    return f"{value:,.0f}" if 1000 <= value < 1e9 else f"{value:.3g}"


def implausible(m: Measurement, b: Bounds) -> list[ParseProblem]:
    """Every figure of `m` beyond the card's physics by more than PLAUSIBLE_FACTOR (a
    throughput above the roofline, a first token faster than the prefill floor, a token
    faster than a weight read, a concurrency beyond what the memory holds), below
    SLOWEST_SHARE of the roofline, or a latency beyond MAX_LATENCY_MS; each names its field."""
    problems: list[ParseProblem] = []
    f = PLAUSIBLE_FACTOR
    common = {"card": b.card, "factor": f"{f:g}"}
    held = b.max_concurrency()
    if m.concurrency > held * f:
        bound = {"value": _figure(m.concurrency), "bound": _figure(held)}
        problems.append(ParseProblem("beyond_memory", "max_concurrency", {**common, **bound}))
    # A client's concurrency past what the memory holds queues; the batch stays what fits.
    roofline = b.max_tokens_per_s(min(m.concurrency, max(1, math.ceil(held * f))))
    tps = m.output_tokens_per_s
    shown = {"value": _figure(tps), "bound": _figure(roofline)}
    if not math.isfinite(tps) or tps > roofline * f:
        problems.append(ParseProblem("above_roofline", "output_throughput", {**common, **shown}))
    elif tps < roofline * SLOWEST_SHARE:
        shown["bound"] = _figure(roofline * SLOWEST_SHARE)
        problems.append(ParseProblem("below_floor", "output_throughput", {**common, **shown}))
    if not (0 < m.request_throughput <= tps):
        shown = {"value": _figure(m.request_throughput), "bound": _figure(tps)}
        problems.append(ParseProblem("requests_above_tokens", "request_throughput", shown))
    # Named as vLLM's result names them, with the percentile read (p99_ttft_ms, mean_tpot_ms).
    pct = m.percentile
    floors = (
        (f"{pct}_ttft_ms", m.ttft_ms, b.min_ttft_ms()),
        (f"{pct}_tpot_ms", m.tpot_ms, b.min_tpot_ms()),
        (f"{pct}_e2el_ms", m.e2el_ms, b.min_ttft_ms()),
    )
    for key, value, floor in floors:
        if value is None:
            continue
        if value > MAX_LATENCY_MS:
            limit = {"value": _figure(value), "bound": _figure(MAX_LATENCY_MS)}
            problems.append(ParseProblem("latency_too_long", key, limit))
        elif value < floor / f:
            bound = {"value": _figure(value), "bound": _figure(floor)}
            problems.append(ParseProblem("below_physics", key, {**common, **bound}))
    return problems


def find(
    measurements: tuple[Measurement, ...] | list[Measurement],
    accelerator_id: str,
    serving: str | None,
    within: Bounds | None = None,
) -> Measurement | None:
    """The measurement for this card and stack that the plan applies: the newest run (its
    `measured_on`), of runs of one day the one pasted last (`measurements` are in the order
    they were pasted); only runs within the card's physics when `within` is given (None: the
    estimates stand)."""
    found = [
        (m.measured_on, i, m)
        for i, m in enumerate(measurements)
        if m.accelerator_id == accelerator_id
        and m.serving == serving
        and (within is None or not implausible(m, within))
    ]
    return max(found, key=lambda row: row[:2])[2] if found else None


def index_of(measurements: tuple[Measurement, ...] | list[Measurement], m: Measurement) -> int:
    """The position of `m` itself (the object `find` returned) in `measurements`."""
    return next(i for i in range(len(measurements) - 1, -1, -1) if measurements[i] is m)


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
