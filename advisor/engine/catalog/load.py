"""`load_catalog`: catalog data checked and built into a `Catalog` (the bundled data/catalog.json
when none is given), an admin's partial catalog filled from the bundled one."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from advisor.engine.catalog.checks import _problems
from advisor.engine.catalog.entries import (
    Accelerator,
    CatalogError,
    ModelPreset,
    Price,
    Unit,
    UnitShape,
)
from advisor.engine.catalog.indicative import with_indicative
from advisor.engine.catalog.model import Catalog


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
