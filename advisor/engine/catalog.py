"""The catalog: accelerators, prices, sizing figures and model presets, each figure with its source.

Seeded from shared/reference (accelerators.json, deployment_offers.json, deployment_costs.md,
sizing.md). Admins may load their own catalog data (same shape) to fill the known gaps.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from importlib import resources
from typing import Any, TypeVar, cast

from jsonschema import Draft202012Validator

from advisor.engine import clouds
from advisor.engine.problems import Problem, join_path

_T = TypeVar("_T")

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


@dataclass(frozen=True, repr=False)
class Catalog:
    """Accelerators, prices, figures and presets; `version` travels with every result."""

    version: str
    accelerators: tuple[Accelerator, ...]
    prices: tuple[Price, ...]
    figures: Mapping[str, Mapping[str, Any]]
    rules: Mapping[str, Mapping[str, Any]]
    regions: Mapping[str, Mapping[str, Any]]
    availability: Mapping[str, Any]
    round_trip: Mapping[str, Any]
    presets: Mapping[str, ModelPreset]
    gaps: tuple[str, ...]
    raw: Mapping[str, Any] = field(repr=False)
    by_id: Mapping[str, Accelerator] = field(repr=False)
    prices_by_accelerator: Mapping[str, tuple[Price, ...]] = field(repr=False)
    units: Mapping[str, Unit] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        return (
            f"Catalog(version={self.version!r}, accelerators={len(self.accelerators)}, "
            f"prices={len(self.prices)})"
        )

    def figure(self, key: str) -> float:
        """The numeric value of a sourced figure (KeyError names the missing figure)."""
        try:
            return self._figure_values[key]
        except KeyError:
            return float(self.figures[key]["value"])

    @cached_property
    def _figure_values(self) -> dict[str, float]:
        out = {}
        for key, fig in self.figures.items():
            try:
                out[key] = float(fig["value"])
            except (KeyError, TypeError, ValueError):
                continue  # figure() raises for it when asked
        return out

    @cached_property
    def hours_per_month(self) -> float:
        """Hours in a billing month (the sourced `hours_per_month` figure), read once: it turns
        hourly prices into monthly ones and back everywhere in costing."""
        return self.figure("hours_per_month")

    @cached_property
    def open_gaps(self) -> tuple[str, ...]:
        """The known gaps (once each) less those the operator's own servers fill: a report
        never says "no H100-class offer physically in Hong Kong" beside the operator's 8 x H100
        server there. A gap an admin's catalog words otherwise stays as written."""
        house = {(p.accelerator_id, p.region_key) for p in self.prices if p.house}

        def filled(gap: str) -> bool:
            cards, region = _GAP_FILLED_BY.get(gap, ((), ""))
            return any((card, region) in house for card in cards)

        return tuple(gap for gap in dict.fromkeys(self.gaps) if not filled(gap))

    def rule(self, key: str) -> Any:
        """The value of a product rule (may be a mapping)."""
        return self.rules[key]["value"]

    def newest_price_date(self) -> str | None:
        """ISO date of the newest dated price (the default 'today' for staleness)."""
        dates = [p.as_of for p in self.prices if p.as_of]
        return max(dates) if dates else None

    def to_dict(self) -> dict[str, Any]:
        """The catalog as plain data (the same shape load_catalog accepts)."""
        return copy.deepcopy(dict(self.raw))

    @cached_property
    def _memo(self) -> dict[Any, Any]:
        return {}

    def memo(self, key: Any, compute: Callable[[], _T]) -> _T:
        """`compute()`, memoised on this catalog under `key` (which must determine the result).
        For lookups derived from the catalog alone (price choice, usable memory, ...).
        """
        memo = self._memo
        try:
            return cast(_T, memo[key])
        except KeyError:
            pass
        except TypeError:  # an unhashable part of the key: compute without memoising
            return compute()
        if len(memo) > 100_000:
            memo.clear()
        out = memo[key] = compute()
        return out


# Known gaps (catalog.json `gaps`) that a house row fills: the cards and the region group that
# fill them. H100-class is the Hopper generation (H100 SXM and PCIe, H200, GH200).
_GAP_FILLED_BY: dict[str, tuple[tuple[str, ...], str]] = {
    "any H100-class offer physically in Hong Kong": (
        ("nvidia-h100-sxm", "nvidia-h100-pcie", "nvidia-h200", "nvidia-gh200"),
        "hong_kong",
    ),
}

_NUM_OR_NULL = {"type": ["number", "null"]}
_SOURCED = {"source": {"type": "string", "minLength": 1}, "as_of": {"type": ["string", "null"]}}
_CATALOG_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["version", "accelerators", "prices", "figures"],
    "properties": {
        "version": {"type": "string", "minLength": 1},
        "accelerators": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": [
                    "id",
                    "name",
                    "type",
                    "memory_gib",
                    "memory_bw_tbps",
                    "source",
                    "as_of",
                ],
                "properties": {
                    "id": {"type": "string", "minLength": 1},
                    "type": {"enum": ["gpu", "tpu"]},
                    "memory_gib": {"type": "number", "exclusiveMinimum": 0},
                    "memory_bw_tbps": {"type": "number", "exclusiveMinimum": 0},
                    "bf16_dense_tflops": _NUM_OR_NULL,
                    "fp16_dense_tflops": _NUM_OR_NULL,
                    "fp8_dense_tflops": _NUM_OR_NULL,
                    **_SOURCED,
                },
            },
        },
        "prices": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [
                    "id",
                    "accelerator_id",
                    "provider",
                    "cloud",
                    "modes",
                    "billing",
                    "source",
                    "as_of",
                ],
                "properties": {
                    "cloud": {"enum": list(clouds.CLOUDS)},
                    "billing": {"enum": list(BILLING_KINDS)},
                    "usd_per_device_hour": {"type": ["number", "null"], "minimum": 0},
                    "usd_per_device_month": {"type": ["number", "null"], "minimum": 0},
                    "gpus_per_unit": {"type": "integer", "minimum": 1, "maximum": 4096},
                    "unit": {"type": ["string", "null"], "maxLength": 200},
                    "unit_id": {"type": ["string", "null"], "maxLength": 200},
                    **_SOURCED,
                },
            },
        },
        "figures": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["value", "source", "as_of"],
                "properties": _SOURCED,
            },
        },
    },
}


def _problems(data: Any) -> list[Problem]:
    validator = Draft202012Validator(_CATALOG_SCHEMA)
    out = [
        Problem(join_path(e.absolute_path), "catalog_invalid", {"detail": e.message})
        for e in validator.iter_errors(data)
    ]
    if out:
        return out
    ids = [a["id"] for a in data["accelerators"]]
    known = set(ids)
    if len(known) != len(ids):
        out.append(
            Problem("accelerators", "catalog_invalid", {"detail": "duplicate accelerator ids"})
        )
    for i, p in enumerate(data["prices"]):
        if p["accelerator_id"] not in known:
            out.append(
                Problem(
                    f"prices[{i}].accelerator_id",
                    "catalog_invalid",
                    {"detail": "unknown accelerator"},
                )
            )
        no_value = p.get("usd_per_device_hour") is None and p.get("usd_per_device_month") is None
        if no_value and not p.get("price_on_request"):
            out.append(Problem(f"prices[{i}]", "catalog_invalid", {"detail": "no price value"}))
    return out


@cache
def _bundled(name: str) -> dict[str, Any]:
    raw = resources.files("advisor.engine").joinpath(f"data/{name}").read_text("utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _units(data: Mapping[str, Any]) -> dict[str, Unit]:
    out = {}
    for key, u in (data.get("units") or {}).items():
        shapes = sorted(
            (
                UnitShape(
                    gpus=int(g),
                    vcpu=_opt_float(s.get("vcpu")),
                    ram_gb=_opt_float(s.get("ram_gb")),
                    nvme_gb=_opt_float(s.get("nvme_gb")),
                    network_gbps=_opt_float(s.get("network_gbps")),
                )
                for g, s in (u.get("shapes") or {}).items()
            ),
            key=lambda s: s.gpus,
        )
        if not shapes:
            continue
        out[key] = Unit(
            id=key,
            name=str(u.get("name") or key),
            shapes=tuple(shapes),
            gpu_link=str(u.get("gpu_link") or "none"),
            network=str(u.get("network") or "unknown"),
            source=str(u.get("source") or ""),
            as_of=u.get("as_of"),
            estimated_fields=tuple(u.get("estimated_fields") or ()),
            note=u.get("note"),
        )
    return out


def _compatibility(
    own: Mapping[str, Any] | None, bundled: Mapping[str, Any] | None
) -> Mapping[str, Any] | None:
    """A card's compatibility: its own, with the bundled entry of every serving stack it does not
    name (a catalog published before SGLang was an answer reads SGLang's bundled support, its
    source and the formats it serves); the bundled entry when it has none."""
    if not own or not bundled:
        return own or bundled
    named = own.get("serving") or {}
    missing = [s for s in bundled.get("serving") or {} if s not in named]
    if not missing:
        return own
    out = dict(own)
    out["serving"] = {**named, **{s: bundled["serving"][s] for s in missing}}
    for key in ("serving_sources", "serving_formats"):
        extra = {s: v for s, v in (bundled.get(key) or {}).items() if s in missing}
        if extra:
            out[key] = {**(own.get(key) or {}), **extra}
    return out


# Where a server is rented by the month, and the prices that say what such a month costs.
_HOSTED_MODES = frozenset({"dedicated_hosting", "bare_metal"})
_TERM_BILLINGS = frozenset({"monthly", "commit_1y", "commit_3y"})


def with_indicative(p: Price, prices: tuple[Price, ...], hours: float) -> Price:
    """A row sold on request with an indicative figure: the median per-GPU month of the same
    card's sourced, located and dated prices for a rented server (dedicated or bare metal, by
    the month or term), else of its on-demand rates over a month of hours. The figure names
    its basis (row, provider, place, date); a buyer is told to ask for a quote. A row with a
    figure, or a card with no such price, is returned as it is."""
    if not p.on_request or p.usd_per_device_month is not None or p.usd_per_device_hour:
        return p
    firm = [
        q
        for q in prices
        if q.accelerator_id == p.accelerator_id
        and not q.on_request
        and q.region is not None
        and q.as_of is not None
        and (q.usd_per_device_month or q.usd_per_device_hour)
    ]
    hosted = [q for q in firm if set(q.modes) & _HOSTED_MODES and q.billing in _TERM_BILLINGS]
    pool, basis = (
        (hosted, "rented server")
        if hosted
        else (
            [q for q in firm if q.billing == "on_demand"],
            "on-demand",
        )
    )
    if not pool:
        return p

    def month(q: Price) -> float:
        return float(q.usd_per_device_month or float(q.usd_per_device_hour or 0) * hours)

    ranked = sorted(pool, key=lambda q: (month(q), q.id))
    median = ranked[(len(ranked) - 1) // 2]  # the lower median: a real row, named
    figure = round(month(median), 2)
    return replace(
        p,
        usd_per_device_month=figure,
        estimated=True,
        derived=True,
        indicative=True,
        indicative_basis={
            "rows": len(ranked),
            "kind": "rented_server" if hosted else "on_demand",
            "row": median.id,
            "provider": median.provider,
            "region": median.region,
            "usd_per_device_month": figure,
            "as_of": median.as_of,
        },
        as_of=median.as_of,
        source=(
            f"Indicative, not a quote: the median of {len(ranked)} sourced {basis} price(s) "
            f"per GPU-month for this card, {median.provider} ({median.region}) at "
            f"${figure:,.2f} (catalog row {median.id}, {median.as_of}). Ask for a quote. "
            f"{p.source}"
        ),
    )


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _build(data: Mapping[str, Any]) -> Catalog:
    bundled = _bundled("catalog.json")
    # A catalog published before units were catalog data reads the bundled units.
    unit_data = _units(data if "units" in data else bundled)
    # A catalog published before compatibility was catalog data reads the bundled entry per card.
    bundled_compat = {a["id"]: a.get("compatibility") for a in bundled["accelerators"]}
    bundled_caps = {a["id"]: a.get("capabilities") for a in bundled["accelerators"]}
    accs = tuple(
        Accelerator(
            id=a["id"],
            name=a["name"],
            vendor=a.get("vendor", ""),
            type=a["type"],
            memory_gb=float(a.get("memory_gb") or a["memory_gib"]),
            memory_gib=float(a["memory_gib"]),
            memory_bw_tbps=float(a["memory_bw_tbps"]),
            bf16_dense_tflops=_opt_float(a.get("bf16_dense_tflops")),
            fp16_dense_tflops=_opt_float(a.get("fp16_dense_tflops")),
            fp8_dense_tflops=_opt_float(a.get("fp8_dense_tflops")),
            int8_dense_tops=_opt_float(a.get("int8_dense_tops")),
            interconnect=a.get("interconnect", ""),
            fast_interconnect=bool(a.get("fast_interconnect", False)),
            max_devices_per_node=int(a.get("max_devices_per_node", 8)),
            max_devices_per_group=int(a.get("max_devices_per_group", 4096)),
            slice_sizes=tuple(a["slice_sizes"]) if a.get("slice_sizes") else None,
            source=a["source"],
            as_of=a["as_of"],
            estimated_fields=tuple(a.get("estimated_fields", ())),
            host_reference=a.get("host_reference"),
            compatibility=_compatibility(a.get("compatibility"), bundled_compat.get(a["id"])),
            interconnect_gbps=_opt_float(a.get("interconnect_gbps")),
            capabilities=a.get("capabilities") or bundled_caps.get(a["id"]),
            tdp_w=_opt_float(a.get("tdp_w")),
        )
        for a in data["accelerators"]
    )
    prices = tuple(
        Price(
            id=str(p["id"]),
            accelerator_id=p["accelerator_id"],
            provider=p["provider"],
            cloud=p["cloud"],
            modes=tuple(p["modes"]),
            billing=p["billing"],
            usd_per_device_hour=_opt_float(p.get("usd_per_device_hour")),
            usd_per_device_month=_opt_float(p.get("usd_per_device_month")),
            region=p.get("region"),
            region_key=p.get("region_key"),
            source=p["source"],
            as_of=p["as_of"],
            estimated=bool(p.get("estimated", False)),
            derived=bool(p.get("derived", False)),
            note=p.get("note"),
            gpus_per_unit=int(p.get("gpus_per_unit") or 1),
            unit=p.get("unit"),
            house=bool(p.get("house", False)),
            on_request=bool(p.get("price_on_request", False)),
            server=p.get("server"),
            demo=bool(p.get("demo", False)) and not p.get("price_on_request", False),
            unit_id=p.get("unit_id") if p.get("unit_id") in unit_data else None,
        )
        for p in data["prices"]
    )
    bundled_presets = _bundled("presets.json")["presets"]
    preset_data = data.get("model_presets") or bundled_presets
    # An admin catalog's preset rows carry no repository: the bundled preset of that id names it.
    bundled_hf = {p["id"]: p.get("hf_id") for p in bundled_presets}
    presets = {
        p["id"]: ModelPreset(
            id=p["id"],
            name=p["name"],
            parameters=int(p["parameters"]),
            layers=int(p["layers"]),
            hidden_size=int(p["hidden_size"]),
            intermediate_size=int(p["intermediate_size"]),
            attention_heads=int(p["attention_heads"]),
            kv_heads=int(p["kv_heads"]),
            head_dim=int(p["head_dim"]),
            vocab_size=int(p["vocab_size"]),
            tied_embeddings=bool(p["tied_embeddings"]),
            max_position_embeddings=p.get("max_position_embeddings"),
            source=p["source"],
            as_of=p.get("as_of"),
            experts=int(p.get("experts") or 1),
            experts_per_token=int(p.get("experts_per_token") or 1),
            shared_experts=int(p.get("shared_experts") or 0),
            moe_layers=_opt_int(p.get("moe_layers")),
            active_parameters=_opt_int(p.get("active_parameters")),
            kv_latent=_opt_int(p.get("kv_latent")),
            hf_id=p.get("hf_id") or bundled_hf.get(p["id"]),
        )
        for p in preset_data
    }
    hours = float(
        (data["figures"].get("hours_per_month") or bundled["figures"]["hours_per_month"])["value"]
    )
    prices = tuple(with_indicative(p, prices, hours) for p in prices)
    by_acc: dict[str, list[Price]] = {a.id: [] for a in accs}
    for price in prices:
        by_acc.setdefault(price.accelerator_id, []).append(price)
    bundled_figures = bundled
    return Catalog(
        version=str(data["version"]),
        accelerators=accs,
        prices=prices,
        # A partial admin catalog falls back to the bundled figures for anything it leaves out.
        figures={**bundled_figures["figures"], **data["figures"]},
        rules={**bundled_figures["rules"], **data.get("rules", {})},
        regions={**bundled_figures["regions"], **data.get("regions", {})},
        availability=data.get("availability") or bundled["availability"],
        round_trip=data.get("round_trip_ms") or bundled["round_trip_ms"],
        presets=presets,
        gaps=tuple(data.get("gaps", ())),
        raw=copy.deepcopy(dict(data)),
        by_id={a.id: a for a in accs},
        prices_by_accelerator={k: tuple(v) for k, v in by_acc.items()},
        units=unit_data,
    )


@cache
def _bundled_catalog() -> Catalog:
    return _build(_bundled("catalog.json"))


def load_catalog(data: Mapping[str, Any] | None = None) -> Catalog:
    """Load catalog data (None = bundled data/catalog.json); raises CatalogError if malformed."""
    if data is None:
        return _bundled_catalog()
    problems = _problems(data)
    if problems:
        raise CatalogError(problems)
    return _build(data)
