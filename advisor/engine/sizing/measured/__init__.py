"""Measured serving figures in place of the engine's estimates.

A pilot runs the serving benchmark of the team's stack on one replica of the first option's
card (the plan's tensor-parallel group, at the plan's concurrency per replica). Its figures
replace the estimates for that card and stack: the throughput per replica sets the replica
count, the measured latency decides whether the target holds. Pure Python, no Django.

- `measurement`: a run (`Measurement`), a problem found in one, and the error that carries them
- `formats`: `parse`, which reads vLLM, SGLang, trtllm-bench and GenAI-Perf output
- `physics`: the card's bounds for a model, and the figures of a run beyond them
- `plans`: the run a plan uses, and the plan with its figures applied

Callers read the names below.
"""

from advisor.engine.sizing.measured.formats import MAX_BYTES, parse, parse_vllm
from advisor.engine.sizing.measured.measurement import Measurement, MeasurementError, ParseProblem
from advisor.engine.sizing.measured.physics import SLOWEST_SHARE, Bounds, bounds, implausible
from advisor.engine.sizing.measured.plans import apply, find, index_of

__all__ = [
    "MAX_BYTES",
    "SLOWEST_SHARE",
    "Bounds",
    "Measurement",
    "MeasurementError",
    "ParseProblem",
    "apply",
    "bounds",
    "find",
    "implausible",
    "index_of",
    "parse",
    "parse_vllm",
]
