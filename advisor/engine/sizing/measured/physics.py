"""What one replica of a card can do at most for a model (`Bounds`), and the figures of a run
beyond it (`implausible`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from advisor.engine import sizing
from advisor.engine.sizing.measured.measurement import Measurement, ParseProblem

if TYPE_CHECKING:
    from advisor.engine.answers.vocabulary import Inference
    from advisor.engine.catalog import Accelerator


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
    shape: sizing.ModelShape
    mem: sizing.InferenceMemory
    memory_bytes: float  # the replica's device memory
    prompt_tokens: int
    context_tokens: int

    def read_bytes(self, batch: float) -> float:
        """Weight bytes one decode step reads for `batch` sequences (a MoE: the experts used)."""
        experts = self.mem.expert_weight_bytes
        return (
            self.mem.weight_bytes
            - experts
            + experts * sizing.expert_fraction_read(self.shape, batch)
        )

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
    shape: sizing.ModelShape,
    inf: Inference,
    acc: Accelerator,
    devices: int,
    mem: sizing.InferenceMemory,
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
