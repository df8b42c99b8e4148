"""A benchmark run as the engine reads it, a problem found in one, and the error that carries
the problems."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


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
