"""Benchmark the engine: median ms to score one assessment, seconds to re-score 10,000.

Run it with `python -m advisor.engine.bench` (or `make bench-engine`).

Targets: < 2 ms per assessment, < 30 s for 10,000 re-scores. Prints figures; asserts nothing.
"""

from __future__ import annotations

import copy
import random
import statistics
import time
from typing import Any

from advisor.engine import answers as A
from advisor.engine import evaluate, load_catalog, load_scoring_model, parse_answers, rescore
from advisor.engine.samples import DELETE, sample

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


def variants(n: int, seed: int = 7) -> list[A.Answers]:
    """n stored-assessment look-alikes: the base with its enums shuffled."""
    rng = random.Random(seed)  # noqa: S311 - benchmark data, not security
    out = []
    for _ in range(n):
        doc = copy.deepcopy(BASE)
        doc["maturity"] = {
            "stack_changes": rng.choice(A.STACK_CHANGES),
            "pipeline": rng.choice(A.PIPELINES),
            "demand": rng.choice(A.DEMANDS),
        }
        doc["frameworks"]["primary"] = rng.choice(A.FRAMEWORKS)
        doc["frameworks"]["serving"] = rng.choice(_SERVING)
        doc["deployment"]["allowed_modes"] = rng.sample(A.MODES, rng.randint(1, 5))
        doc["deployment"]["portability"] = rng.choice(A.PORTABILITY)
        doc["deployment"]["china_connectivity"] = rng.random() < 0.3
        doc["cost"]["hours_per_day"] = rng.choice([2, 8, 16, 24])
        doc["cost"]["billing"] = rng.choice(A.BILLING)
        doc["model"]["preset"] = rng.choice(A.preset_ids())
        out.append(parse_answers(doc))
    return out


def main() -> None:
    catalog, scoring = load_catalog(), load_scoring_model()
    sample = variants(300)
    for a in sample[:20]:  # warm caches
        evaluate(a, catalog, scoring)
    times = []
    for a in sample:
        t0 = time.perf_counter()
        evaluate(a, catalog, scoring)
        times.append((time.perf_counter() - t0) * 1000)
    doc_times = []
    for a in sample[:100]:
        doc = a.to_dict()
        t0 = time.perf_counter()
        evaluate(doc, catalog, scoring)
        doc_times.append((time.perf_counter() - t0) * 1000)
    rescore_times = []
    for a in sample:
        t0 = time.perf_counter()
        rescore(a, catalog, scoring)
        rescore_times.append((time.perf_counter() - t0) * 1000)
    stored = variants(10_000, seed=11)
    t0 = time.perf_counter()
    for a in stored:
        rescore(a, catalog, scoring)
    bulk = time.perf_counter() - t0
    print(
        f"evaluate (full result document, parsed answers): median {statistics.median(times):.2f} "
        f"ms, "
        f"p95 {sorted(times)[int(len(times) * 0.95)]:.2f} ms  (target < 2 ms)"
    )
    print(
        f"evaluate from a raw dict (schema validation included): median "
        f"{statistics.median(doc_times):.2f} ms"
    )
    print(f"rescore (fast path): median {statistics.median(rescore_times):.3f} ms")
    print(f"re-score 10,000 stored assessments: {bulk:.2f} s  (target < 30 s)")


if __name__ == "__main__":
    main()
