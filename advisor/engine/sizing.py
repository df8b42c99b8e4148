"""Memory, time and device-count sizing for decoder-only Transformers (Llama-style blocks);
serving throughput and the serving plan are in throughput.py.

Memory follows what current PyTorch allocates for a Hugging Face causal LM: weights, gradients and
optimizer state per parameter (Transformer Math 101 and the PyTorch AMP layout), activations saved
for backward with SDPA/flash attention (no seq^2 term), the logits and loss buffers over the
vocabulary, and a runtime overhead. The peak is the larger of two phases: the start of backward
(all activations alive) and the optimizer step (all gradients alive). Figures that come from
outside (MFU, bandwidth utilisation, reserves) are read from the catalog's `figures`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from advisor.engine.answers import Architecture, Inference, Training
from advisor.engine.catalog import Accelerator, Catalog, ModelPreset

GIB = float(2**30)


@dataclass(frozen=True, slots=True)
class ModelShape:
    """The model being sized (from a preset or an architecture answer)."""

    name: str
    parameters: int
    layers: int
    hidden: int
    intermediate: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    tied: bool
    max_positions: int | None = None
    source: str | None = None
    # Mixture of experts: `intermediate` is then one expert's MLP width; every expert is held in
    # memory, a token runs through `experts_per_token` routed experts plus the shared ones.
    experts: int = 1
    experts_per_token: int = 1
    shared_experts: int = 0
    moe_layers: int | None = None  # layers with experts (default: all)
    active_parameters: int | None = None  # published or answered; else derived
    # Compressed KV cache (multi-head latent attention): elements cached per layer and token.
    kv_latent: int | None = None

    @property
    def is_moe(self) -> bool:
        return self.experts > 1

    @property
    def expert_params(self) -> int:
        """Weights of the routed experts (SwiGLU: gate, up and down), all layers."""
        if not self.is_moe:
            return 0
        layers = self.layers if self.moe_layers is None else self.moe_layers
        return 3 * self.hidden * self.intermediate * self.experts * layers

    @property
    def active(self) -> int:
        """Parameters a token is computed with: all of them for a dense model; for a mixture of
        experts the answered or published figure, else the total less the unused experts."""
        if self.active_parameters is not None:
            return self.active_parameters
        if not self.is_moe:
            return self.parameters
        unused = self.expert_params * (self.experts - self.experts_per_token) // self.experts
        return max(1, self.parameters - unused)

    @property
    def mlp_width(self) -> int:
        """MLP width a token passes through (top-k routed plus shared experts)."""
        if not self.is_moe:
            return self.intermediate
        return self.intermediate * (self.experts_per_token + self.shared_experts)

    def kv_split(self, n: int) -> int:
        """Devices the KV cache divides over under n-way tensor parallelism: KV heads split
        until they run out; a latent (MLA) cache is replicated on every device."""
        return 1 if self.kv_latent else min(n, self.kv_heads)

    @property
    def q_dim(self) -> int:
        return self.heads * self.head_dim

    @property
    def kv_dim(self) -> int:
        return self.kv_heads * self.head_dim

    @property
    def embedding_params(self) -> int:
        """Input embedding plus output head (shared when tied)."""
        return self.vocab * self.hidden * (1 if self.tied else 2)

    @property
    def block_params(self) -> int:
        """Parameters of the decoder blocks' linear layers (what quantisation touches)."""
        return max(0, self.parameters - self.embedding_params)

    @property
    def layer_params(self) -> int:
        return self.block_params // max(1, self.layers)

    def projection_io_sum(self) -> int:
        """Sum over a layer's 7 projections of (in + out) features: LoRA params per unit rank."""
        h, i = self.hidden, self.intermediate
        if self.is_moe:
            # Adapters on every expert's three projections (PEFT targets each expert's linears).
            experts = self.experts + self.shared_experts
            return 4 * h + 2 * self.q_dim + 2 * self.kv_dim + experts * (3 * h + 3 * i)
        return 7 * h + 2 * self.q_dim + 2 * self.kv_dim + 3 * i


def shape_from_preset(preset: ModelPreset) -> ModelShape:
    """A ModelShape from a catalog preset."""
    return ModelShape(
        name=preset.name,
        parameters=preset.parameters,
        layers=preset.layers,
        hidden=preset.hidden_size,
        intermediate=preset.intermediate_size,
        heads=preset.attention_heads,
        kv_heads=preset.kv_heads,
        head_dim=preset.head_dim,
        vocab=preset.vocab_size,
        tied=preset.tied_embeddings,
        max_positions=preset.max_position_embeddings,
        source=preset.source,
        experts=preset.experts,
        experts_per_token=preset.experts_per_token,
        shared_experts=preset.shared_experts,
        moe_layers=preset.moe_layers,
        active_parameters=preset.active_parameters,
        kv_latent=preset.kv_latent,
    )


def shape_from_architecture(arch: Architecture) -> ModelShape:
    """A ModelShape from an `architecture` answer."""
    head_dim = arch.head_dim or max(1, arch.hidden_size // arch.attention_heads)
    return ModelShape(
        name="custom",
        parameters=arch.parameters,
        layers=arch.layers,
        hidden=arch.hidden_size,
        intermediate=arch.intermediate_size,
        heads=arch.attention_heads,
        kv_heads=arch.kv_heads,
        head_dim=head_dim,
        vocab=arch.vocab_size,
        tied=arch.tied_embeddings,
        experts=arch.experts,
        experts_per_token=arch.experts_per_token,
        active_parameters=arch.active_parameters,
    )


def usable_gib(acc: Accelerator, catalog: Catalog) -> float:
    """Device memory the process can use: visible memory less the stated runtime reserve."""
    reserve = max(
        catalog.figure("reserve_min_gib"), catalog.figure("reserve_fraction") * acc.memory_gib
    )
    return acc.memory_gib - reserve


# --------------------------------------------------------------------------- training memory


@dataclass(frozen=True, slots=True)
class TrainingMemory:
    """Bytes per part at the peak phase, the other phase's total, and the per-device recipe."""

    parts: dict[str, float]  # weights, gradients, optimizer, activations, other (bytes)
    peak_phase: str
    phases: dict[str, float]  # phase -> total bytes
    trainable_params: int
    # Pieces for sharding: what divides by the device count and what does not.
    sharded_fb: float
    unsharded_fb: float
    sharded_step: float
    unsharded_step: float
    detail: dict[str, float] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return sum(self.parts.values())


_STATE_BYTES = {"fp32": 4.0, "bf16_mixed": 4.0, "bf16": 2.0, "fp8_mixed": 4.0}


def _optimizer_state_bytes(
    optimizer: str, state: float, shape: ModelShape, trainable: int
) -> float:
    """Optimizer state in bytes for `trainable` parameters (Transformer Math 101, B2)."""
    if optimizer == "adamw":
        return 2 * state * trainable
    if optimizer == "adamw_8bit":
        # bitsandbytes keeps both moments in 1 byte (block-wise quantised).
        return 2.0 * trainable
    if optimizer == "sgd":
        return state * trainable  # momentum buffer
    # Adafactor factors the second moment into row and column vectors and keeps no momentum.
    fraction = shape.projection_io_sum() * shape.layers / max(1, shape.block_params)
    return state * trainable * min(1.0, fraction)


def training_memory(shape: ModelShape, t: Training, catalog: Catalog) -> TrainingMemory:
    """Peak training memory of one device holding the whole model (no sharding)."""
    p = shape.parameters
    precision = t.precision
    state = _STATE_BYTES[precision]
    lora = t.method in ("lora", "qlora")
    if lora:
        trainable = (t.lora_rank or 8) * shape.projection_io_sum() * shape.layers
        train_w = 4.0 if precision != "bf16" else 2.0  # PEFT keeps adapters in fp32 under AMP
        if t.method == "qlora":
            # NF4 with double quantisation: 4 + 8/64 + 32/(64*256) bits per weight (QLoRA paper);
            # PEFT's prepare_model_for_kbit_training casts the unquantised rest to fp32.
            frozen = shape.block_params * (4.127 / 8) + shape.embedding_params * 4.0
        else:
            frozen = p * (4.0 if precision == "fp32" else 2.0)
        weights = frozen + trainable * train_w
        grads = trainable * train_w
        cast_copies = 0.0
        head_grad = 0.0
    else:
        trainable = p
        train_w = 2.0 if precision == "bf16" else 4.0
        weights = p * train_w
        grads = p * train_w
        # Autocast keeps a low-precision copy of every matmul weight alive until backward uses it.
        cast_bytes = {"bf16_mixed": 2.0, "fp8_mixed": 1.0}.get(precision, 0.0)
        cast_copies = cast_bytes * (p - shape.vocab * shape.hidden * (0 if shape.tied else 1))
        head_grad = shape.vocab * shape.hidden * train_w
    optimizer = _optimizer_state_bytes(t.optimizer, state, shape, trainable)
    transient = 0.0
    if t.optimizer == "adamw" and t.optimizer_impl == "foreach":
        # foreach AdamW allocates a parameter-sized temporary in step(); fused AdamW none.
        transient = catalog.figure("optimizer_step_transient_bytes") * trainable * state / 4.0

    # Activations saved for backward, bytes per token per layer (derivation in the module docstring
    # and the assumptions): norms upcast to fp32; q, k, v, attention output, o_proj input; SwiGLU
    # saves gate, act(gate), up and their product.
    h = shape.hidden
    ab = 4.0 if precision == "fp32" else 2.0
    fp32_residual = precision == "fp32" or (
        precision in ("bf16_mixed", "fp8_mixed") and (not lora or t.method == "qlora")
    )
    norm = (12.0 if precision == "fp32" else 10.0 if fp32_residual else 8.0) * h
    attn = ab * (3 * shape.q_dim + 2 * shape.kv_dim) + 4.0 * shape.heads
    mlp = ab * 4 * shape.mlp_width  # a MoE token keeps the activations of each expert it uses
    lora_extra = ab * 7 * (t.lora_rank or 0) if lora else 0.0
    per_layer = 2 * norm + attn + mlp + lora_extra
    tokens = float(t.micro_batch_size) * t.sequence_length
    residual = (4.0 if fp32_residual else 2.0) * h
    tail = norm + ab * h  # final norm and the lm_head input
    if t.gradient_checkpointing:
        activations = tokens * (shape.layers * residual + per_layer + tail)
    else:
        activations = tokens * (shape.layers * per_layer + tail)
    logit_bytes = catalog.figure("logits_bytes_per_element") + (2.0 if precision == "fp32" else 0.0)
    logits = tokens * shape.vocab * logit_bytes
    runtime = catalog.figure("runtime_overhead_gib") * GIB

    fb = weights + cast_copies + optimizer + head_grad + activations + logits + runtime
    step = weights + grads + optimizer + transient + runtime
    if fb >= step:
        parts = {
            "weights": weights + cast_copies,
            "gradients": head_grad,
            "optimizer": optimizer,
            "activations": activations,
            "other": logits + runtime,
        }
        phase = "forward_backward"
    else:
        parts = {
            "weights": weights,
            "gradients": grads,
            "optimizer": optimizer + transient,
            "activations": 0.0,
            "other": runtime,
        }
        phase = "optimizer_step"
    # FSDP / ZeRO-3 shards weights, gradients and optimizer state; each device still holds its
    # own micro-batch activations, the logits and two gathered layers of weights.
    gathered = 2 * shape.layer_params * 2.0
    return TrainingMemory(
        parts=parts,
        peak_phase=phase,
        phases={"forward_backward": fb, "optimizer_step": step},
        trainable_params=trainable,
        sharded_fb=weights + cast_copies + optimizer + head_grad,
        unsharded_fb=activations + logits + runtime + gathered,
        sharded_step=weights + grads + optimizer + transient,
        unsharded_step=runtime + gathered,
        detail={
            "logits_loss": logits,
            "runtime": runtime,
            "optimizer_step_transient": transient,
            "cast_copies": cast_copies,
            "activations_per_token_per_layer": per_layer,
        },
    )


def training_bytes_per_device(mem: TrainingMemory, n: int, tp: int = 1) -> float:
    """Peak bytes per device when the model is sharded over n devices (ZeRO-3 / FSDP), with
    `tp`-way tensor parallelism inside a unit (Megatron with sequence parallelism: each device
    holds 1/tp of the activations, the vocabulary-parallel logits and the gathered layers)."""
    if n <= 1:
        return mem.total
    runtime = mem.detail.get("runtime", 0.0)
    tp = max(1, tp)
    return max(
        mem.sharded_fb / n + (mem.unsharded_fb - runtime) / tp + runtime,
        mem.sharded_step / n + (mem.unsharded_step - runtime) / tp + runtime,
    )


def training_tp_sizes(acc: Accelerator) -> tuple[int, ...]:
    """Tensor-parallel sizes a training run may use on the card: within one NVLink domain
    (a GPU with NVLink/NVSwitch, up to its node); PCIe cards and TPU slices shard by FSDP only."""
    if acc.type != "gpu" or not acc.fast_interconnect:
        return (1,)
    return tuple(t for t in (1, 2, 4, 8) if t <= max(1, acc.max_devices_per_node))


def training_tp(mem: TrainingMemory, acc: Accelerator, n: int, catalog: Catalog) -> int | None:
    """The smallest tensor-parallel size at which n devices hold the run (None: none does)."""
    usable = usable_gib(acc, catalog) * GIB
    for tp in training_tp_sizes(acc):
        if tp > n or n % tp:
            break
        if training_bytes_per_device(mem, n, tp) <= usable:
            return tp
    return None


# --------------------------------------------------------------------------- inference memory


@dataclass(frozen=True, slots=True)
class InferenceMemory:
    """Bytes per part for serving the model with the given concurrency."""

    parts: dict[str, float]  # weights, kv_cache, activations, other (bytes)
    kv_bytes_per_token: float
    weight_bytes: float
    expert_weight_bytes: float = 0.0  # the routed experts' share of weight_bytes (MoE)

    @property
    def total(self) -> float:
        return sum(self.parts.values())


# Weight bytes of the decoder blocks' linear layers; embeddings and the output head stay 16-bit
# (AWQ/GPTQ/FP8 checkpoints do not quantise them). int4 adds an fp16 scale and zero per 128 weights.
_INFER_BLOCK_BYTES = {"bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5 + 4.0 / 128}


def inference_weight_bytes(shape: ModelShape, precision: str) -> float:
    """Bytes of the served weights at `precision`."""
    return shape.block_params * _INFER_BLOCK_BYTES[precision] + shape.embedding_params * 2.0


def kv_bytes_per_token(shape: ModelShape) -> float:
    """KV cache per token: 2 (K and V) * layers * kv_heads * head_dim * 2 bytes (16-bit cache);
    with a latent cache (MLA), layers * latent elements * 2 bytes."""
    if shape.kv_latent:
        return shape.layers * shape.kv_latent * 2.0
    return 2.0 * shape.layers * shape.kv_heads * shape.head_dim * 2.0


def expert_fraction_read(shape: ModelShape, batch: float) -> float:
    """Share of the routed experts' weights one decode step reads for `batch` sequences: each
    token picks k of E experts, so with even routing an expert is idle for the whole batch with
    probability (1 - k/E)^batch (1 for a dense model)."""
    if not shape.is_moe:
        return 1.0
    idle: float = (1.0 - shape.experts_per_token / shape.experts) ** max(1.0, batch)
    return 1.0 - idle


# Serving stacks that prefill in chunks of a bounded token budget per step; the rest (and
# serving="none": plain Hugging Face generate()) prefill every sequence's prompt at once. SGLang's
# scheduler chunks too (`--chunked-prefill-size`, "the maximum number of tokens in a chunk for
# the chunked prefill": sgl-project/sglang python/sglang/srt/server_args.py, 001067ff).
CHUNKED_PREFILL_SERVING = frozenset({"vllm", "sglang", "tgi", "tensorrt_llm", "triton"})


def prefill_tokens(inf: Inference, catalog: Catalog, serving: str | None = None) -> float:
    """Tokens whose activations the prefill holds at once: the whole batch's prompts, bounded by
    the serving stack's chunk (chunked prefill) or by the whole-batch cap."""
    prompt = max(1, inf.prompt_tokens)
    cap = catalog.figure(
        "serving_prefill_chunk_tokens"
        if serving in CHUNKED_PREFILL_SERVING
        else "prefill_chunk_tokens"
    )
    return min(float(prompt * inf.concurrent_sequences), cap)


def inference_memory(
    shape: ModelShape, inf: Inference, catalog: Catalog, serving: str | None = None
) -> InferenceMemory:
    """Memory to serve `inf.concurrent_sequences` sequences of `inf.context_tokens` each with
    the `serving` stack (None = like Hugging Face generate(): the whole batch prefilled at once)."""
    weights = inference_weight_bytes(shape, inf.precision)
    kvt = kv_bytes_per_token(shape)
    kv = kvt * inf.context_tokens * inf.concurrent_sequences
    chunk = prefill_tokens(inf, catalog, serving)
    # Prefill workspace of one layer at a time (residual, norm, q/k/v, attention out, fused
    # gate/up and the activation), plus fp32 logits and probabilities of each sequence's last token.
    per_token = 2.0 * (4 * shape.hidden + 2 * shape.kv_dim + 3 * shape.mlp_width)
    activations = chunk * per_token + inf.concurrent_sequences * shape.vocab * 8.0
    runtime = catalog.figure("runtime_overhead_gib") * GIB
    return InferenceMemory(
        parts={"weights": weights, "kv_cache": kv, "activations": activations, "other": runtime},
        kv_bytes_per_token=kvt,
        weight_bytes=weights,
        expert_weight_bytes=shape.expert_params * _INFER_BLOCK_BYTES[inf.precision],
    )


def inference_bytes_per_device(mem: InferenceMemory, shape: ModelShape, n: int) -> float:
    """Peak bytes per device with tensor parallelism over n devices (KV heads replicate past n)."""
    if n <= 1:
        return mem.total
    kv_split = shape.kv_split(n)
    p = mem.parts
    return p["weights"] / n + p["kv_cache"] / kv_split + p["activations"] / n + p["other"]


# --------------------------------------------------------------------------- device counts


def valid_counts(acc: Accelerator) -> list[int]:
    """Device counts we propose: TPU slice sizes, or 1, 2, 4, 8 then whole nodes of GPUs (any
    number of them: 9 nodes are 72 GPUs, never rounded up to 128)."""
    return list(device_counts(acc.slice_sizes, acc.max_devices_per_group, _node_step(acc)))


def _node_step(acc: Accelerator) -> int | None:
    # GPUs beyond one node come in whole nodes; TPU pods without listed slices keep doubling.
    return None if acc.type == "tpu" else max(1, acc.max_devices_per_node)


@lru_cache(maxsize=256)
def device_counts(
    slice_sizes: tuple[int, ...] | None, max_group: int, node: int | None = None
) -> tuple[int, ...]:
    if slice_sizes:
        return slice_sizes
    counts = [1, 2, 4, 8]
    if node is not None and node >= 8:
        n = 2 * node
        while n <= max_group:
            counts.append(n)
            n += node
    else:
        n = 16
        while n <= max_group:
            counts.append(n)
            n *= 2
    return tuple(c for c in counts if c <= max_group)


def min_training_devices(mem: TrainingMemory, acc: Accelerator, catalog: Catalog) -> int | None:
    """Fewest devices that hold the run with ZeRO-3/FSDP sharding, plus tensor parallelism
    inside a unit when one device cannot hold a micro-batch's activations (so halving device
    memory roughly doubles the count), or None if none does."""
    counts = valid_counts(acc)
    # Past the last count that some tensor-parallel size cannot divide, every size is open to
    # every count and a device's share only falls as the count grows, so the first count that
    # holds the run is found by bisection (a count list runs to hundreds of whole nodes).
    regular = _regular_from(tuple(counts), training_tp_sizes(acc))
    for n in counts[:regular]:
        if training_tp(mem, acc, n, catalog) is not None:
            return n
    lo, hi = regular, len(counts)
    while lo < hi:
        mid = (lo + hi) // 2
        if training_tp(mem, acc, counts[mid], catalog) is None:
            lo = mid + 1
        else:
            hi = mid
    return counts[lo] if lo < len(counts) else None


@lru_cache(maxsize=256)
def _regular_from(counts: tuple[int, ...], sizes: tuple[int, ...]) -> int:
    # The index from which every count is divisible by every size (never 0: one device is
    # sized by its own rule, not the sharded one).
    regular = len(counts)
    while regular > 1 and not any(counts[regular - 1] % t for t in sizes):
        regular -= 1
    return max(regular, 1)


def min_inference_devices(
    mem: InferenceMemory, shape: ModelShape, acc: Accelerator, catalog: Catalog
) -> int | None:
    """Fewest devices that serve the model with tensor (then pipeline) parallelism."""
    usable = usable_gib(acc, catalog) * GIB
    for n in valid_counts(acc):
        if n > 64:
            break
        if inference_bytes_per_device(mem, shape, n) <= usable:
            return n
    return None


def interconnect_need(acc: Accelerator, n: int | None, training: bool) -> str:
    """Message code for the interconnect a device count needs."""
    if n is None:
        return "interconnect.none_fits"
    if n == 1:
        return "interconnect.single"
    if acc.type == "tpu":
        return "interconnect.tpu_ici"
    if n <= acc.max_devices_per_node:
        return "interconnect.nvlink" if acc.fast_interconnect else "interconnect.pcie_only"
    return "interconnect.multi_node_training" if training else "interconnect.multi_node_inference"


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


def to_gib(value: float) -> float:
    """Bytes to GiB rounded for display (3 decimals)."""
    return round(value / GIB, 3)


def parts_gib(parts: dict[str, float]) -> dict[str, Any]:
    """Parts in GiB plus a total that equals their sum exactly (after rounding)."""
    out: dict[str, Any] = {k: to_gib(v) for k, v in parts.items()}
    out["total"] = round(sum(out.values()), 3)
    return out
