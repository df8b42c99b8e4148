"""A pilot that proves the plan. For each workload's first option (and the
runner-up when its cost to result is within the catalog's rank_cost_tolerance), the result says
what to rent for how long, the benchmark to run for the team's stack at the team's lengths and
concurrency, and a pass line for each figure the plan assumed."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import advisor.engine
from advisor.engine import Catalog, ScoringModel, load_catalog
from advisor.engine.result.evaluate import evaluate
from advisor.engine.sizing.measured import parse
from tests.engine.conftest import DELETE, sample

DATA = Path(__file__).parent / "data"

SERVING = sample(
    **{
        "workloads": [{"kind": "realtime_inference", "schedule": "continuous"}],
        "training": DELETE,
        "model.preset": "qwen2.5-7b",
        "inference.prompt_tokens": 5120,
        "inference.output_tokens": 1024,
        "inference.concurrent_sequences": 24,
        "inference.p95_latency_ms": 40000,
    }
)
TRAINING = sample(
    **{
        "workloads": [{"kind": "fine_tuning", "schedule": "weekly"}],
        "inference": DELETE,
        "training.micro_batch_size": 2,
        "training.sequence_length": 8192,
    }
)


def _workload(doc: Any, kind: str) -> dict[str, Any]:
    return next(w for w in doc["workloads"] if w["kind"] == kind)


def _checks(run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["figure"]: c for c in run["checks"]}


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_a_serving_team_gets_the_vllm_benchmark_at_its_lengths_and_concurrency(
    catalog: Catalog, scoring: ScoringModel, lang: str
) -> None:
    doc = evaluate(SERVING, catalog, scoring, lang=lang)
    w = _workload(doc, "realtime_inference")
    first = w["options"][0]
    run = w["pilot"]["runs"][0]
    assert run["role"] == "first" and run["accelerator_id"] == first["accelerator_id"]
    tp, batch = first["tensor_parallel"], first["batch_per_replica"]
    server, *bench = run["commands"]
    assert server.startswith("vllm serve Qwen/Qwen2.5-7B ")
    assert f"--tensor-parallel-size {tp} " in server and "--max-model-len 6144" in server
    assert len(bench) == len({1, batch // 2, batch}) and f"--max-concurrency {batch} " in bench[-1]
    for line in bench:
        assert line.startswith("vllm bench serve --backend vllm --model Qwen/Qwen2.5-7B ")
        assert "--dataset-name random --random-input-len 5120 --random-output-len 1024" in line
    # One replica's tensor-parallel group, in whole units of the offer rented by the hour.
    rent = run["rent"]
    assert rent["billing"] in ("on_demand", "flex_start", "spot")
    assert rent["devices"] >= tp and rent["devices"] == rent["units"] * rent["gpus_per_unit"]
    assert rent["usd"] == pytest.approx(
        rent["hours"] * rent["units"] * rent["usd_per_unit_hour"], abs=0.01
    )
    assert rent["hours"] == 4 and rent["estimated"] is True and rent["source"]
    # Pass lines derive from the option's own figures and the catalog's safety share.
    share = float(catalog.rule("target_safety_share"))
    checks = _checks(run)
    tps = checks["tokens_per_second_per_replica"]
    assert tps["assumed"] == pytest.approx(first["tokens_per_second_per_replica"], abs=0.01)
    assert tps["pass_if"] == ">=" and tps["line"] == pytest.approx(
        tps["assumed"] * (1 - share), abs=0.01
    )
    # On the server: the time to first token less the network time the plan counted for the
    # users (the benchmark never sees it), which is a line of its own.
    rtt = first.get("round_trip_ms") or 0.0
    for figure, server in (("ttft_ms", first["ttft_ms"] - rtt), ("tpot_ms", first["tpot_ms"])):
        assert checks[figure]["assumed"] == pytest.approx(server, abs=0.01)
        assert checks[figure]["line"] == pytest.approx(server * (1 + share), abs=0.01)
    assert checks["latency.whole_response"]["line"] == pytest.approx(40000 - rtt)
    said = {"en": "pass line", "zh-hant": "合格線"}[lang]
    assert said in w["pilot"]["summary"]
    assert (
        checks["ttft_ms"]["label"]
        == {"en": "Time to first token", "zh-hant": "首個 token 時間"}[lang]
    )


def test_a_tgi_team_gets_the_tgi_server_and_the_tgi_backend(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = evaluate(
        {**SERVING, "frameworks": {**SERVING["frameworks"], "serving": "tgi"}}, catalog, scoring
    )
    run = _workload(doc, "realtime_inference")["pilot"]["runs"][0]
    assert run["commands"][0].startswith("text-generation-launcher --model-id Qwen/Qwen2.5-7B ")
    assert "--max-total-tokens 6144" in run["commands"][0]
    assert all("--backend tgi " in c for c in run["commands"][1:])


def test_a_tensorrt_llm_team_gets_trtllm_serve_and_a_client_whose_result_is_read(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    answers = {**SERVING, "frameworks": {**SERVING["frameworks"], "serving": "tensorrt_llm"}}
    doc = evaluate(answers, catalog, scoring)
    run = _workload(doc, "realtime_inference")["pilot"]["runs"][0]
    server, *bench = run["commands"]
    assert server.startswith("trtllm-serve Qwen/Qwen2.5-7B --tp_size ")
    recorded = json.loads((DATA / "trtllm_benchmark_serving_h100.json").read_text())
    for line in bench:
        assert line.startswith(
            "python -m tensorrt_llm.serve.scripts.benchmark_serving --backend openai "
            "--model Qwen/Qwen2.5-7B --dataset-name random --random-ids "
        )
        assert "--metric-percentiles 50,95" in line and "--save-result" in line
        # The file this line saves (its --max-concurrency in the client's result) is accepted.
        level = int(line.split("--max-concurrency ")[1].split()[0])
        m = parse(
            json.dumps(recorded | {"max_concurrency": level}),
            accelerator_id=run["accelerator_id"],
            serving="tensorrt_llm",
            source=line.split("--result-filename ")[1],
            today="2026-12-02",
        )
        assert (m.concurrency, m.percentile) == (level, "p95")


SGLANG = {**SERVING, "frameworks": {**SERVING["frameworks"], "serving": "sglang"}}


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_an_sglang_team_gets_sglangs_server_and_client_whose_jsonl_is_read(
    catalog: Catalog, scoring: ScoringModel, lang: str
) -> None:
    w = _workload(evaluate(SGLANG, catalog, scoring, lang=lang), "realtime_inference")
    first = w["options"][0]
    run = w["pilot"]["runs"][0]
    assert run["stack"] == "sglang" and run["accelerator_id"] == first["accelerator_id"]
    tp, batch = first["tensor_parallel"], first["batch_per_replica"]
    server, *bench = run["commands"]
    # python/sglang/srt/server_args.py (001067ff): --model-path, --tp-size, --context-length,
    # --max-running-requests.
    assert server == (
        f"python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B --tp-size {tp} "
        f"--context-length 6144 --max-running-requests {batch}"
    )
    levels = sorted({1, max(1, batch // 2), batch})
    assert len(bench) == len(levels)
    recorded = (DATA / "sglang_bench_serving_h100.jsonl").read_text().splitlines()[-1]
    for level, line in zip(levels, bench, strict=True):
        # python/sglang/bench_serving.py (0033168f); range ratio 1 keeps the team's lengths.
        assert line == (
            "python -m sglang.bench_serving --backend sglang --model Qwen/Qwen2.5-7B "
            "--dataset-name random --random-input-len 5120 --random-output-len 1024 "
            f"--random-range-ratio 1 --max-concurrency {level} --num-prompts {10 * level} "
            f"--output-file pilot-c{level}.jsonl"
        )
        # The line the client appends to that file is read, at that concurrency, for SGLang.
        m = parse(
            json.dumps(json.loads(recorded) | {"max_concurrency": level}) + "\n",
            accelerator_id=run["accelerator_id"],
            serving="sglang",
            source=line.split("--output-file ")[1],
            today="2026-12-02",
        )
        assert (m.tool, m.serving, m.concurrency, m.percentile) == (
            "sglang",
            "sglang",
            level,
            "p99",
        )
    # The pass lines are the other stacks': the option's own figures and the safety share.
    share = float(catalog.rule("target_safety_share"))
    checks = _checks(run)
    assert set(checks) == {
        "tokens_per_second_per_replica",
        "ttft_ms",
        "tpot_ms",
        "latency.whole_response",
        "network_round_trip_ms",
    }
    tps = checks["tokens_per_second_per_replica"]
    assert tps["assumed"] == pytest.approx(first["tokens_per_second_per_replica"], abs=0.01)
    assert tps["line"] == pytest.approx(tps["assumed"] * (1 - share), abs=0.01)
    rtt = first["round_trip_ms"]
    for figure, server in (("ttft_ms", first["ttft_ms"] - rtt), ("tpot_ms", first["tpot_ms"])):
        assert checks[figure]["line"] == pytest.approx(server * (1 + share), abs=0.01)
    assert checks["latency.whole_response"]["line"] == pytest.approx(40000 - rtt)
    assert {"en": "pass line", "zh-hant": "合格線"}[lang] in w["pilot"]["summary"]


def test_a_jax_team_serving_with_sglang_on_google_cloud_gets_sglang_jax(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # On a TPU SGLang is SGLang-JAX (docs/platforms/tpu.md at 10c578e3): its own server, with
    # --device tpu, and its own copy of the client, which writes the same JSONL.
    doc = {
        **SGLANG,
        "organization": {**SGLANG["organization"], "regions": ["us_east"]},
        "frameworks": {**SGLANG["frameworks"], "primary": "jax"},
        "maturity": {**SGLANG["maturity"], "stack_changes": "rarely"},
        "deployment": {
            **SGLANG["deployment"],
            "allowed_modes": ["public_cloud"],
            "clouds": ["gcp"],
            "china_connectivity": False,
        },
    }
    run = _workload(evaluate(doc, catalog, scoring), "realtime_inference")["pilot"]["runs"][0]
    assert run["accelerator_id"] == "tpu-v6e"
    server, *bench = run["commands"]
    tp, batch = run["settings"]["tensor_parallel"], run["settings"]["batch_per_replica"]
    assert server == (
        f"python -m sgl_jax.launch_server --model-path Qwen/Qwen2.5-7B --tp-size {tp} "
        f"--device tpu --dtype bfloat16 --context-length 6144 --max-running-requests {batch}"
    )
    assert bench[-1] == (
        "python -m sgl_jax.bench_serving --backend sgl-jax --model Qwen/Qwen2.5-7B "
        "--dataset-name random --random-input-len 5120 --random-output-len 1024 "
        f"--random-range-ratio 1 --max-concurrency {batch} --num-prompts {10 * batch} "
        f"--output-file pilot-c{batch}.jsonl"
    )


def test_the_model_repository_comes_from_the_presets(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    presets = json.loads(
        (Path(advisor.engine.__file__).parent / "data" / "presets.json").read_text()
    )["presets"]
    assert all(p["hf_id"] for p in presets)
    data = catalog.to_dict()
    data["model_presets"] = [
        p | {"hf_id": "acme/qwen-mirror"} if p["id"] == "qwen2.5-7b" else p for p in presets
    ]
    doc = evaluate(SERVING, load_catalog(data), scoring)
    server, *_ = _workload(doc, "realtime_inference")["pilot"]["runs"][0]["commands"]
    assert server.startswith("vllm serve acme/qwen-mirror ")
    # An admin catalog's preset rows carry no repository: the bundled preset's stands.
    data["model_presets"] = [{k: v for k, v in p.items() if k != "hf_id"} for p in presets]
    doc = evaluate(SERVING, load_catalog(data), scoring)
    server, *_ = _workload(doc, "realtime_inference")["pilot"]["runs"][0]["commands"]
    assert server.startswith("vllm serve Qwen/Qwen2.5-7B ")


def test_a_training_team_gets_a_short_run_at_its_sequence_length_and_micro_batch(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = evaluate(TRAINING, catalog, scoring)
    w = _workload(doc, "fine_tuning")
    first = w["options"][0]
    run = w["pilot"]["runs"][0]
    (command,) = run["commands"]
    devices = run["rent"]["devices"]
    assert command.startswith(
        f"torchrun --nproc_per_node={devices} train.py --model meta-llama/Meta-Llama-3-8B "
    )
    for flag in (
        "--method lora",
        "--lora-rank 16",
        "--precision bf16",
        "--micro-batch-size 2",
        "--seq-len 8192",
    ):
        assert flag in command
    assert devices >= first["min_count"] and run["rent"]["hours"] == 2
    # The plan's throughput per device: peak at its MFU over the FLOPs per token of the run.
    tokens = TRAINING["training"]["dataset_tokens"] * TRAINING["training"]["epochs"]
    per_token = doc["sizing"]["training"]["flops"]["total"] / tokens
    assumed = first["peak_tflops_per_device"] * 1e12 * first["mfu"] / per_token
    share = float(catalog.rule("target_safety_share"))
    checks = _checks(run)
    assert checks["tokens_per_second_per_device"]["assumed"] == pytest.approx(assumed, abs=0.01)
    assert checks["tokens_per_second_per_device"]["line"] == pytest.approx(
        assumed * (1 - share), abs=0.01
    )
    peak = doc["sizing"]["training"]["memory_gib"]["total"] / first["min_count"]
    assert checks["peak_memory_gib_per_device"]["line"] == pytest.approx(
        peak * (1 + share), abs=0.01
    )
    # The step count fills about an hour at the plan's throughput.
    steps = run["settings"]["steps"]
    assert f"--max-steps {steps}" in command
    assert math.isclose(steps * 2 * 8192 * devices / (assumed * devices), 3600, rel_tol=0.01)


def test_the_runner_up_is_piloted_only_when_its_cost_is_close(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = evaluate(TRAINING, catalog, scoring)
    w = _workload(doc, "fine_tuning")
    a, b = (o["cost_to_result"]["usd"] for o in w["options"][:2])
    assert b > a * 1.25  # the sample's runner-up costs more than 25% more: not close
    assert [r["role"] for r in w["pilot"]["runs"]] == ["first"]
    data = catalog.to_dict()
    data["rules"]["rank_cost_tolerance"]["value"] = b / a - 1 + 0.01
    wide = load_catalog(data)
    w = _workload(evaluate(TRAINING, wide, scoring), "fine_tuning")
    runs = w["pilot"]["runs"]
    assert [r["role"] for r in runs] == ["first", "runner_up"]
    assert [r["accelerator_id"] for r in runs] == [o["accelerator_id"] for o in w["options"][:2]]


# The walk: a pilot of the operator's 8 x H100 server in Hong Kong, sold by the month, said "rent
# 1 unit for 4 hours: $65.75" (its month price over 730 hours), and its time-to-first-token and
# latency lines counted the network round trip that `vllm bench serve` on the server never sees.
CHINA_SERVING = sample(
    **{
        "workloads": [{"kind": "realtime_inference", "schedule": "continuous"}],
        "training": DELETE,
        "model.preset": "qwen2.5-7b",
        "organization.regions": ["hong_kong", "mainland_china"],
        "deployment.allowed_modes": ["dedicated_hosting"],
        "inference.p95_latency_ms": 40000,
    }
)


def _monthly_house(catalog: Catalog, **server: Any) -> Catalog:
    from tests.engine.test_house_offers import _house, _with

    row = _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=1500)
    row["server"] = {**row["server"], **server}
    return _with(catalog, row)


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_a_server_sold_by_the_month_is_piloted_on_its_monthly_terms(
    catalog: Catalog, scoring: ScoringModel, lang: str
) -> None:
    doc = evaluate(CHINA_SERVING, _monthly_house(catalog), scoring, lang=lang)
    w = _workload(doc, "realtime_inference")
    assert w["options"][0]["billing_used"] == "monthly"
    rent = w["pilot"]["runs"][0]["rent"]
    assert (rent["terms"], rent["billing"], rent["months"]) == ("monthly", "monthly", 1)
    # A month of the whole server at its own price, not 4 hours at a month's price / 730.
    assert rent["usd"] == rent["units"] * 8 * 1500 == rent["usd_per_unit_month"] * rent["units"]
    assert rent["trial"] is True and rent["hours"] == 4
    # A minimum term of a year still pilots one month, on trial terms asked of the seller.
    longer = evaluate(CHINA_SERVING, _monthly_house(catalog, min_term_months=12), scoring)
    rent = _workload(longer, "realtime_inference")["pilot"]["runs"][0]["rent"]
    assert (rent["months"], rent["min_term_months"], rent["trial"]) == (1, 12, True)
    assert rent["usd"] == rent["units"] * 8 * 1500


def test_hourly_rentals_keep_their_hours(catalog: Catalog, scoring: ScoringModel) -> None:
    rent = _workload(evaluate(SERVING, catalog, scoring), "realtime_inference")["pilot"]["runs"][0][
        "rent"
    ]
    assert rent["terms"] == "hourly" and "months" not in rent


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_the_latency_lines_are_what_the_benchmark_on_the_server_measures(
    catalog: Catalog, scoring: ScoringModel, lang: str
) -> None:
    doc = evaluate(CHINA_SERVING, _monthly_house(catalog), scoring, lang=lang)
    w = _workload(doc, "realtime_inference")
    first, run = w["options"][0], w["pilot"]["runs"][0]
    rtt = first["round_trip_ms"]
    assert rtt > 0  # users in mainland China, served from Hong Kong
    share = float(catalog.rule("target_safety_share"))
    checks = _checks(run)
    # The server's share of the time to first token, with the safety share on it.
    assert checks["ttft_ms"]["assumed"] == pytest.approx(first["ttft_ms"] - rtt, abs=0.01)
    assert checks["ttft_ms"]["line"] == pytest.approx(
        (first["ttft_ms"] - rtt) * (1 + share), abs=0.01
    )
    # The target less the network time, against the latency the server sees.
    latency = checks["latency.whole_response"]
    assert latency["line"] == pytest.approx(40000 - rtt, abs=0.01)
    assert latency["assumed"] == pytest.approx(first["latency_at_metric_ms"] - rtt, abs=0.01)
    # Time per output token has no network time in it.
    assert checks["tpot_ms"]["assumed"] == pytest.approx(first["tpot_ms"], abs=0.01)
    # The network time is a line of its own, measured apart, and named so in each language.
    network = checks["network_round_trip_ms"]
    assert network["assumed"] == network["line"] == pytest.approx(rtt) and network["apart"]
    number = f"{rtt:,.0f}"
    assert number in checks["ttft_ms"]["basis"] and number in latency["basis"]
    assert {"en": "measured apart", "zh-hant": "另行量測"}[lang] in network["label"]


def test_without_network_time_the_lines_are_the_plans_figures(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    near = sample(
        **{
            "workloads": [{"kind": "realtime_inference", "schedule": "continuous"}],
            "training": DELETE,
            "model.preset": "qwen2.5-7b",
            "organization.regions": ["us_east"],
            "deployment.china_connectivity": False,
            "inference.p95_latency_ms": 40000,
        }
    )
    w = _workload(evaluate(near, catalog, scoring), "realtime_inference")
    first, checks = w["options"][0], _checks(w["pilot"]["runs"][0])
    assert not first.get("round_trip_ms")
    assert "network_round_trip_ms" not in checks
    assert checks["ttft_ms"]["assumed"] == pytest.approx(first["ttft_ms"], abs=0.01)
