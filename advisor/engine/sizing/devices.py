"""Device counts: the counts proposed for a card, the fewest that hold a training run or a
serving replica, and the interconnect that count needs."""

from __future__ import annotations

from functools import lru_cache

from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.sizing.memory import (
    InferenceMemory,
    TrainingMemory,
    inference_bytes_per_device,
    training_tp,
    training_tp_sizes,
)
from advisor.engine.sizing.shape import GIB, ModelShape, usable_gib

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
