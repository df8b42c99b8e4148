"""Benchmark the engine: median ms to score one assessment, seconds to re-score 10,000.

Run it with `python -m advisor.engine.bench` (or `make bench-engine`).

Targets: < 10 ms per assessment, < 30 s for 10,000 re-scores. Prints figures; asserts nothing.
Each figure comes as wall-clock time and as this process's CPU time (`time.process_time`): on a
machine other work shares, the wall clock counts the waits for a core, the CPU time does not.
"""

from __future__ import annotations

import copy
import random
import statistics
import time
from typing import Any

from advisor.engine import evaluate, load_catalog, load_scoring_model, parse_answers, rescore
from advisor.engine.answers import vocabulary
from advisor.engine.answers.samples import DELETE, sample

# The shared sample without the answers that only bound a result (budget, deadline, latency).
BASE: dict[str, Any] = sample(
    **{
        "cost.monthly_budget_usd": DELETE,
        "training.epochs": DELETE,
        "training.deadline_hours": DELETE,
        "inference.p95_latency_ms": DELETE,
    }
)
# The stacks the sample draws from, as they were when its result digests were pinned: drawing
# from a longer tuple (SGLang joined answers v1 later) would reshuffle every draw after it.
_SERVING = ("vllm", "tgi", "tensorrt_llm", "triton", "tf_serving", "torchserve", "custom", "none")


def variants(n: int, seed: int = 7) -> list[vocabulary.Answers]:
    """n stored-assessment look-alikes: the base with its enums shuffled."""
    rng = random.Random(seed)  # noqa: S311 - benchmark data, not security
    out = []
    for _ in range(n):
        doc = copy.deepcopy(BASE)
        doc["maturity"] = {
            "stack_changes": rng.choice(vocabulary.STACK_CHANGES),
            "pipeline": rng.choice(vocabulary.PIPELINES),
            "demand": rng.choice(vocabulary.DEMANDS),
        }
        doc["frameworks"]["primary"] = rng.choice(vocabulary.FRAMEWORKS)
        doc["frameworks"]["serving"] = rng.choice(_SERVING)
        doc["deployment"]["allowed_modes"] = rng.sample(vocabulary.MODES, rng.randint(1, 5))
        doc["deployment"]["portability"] = rng.choice(vocabulary.PORTABILITY)
        doc["deployment"]["china_connectivity"] = rng.random() < 0.3
        doc["cost"]["hours_per_day"] = rng.choice([2, 8, 16, 24])
        doc["cost"]["billing"] = rng.choice(vocabulary.BILLING)
        doc["model"]["preset"] = rng.choice(vocabulary.preset_ids())
        out.append(parse_answers(doc))
    return out


def _p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95)]


def main() -> None:
    catalog, scoring = load_catalog(), load_scoring_model()
    sample = variants(300)
    for a in sample[:20]:  # warm caches
        evaluate(a, catalog, scoring)
    times, cpu_times = [], []
    for a in sample:
        t0, c0 = time.perf_counter(), time.process_time()
        evaluate(a, catalog, scoring)
        cpu_times.append((time.process_time() - c0) * 1000)
        times.append((time.perf_counter() - t0) * 1000)
    doc_times = []
    for a in sample[:100]:
        doc = a.to_dict()
        t0 = time.perf_counter()
        evaluate(doc, catalog, scoring)
        doc_times.append((time.perf_counter() - t0) * 1000)
    rescore_times, rescore_cpu = [], []
    for a in sample:
        t0, c0 = time.perf_counter(), time.process_time()
        rescore(a, catalog, scoring)
        rescore_cpu.append((time.process_time() - c0) * 1000)
        rescore_times.append((time.perf_counter() - t0) * 1000)
    stored = variants(10_000, seed=11)
    t0, c0 = time.perf_counter(), time.process_time()
    for a in stored:
        rescore(a, catalog, scoring)
    bulk_cpu = time.process_time() - c0
    bulk = time.perf_counter() - t0
    print(
        f"evaluate (full result document, parsed answers): median {statistics.median(times):.2f} "
        f"ms, p95 {_p95(times):.2f} ms  (target < 10 ms)"
    )
    print(
        f"evaluate, CPU time: median {statistics.median(cpu_times):.2f} ms, "
        f"p95 {_p95(cpu_times):.2f} ms"
    )
    print(
        f"evaluate from a raw dict (schema validation included): median "
        f"{statistics.median(doc_times):.2f} ms"
    )
    print(
        f"rescore (fast path): median {statistics.median(rescore_times):.3f} ms "
        f"(CPU {statistics.median(rescore_cpu):.3f} ms)"
    )
    print(f"re-score 10,000 stored assessments: {bulk:.2f} s  (target < 30 s)")
    print(f"re-score 10,000 stored assessments, CPU time: {bulk_cpu:.2f} s")


if __name__ == "__main__":
    main()
