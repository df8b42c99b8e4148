"""Memory per device: training (weights, gradients, optimizer state, activations, logits and
runtime overhead, at the larger of its two peaks) and inference (weights, KV cache,
activations)."""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.engine.answers.vocabulary import Inference, Training
from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.sizing.shape import GIB, ModelShape, usable_gib

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
