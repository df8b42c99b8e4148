"""Serving benchmarks' own output read into a `Measurement`.

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
import datetime
import io
import math
from typing import Any, cast

from advisor.engine import jsonbound
from advisor.engine.sizing.measured.measurement import Measurement, MeasurementError, ParseProblem

# Largest benchmark output accepted (a --save-result file without --save-detailed is a few KB;
# with per-request detail it grows with the prompts, which the plan does not need).
MAX_BYTES = 512 * 1024
# Lines of a JSONL or CSV file read (SGLang appends one line per run; genai-perf's CSV has about
# 20 rows), and the characters of one CSV field (its longest is a metric's name with its unit).
MAX_LINES = 1_000
MAX_CSV_FIELD = 1_000
# The largest concurrency a run may state: the measurement form's own bound on what is typed.
MAX_CONCURRENCY = 100_000


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
    # A byte-order mark is not text: a file of nothing else is empty.
    text = text.lstrip("\ufeff").strip()
    if not text:
        raise MeasurementError([ParseProblem("empty")])
    return text


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
