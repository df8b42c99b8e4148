"""The engine's throughput against published results, each within x0.7-1.4.

Every figure below is published (source beside it; sizing.md C1/C2/C4/C5 keeps the tables). The
engine sizes the same model, card, precision, lengths and parallelism through its public sizing
functions; each test prints the ratio (engine / published) so a run with `-s` shows them all.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from advisor.engine import sizing
from advisor.engine.answers.vocabulary import Architecture, Inference
from advisor.engine.catalog import Catalog
from advisor.engine.sizing import throughput

BAND = (0.7, 1.4)

# config.json as published (Hugging Face): parameters, layers, hidden, intermediate, heads,
# KV heads, vocabulary, tied embeddings, head dim.
LLAMA2_70B = Architecture(68_976_648_192, 80, 8192, 28672, 64, 8, 32000, False)
LLAMA2_7B = Architecture(6_738_415_616, 32, 4096, 11008, 32, 32, 32000, False)
QWEN3_8B = Architecture(8_190_735_360, 36, 4096, 12288, 32, 8, 151936, False, 128)


class Serving(NamedTuple):
    name: str
    model: Architecture
    card: str
    precision: str
    prompt: int
    output: int
    concurrency: int | None  # None: offline, the engine fills memory (batch job)
    tp: int | None  # None: the engine's own plan
    serving: str
    published: float  # output tokens per second per device
    source: str


SERVING = [
    Serving(
        "mlperf-v4.1-llama2-70b-offline-8xh200",
        LLAMA2_70B,
        "nvidia-h200",
        "fp8",
        300,
        291,
        None,
        None,
        "tensorrt_llm",
        31_917.0 / 8,
        "MLPerf Inference v4.1 closed, Lenovo 8xH200-SXM-141GB TensorRT, llama2-70b-99 offline "
        "31,917 tok/s (github mlcommons/inference_results_v4.1 closed/Lenovo/results/"
        "H200_SXM_141GBx8_TRT); 291 output tokens a sample = 30,068.5 tok/s / 103.37 samples/s "
        "(its server log); prompt ~300 tokens EST (OpenOrca)",
    ),
    Serving(
        "mlperf-v4.1-llama2-70b-offline-8xh100",
        LLAMA2_70B,
        "nvidia-h100-sxm",
        "fp8",
        300,
        291,
        None,
        None,
        "tensorrt_llm",
        24_528.3 / 8,
        "MLPerf Inference v4.1 closed, HPE Cray XD670 8xH100-SXM-80GB TensorRT, llama2-70b-99 "
        "offline 24,528.3 tok/s (inference_results_v4.1 closed/HPE/results/"
        "HPE_Cray_XD670_H100_SXM_80GBx8_TRT)",
    ),
    Serving(
        "mlperf-v4.0-llama2-70b-offline-a3-8xh100",
        LLAMA2_70B,
        "nvidia-h100-sxm",
        "fp8",
        300,
        291,
        None,
        None,
        "tensorrt_llm",
        20_992.0 / 8,
        "MLPerf Inference v4.0 closed, Google A3 8xH100, llama2-70b-99.9 offline 71.9176 "
        "samples/s ~ 20,992 tok/s (inference_results_v4.0 closed/Google; sizing.md C1)",
    ),
    Serving(
        "trtllm-h200-fp8-llama-70b-tp1-128-128",
        LLAMA2_70B,
        "nvidia-h200",
        "fp8",
        128,
        128,
        None,
        1,
        "tensorrt_llm",
        3_014.0,
        "NVIDIA TensorRT-LLM docs/source/blogs/H200launch.md (v0.5): Llama 70B TP1 FP8 128/128, "
        "3,014 tok/s (sizing.md C2)",
    ),
    Serving(
        "trtllm-h100-fp8-llama-70b-tp2-128-128",
        LLAMA2_70B,
        "nvidia-h100-sxm",
        "fp8",
        128,
        128,
        None,
        2,
        "tensorrt_llm",
        2_657.0,
        "NVIDIA TensorRT-LLM docs/source/performance.md (v0.6.1): LLaMA 70B TP2 FP8 128/128, "
        "2,657 tok/s per GPU (sizing.md C2)",
    ),
    Serving(
        "trtllm-h100-fp8-llama-7b-128-128",
        LLAMA2_7B,
        "nvidia-h100-sxm",
        "fp8",
        128,
        128,
        None,
        1,
        "tensorrt_llm",
        19_694.0,
        "NVIDIA TensorRT-LLM docs/source/performance.md (v0.6.1): LLaMA 7B FP8 128/128, "
        "19,694 tok/s per GPU (sizing.md C2)",
    ),
    *(
        Serving(
            f"vllm-h100-qwen3-8b-{precision}-{prompt}-{output}-c{c}",
            QWEN3_8B,
            "nvidia-h100-sxm",
            precision,
            prompt,
            output,
            c,
            1,
            "vllm",
            tps,
            "vLLM 0.30.0 on 1xH100 80GB (GCP a3-highgpu-1g), Qwen3-8B TP1, github "
            "tgarg01/silybench-data derived/csv/perf_points.csv, 2026-09-24 (sizing.md C4)",
        )
        for precision, prompt, output, c, tps in (
            ("bf16", 128, 128, 1, 145.3),
            ("bf16", 128, 128, 128, 11_194.0),
            ("bf16", 128, 128, 512, 14_540.0),
            ("bf16", 2048, 2048, 128, 3_917.0),
            ("bf16", 128, 1024, 128, 10_301.0),
            ("fp8", 128, 128, 1, 213.3),
            ("fp8", 128, 128, 512, 16_542.0),
            ("fp8", 128, 1024, 512, 15_389.0),
        )
    ),
]


def _serving_rate(catalog: Catalog, case: Serving) -> float:
    shape = sizing.shape_from_architecture(case.model)
    acc = catalog.by_id[case.card]
    offline = case.concurrency is None
    inf = Inference(
        case.precision,
        case.prompt,
        case.output,
        case.concurrency or 1,
        0,
        "steady",
    )
    mem = sizing.inference_memory(shape, inf, catalog, case.serving)
    if case.concurrency is not None and case.tp is not None:
        cap = throughput.serving_capacity(shape, inf, mem, acc, case.tp, catalog, case.serving)
        return cap.tokens_per_second / case.tp
    plan = throughput.serving_plan(
        shape, inf, mem, acc, catalog, 1e12, serving=case.serving, offline=True
    )
    assert plan is not None
    if case.tp is not None:
        assert plan.tp == case.tp or offline
    return plan.tokens_per_second / plan.tp


@pytest.mark.parametrize("case", SERVING, ids=[c.name for c in SERVING])
def test_serving_throughput_is_within_the_band_of_a_published_result(
    catalog: Catalog, case: Serving
) -> None:
    ratio = _serving_rate(catalog, case) / case.published
    print(f"{case.name}: engine/published = {ratio:.2f}")
    assert BAND[0] <= ratio <= BAND[1], case.source


# Training speed against published runs: tests/engine/test_training_mfu.py (rule training_mfu_runs).
