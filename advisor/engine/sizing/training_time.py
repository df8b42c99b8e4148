"""Training time: the dense peak used for a precision, the run's FLOPs, the MFU expected at
its scale and parallelism, and the wall-clock hours."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from advisor.engine.answers.vocabulary import Training
from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.sizing.shape import ModelShape

# --------------------------------------------------------------------------- time


def peak_tflops(acc: Accelerator, precision: str, catalog: Catalog) -> tuple[float, str]:
    """Dense peak TFLOP/s used for a training precision, and a note code on how it was chosen."""
    bf16 = acc.bf16_dense_tflops or acc.fp16_dense_tflops or 0.0
    note = "peak.bf16" if acc.bf16_dense_tflops else "peak.fp16_only"
    if precision == "fp32":
        return bf16 * catalog.figure("tf32_share_of_bf16_peak"), "peak.tf32"
    if precision == "fp8_mixed":
        if acc.fp8_dense_tflops:
            return bf16 * catalog.figure("fp8_training_speedup"), "peak.fp8"
        return bf16, "peak.no_fp8"
    return bf16, note


@dataclass(frozen=True, slots=True)
class TrainingFlops:
    dense: float
    attention: float
    factor: float  # FLOPs per parameter per token: 6 full, 4 LoRA (model FLOPs, no recompute)

    @property
    def total(self) -> float:
        return self.dense + self.attention


def training_flops(shape: ModelShape, t: Training) -> TrainingFlops:
    """Model FLOPs of a run: 6*N*D (Transformer Math 101) plus the attention term (PaLM,
    appendix B: 12*L*H*Q per token).

    Full training: forward 2N + backward 4N per token. LoRA skips weight gradients of the frozen
    base but still propagates activation gradients: 4N (2/3 of 6N). Recomputation from gradient
    checkpointing is not counted: published MFU figures already absorb it (MFU counts model
    FLOPs, not hardware FLOPs), so adding 8N would count it twice.
    """
    lora = t.method in ("lora", "qlora")
    factor = 4.0 if lora else 6.0
    tokens = float(t.dataset_tokens) * t.epochs
    dense = factor * shape.active * tokens  # a mixture of experts computes its active part
    # Attention score and value matmuls: 4*L*h*s per token forward; same multiples as above.
    attention = (factor / 2.0) * 4.0 * shape.layers * shape.hidden * t.sequence_length * tokens
    return TrainingFlops(dense=dense, attention=attention, factor=factor)


@dataclass(frozen=True, slots=True)
class Mfu:
    """A run's model FLOPs utilisation and the regime that gave it (rule `training_mfu`)."""

    value: float
    tokens_per_micro_step: int  # micro-batch x sequence, per tensor-parallel group
    work: float  # active parameters x tokens per micro-step per tensor-parallel group
    parallelism: str  # one_node | data_parallel_across_nodes | model_parallel_across_nodes
    parts: dict[str, float]  # the factors whose product is `value` (before the cap)


def _log_interp(points: Sequence[Sequence[float]], x: float) -> float:
    """Piecewise-linear in log x through (x, y) points, held flat beyond the ends."""
    pts = sorted((float(a), float(b)) for a, b in points)
    if x <= pts[0][0]:
        return pts[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        if x <= x1:
            return y0 + (y1 - y0) * math.log(x / x0) / math.log(x1 / x0)
    return pts[-1][1]


def training_parallelism(acc: Accelerator, n: int, tp: int) -> str:
    """How a run on n devices is laid out: on one node, data parallel (FSDP/ZeRO) across
    nodes, or with tensor/pipeline groups that span nodes."""
    if n <= max(1, acc.max_devices_per_node):
        return "one_node"
    return "model_parallel_across_nodes" if tp > 1 else "data_parallel_across_nodes"


def training_mfu(
    shape: ModelShape, t: Training, acc: Accelerator, n: int, tp: int, catalog: Catalog
) -> Mfu:
    """MFU of a run by its regime, from rule `training_mfu` (fitted on the published runs of
    rule `training_mfu_runs`, each restated over this engine's FLOPs and peak):

    ceiling(card, precision) x work x sequence x parallelism x adapter, at most `max`.
    The ceiling is the best BF16 MFU published on the card class, interpolated in log dense
    peak between the A100 and H100 points (held flat outside: cards without a run); FP8 runs
    use the FP8 ceiling (over the engine's FP8 peak). Work is active parameters x tokens per
    micro-step (micro-batch x sequence length) per tensor-parallel group, interpolated in log
    work: a micro-batch of one short sequence on a small model keeps the card mostly idle.
    Sequence length lowers it beyond 2,048 tokens (interpolated in log length); runs across
    nodes lose to communication, more where tensor or pipeline groups span nodes; adapters
    (LoRA, QLoRA) run below a full fine-tune, QLoRA lower again (`qlora_speed_factor`).
    """
    rule = catalog.rule("training_mfu")
    tp = max(1, tp)
    tokens = int(t.micro_batch_size * t.sequence_length)
    work = float(shape.active) * tokens / tp
    peak = acc.bf16_dense_tflops or acc.fp16_dense_tflops or 0.0
    fp8 = t.precision == "fp8_mixed" and bool(acc.fp8_dense_tflops)
    layout = training_parallelism(acc, n, tp)
    parts = {
        "ceiling": float(rule["fp8_ceiling"])
        if fp8
        else _log_interp(rule["ceiling_by_peak_tflops"], max(peak, 1.0)),
        "work": _log_interp(rule["work_points"], max(work, 1.0)),
        "sequence": _log_interp(rule["sequence_points"], float(t.sequence_length)),
        "parallelism": float(rule["parallelism"][layout]),
        "adapter": float(rule["adapter"].get(t.method, 1.0)),
    }
    if t.method == "qlora":
        parts["qlora"] = catalog.figure("qlora_speed_factor")
    value = min(float(rule["max"]), math.prod(parts.values()))
    return Mfu(
        round(value, 4), tokens // tp, work, layout, {k: round(v, 4) for k, v in parts.items()}
    )


def training_hours(
    flops: TrainingFlops, acc: Accelerator, n: int, t: Training, mfu: Mfu, catalog: Catalog
) -> float:
    """Wall-clock hours on n devices at the run's MFU."""
    peak, _ = peak_tflops(acc, t.precision, catalog)
    rate = n * peak * 1e12 * mfu.value
    return math.inf if rate <= 0 else flops.total / rate / 3600.0
