"""Sizing: what a model needs of a card (memory, compute, throughput), measured or estimated.

Memory, time and device-count sizing for decoder-only Transformers (Llama-style blocks);
serving throughput and the serving plan are in throughput.py.

Memory follows what current PyTorch allocates for a Hugging Face causal LM: weights, gradients and
optimizer state per parameter (Transformer Math 101 and the PyTorch AMP layout), activations saved
for backward with SDPA/flash attention (no seq^2 term), the logits and loss buffers over the
vocabulary, and a runtime overhead. The peak is the larger of two phases: the start of backward
(all activations alive) and the optimizer step (all gradients alive). Figures that come from
outside (MFU, bandwidth utilisation, reserves) are read from the catalog's `figures`.

- `shape`: the model's shape, the memory a card leaves for it, bytes in GiB
- `memory`: training and inference memory per device
- `devices`: the device counts proposed, the fewest that fit, the interconnect they need
- `training_time`: the peak, FLOPs, MFU and hours of a training run

The engine's modules read the names below.
"""

from advisor.engine.sizing.devices import (
    device_counts,
    interconnect_need,
    min_inference_devices,
    min_training_devices,
    valid_counts,
)
from advisor.engine.sizing.memory import (
    CHUNKED_PREFILL_SERVING,
    InferenceMemory,
    TrainingMemory,
    expert_fraction_read,
    inference_memory,
    inference_weight_bytes,
    kv_bytes_per_token,
    prefill_tokens,
    training_memory,
    training_tp,
)
from advisor.engine.sizing.shape import (
    GIB,
    ModelShape,
    parts_gib,
    shape_from_architecture,
    shape_from_preset,
    to_gib,
    usable_gib,
)
from advisor.engine.sizing.training_time import (
    Mfu,
    TrainingFlops,
    peak_tflops,
    training_flops,
    training_hours,
    training_mfu,
)

__all__ = [
    "CHUNKED_PREFILL_SERVING",
    "GIB",
    "InferenceMemory",
    "Mfu",
    "ModelShape",
    "TrainingFlops",
    "TrainingMemory",
    "device_counts",
    "expert_fraction_read",
    "inference_memory",
    "inference_weight_bytes",
    "interconnect_need",
    "kv_bytes_per_token",
    "min_inference_devices",
    "min_training_devices",
    "parts_gib",
    "peak_tflops",
    "prefill_tokens",
    "shape_from_architecture",
    "shape_from_preset",
    "to_gib",
    "training_flops",
    "training_hours",
    "training_memory",
    "training_mfu",
    "training_tp",
    "usable_gib",
    "valid_counts",
]
