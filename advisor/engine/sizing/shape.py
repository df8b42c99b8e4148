"""The model being sized (from a preset or an architecture answer), the memory a card leaves
for it, and bytes in GiB for display."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.engine.answers.vocabulary import Architecture
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


def to_gib(value: float) -> float:
    """Bytes to GiB rounded for display (3 decimals)."""
    return round(value / GIB, 3)


def parts_gib(parts: dict[str, float]) -> dict[str, Any]:
    """Parts in GiB plus a total that equals their sum exactly (after rounding)."""
    out: dict[str, Any] = {k: to_gib(v) for k, v in parts.items()}
    out["total"] = round(sum(out.values()), 3)
    return out
