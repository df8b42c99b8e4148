"""The result document's server sections: the server the recommendation runs on, as sold by its
provider, and the preprocessing server beside it with its price.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.planning import nonllm
from advisor.engine.pricing import costing
from advisor.engine.text import i18n, labels

# --------------------------------------------------------------------------- server


def server_doc(
    option: Mapping[str, Any] | None,
    catalog: Catalog,
    storage_gb: float,
    lang: str,
    weight_bytes: float | None = None,
) -> dict[str, Any] | None:
    """The host for a workload's first option, sized for what it does: training hosts get
    data-loading cores, storage throughput, 2x accelerator memory in RAM and inter-node
    bandwidth only when sharded across nodes; serving hosts get RAM for the model (not 2x the
    GPU memory) and a front-end network."""
    if option is None:
        return None
    acc = catalog.by_id[option["accelerator_id"]]
    count = int(option["count"])
    training = option.get("target_hours") is not None
    per_node = min(count, acc.max_devices_per_node)
    nodes = max(1, math.ceil(count / acc.max_devices_per_node))
    if not training:
        # Serving replicas are independent boxes: size one node of tensor-parallel devices.
        per_node = min(int(option.get("tensor_parallel") or count), acc.max_devices_per_node)
        nodes = max(1, math.ceil(count / per_node))
    notes = []
    if acc.type == "tpu":
        notes.append(i18n.message("server.tpu", lang))
    multi = training and nodes > 1
    if training:
        vcpu = catalog.figure("dataloader_vcpu_per_device")
        ram = catalog.figure("host_ram_per_device_memory") * acc.memory_gib * per_node
        read = catalog.figure("training_read_mb_per_s_per_device") * per_node
        nvme = max(catalog.figure("nvme_per_device_tb") * per_node, storage_gb / 1000.0 * 1.2)
        notes += [
            i18n.message(
                "server.cpu_training",
                lang,
                per=f"{vcpu:g}",
                figure=labels.shown("figure", "dataloader_vcpu_per_device", lang),
            ),
            i18n.message(
                "server.ram",
                lang,
                ratio=f"{catalog.figure('host_ram_per_device_memory'):g}",
                figure=labels.shown("figure", "host_ram_per_device_memory", lang),
            ),
            i18n.message(
                "server.nvme",
                lang,
                ckpt=f"{catalog.figure('checkpoints_kept'):g}",
                per=f"{catalog.figure('nvme_per_device_tb'):g}",
                figure=labels.shown("figure", "nvme_per_device_tb", lang),
            ),
            i18n.message("server.read", lang, mbps=f"{read:,.0f}"),
        ]
    else:
        vcpu = catalog.figure("serving_vcpu_per_device")
        weights_gib = (weight_bytes or 0.0) / sizing.GIB
        ram = max(
            catalog.figure("serving_host_ram_min_gib"),
            catalog.figure("serving_host_ram_per_weight") * weights_gib,
        )
        read = 0.0
        nvme = max(0.5, 2.0 * weights_gib * sizing.GIB / 1e12)
        notes += [
            i18n.message(
                "server.cpu_serving",
                lang,
                per=f"{vcpu:g}",
                figure=labels.shown("figure", "serving_vcpu_per_device", lang),
            ),
            i18n.message(
                "server.ram_serving",
                lang,
                weights=f"{weights_gib:,.0f}",
                ratio=f"{catalog.figure('serving_host_ram_per_weight'):g}",
                min=f"{catalog.figure('serving_host_ram_min_gib'):g}",
            ),
        ]
    net_key = "multi_node_network_gbps_per_device" if multi else "single_node_network_gbps"
    gbps = catalog.figure(net_key) * (per_node if multi else 1)
    notes.append(
        i18n.message(
            "server.network_multi" if multi else "server.network_single",
            lang,
            gbps=f"{catalog.figure(net_key):g}",
        )
    )
    server: dict[str, Any] = {
        "accelerator_id": acc.id,
        "devices_per_node": per_node,
        "nodes": nodes,
        "cpu_cores": int(math.ceil(vcpu * per_node)),
        "ram_gib": int(math.ceil(ram / 64.0) * 64),
        "nvme_tb": round(nvme, 2),
        "network_gbps": gbps,
        "read_mb_per_s": round(read, 0),
        "notes": notes,
    }
    used = option.get("billing_used")
    price = (option.get("prices") or {}).get(used) if used else None
    sold = (price or {}).get("sold_unit")
    if sold:
        _as_sold(server, sold, str((price or {}).get("provider") or ""), lang)
    return server


def quote_server(
    quote: Mapping[str, Any],
    catalog: Catalog,
    storage_gb: float,
    lang: str,
    weight_bytes: float | None = None,
) -> dict[str, Any]:
    """One of the operator's servers in a dead end's quote as the engine sizes its host for the
    workload: CPU cores, RAM, NVMe and network for the cards one server holds,
    shown where the operator entered none."""
    per_server = max(1, int(quote["per_server"] or 1))
    option: dict[str, Any] = {
        "accelerator_id": quote["accelerator_id"],
        "count": per_server * max(1, int(quote["servers"] or 1)),
        "tensor_parallel": per_server,
    }
    if quote.get("training"):
        option["target_hours"] = 0.0
    doc = server_doc(option, catalog, storage_gb, lang, weight_bytes) or {}
    return {k: doc[k] for k in ("cpu_cores", "ram_gib", "nvme_tb", "network_gbps") if k in doc}


def _as_sold(server: dict[str, Any], sold: Mapping[str, Any], provider: str, lang: str) -> None:
    """The server is the unit as sold, k of them: its own vCPU, RAM, NVMe and network, never a
    per-device formula; a field its source leaves out keeps the sized figure and says so."""
    missing = []
    server["devices_per_node"] = int(sold["gpus"])
    server["nodes"] = int(sold["units"])
    for key, field, scale in (
        ("cpu_cores", "vcpu", 1.0),
        ("ram_gib", "ram_gb", 1.0),
        ("nvme_tb", "nvme_gb", 1e-3),
        ("network_gbps", "network_gbps", 1.0),
    ):
        value = sold.get(field)
        if value is None:
            missing.append(field)
            continue
        server[key] = round(value * scale, 2) if key == "nvme_tb" else type(server[key])(value)
    server["sold_as"] = {
        "unit_id": sold["unit_id"],
        "name": sold["name"],
        "provider": provider,
        "units": int(sold["units"]),
        "gpus": int(sold["gpus"]),
        "gpu_link": sold["gpu_link"],
        "network": sold["network"],
        "source": sold["source"],
        "as_of": sold["as_of"],
        "estimated_fields": list(sold.get("estimated_fields") or []),
        "not_stated": missing,
    }
    server["notes"] = [
        i18n.message(
            "server.as_sold",
            lang,
            units=int(sold["units"]),
            unit=sold["name"],
            gpus=int(sold["gpus"]),
            link=i18n.message(f"unit.link.{sold['gpu_link']}", lang),
            network=i18n.message(f"unit.network.{sold['network']}", lang),
        ),
        # The sizing notes explain the figures that stand in for what the source leaves out.
        *(
            [
                i18n.message(
                    "server.not_stated",
                    lang,
                    fields=i18n.list_separator(lang).join(
                        i18n.message(f"unit.field.{f}", lang) for f in missing
                    ),
                ),
                *server["notes"],
            ]
            if missing
            else []
        ),
    ]


def preprocessing_server_doc(
    answers: vocabulary.Answers, catalog: Catalog, lang: str
) -> dict[str, Any]:
    """Preprocessing as its own workload: CPU cores to prepare the data in its window (tokens
    at the tokenising rate, or work in its own unit at its own rate per vCPU)."""
    runs = catalog.rule("training_runs_per_month")
    per_day = 0.0
    if answers.training is not None:
        sched = next(
            (w.schedule for w in answers.workloads if w.kind in vocabulary.TRAINING_KINDS), ""
        )
        per_month = runs.get(sched) or 1.0
        per_day = answers.training.dataset_tokens * float(per_month) / 30.0
    if answers.inference is not None:
        per_day += float(answers.inference.tokens_per_day)
    # No window = all day; a window shorter than a minute counts as one minute.
    window_h = max(answers.cost.hours_per_day, 1.0 / 60.0) if answers.cost.hours_per_day else 24.0
    rate = catalog.figure("preprocess_tokens_per_vcpu_second")
    figure = "preprocess_tokens_per_vcpu_second"
    work = answers.work
    unit_rate = None if work is None else nonllm.host_rate_per_vcpu(catalog, work.unit)
    if work is not None and unit_rate is not None:
        # Work in its own unit is prepared at its own rate per vCPU: JPEG decode, audio
        # features, tokenising passages of the benchmark's length.
        rate, figure = unit_rate
        per_day = work.per_day * nonllm.SAMPLES_PER_UNIT[work.unit]
    vcpu = max(4, math.ceil(per_day / (rate * window_h * 3600.0)))
    price = _preprocessing_price(answers, catalog, vcpu, window_h)
    said = (
        i18n.message(
            "server.preprocessing_work",
            lang,
            per_day=i18n.fmt_number(int(per_day)),
            samples=i18n.message(f"work.samples.{work.unit}", lang),
            rate=f"{rate:,.1f}",
            hours=f"{window_h:g}",
            figure=labels.shown("figure", figure, lang),
            vcpu=vcpu,
        )
        if work is not None and unit_rate is not None
        else i18n.message(
            "server.preprocessing",
            lang,
            tokens=i18n.fmt_number(int(per_day)),
            rate=i18n.fmt_number(int(rate)),
            hours=f"{window_h:g}",
            figure=labels.shown("figure", figure, lang),
        )
    )
    return {
        "workload": "preprocessing",
        "accelerator_id": None,
        "devices_per_node": 0,
        "nodes": 1,
        "cpu_cores": vcpu,
        "ram_gib": int(max(64, math.ceil(vcpu * 4 / 64.0) * 64)),
        "nvme_tb": round(
            max(1.0, per_day * catalog.figure("dataset_bytes_per_token") * 2 / 1e12), 2
        ),
        "network_gbps": catalog.figure("single_node_network_gbps"),
        "read_mb_per_s": None,
        "notes": [
            said,
            _preprocessing_price_note(price, lang),
        ],
        # Priced from a sourced CPU instance price, for the hours it runs.
        "price": price,
    }


def _preprocessing_price(
    answers: vocabulary.Answers, catalog: Catalog, vcpu: int, window_h: float
) -> dict[str, Any]:
    """What the preprocessing CPU server costs a month: its vCPUs at the sourced per-vCPU hour
    of an on-demand CPU instance (4 GiB per vCPU), times the region's multiplier outside the
    US, for the hours a day it runs (billed by the hour, so it is released between runs)."""
    regions = answers.organization.regions
    in_us = bool(regions) and all(r in costing.US_REGIONS for r in regions)
    rate = catalog.figure("cpu_server_usd_per_vcpu_hour")
    multiplier = 1.0 if in_us else catalog.figure("cpu_server_hourly_region_multiplier")
    hours = min(24.0, window_h) * catalog.hours_per_month / 24.0
    usd = vcpu * rate * multiplier * hours
    hourly = {
        "usd_per_month": round(usd, 2),
        "usd_per_vcpu_hour": round(rate * multiplier, 4),
        "hours_per_month": round(hours, 1),
        "vcpu": vcpu,
        "billing": "on_demand",
        "figures": ["cpu_server_usd_per_vcpu_hour"]
        + ([] if in_us else ["cpu_server_hourly_region_multiplier"]),
    }
    # Where the team rents dedicated servers, whole dedicated CPU servers by the
    # month (sourced Los Angeles price), when they cost less than the hours on demand or the team
    # allows no public cloud; a team on private cloud or on premises only keeps the hourly rate.
    modes = answers.deployment.allowed_modes
    if not {"dedicated_hosting", "bare_metal"} & set(modes):
        return hourly
    per_server = catalog.figure("cpu_dedicated_server_vcpu")
    servers = max(1, math.ceil(vcpu / per_server))
    monthly = servers * catalog.figure("cpu_dedicated_server_usd_per_month")
    if "public_cloud" in modes and monthly >= usd:
        return hourly
    return {
        "usd_per_month": round(monthly, 2),
        "usd_per_server_month": catalog.figure("cpu_dedicated_server_usd_per_month"),
        "servers": servers,
        "vcpu_per_server": int(per_server),
        "vcpu": vcpu,
        "billing": "monthly",
        "figures": ["cpu_dedicated_server_usd_per_month", "cpu_dedicated_server_vcpu"],
    }


def _preprocessing_price_note(price: dict[str, Any], lang: str) -> str:
    if price["billing"] == "monthly":
        return i18n.message(
            "server.preprocessing_dedicated",
            lang,
            servers=price["servers"],
            per=price["vcpu_per_server"],
            vcpu=price["vcpu"],
            month=f"{price['usd_per_server_month']:,.0f}",
            usd=f"{price['usd_per_month']:,.0f}",
            figure=labels.shown("figure", "cpu_dedicated_server_usd_per_month", lang),
        )
    return i18n.message(
        "server.preprocessing_priced",
        lang,
        vcpu=price["vcpu"],
        rate=f"{price['usd_per_vcpu_hour']:.4f}",
        hours=f"{price['hours_per_month']:,.0f}",
        usd=f"{price['usd_per_month']:,.0f}",
        figure=labels.shown("figure", "cpu_server_usd_per_vcpu_hour", lang),
    )
