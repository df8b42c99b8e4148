"""A pilot that proves the plan.

For a workload's first option, and its runner-up when the runner-up's cost to result is within
the catalog's `rank_cost_tolerance` of the first, the pilot says what to rent and for how long
(the cheapest unit of that offer: one replica's tensor-parallel group for serving, the units one
training replica needs), the exact benchmark to run for the team's stack at the team's lengths
and concurrency, and the figures the plan assumed with a pass line for each: the assumed figure
less the catalog's `target_safety_share` (throughput), or plus it (time to first token, time per
token, peak memory), or the latency target itself. A measurement on the wrong side of a line
means the plan must be re-sized before anything is bought.

Everything comes from the option's own figures, the sizing section and the answers (model,
lengths, concurrency, stack); the pilot's hours are planning estimates and say so.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Mapping
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.text import i18n

# Pilot hours (estimates, marked as such in the document): serving is set-up and weights
# download (1 h), loading and warm-up (about 1 h), then three concurrency levels (about 40
# minutes each); training is set-up and loading (1 h), then a short run of about 1 h.
SERVING_HOURS = 4.0
TRAINING_HOURS = 2.0
TRAINING_RUN_SECONDS = 3600.0
# Requests per concurrency level: ten rounds of the concurrency, so the steady state dominates.
PROMPTS_PER_SLOT = 10

# A model with no Hugging Face repository in the presets (data/presets.json `hf_id`), or a
# custom architecture, is named by a placeholder the team fills in.
CUSTOM_MODEL = "<your-model>"

# `vllm bench serve --backend` for each serving stack (vLLM's benchmark client, which also
# drives TGI; any other stack through its OpenAI-compatible endpoint). TensorRT-LLM is measured
# with its own copy of that client against trtllm-serve's OpenAI endpoint; both save the JSON
# that measured.parse reads.
# Price rows rented by the hour, in order of preference when they cost the same.
_HOURLY = ("on_demand", "flex_start", "spot")
_BACKENDS = {"vllm": "vllm", "tgi": "tgi"}
_TRTLLM_CLIENT = "python -m tensorrt_llm.serve.scripts.benchmark_serving --backend openai"
# SGLang's server and client, flags as in sgl-project/sglang python/sglang/srt/server_args.py
# (001067fffe33427bee0ed2f007fb7551a1d76b44; --tp is only an argparse prefix of --tp-size) and
# python/sglang/bench_serving.py (0033168f0f58b2bc05aa0273bd475d9c01bafb1c: --random-range-ratio
# defaults to 0, lengths drawn up to the one asked, so 1 keeps the team's; EOS is ignored unless
# --disable-ignore-eos). On a TPU it is SGLang-JAX (docs/platforms/tpu.md at 10c578e3;
# sgl-project/sglang-jax server_args.py at 00f0fbf5, bench_serving.py at 06919642, same JSONL).
_SGLANG = {
    "gpu": (
        "python -m sglang.launch_server",
        "",
        "python -m sglang.bench_serving --backend sglang",
    ),
    "tpu": (
        "python -m sgl_jax.launch_server",
        " --device tpu --dtype bfloat16",
        "python -m sgl_jax.bench_serving --backend sgl-jax",
    ),
}
_TRAINING_PRECISION = {"bf16_mixed": "bf16", "fp16_mixed": "fp16"}


def result_file(stack: str, concurrency: int) -> str:
    """The file the pilot's serving benchmark saves at `concurrency` (its commands name it):
    SGLang's client appends JSON lines, the others write one JSON document."""
    return f"pilot-c{concurrency}.jsonl" if stack == "sglang" else f"pilot-c{concurrency}.json"


def _model_id(answers: vocabulary.Answers, catalog: Catalog) -> str:
    preset = answers.model.preset if answers.model is not None else None
    found = catalog.presets.get(preset) if preset else None
    if found is None or not found.hf_id:
        return CUSTOM_MODEL
    # Shell-quoted where it lands in a command a customer pastes (a valid id reads the same);
    # the catalog import refuses ids outside the Hugging Face pattern before it gets here.
    return shlex.quote(found.hf_id)


def _price(option: Mapping[str, Any], devices_needed: int) -> tuple[str, dict[str, Any]] | None:
    """The price row a pilot rents by: of the rows rented by the hour (on demand, flex start,
    spot), the one whose units for the pilot cost least; else the option's own billing."""
    prices = option.get("prices") or {}

    def unit_cost(price: Mapping[str, Any]) -> float:
        per_unit = int(price.get("gpus_per_unit") or 1)
        return math.ceil(devices_needed / per_unit) * _unit_hour(price)

    hourly = [(s, prices[s]) for s in _HOURLY if prices.get(s) is not None]
    if hourly:
        return min(hourly, key=lambda sp: (unit_cost(sp[1]), _HOURLY.index(sp[0])))
    slot = option.get("billing_used")
    if slot and prices.get(slot) is not None:
        return slot, prices[slot]
    return next(((s, p) for s, p in prices.items() if p is not None), None)


def _unit_hour(price: Mapping[str, Any]) -> float:
    per_unit = int(price.get("gpus_per_unit") or 1)
    return float(price.get("usd_per_unit_hour") or price["usd_per_device_hour"] * per_unit)


def _rent(
    option: Mapping[str, Any], devices_needed: int, hours: float, hours_per_month: float
) -> dict[str, Any]:
    picked = _price(option, devices_needed)
    if picked is None:
        return {
            "devices": devices_needed,
            "units": None,
            "hours": hours,
            "usd": None,
            "priced": False,
            "estimated": True,
        }
    slot, price = picked
    per_unit = int(price.get("gpus_per_unit") or 1)
    units = max(1, math.ceil(devices_needed / per_unit))
    unit_hour = _unit_hour(price)
    doc: dict[str, Any] = {
        "devices": units * per_unit,
        "units": units,
        "gpus_per_unit": per_unit,
        "sold_as": price.get("sold_as"),
        "billing": slot,
        "price_id": price["price_id"],
        "provider": price.get("provider"),
        "region": price.get("region"),
        "usd_per_unit_hour": round(unit_hour, 4),
        "hours": hours,
        "usd": round(hours * units * unit_hour, 2),
        "priced": True,
        "source": price.get("source"),
        "as_of": price.get("as_of"),
        # The hours are a planning estimate (SERVING_HOURS / TRAINING_HOURS), the price is not.
        "estimated": True,
        "terms": "hourly",
    }
    if slot not in _HOURLY:
        # Sold by the month (a dedicated server, the operator's own among them) or on a
        # commitment: nobody rents it for four hours, so the pilot is one month of it, on trial
        # terms asked of the seller where its minimum term is longer (nobody signs a year to
        # test a plan); the hours stay how long the benchmark itself takes.
        server = price.get("server") or {}
        month = price.get("usd_per_device_month")
        unit_month = float(month) * per_unit if month is not None else unit_hour * hours_per_month
        min_term = int(server.get("min_term_months") or 1)
        doc.update(
            terms="monthly",
            months=1,
            usd_per_unit_month=round(unit_month, 2),
            usd=round(units * unit_month, 2),
            min_term_months=min_term,
            setup_fee_usd=server.get("setup_fee_usd"),
            trial=bool(price.get("house")) or min_term > 1,
            indicative=bool(price.get("indicative")),
        )
    return doc


def _check(
    figure: str,
    assumed: float,
    unit: str,
    direction: str,
    line: float,
    lang: str,
    safety: float,
    target: float | None = None,
) -> dict[str, Any]:
    return {
        "figure": figure,
        "label": i18n.message(f"pilot.figure.{figure}", lang),
        "assumed": round(assumed, 2),
        "unit": unit,
        "pass_if": direction,  # ">=": at least the line; "<=": at most the line
        "line": round(line, 2),
        "basis": i18n.message(
            "pilot.basis.latency_target"
            if target is not None
            else "pilot.basis.at_least"
            if direction == ">="
            else "pilot.basis.at_most",
            lang,
            safety=i18n.percent(safety),
            target=i18n.fmt_number(target) if target is not None else "",
        ),
    }


def _serving(
    option: Mapping[str, Any],
    answers: vocabulary.Answers,
    catalog: Catalog,
    safety: float,
    lang: str,
) -> dict[str, Any] | None:
    inf = answers.inference
    if inf is None or "tokens_per_second_per_replica" not in option:
        return None
    tp = int(option.get("tensor_parallel") or 1)
    batch = int(option.get("batch_per_replica") or inf.concurrent_sequences)
    prompt = max(1, inf.prompt_tokens)
    model = _model_id(answers, catalog)
    stack = answers.frameworks.serving
    backend = _BACKENDS.get(stack, "openai")
    server = {
        "vllm": f"vllm serve {model} --tensor-parallel-size {tp} "
        f"--max-model-len {inf.context_tokens} --max-num-seqs {batch}",
        "tgi": f"text-generation-launcher --model-id {model} --num-shard {tp} "
        f"--max-input-tokens {prompt} --max-total-tokens {inf.context_tokens} "
        f"--max-concurrent-requests {batch}",
        "tensorrt_llm": f"trtllm-serve {model} --tp_size {tp} "
        f"--max_seq_len {inf.context_tokens} --max_batch_size {batch}",
    }.get(stack)
    levels = sorted({1, max(1, batch // 2), batch})
    commands = [server] if server else []
    # TensorRT-LLM's client samples random prompts from ShareGPT unless --random-ids is set.
    client = (
        f"{_TRTLLM_CLIENT} --model {model} --dataset-name random --random-ids"
        if stack == "tensorrt_llm"
        else f"vllm bench serve --backend {backend} --model {model} --dataset-name random"
    )
    commands += [
        f"{client} --random-input-len {prompt} --random-output-len {inf.output_tokens} "
        "--ignore-eos "
        f"--max-concurrency {c} --num-prompts {PROMPTS_PER_SLOT * c} "
        f"--percentile-metrics ttft,tpot,e2el --metric-percentiles 50,95 "
        f"--save-result --result-filename {result_file(stack, c)}"
        for c in levels
    ]
    if stack == "sglang":
        # SGLang's own server and client, whose JSONL measured.parse reads, in their place.
        commands = _sglang_commands(
            catalog.by_id[option["accelerator_id"]].type,
            model,
            tp,
            inf.context_tokens,
            batch,
            prompt,
            inf.output_tokens,
            levels,
        )
    tps = float(option["tokens_per_second_per_replica"])
    # The plan's time to first token (and so its whole response) includes the network round
    # trip to the users (with a mainland China path's allowance for lost packets); the benchmark
    # runs on the server and never sees it. So its lines are the server's share, and the round
    # trip is a line of its own, measured apart from where the users are.
    rtt = float(option.get("round_trip_ms") or 0.0)
    server_ttft = max(0.0, float(option["ttft_ms"]) - rtt)
    ttft = _check("ttft_ms", server_ttft, "ms", "<=", server_ttft * (1 + safety), lang, safety)
    if rtt > 0:
        ttft["basis"] = i18n.message(
            "pilot.basis.at_most_on_server",
            lang,
            safety=i18n.percent(safety),
            rtt=i18n.fmt_number(rtt),
        )
    checks = [
        _check(
            "tokens_per_second_per_replica", tps, "tok/s", ">=", tps * (1 - safety), lang, safety
        ),
        ttft,
        _check(
            "tpot_ms",
            float(option["tpot_ms"]),
            "ms",
            "<=",
            option["tpot_ms"] * (1 + safety),
            lang,
            safety,
        ),
    ]
    target = option.get("latency_target_ms")
    if target is not None and option.get("latency_at_metric_ms") is not None:
        metric = str(option.get("latency_metric") or "whole_response")
        # Time per output token has no round trip in it; the other two do.
        apart = rtt if metric != "tpot" else 0.0
        latency = _check(
            f"latency.{metric}",
            max(0.0, float(option["latency_at_metric_ms"]) - apart),
            "ms",
            "<=",
            max(0.0, float(target) - apart),
            lang,
            safety,
            target=float(target),
        )
        if apart > 0:
            latency["basis"] = i18n.message(
                "pilot.basis.latency_target_on_server",
                lang,
                target=i18n.fmt_number(float(target)),
                rtt=i18n.fmt_number(apart),
            )
        checks.append(latency)
    if rtt > 0:
        checks.append(
            {
                **_check("network_round_trip_ms", rtt, "ms", "<=", rtt, lang, safety),
                "basis": i18n.message("pilot.basis.round_trip", lang),
                "apart": True,
            }
        )
    return {
        "kind": "serving",
        "stack": stack,
        "model": model,
        "rent": _rent(option, tp, SERVING_HOURS, catalog.hours_per_month),
        "hours_basis": i18n.message("pilot.hours.serving", lang),
        "commands": commands,
        "settings": {
            "tensor_parallel": tp,
            "prompt_tokens": prompt,
            "output_tokens": inf.output_tokens,
            "context_tokens": inf.context_tokens,
            "concurrency": levels,
            "batch_per_replica": batch,
        },
        "checks": checks,
    }


def _sglang_commands(
    family: str,
    model: str,
    tp: int,
    context: int,
    batch: int,
    prompt: int,
    output: int,
    levels: list[int],
) -> list[str]:
    """SGLang's server for one replica and its client at each concurrency level (one JSONL file
    per level: the file at the plan's concurrency is the one to paste)."""
    server, device, client = _SGLANG["tpu" if family == "tpu" else "gpu"]
    return [
        f"{server} --model-path {model} --tp-size {tp}{device} --context-length {context} "
        f"--max-running-requests {batch}",
        *(
            f"{client} --model {model} --dataset-name random --random-input-len {prompt} "
            f"--random-output-len {output} --random-range-ratio 1 "
            f"--max-concurrency {c} --num-prompts {PROMPTS_PER_SLOT * c} "
            f"--output-file {result_file('sglang', c)}"
            for c in levels
        ),
    ]


def _training(
    option: Mapping[str, Any],
    answers: vocabulary.Answers,
    catalog: Catalog,
    sizing: Mapping[str, Any] | None,
    safety: float,
    lang: str,
) -> dict[str, Any] | None:
    t = answers.training
    if t is None or not sizing or "peak_tflops_per_device" not in option:
        return None
    total_flops = float(sizing["flops"]["total"])
    run_tokens = t.dataset_tokens * t.epochs
    if total_flops <= 0 or run_tokens <= 0:
        return None
    # The plan's throughput per device: its peak at its MFU over the FLOPs each token costs.
    tps_device = (
        float(option["peak_tflops_per_device"]) * 1e12 * float(option["mfu"]) * run_tokens
    ) / total_flops
    need = int(option.get("min_count") or option.get("count") or 1)
    rent = _rent(option, need, TRAINING_HOURS, catalog.hours_per_month)
    devices = int(rent["devices"])
    tokens_per_step = t.micro_batch_size * t.sequence_length * devices
    steps = max(10, int(tps_device * devices * TRAINING_RUN_SECONDS / tokens_per_step))
    # Peak memory per device: the sizing's peak, spread over the devices the plan shards it on.
    peak = float(sizing["memory_gib"]["total"]) / need
    model = _model_id(answers, catalog)
    precision = _TRAINING_PRECISION.get(t.precision, t.precision)
    lora = f" --lora-rank {t.lora_rank}" if t.method in ("lora", "qlora") and t.lora_rank else ""
    flags = (
        f"--model {model} --method {t.method}{lora} --precision {precision} "
        f"--optimizer {t.optimizer} --micro-batch-size {t.micro_batch_size} "
        f"--seq-len {t.sequence_length} --max-steps {steps}"
        f"{' --gradient-checkpointing' if t.gradient_checkpointing else ''}"
    )
    launch = (
        f"torchrun --nproc_per_node={devices} train.py {flags}"
        if answers.frameworks.primary == "pytorch"
        else f"python train.py {flags}"
    )
    return {
        "kind": "training",
        "stack": answers.frameworks.primary,
        "model": model,
        "rent": rent,
        "hours_basis": i18n.message("pilot.hours.training", lang, steps=steps),
        "commands": [launch],
        "settings": {
            "devices": devices,
            "micro_batch_size": t.micro_batch_size,
            "sequence_length": t.sequence_length,
            "steps": steps,
            "method": t.method,
            "precision": t.precision,
        },
        "checks": [
            _check(
                "tokens_per_second_per_device",
                tps_device,
                "tok/s",
                ">=",
                tps_device * (1 - safety),
                lang,
                safety,
            ),
            _check(
                "peak_memory_gib_per_device", peak, "GiB", "<=", peak * (1 + safety), lang, safety
            ),
        ],
    }


def _close(first: Mapping[str, Any], second: Mapping[str, Any], tolerance: float) -> bool:
    a = (first.get("cost_to_result") or {}).get("usd")
    b = (second.get("cost_to_result") or {}).get("usd")
    if a is None or b is None or a <= 0:
        return False
    same = (first.get("cost_to_result") or {}).get("per") == (
        second.get("cost_to_result") or {}
    ).get("per")
    return same and b <= a * (1 + tolerance) + 1e-9


def pilot(
    kind: str,
    options: list[dict[str, Any]],
    answers: vocabulary.Answers,
    catalog: Catalog,
    sizing: Mapping[str, Any] | None,
    lang: str,
) -> dict[str, Any] | None:
    """The workload's pilot (None for preprocessing or a workload with no option)."""
    if not options or kind not in vocabulary.TRAINING_KINDS | vocabulary.INFERENCE_KINDS:
        return None
    safety = float(catalog.rule("target_safety_share"))
    tolerance = float(catalog.rule("rank_cost_tolerance"))
    chosen = [("first", options[0])]
    if len(options) > 1 and _close(options[0], options[1], tolerance):
        chosen.append(("runner_up", options[1]))
    runs = []
    for role, option in chosen:
        run = (
            _training(option, answers, catalog, sizing, safety, lang)
            if kind in vocabulary.TRAINING_KINDS
            else _serving(option, answers, catalog, safety, lang)
        )
        if run is not None:
            runs.append(
                {
                    "role": role,
                    "accelerator_id": option["accelerator_id"],
                    "name": option["name"],
                    **run,
                }
            )
    if not runs:
        return None
    return {
        "safety_share": safety,
        "rank_cost_tolerance": tolerance,
        "runs": runs,
        "summary": i18n.message(
            "pilot.summary.two" if len(runs) > 1 else "pilot.summary.one",
            lang,
            safety=i18n.percent(safety),
            tolerance=i18n.percent(tolerance),
        ),
    }
