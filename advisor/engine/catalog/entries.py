"""The catalog's entries: accelerators, the units they are sold in, prices and model presets,
and the error that names what is wrong with catalog data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from advisor.engine.answers.problems import Problem

# flex_start (Google's DWS Flex-start) is its own billing: queued capacity at a discount that,
# unlike spot, is not preempted once it runs.
BILLING_KINDS = (
    "on_demand",
    "spot",
    "flex_start",
    "reserved_block",
    "commit_1y",
    "commit_3y",
    "monthly",
)


class CatalogError(ValueError):
    """Catalog data is malformed; `.problems` lists every problem."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{p.path}: {p.code} {p.params}" for p in problems[:5]))


@dataclass(frozen=True, slots=True)
class Accelerator:
    id: str
    name: str
    vendor: str
    type: str  # "gpu" | "tpu"
    memory_gb: float
    memory_gib: float
    memory_bw_tbps: float
    bf16_dense_tflops: float | None
    fp16_dense_tflops: float | None
    fp8_dense_tflops: float | None
    int8_dense_tops: float | None
    interconnect: str
    fast_interconnect: bool
    max_devices_per_node: int
    max_devices_per_group: int
    slice_sizes: tuple[int, ...] | None
    source: str
    as_of: str | None
    estimated_fields: tuple[str, ...] = ()
    host_reference: Mapping[str, Any] | None = None
    # What runs on the card as it is (frameworks, serving stacks, custom CUDA kernels), sourced.
    compatibility: Mapping[str, Any] | None = None
    interconnect_gbps: float | None = None
    # Numeric formats the card runs (native / weight_only / none per bf16, fp16, fp8, int8, int4)
    # and, for NVIDIA cards, the CUDA compute capability ("8.0"), sourced.
    capabilities: Mapping[str, Any] | None = None
    # Board power (thermal design power) in watts, sourced with the card: owned hardware's
    # electricity and colocation are sized from it.
    tdp_w: float | None = None

    def format_support(self, fmt: str) -> str:
        """native / weight_only / none for a numeric format. A card without capability data is
        read from its dense TFLOP/s: a format with a figure is native, bf16/fp16/fp8 without
        one are not; int8/int4 are assumed to have a weight-only path."""
        formats = (self.capabilities or {}).get("formats") or {}
        if fmt in formats:
            return str(formats[fmt])
        figure = {
            "bf16": self.bf16_dense_tflops,
            "fp16": self.fp16_dense_tflops,
            "fp8": self.fp8_dense_tflops,
            "int8": self.int8_dense_tops,
        }.get(fmt)
        if figure:
            return "native"
        return "weight_only" if fmt in ("int8", "int4") else "none"

    @property
    def compute_capability(self) -> tuple[int, int] | None:
        """CUDA compute capability as (major, minor); None for cards without CUDA."""
        value = (self.capabilities or {}).get("compute_capability")
        if not value:
            return None
        major, _, minor = str(value).partition(".")
        return int(major), int(minor or 0)


@dataclass(frozen=True, slots=True)
class UnitShape:
    """One purchasable shape of a unit: its GPUs and the host that comes with them (None: the
    source does not state it)."""

    gpus: int
    vcpu: float | None
    ram_gb: float | None
    nvme_gb: float | None
    network_gbps: float | None


@dataclass(frozen=True, slots=True)
class Unit:
    """What a price row sells, as sold: an instance type, a node or a VM family to which 1, 2, 4
    or 8 GPUs attach (one shape per GPU count). Tensor parallelism stays inside one unit."""

    id: str
    name: str
    shapes: tuple[UnitShape, ...]  # by GPU count, ascending
    gpu_link: str  # nvswitch | nvlink | pcie | none (a 1-GPU unit)
    network: str  # infiniband | efa | roce | gpudirect_tcpx | ethernet | unknown (between units)
    source: str
    as_of: str | None
    estimated_fields: tuple[str, ...] = ()
    note: str | None = None

    def shape_for(self, gpus: int) -> UnitShape | None:
        return next((s for s in self.shapes if s.gpus == gpus), None)

    @property
    def max_gpus(self) -> int:
        return self.shapes[-1].gpus


@dataclass(frozen=True, slots=True)
class Price:
    id: str
    accelerator_id: str
    provider: str
    cloud: str  # a key of clouds.CLOUDS
    modes: tuple[str, ...]
    billing: str
    usd_per_device_hour: float | None
    usd_per_device_month: float | None
    region: str | None
    region_key: str | None
    source: str
    as_of: str | None
    estimated: bool
    derived: bool
    note: str | None
    # The devices one purchase holds (AWS p5.48xlarge, an HGX node: 8); the per-device figures
    # are then derived, and counts are billed in whole units.
    gpus_per_unit: int = 1
    unit: str | None = None
    # The operating organisation's own servers (house offers): ranked like any other offer. One
    # sold on request carries an indicative figure (`indicative`, see `with_indicative`): it
    # ranks and prices on it, says its basis, and stays an offer to ask a quote for.
    house: bool = False
    on_request: bool = False
    indicative: bool = False
    # What an indicative figure is the median of: rows, kind, and the row it names.
    indicative_basis: Mapping[str, Any] | None = None
    server: Mapping[str, Any] | None = None
    # A demo figure (the demo seed's house servers): it says so wherever it is shown.
    demo: bool = False
    # The unit the row sells (catalog `units`); None for TPU slices and catalogs without units.
    unit_id: str | None = None


@dataclass(frozen=True, slots=True)
class ModelPreset:
    id: str
    name: str
    parameters: int
    layers: int
    hidden_size: int
    intermediate_size: int
    attention_heads: int
    kv_heads: int
    head_dim: int
    vocab_size: int
    tied_embeddings: bool
    max_position_embeddings: int | None
    source: str
    as_of: str | None
    # Mixture of experts (config.json: num_local_experts / n_routed_experts, num_experts_per_tok,
    # n_shared_experts; moe_layers = layers less first_k_dense_replace); dense models keep 1.
    experts: int = 1
    experts_per_token: int = 1
    shared_experts: int = 0
    moe_layers: int | None = None
    active_parameters: int | None = None
    kv_latent: int | None = None  # MLA: kv_lora_rank + qk_rope_head_dim elements per layer
    # The Hugging Face repository the pilot's commands load; None: the team names it.
    hf_id: str | None = None
