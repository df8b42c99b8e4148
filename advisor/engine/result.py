"""evaluate (the full result document v1), rescore (the fast path) and preview (wizard drafts)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any, cast

from advisor.engine import answers as A
from advisor.engine import asked as Q
from advisor.engine import billing as BL
from advisor.engine import costing as C
from advisor.engine import explain as X
from advisor.engine import i18n, labels
from advisor.engine import nonllm as NL
from advisor.engine import options as O
from advisor.engine import pilot as P
from advisor.engine import ranking as RK
from advisor.engine import relax as R
from advisor.engine import scoring as SC
from advisor.engine import sizing as S
from advisor.engine.catalog import Catalog
from advisor.engine.document import ResultDocument
from advisor.engine.measured import Measurement
from advisor.engine.scoring import ScoringModel

ENGINE_VERSION = "2.3.0"
# v2 adds (v1 documents stay readable: every v1 field keeps its meaning): recommendation.rules,
# workloads[].rules / excluded_options, and per option stack, availability, rank, cost_to_result,
# billing, target_hours / target_basis (training) and the serving load fields.
RESULT_SCHEMA_VERSION = 2


def _shape(answers: A.Answers, catalog: Catalog) -> S.ModelShape | None:
    model = answers.model
    if model is None:
        return None
    if model.architecture is not None:
        return S.shape_from_architecture(model.architecture)
    preset = catalog.presets.get(model.preset or "")
    return S.shape_from_preset(preset) if preset else None


def _context(answers: A.Answers, catalog: Catalog, shape: S.ModelShape | None) -> SC.Context:
    flops = None
    if shape is not None and answers.training is not None:
        flops = S.training_flops(shape, answers.training).total
    return SC.Context(
        region_tpus={k: tuple(v.get("tpus", ())) for k, v in catalog.regions.items()},
        training_flops=flops,
    )


def _coerce(answers: A.Answers | Mapping[str, Any]) -> A.Answers:
    return answers if isinstance(answers, A.Answers) else A.parse_answers(answers)


def _sized(answers: A.Answers, catalog: Catalog, shape: S.ModelShape | None) -> O.Sized:
    tmem = tflops = imem = None
    kinds = set(answers.kinds)
    if shape is not None and answers.training is not None and kinds & A.TRAINING_KINDS:
        tmem = S.training_memory(shape, answers.training, catalog)
        tflops = S.training_flops(shape, answers.training)
    if shape is not None and answers.inference is not None:
        imem = S.inference_memory(shape, answers.inference, catalog, answers.frameworks.serving)
    return O.Sized(shape, tmem, tflops, imem)


def _cost_aware(
    answers: A.Answers,
    catalog: Catalog,
    d: SC.Decision,
    sized: O.Sized,
    ci: BL.CostInputs,
    lang: str,
) -> tuple[SC.Decision, O.Built, dict[str, dict[str, Any] | None]]:
    """The scores' decision with each workload's mode weighed by the cost of its best runnable
    option (options.choose_mode); the overall mode follows the workloads."""
    built: O.Built = {}
    docs: dict[str, dict[str, Any] | None] = {}
    workloads = []
    for wd in d.workloads:
        mode, doc = O.choose_mode(catalog, answers, wd, sized, ci, lang, built)
        if (wd.kind, wd.accelerator, mode) not in built:
            built[(wd.kind, wd.accelerator, mode)] = O.build(
                catalog, answers, wd.kind, wd.schedule, wd.accelerator, mode, sized, ci, lang
            )
        docs[wd.kind] = doc
        workloads.append(wd if mode == wd.mode else dataclasses.replace(wd, mode=mode))
    moved = [w.mode for w, old in zip(workloads, d.workloads, strict=True) if w.mode != old.mode]
    overall = d.mode
    if moved and all(w.mode != d.mode for w in workloads if w.accelerator == d.accelerator):
        # Every workload left the scores' overall mode: the overall mode is the most common one.
        counts = [w.mode for w in workloads if w.accelerator == d.accelerator] or moved
        overall = max(dict.fromkeys(counts), key=counts.count)
    return dataclasses.replace(d, mode=overall, workloads=tuple(workloads)), built, docs


def _real_changes(
    changes: list[dict[str, Any]],
    current: tuple[str, str],
    answers: A.Answers,
    catalog: Catalog,
    d: SC.Decision,
    sized: O.Sized,
    ci: BL.CostInputs,
    built: O.Built,
) -> list[dict[str, Any]]:
    """Only changes that give a different recommendation: not the current one, not a list that
    only forbids what is recommended, and not a mode that cost would move back from."""
    out = []
    verdicts: dict[tuple[str, str], bool] = {}
    for change in changes:
        target = (change["accelerator"], change["deployment_mode"])
        if target == current:
            continue
        if any(
            isinstance(c["from"], list)
            and isinstance(c["to"], list)
            and set(c["to"]) < set(c["from"])
            for c in change["changes"]
        ):
            continue  # narrowing a list only forbids what is recommended: not a lever
        if target not in verdicts:
            verdicts[target] = _cost_keeps(target, answers, catalog, d, sized, ci, built)
        kept = verdicts[target]
        if kept:
            out.append(change)
    return out


def _card_confidence(
    options: list[dict[str, Any]], catalog: Catalog, budget: float | None = None
) -> float:
    """How sure the first card is: 0.5 + 0.5 * min(1, cost gap to the next runnable, available,
    priced option / (full-gap fraction * its cost)); 1.0 when it is the only one; 0.5 when the
    first is unpriced; at most 0.5 when it misses its latency or deadline target, or when it
    alone costs more a month than the budget (issue 22: a whole 8-card server bought for a job
    that fits one card was "100%" sure at $17,114 over a $15,000 budget)."""
    if not options:
        return 0.5
    first = options[0]
    cost = first["cost_to_result"]["usd"]
    if cost is None:
        conf = 0.5
    else:
        nxt = [
            o["cost_to_result"]["usd"]
            for o in options[1:]
            if o["stack"]["runnable"]
            and o["availability"]["available"]
            and o["cost_to_result"]["usd"] is not None
        ]
        if not nxt or cost <= 0:
            conf = 1.0
        else:
            full = catalog.figure("card_confidence_full_gap") * cost
            conf = round(0.5 + 0.5 * min(1.0, max(0.0, nxt[0] - cost) / full), 3)
    if first.get("meets_latency") is False or first.get("meets_deadline") is False:
        conf = min(conf, 0.5)
    monthly = first.get("monthly_cost_usd")
    if budget is not None and monthly is not None and monthly > budget:
        conf = min(conf, 0.5)
    return conf


def _cost_keeps(
    target: tuple[str, str],
    answers: A.Answers,
    catalog: Catalog,
    d: SC.Decision,
    sized: O.Sized,
    ci: BL.CostInputs,
    built: O.Built,
) -> bool:
    """Whether weighing cost keeps a flip's (family, mode) for every workload. TPUs and owned
    modes are never moved by cost, and public cloud is where the catalog's prices are, so only
    GPU flips to a hosted mode (dedicated hosting, bare metal) are checked."""
    if target[0] != "gpu" or target[1] not in ("dedicated_hosting", "bare_metal"):
        return True
    for wd in d.workloads:
        trial = dataclasses.replace(
            wd,
            accelerator=target[0],
            mode=target[1],
            feasible_modes=tuple(dict.fromkeys((*wd.feasible_modes, target[1]))),
        )
        mode, _ = O.choose_mode(
            catalog, answers, trial, sized, ci, "en", built, full_preferred=False
        )
        if mode != target[1]:
            return False
    return True


def _headline(firsts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first option whose billing the headline shows: of the costliest workload."""
    return max(
        (o for o in firsts if o.get("billing")),
        key=lambda o: o["monthly_cost_usd"] or 0.0,
        default=None,
    )


def rescore(answers: A.Answers, catalog: Catalog, scoring: ScoringModel) -> dict[str, Any]:
    """Fast path for bulk re-scoring: accelerator, mode, billing and scores; no explanations."""
    answers = _coerce(answers)
    shape = _shape(answers, catalog)
    ctx = _context(answers, catalog, shape)
    facts = SC.answers_facts(answers)
    d = SC.decide(facts, scoring, ctx)
    sized = _sized(answers, catalog, shape)
    when = _today(catalog, None)
    ci = _cost_inputs(answers, catalog, when, float(catalog.rule("stale_after_days")))
    d, built, _ = _cost_aware(answers, catalog, d, sized, ci, "en")
    firsts = []
    for wd in d.workloads:
        options = built[(wd.kind, wd.accelerator, wd.mode)].options
        if options:
            firsts.append({**options[0], "workload": wd.kind})
    headline = _headline(firsts)
    billing = (
        headline["billing"]
        if headline is not None
        else BL.billing_advice(d.mode, d.facts, catalog)[0]
    )
    return {
        "accelerator": d.accelerator,
        "deployment_mode": d.mode,
        "billing": billing,
        "scores": _scores(d),
    }


def _scores(d: SC.Decision) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for acc in SC.ACCELERATORS:
        idx = SC.OPTIONS.index(acc)
        feasible = [w for w in d.workloads if acc in w.feasible_accelerators]
        out[acc] = round(sum(w.scores[idx] for w in feasible), 3) if feasible else None
    return out


# --------------------------------------------------------------------------- sizing section


def _fits(catalog: Catalog, total: float) -> list[str]:
    return [a.id for a in catalog.accelerators if total <= S.usable_gib(a, catalog) * S.GIB]


def _common_assumptions(catalog: Catalog, shape: S.ModelShape, lang: str) -> list[str]:
    moe = (
        [
            i18n.message(
                "assume.moe",
                lang,
                experts=shape.experts,
                k=shape.experts_per_token,
                shared=shape.shared_experts,
                active=i18n.fmt_number(shape.active),
                parameters=i18n.fmt_number(shape.parameters),
                ratio=f"{shape.parameters / shape.active:.1f}",
            )
        ]
        if shape.is_moe
        else []
    )
    return [
        i18n.message("assume.gib", lang),
        *moe,
        i18n.message(
            "assume.model",
            lang,
            name=shape.name,
            parameters=i18n.fmt_number(shape.parameters),
            layers=shape.layers,
            hidden=shape.hidden,
            heads=shape.heads,
            kv_heads=shape.kv_heads,
            vocab=shape.vocab,
        ),
        i18n.message("assume.runtime", lang, gib=catalog.figure("runtime_overhead_gib")),
        i18n.message(
            "assume.reserve",
            lang,
            min_gib=catalog.figure("reserve_min_gib"),
            fraction=i18n.percent(catalog.figure("reserve_fraction")),
        ),
    ]


def _copy_sizing(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A sizing section out of the catalog's memo: its dicts and lists are the caller's."""
    return {
        k: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v
        for k, v in doc.items()
    }


def _training_sizing(
    shape: S.ModelShape, t: A.Training, kind: str, catalog: Catalog, lang: str
) -> tuple[dict[str, Any], S.TrainingMemory, S.TrainingFlops]:
    """The training sizing section, memoised on the catalog (a copy is handed out)."""
    doc, mem, flops = catalog.memo(
        ("training_sizing", shape, t, kind, lang),
        lambda: _new_training_sizing(shape, t, kind, catalog, lang),
    )
    return _copy_sizing(doc), mem, flops


def _new_training_sizing(
    shape: S.ModelShape, t: A.Training, kind: str, catalog: Catalog, lang: str
) -> tuple[dict[str, Any], S.TrainingMemory, S.TrainingFlops]:
    mem = S.training_memory(shape, t, catalog)
    flops = S.training_flops(shape, t)
    per_param = (
        (mem.sharded_step - mem.detail["optimizer_step_transient"]) / mem.trainable_params
        if t.method == "full"
        else None
    )
    assumptions = _common_assumptions(catalog, shape, lang)
    if per_param is not None:
        assumptions.append(
            i18n.message(
                "assume.train_states",
                lang,
                precision=i18n.value_label("training.precision", t.precision, lang),
                optimizer=i18n.value_label("training.optimizer", t.optimizer, lang),
                bytes=f"{per_param:g}",
            )
        )
    else:
        base = "NF4 (4.13 bits) + fp32 embeddings" if t.method == "qlora" else "16-bit"
        assumptions.append(
            i18n.message(
                "assume.lora",
                lang,
                method=i18n.value_label("training.method", t.method, lang),
                rank=t.lora_rank,
                trainable=i18n.fmt_number(mem.trainable_params),
                base=base,
            )
        )
    assumptions += [
        i18n.message(
            "assume.activations",
            lang,
            per_token=f"{mem.detail['activations_per_token_per_layer']:,.0f}",
            ckpt=i18n.message("assume.ckpt", lang) if t.gradient_checkpointing else "",
            batch=t.micro_batch_size,
            seq=t.sequence_length,
        ),
        i18n.message(
            "assume.logits",
            lang,
            vocab=f"{shape.vocab:,}",
            bytes=f"{catalog.figure('logits_bytes_per_element'):g}",
        ),
        i18n.message(
            "assume.peak_phase",
            lang,
            phase=i18n.label(mem.peak_phase, lang),
            fb=S.to_gib(mem.phases["forward_backward"]),
            step=S.to_gib(mem.phases["optimizer_step"]),
        ),
        i18n.message("assume.sharding", lang),
        i18n.message(
            "assume.train_time",
            lang,
            factor=f"{flops.factor:g}",
            flops=f"{flops.total:.3g}",
            tokens=i18n.fmt_number(int(t.dataset_tokens * t.epochs)),
            mfu=f"{S.training_mfu(kind, t, catalog):.2f}",
        ),
        i18n.message(
            "assume.run_overhead",
            lang,
            provisioning=f"{catalog.figure('run_provisioning_minutes'):g}",
            container=f"{catalog.figure('run_container_start_minutes'):g}",
            bandwidth=f"{catalog.figure('staging_gbytes_per_s'):g}",
        ),
    ]
    if t.optimizer == "adamw":
        assumptions.append(
            i18n.message(
                "assume.transient",
                lang,
                impl=t.optimizer_impl,
                bytes=f"{mem.detail['optimizer_step_transient'] / max(1, mem.trainable_params):g}",
            )
        )
    if shape.max_positions and t.sequence_length > shape.max_positions:
        assumptions.append(
            i18n.message(
                "assume.seq_over_max", lang, seq=t.sequence_length, max=shape.max_positions
            )
        )
    min_devices: dict[str, int | None] = {}
    interconnect: dict[str, str] = {}
    for acc in catalog.accelerators:
        n = S.min_training_devices(mem, acc, catalog)
        min_devices[acc.id] = n
        interconnect[acc.id] = i18n.message(S.interconnect_need(acc, n, training=True), lang)
    doc = {
        "memory_gib": S.parts_gib(mem.parts),
        "peak_phase": mem.peak_phase,
        "phases_gib": {k: S.to_gib(v) for k, v in mem.phases.items()},
        "detail_gib": {
            k: S.to_gib(v) for k, v in mem.detail.items() if k != "activations_per_token_per_layer"
        },
        "trainable_parameters": mem.trainable_params,
        "fits_single_device": _fits(catalog, mem.total),
        "min_devices": min_devices,
        "interconnect": interconnect,
        "flops": {"dense": flops.dense, "attention": flops.attention, "total": flops.total},
        "assumptions": assumptions,
    }
    return doc, mem, flops


def _inference_sizing(
    shape: S.ModelShape, inf: A.Inference, catalog: Catalog, lang: str, serving: str
) -> tuple[dict[str, Any], S.InferenceMemory]:
    """The inference sizing section, memoised on the catalog (a copy is handed out)."""
    doc, mem = catalog.memo(
        ("inference_sizing", shape, inf, lang, serving),
        lambda: _new_inference_sizing(shape, inf, catalog, lang, serving),
    )
    return _copy_sizing(doc), mem


def _new_inference_sizing(
    shape: S.ModelShape, inf: A.Inference, catalog: Catalog, lang: str, serving: str
) -> tuple[dict[str, Any], S.InferenceMemory]:
    mem = S.inference_memory(shape, inf, catalog, serving)
    assumptions = _common_assumptions(catalog, shape, lang) + [
        i18n.message(
            "assume.inf_weights",
            lang,
            precision=i18n.value_label("inference.precision", inf.precision, lang),
        ),
        i18n.message(
            "assume.kv",
            lang,
            layers=shape.layers,
            kv_heads=shape.kv_heads,
            head_dim=shape.head_dim,
            per_token=f"{mem.kv_bytes_per_token / 1024:g}",
            context=f"{inf.context_tokens:,}",
            concurrent=inf.concurrent_sequences,
        ),
        _prefill_assumption(inf, catalog, lang, serving),
        i18n.message(
            "assume.serving",
            lang,
            mbu=f"{catalog.figure('decode_mbu'):g}",
            mfu=f"{catalog.figure('decode_compute_mfu'):g}",
        ),
        i18n.message(
            "assume.calibrated_serving",
            lang,
            overhead=f"{catalog.figure('decode_overhead_us_per_sequence'):g}",
            large=catalog.rule("offline_max_num_seqs")["large"],
            other=catalog.rule("offline_max_num_seqs")["other"],
        ),
        i18n.message("assume.vllm", lang),
    ]
    min_devices: dict[str, int | None] = {}
    interconnect: dict[str, str] = {}
    for acc in catalog.accelerators:
        n = S.min_inference_devices(mem, shape, acc, catalog)
        min_devices[acc.id] = n
        interconnect[acc.id] = i18n.message(S.interconnect_need(acc, n, training=False), lang)
    doc = {
        "memory_gib": S.parts_gib(mem.parts),
        "kv_cache_bytes_per_token": mem.kv_bytes_per_token,
        "fits_single_device": _fits(catalog, mem.total),
        "min_devices": min_devices,
        "interconnect": interconnect,
        "assumptions": assumptions,
    }
    return doc, mem


def _prefill_assumption(inf: A.Inference, catalog: Catalog, lang: str, serving: str) -> str:
    tokens = f"{S.prefill_tokens(inf, catalog, serving):,.0f}"
    if serving in S.CHUNKED_PREFILL_SERVING:
        return i18n.message(
            "assume.prefill_chunked",
            lang,
            serving=i18n.value_label("frameworks.serving", serving, lang),
            tokens=tokens,
            chunk=f"{catalog.figure('serving_prefill_chunk_tokens'):,.0f}",
        )
    return i18n.message(
        "assume.prefill",
        lang,
        serving=i18n.value_label("frameworks.serving", serving, lang),
        tokens=tokens,
        chunk=f"{catalog.figure('prefill_chunk_tokens'):,.0f}",
    )


# --------------------------------------------------------------------------- server


def _server(
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
        weights_gib = (weight_bytes or 0.0) / S.GIB
        ram = max(
            catalog.figure("serving_host_ram_min_gib"),
            catalog.figure("serving_host_ram_per_weight") * weights_gib,
        )
        read = 0.0
        nvme = max(0.5, 2.0 * weights_gib * S.GIB / 1e12)
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
                    fields=i18n.message("list.separator", lang).join(
                        i18n.message(f"unit.field.{f}", lang) for f in missing
                    ),
                ),
                *server["notes"],
            ]
            if missing
            else []
        ),
    ]


def _preprocessing_server(answers: A.Answers, catalog: Catalog, lang: str) -> dict[str, Any]:
    """Preprocessing as its own workload: CPU cores to tokenise the data in its window."""
    runs = catalog.rule("training_runs_per_month")
    per_day = 0.0
    if answers.training is not None:
        sched = next((w.schedule for w in answers.workloads if w.kind in A.TRAINING_KINDS), "")
        per_month = runs.get(sched) or 1.0
        per_day = answers.training.dataset_tokens * float(per_month) / 30.0
    if answers.inference is not None:
        per_day += float(answers.inference.tokens_per_day)
    # No window = all day; a window shorter than a minute counts as one minute.
    window_h = max(answers.cost.hours_per_day, 1.0 / 60.0) if answers.cost.hours_per_day else 24.0
    rate = catalog.figure("preprocess_tokens_per_vcpu_second")
    vcpu = max(4, math.ceil(per_day / (rate * window_h * 3600.0)))
    price = _preprocessing_price(answers, catalog, vcpu, window_h)
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
            i18n.message(
                "server.preprocessing",
                lang,
                tokens=i18n.fmt_number(int(per_day)),
                rate=i18n.fmt_number(int(rate)),
                hours=f"{window_h:g}",
                figure=labels.shown("figure", "preprocess_tokens_per_vcpu_second", lang),
            ),
            _preprocessing_price_note(price, lang),
        ],
        # Issue 22 item 6: priced from a sourced CPU instance price, for the hours it runs.
        "price": price,
    }


def _preprocessing_price(
    answers: A.Answers, catalog: Catalog, vcpu: int, window_h: float
) -> dict[str, Any]:
    """What the preprocessing CPU server costs a month: its vCPUs at the sourced per-vCPU hour
    of an on-demand CPU instance (4 GiB per vCPU), times the region's multiplier outside the
    US, for the hours a day it runs (billed by the hour, so it is released between runs)."""
    regions = answers.organization.regions
    in_us = bool(regions) and all(r in C.US_REGIONS for r in regions)
    rate = catalog.figure("cpu_server_usd_per_vcpu_hour")
    multiplier = 1.0 if in_us else catalog.figure("cpu_server_hourly_region_multiplier")
    hours = min(24.0, window_h) * catalog.hours_per_month / 24.0
    usd = vcpu * rate * multiplier * hours
    return {
        "usd_per_month": round(usd, 2),
        "usd_per_vcpu_hour": round(rate * multiplier, 4),
        "hours_per_month": round(hours, 1),
        "vcpu": vcpu,
        "billing": "on_demand",
        "figures": ["cpu_server_usd_per_vcpu_hour"]
        + ([] if in_us else ["cpu_server_hourly_region_multiplier"]),
    }


def _preprocessing_price_note(price: dict[str, Any], lang: str) -> str:
    return i18n.message(
        "server.preprocessing_priced",
        lang,
        vcpu=price["vcpu"],
        rate=f"{price['usd_per_vcpu_hour']:.4f}",
        hours=f"{price['hours_per_month']:,.0f}",
        usd=f"{price['usd_per_month']:,.0f}",
        figure=labels.shown("figure", "cpu_server_usd_per_vcpu_hour", lang),
    )


# --------------------------------------------------------------------------- evaluate


def _drop_private(reason: dict[str, Any]) -> dict[str, Any]:
    """A workload's reason (this evaluation's own copy) without the merging helper fields."""
    reason.pop("_text", None)
    return reason


def _today(catalog: Catalog, today: date | str | None) -> date:
    if isinstance(today, date):
        return today
    if isinstance(today, str):
        return date.fromisoformat(today)
    newest = catalog.newest_price_date()
    return date.fromisoformat(newest) if newest else date(1970, 1, 1)


def _confidence_docs(d: SC.Decision, scoring: ScoringModel) -> tuple[float, float]:
    return (
        SC.confidence(d.accelerator_margin, d.max_margin, scoring),
        SC.confidence(d.mode_margin, d.max_margin, scoring),
    )


def evaluate(
    answers: A.Answers | Mapping[str, Any],
    catalog: Catalog,
    scoring: ScoringModel,
    *,
    lang: str = "en",
    today: date | str | None = None,
    measurements: Sequence[Measurement] = (),
) -> ResultDocument:
    """The result document (schema 2, typed in engine/document.py) for `answers` (a dict is
    parsed first and may raise AnswersError).

    `measurements`: benchmark runs (engine/measured.py) whose figures replace the estimates
    for their card and serving stack; each option planned with one says so (`measured`).

    Deterministic: `today` (for flagging stale prices) defaults to the catalog's newest price date,
    never the wall clock.
    """
    answers = _coerce(answers)
    lang = lang if lang in i18n.LANGS else "en"
    when = _today(catalog, today)
    stale_days = float(catalog.rule("stale_after_days"))
    shape = _shape(answers, catalog)
    ctx = _context(answers, catalog, shape)
    facts = SC.answers_facts(answers)
    d = SC.decide(facts, scoring, ctx)
    full_facts = d.facts
    acc_conf, mode_conf = _confidence_docs(d, scoring)
    billing, billing_code = BL.billing_advice(d.mode, full_facts, catalog)
    break_even = catalog.figure("commit_break_even_utilisation")
    utilisation = float(answers.cost.hours_per_day) / 24.0

    per_workload_reasons = []
    for i, w in enumerate(d.workloads):
        per_workload_reasons.append(
            (w.kind, X.workload_reasons(scoring, full_facts, i, w.kind, w.schedule, lang))
        )

    # Merged before the per-workload lists drop their private text (aggregate copies them).
    aggregated_reasons = X.aggregate_reasons(per_workload_reasons, lang)

    training_doc = inference_doc = None
    tmem = tflops = imem = None
    train_kind = next((k for k in answers.kinds if k in A.TRAINING_KINDS), None)
    if shape is not None and answers.training is not None and train_kind is not None:
        training_doc, tmem, tflops = _training_sizing(
            shape, answers.training, train_kind, catalog, lang
        )
    if shape is not None and answers.inference is not None:
        inference_doc, imem = _inference_sizing(
            shape, answers.inference, catalog, lang, answers.frameworks.serving
        )

    notes: list[str] = []
    workloads_doc = []
    price_docs: dict[str, dict[str, Any]] = {}  # price id -> the last doc seen with it
    best_options: list[dict[str, Any]] = []
    sized = O.Sized(shape, tmem, tflops, imem)
    workload_rules: list[list[str]] = []
    firsts_by_kind: dict[str, dict[str, Any] | None] = {}
    conf_parts: list[tuple[float, float, float]] = []
    relaxations: list[dict[str, Any]] = []
    ci = _cost_inputs(answers, catalog, when, stale_days, tuple(measurements))
    scored = d
    d, built_all, mode_docs = _cost_aware(answers, catalog, d, sized, ci, lang)
    for wd, (_, reasons) in zip(d.workloads, per_workload_reasons, strict=True):
        built = built_all[(wd.kind, wd.accelerator, wd.mode)]
        options = built.options
        mode_doc = mode_docs.get(wd.kind)
        if mode_doc and mode_doc["reason"]:
            notes.append(mode_doc["reason"])
        notes += O.first_option_notes(
            wd.kind, wd.mode, options[0] if options else None, answers.organization.regions, lang
        )
        whole = O.whole_server_note(wd.kind, options, answers.cost.monthly_budget_usd, lang)
        if whole is not None:
            notes.append(whole)
        if options:
            # Issue 21: each short run's fixed overhead; a commitment on an older card.
            for said in (
                Q.overhead_statement(wd.kind, options[0], lang),
                Q.peak_statement(wd.kind, wd.mode, options[0], lang),
                Q.lock_in_statement(options[0], catalog, when, lang),
                Q.redundancy_statement(wd.kind, options[0], lang),
                Q.window_statement(wd.kind, options[0], catalog, lang)
                if options[0].get("window")
                else None,
            ):
                if said is not None:
                    notes.append(said)
        # Issue 21 item 7: work in its own unit says how it was sized and what a unit costs.
        work_said = NL.statement(wd.kind, options[0] if options else None, lang)
        if work_said is not None:
            notes.append(work_said)
        china_note = O.china_note(wd.kind, options[0] if options else None, lang)
        if china_note is not None:
            notes.append(china_note)
        others = [a for a in wd.feasible_accelerators if a != wd.accelerator]
        alternatives = (
            O.build(
                catalog,
                answers,
                wd.kind,
                wd.schedule,
                others[0],
                "public_cloud" if others[0] == "tpu" else wd.mode,
                sized,
                ci,
                lang,
            ).options[:3]
            if others
            else []
        )
        first = options[0] if options else None
        firsts_by_kind[wd.kind] = first
        workload_rules.append(_workload_rules(wd.kind, first, mode_docs.get(wd.kind)))
        card_conf = _card_confidence(options, catalog, answers.cost.monthly_budget_usd)
        family_conf = SC.confidence(wd.accelerator_margin, wd.max_margin, scoring)
        mode_conf = SC.confidence(wd.mode_margin, wd.max_margin, scoring)
        target_warnings = _target_warnings(wd.kind, options, answers, catalog, lang)
        notes += target_warnings
        notes += _missed_notes(wd.kind, options, lang)
        notes += _thin_margin_notes(wd.kind, options, catalog, lang)
        notes += _dominated_notes(wd.kind, built.dominated, lang)
        notes += _indicative_first_note(wd.kind, options, lang)
        notes += _lead_passed_over_notes(wd.kind, options, lang)
        conf_parts.append((family_conf, mode_conf, card_conf))
        w_billing = (
            first["billing"]
            if first and first.get("billing")
            else BL.billing_advice(wd.mode, full_facts, catalog)[0]
        )
        for o in options[:1]:
            best_options.append({**o, "workload": wd.kind})
        for o in options + alternatives:
            for p in o["prices"].values():
                if p is not None:
                    price_docs[p["price_id"]] = p
        workloads_doc.append(
            {
                "kind": wd.kind,
                "schedule": wd.schedule,
                "accelerator": wd.accelerator,
                "deployment_mode": wd.mode,
                "billing": w_billing,
                "confidence": min(conf_parts[-1]),
                "confidence_parts": dict(
                    zip(("family", "mode", "card"), conf_parts[-1], strict=True)
                ),
                "scores": {o: round(v, 3) for o, v in zip(SC.OPTIONS, wd.scores, strict=True)},
                "feasible": {
                    "accelerators": list(wd.feasible_accelerators),
                    "deployment_modes": list(wd.feasible_modes),
                },
                "reasons": [_drop_private(r) for r in reasons if r["contribution"]],
                "options": options,
                "alternatives": alternatives,
                "excluded_options": built.excluded,
                "mode_decision": mode_docs.get(wd.kind),
                "rules": workload_rules[-1],
                "dominated_options": built.dominated,
                "target_warnings": target_warnings,
                "pilot": P.pilot(
                    wd.kind,
                    options,
                    answers,
                    catalog,
                    training_doc if wd.kind in A.TRAINING_KINDS else None,
                    lang,
                ),
            }
        )
        if (
            not options
            and wd.kind != "preprocessing"
            and shape is None
            and (answers.work is not None and wd.kind in A.INFERENCE_KINDS)
        ):
            notes.append(
                i18n.message(
                    "cost.no_option",
                    lang,
                    kind=i18n.label(wd.kind, lang),
                    accelerator=i18n.label(wd.accelerator, lang),
                    mode=i18n.label(wd.mode, lang),
                )
            )
        dead = (
            None
            if shape is None
            else R.dead_end(
                catalog,
                answers,
                wd.kind,
                wd.schedule,
                wd.mode,
                options,
                built.excluded,
                lambda a: (_sized(a, catalog, shape), _cost_inputs(a, catalog, when, stale_days)),
                lang,
            )
        )
        if dead is not None:
            # Issue 22 item 1: never a bare "no priced option": what rules every option out,
            # the relaxations that bring one back and, where the operator sells, a quote.
            workloads_doc[-1]["dead_end"] = dead
            notes.append(dead["statement"])
            relaxations += dead["relaxations"]

    split_note = None
    if d.split:
        parts = i18n.message("split.separator", lang).join(
            i18n.message(
                "split.part",
                lang,
                kind=i18n.label(w.kind, lang),
                accelerator=i18n.label(w.accelerator, lang),
                mode=i18n.label(w.mode, lang),
            )
            for w in d.workloads
        )
        split_note = i18n.message("split.note", lang, parts=parts)

    prices_used = {pid: {k: p[k] for k in _PRICE_USED_KEYS} for pid, p in price_docs.items()}
    stale = [p for p in prices_used.values() if p["stale"]]
    if "mainland_china" in answers.organization.regions and (
        answers.deployment.data_residency != "none"
        or answers.organization.regions == ("mainland_china",)
    ):
        # Issue 22 item 5: a mainland-facing service hosted in mainland China needs ICP filing.
        notes.append(i18n.message("china.icp", lang))
    if stale:
        notes.append(i18n.message("cost.stale", lang, count=len(stale), days=f"{stale_days:g}"))
    monthly_total = sum(o["monthly_cost_usd"] or 0.0 for o in best_options)
    budget = answers.cost.monthly_budget_usd
    over_budget = Q.budget_statement(monthly_total, budget, lang)
    if over_budget is not None:
        notes.append(over_budget)
    storage_gb = 0.0
    if answers.training is not None:
        storage_gb = (
            answers.training.dataset_tokens * catalog.figure("dataset_bytes_per_token") / 1e9
        )
    server_option = max(best_options, key=lambda o: o["count"], default=None)
    weight_bytes = imem.weight_bytes if imem is not None else None
    servers = [
        {"workload": o["workload"], **(_server(o, catalog, storage_gb, lang, weight_bytes) or {})}
        for o in best_options
    ]
    if "preprocessing" in answers.kinds:
        servers.append(_preprocessing_server(answers, catalog, lang))
    figures_used = {
        k: dict(v) for k, v in catalog.memo("figures_used", lambda: _figures(catalog)).items()
    }
    staff_doc, staff_note = _staff_doc(answers, catalog, lang)
    if staff_note is not None:
        notes.append(staff_note)
    billing_reason = i18n.message(
        billing_code,
        lang,
        break_even=i18n.percent(break_even),
        utilisation=i18n.percent(utilisation),
    )
    # The headline billing is the billing the shown price uses (of the costliest workload).
    headline = _headline(best_options)
    if headline is not None:
        billing = headline["billing"]
        slot = headline["billing_used"]
        be = (
            headline["break_even_utilisation"].get(slot)
            if slot in ("monthly", "commit_1y", "commit_3y")
            else None
        )
        fixed_priced = any(
            headline["compute_usd_per_month"].get(s) is not None
            for s in ("monthly", "commit_1y", "commit_3y")
        )
        # The lowest break-even among the fixed prices the option has: on-demand at or above it
        # was chosen for another reason (paying as one goes was asked, demand is unpredictable),
        # never "below the break-even".
        fixed_be = [
            v
            for k, v in headline["break_even_utilisation"].items()
            if v is not None and headline["compute_usd_per_month"].get(k) is not None
        ]
        above = bool(fixed_be) and headline["utilisation"] + 1e-9 >= min(fixed_be)
        code = (
            "billing.only_on_demand"
            if slot == "on_demand" and not fixed_priced
            else "billing.on_demand_as_asked"
            if slot == "on_demand" and above and answers.cost.billing == "pay_as_you_go"
            else "billing.on_demand_unpredictable"
            if slot == "on_demand" and above and answers.maturity.demand == "unpredictable"
            else "billing.follows_utilisation"
            if slot == "on_demand"
            else "billing.clears_break_even"
            if be is not None
            else "billing.hosted_monthly"
        )
        billing_reason = i18n.message(
            code,
            lang,
            billing=i18n.label(billing, lang),
            kind=i18n.label(headline["workload"], lang),
            utilisation=i18n.percent(headline["utilisation"]),
            break_even=i18n.percent(be if be is not None else break_even),
        )
    if headline is not None:
        # Page one says plainly whether the billing asked for was honoured (and if not, why and
        # what it costs), the budget gap, and the lock-in of a commitment on an older card.
        same = cast(
            list[dict[str, Any]],
            next((w["options"] for w in workloads_doc if w["kind"] == headline["workload"]), []),
        )
        stated: list[str | None] = [
            Q.billing_statement(
                answers.cost.billing,
                headline,
                same,
                answers.maturity.demand != "unpredictable",
                lang,
            ),
            over_budget,
            Q.lock_in_statement(headline, catalog, when, lang),
        ]
        billing_reason = " ".join([billing_reason, *(x for x in stated if x)])
    applied = sorted({r for rules in workload_rules for r in rules}, key=O.RULES.index)
    recommendation = {
        "accelerator": d.accelerator,
        "deployment_mode": d.mode,
        "billing": billing,
        "billing_reason": billing_reason,
        "rules": [{"id": r, "statement": i18n.message(f"rule.{r}", lang)} for r in applied],
        "confidence": min(acc_conf, mode_conf, *(p[2] for p in conf_parts)),
        "confidence_parts": {
            "family": acc_conf,
            "mode": min([mode_conf, *(p[1] for p in conf_parts)]),
            "card": min([1.0, *(p[2] for p in conf_parts)]),
        },
        "mode_confidence": mode_conf,
        "confidence_formula": scoring.raw.get("confidence", {}).get("formula"),
        "scores": _scores(d),
        "split": d.split,
        "split_note": split_note,
        "by_workload": {
            w.kind: {"accelerator": w.accelerator, "deployment_mode": w.mode} for w in d.workloads
        },
        "excluded": X.exclusion_docs(d.excluded, lang),
        "reasons": aggregated_reasons,
        "would_change_if": [
            *relaxations,
            *_real_changes(
                X.would_change_if(full_facts, scored, scoring, ctx, lang),
                (d.accelerator, d.mode),
                answers,
                catalog,
                d,
                sized,
                ci,
                built_all,
            ),
            *(
                lever
                for wd in d.workloads
                for lever in O.levers(
                    catalog, answers, wd.kind, firsts_by_kind.get(wd.kind), sized, lang
                )
            ),
        ],
    }
    # The benchmark runs planned with (engine/measured.py): named even when the card they
    # measured no longer ranks among the options.
    measured_docs = {"measurements": [dataclasses.asdict(m) for m in measurements]}
    doc = {
        **(measured_docs if measurements else {}),
        "schema_version": RESULT_SCHEMA_VERSION,
        "versions": {
            "engine": ENGINE_VERSION,
            "scoring_model": {"name": scoring.name, "version": scoring.version},
            "catalog": catalog.version,
        },
        "lang": lang,
        "recommendation": recommendation,
        "workloads": workloads_doc,
        "sizing": {"training": training_doc, "inference": inference_doc},
        "server": next(
            (
                {k: v for k, v in srv.items() if k != "workload"}
                for srv in servers
                if server_option and srv.get("workload") == server_option["workload"]
            ),
            None,
        ),
        "servers": servers,
        "cost": {
            "currency": "USD",
            "today": when.isoformat(),
            "stale_after_days": stale_days,
            "monthly_total_usd": round(monthly_total, 2),
            "monthly_budget_usd": budget,
            "by_workload": [
                {
                    "workload": o["workload"],
                    "accelerator_id": o["accelerator_id"],
                    "count": o["count"],
                    "monthly_cost_usd": o["monthly_cost_usd"],
                    "billing_used": o["billing_used"],
                    "compute_usd_per_month": o["compute_usd_per_month"],
                    "storage_usd_per_month": o["storage_usd_per_month"],
                    "egress_usd_per_month": o["egress_usd_per_month"],
                    "idle_usd_per_month": o["idle_usd_per_month"],
                    "staff_usd_per_month": o["staff_usd_per_month"],
                    **(
                        {"china_bandwidth_usd_per_month": o["china_bandwidth_usd_per_month"]}
                        if "china_bandwidth_usd_per_month" in o
                        else {}
                    ),
                    "break_even_utilisation": o["break_even_utilisation"],
                    "cost_per_run_usd": o.get("cost_per_run_usd"),
                    "cost_per_million_output_tokens_usd": o.get(
                        "cost_per_million_output_tokens_usd"
                    ),
                }
                for o in best_options
            ],
            "prices_used": sorted(prices_used.values(), key=lambda p: p["price_id"]),
            "figures_used": figures_used,
            "staff": staff_doc,
            "gaps": [i18n.catalog_text(g, lang) for g in dict.fromkeys(catalog.gaps)],
            "notes": notes,
        },
    }
    # Built as plain dicts (they are JSON); document.py states the shape readers rely on.
    return cast(ResultDocument, doc)


_PRICE_USED_KEYS = (
    "price_id",
    "provider",
    "region",
    "source",
    "as_of",
    "stale",
    "estimated",
    "derived",
    "gpus_per_unit",
    "sold_as",
)


def _figures(catalog: Catalog) -> dict[str, dict[str, Any]]:
    return {
        k: {
            kk: v[kk]
            for kk in ("value", "unit", "source", "as_of", "estimated", "derived")
            if kk in v
        }
        for k, v in catalog.figures.items()
    }


def _cost_inputs(
    answers: A.Answers,
    catalog: Catalog,
    when: date,
    stale_days: float,
    measurements: tuple[Measurement, ...] = (),
) -> BL.CostInputs:
    m = answers.maturity
    return BL.CostInputs(
        catalog=catalog,
        today=when,
        stale_days=stale_days,
        regions=answers.organization.regions,
        clouds=answers.deployment.clouds,
        residency=answers.deployment.data_residency,
        china=answers.deployment.china_connectivity,
        ops_capacity=answers.cost.ops_capacity,
        ops_headcount=answers.cost.ops_headcount,
        staff_region=_staff_region(answers),
        billing=answers.cost.billing,
        predictable=m.demand != "unpredictable",
        stable=m.stack_changes in ("quarterly", "rarely") and m.pipeline == "standardized",
        serving=answers.frameworks.serving,
        amortisation_months=answers.cost.amortisation_months,
        capex_budget_usd=answers.cost.capex_budget_usd,
        measurements=measurements,
    )


def _staff_region(answers: A.Answers) -> str | None:
    # Where the operations staff work: their answer, else where the organisation is first.
    return answers.cost.ops_region or next(iter(answers.organization.regions), None)


def _staff_doc(
    answers: A.Answers, catalog: Catalog, lang: str
) -> tuple[dict[str, Any], str | None]:
    """What the staff cost was priced with (result cost.staff), and a note when the region has
    no sourced wage of its own."""
    region = _staff_region(answers)
    key, regional = C.staff_wage_figure(catalog, region)
    doc = {
        "region": region,
        "wage_figure": key,
        "regional_wage": regional,
        "usd_per_hour": round(C.staff_usd_per_hour(catalog, region), 2),
        "headcount": answers.cost.ops_headcount,
    }
    note = None
    if not regional:
        note = i18n.message(
            "cost.staff_us_wage", lang, region=i18n.value_label("cost.ops_region", region, lang)
        )
    return doc, note


def _target_warnings(
    kind: str,
    options: list[dict[str, Any]],
    answers: A.Answers,
    catalog: Catalog,
    lang: str,
) -> list[str]:
    """What page one must say about a workload's target: nothing meets it (with the best
    reachable figure and the levers that would), the first option meets it with a margin under
    the catalog's safety share, and how many options miss it."""
    if not options:
        return []
    first = options[0]
    out: list[str] = []
    if first.get("window"):
        return out  # a batch window's margin or overrun is said by asked.window_statement
    kind_label = i18n.label(kind, lang)
    inf = answers.inference
    if first.get("target_status") == "missed" and "meets_latency" in first and inf is not None:
        # The best reachable figure over every option, not only the first one's card.
        fastest = min(options, key=lambda o: o["best_latency_at_metric_ms"])
        metric = inf.latency_metric
        levers = i18n.message(
            f"rank.levers.{metric}",
            lang,
            ttft=f"{first['ttft_ms']:,.0f}",
            tokens=f"{inf.output_tokens:,}",
            prompt=f"{max(1, inf.context_tokens - inf.output_tokens):,}",
        )
        out.append(
            i18n.message(
                "rank.latency_unreachable",
                lang,
                kind=kind_label,
                metric=i18n.label(metric, lang),
                target=f"{first['latency_target_ms']:,.0f}",
                best=_ms(fastest["best_latency_at_metric_ms"]),
                card=fastest["name"],
                levers=levers,
            )
        )
    elif first.get("target_status") == "missed" and "meets_deadline" in first:
        fastest = min(options, key=lambda o: o["hours"])
        out.append(
            i18n.message(
                "rank.deadline_unreachable",
                lang,
                kind=kind_label,
                target=f"{first['target_hours']:,.0f}",
                card=fastest["name"],
                count=fastest["count"],
                best=f"{fastest['hours']:,.1f}",
            )
        )
    elif first.get("target_status") == "at_risk":
        unit = "ms" if "meets_latency" in first else "h"
        achieved, target = (
            (first["latency_at_metric_ms"], first["latency_target_ms"])
            if unit == "ms"
            else (first["hours"], first["target_hours"])
        )
        out.append(
            i18n.message(
                "rank.at_risk",
                lang,
                kind=kind_label,
                card=first["name"],
                count=first["count"],
                margin=f"{first['target_margin'] * 100:.1f}%",
                achieved=f"{achieved:,.0f} {unit}" if unit == "ms" else f"{achieved:,.1f} {unit}",
                target=f"{target:,.0f} {unit}",
                safety=i18n.percent(float(catalog.rule("target_safety_share"))),
            )
        )
    return out


def _missed_notes(kind: str, options: list[dict[str, Any]], lang: str) -> list[str]:
    missed = [o for o in options if o.get("target_status") == "missed"]
    if not missed or len(missed) == len(options):
        return []
    return [
        i18n.message(
            "rank.some_missed",
            lang,
            kind=i18n.label(kind, lang),
            count=len(missed),
            total=len(options),
            names=", ".join(f"{o['name']} × {o['count']}" for o in missed),
        )
    ]


def _cheaper_passed_over(
    options: list[dict[str, Any]], passed: Callable[[dict[str, Any]], bool]
) -> dict[str, Any] | None:
    """The cheapest priced option ranked after the first, costing less than it and standing the
    same on the team's stack, that `passed` says was passed over for a reason the result names
    (a thin margin, a lead); None when there is none."""
    cost = (options[0].get("cost_to_result") or {}).get("usd")
    if cost is None:
        return None
    cheaper = [
        o
        for o in options[1:]
        if passed(o)
        and (o.get("cost_to_result") or {}).get("usd") is not None
        and o["cost_to_result"]["usd"] < cost
        and o["stack"]["runnable"] == options[0]["stack"]["runnable"]
    ]
    return min(cheaper, key=lambda o: o["cost_to_result"]["usd"], default=None)


def _thin_margin_notes(
    kind: str, options: list[dict[str, Any]], catalog: Catalog, lang: str
) -> list[str]:
    """A cheaper option that meets the target only inside the estimate's own error ranks after
    the first, which meets it with the safety share to spare: say which and what it would save."""
    if not options or options[0].get("target_status") not in ("met", None):
        return []
    first = options[0]
    cost = (first.get("cost_to_result") or {}).get("usd")
    if cost is None:
        return []
    cheapest = _cheaper_passed_over(options, lambda o: o.get("target_status") == "at_risk")
    if cheapest is None:
        return []
    return [
        i18n.message(
            "rank.thin_margin_after",
            lang,
            kind=i18n.label(kind, lang),
            card=cheapest["name"],
            count=cheapest["count"],
            cost=f"{cheapest['cost_to_result']['usd']:,.2f}",
            per=i18n.message(f"per.{cheapest['cost_to_result']['per']}", lang),
            margin=f"{cheapest['target_margin'] * 100:.1f}%",
            safety=i18n.percent(float(catalog.rule("target_safety_share"))),
            first=f"{first['name']} × {first['count']}",
            first_cost=f"{cost:,.2f}",
        )
    ]


def _ms(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:,.1f}"


def _firm(option: Mapping[str, Any]) -> bool | None:
    used = option.get("billing_used")
    price = (option.get("prices") or {}).get(used) if used else None
    return None if not price else bool(price["as_of"]) and not price["estimated"]


def _indicative_first_note(kind: str, options: list[dict[str, Any]], lang: str) -> list[str]:
    """A first option on an indicative price (undated, estimated, a "from" price) ranks there
    on cost alone; the buyer is told so and which firm price it beat."""
    if not options or _firm(options[0]) is not False:
        return []
    first = options[0]
    if first["cost_to_result"]["usd"] is None:
        return []
    # The first firm price of the same standing (runs the stack, offered here, meets the target).
    firm = next(
        (
            o
            for o in options[1:]
            if _firm(o)
            and o["cost_to_result"]["usd"] is not None
            and o["stack"]["runnable"] == first["stack"]["runnable"]
            and o["availability"]["available"] == first["availability"]["available"]
            and (o.get("target_status") == "missed") == (first.get("target_status") == "missed")
        ),
        None,
    )
    if firm is None:
        return []
    per = i18n.message(f"per.{first['cost_to_result']['per']}", lang)
    return [
        i18n.message(
            "rank.indicative_first",
            lang,
            kind=i18n.label(kind, lang),
            card=first["name"],
            count=first["count"],
            provider=first["prices"][first["billing_used"]]["provider"],
            cost=f"{first['cost_to_result']['usd']:,.2f}",
            per=per,
            firm_card=firm["name"],
            firm_count=firm["count"],
            firm_cost=f"{firm['cost_to_result']['usd']:,.2f}",
        )
    ]


def _lead_passed_over_notes(kind: str, options: list[dict[str, Any]], lang: str) -> list[str]:
    """The cheapest option that ranks lower only because its price names no region and no date
    (ranking.lead): the buyer is told what it would cost and whom to ask."""
    if not options or options[0]["cost_to_result"]["usd"] is None or RK.lead(options[0]):
        return []
    missed = options[0].get("target_status") == "missed"
    cheapest = _cheaper_passed_over(
        options, lambda o: bool(RK.lead(o)) and (o.get("target_status") == "missed") == missed
    )
    if cheapest is None:
        return []
    return [
        i18n.message(
            "rank.lead_passed_over",
            lang,
            kind=i18n.label(kind, lang),
            card=cheapest["name"],
            count=cheapest["count"],
            provider=cheapest["prices"][cheapest["billing_used"]]["provider"],
            cost=f"{cheapest['cost_to_result']['usd']:,.2f}",
            per=i18n.message(f"per.{cheapest['cost_to_result']['per']}", lang),
        )
    ]


def _dominated_notes(kind: str, dominated: list[dict[str, Any]], lang: str) -> list[str]:
    if not dominated:
        return []
    return [
        i18n.message(
            "rank.dominated",
            lang,
            kind=i18n.label(kind, lang),
            count=len(dominated),
            names=", ".join(f"{o['name']} × {o['count']}" for o in dominated),
        )
    ]


def _workload_rules(
    kind: str, first: Mapping[str, Any] | None, mode_doc: Mapping[str, Any] | None
) -> list[str]:
    """Rule ids (options.RULES) applied to this workload's recommendation."""
    phase = SC.PHASE_OF[kind]
    if phase == "preprocessing":
        return ["server_sized_for_workload"]
    rules = ["stack_runs_as_is", "rank_by_cost_to_result", "available_where_customer_is"]
    if phase == "training":
        rules += ["time_to_result", "optimizer_implementation"]
    else:
        rules.append("serving_at_required_load")
    rules.append("billing_follows_utilisation")
    if mode_doc is not None:
        rules.append("mode_weighs_cost")
    rules += ["server_sized_for_workload", "confidence_covers_recommendation", "real_levers"]
    return rules


# --------------------------------------------------------------------------- preview


def _get(doc: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(doc, Mapping):
            return None
        doc = doc.get(key)
    return doc


def _enum_or(value: Any, allowed: tuple[str, ...], default: Any) -> Any:
    return value if isinstance(value, str) and value in allowed else default


def _list_of(value: Any, allowed: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(dict.fromkeys(v for v in value if isinstance(v, str) and v in allowed))


def _bool_or(value: Any, default: bool | None) -> bool | None:
    return value if isinstance(value, bool) else default


def _number_or(value: Any, lo: float, hi: float, default: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return float(value) if lo <= value <= hi else default


def preview(
    draft: Mapping[str, Any],
    catalog: Catalog,
    scoring: ScoringModel,
    *,
    lang: str = "en",
    checked: bool = False,
) -> dict[str, Any] | None:
    """Best-effort leaning for an incomplete wizard draft; None when there is nothing to say yet.

    Unanswered or invalid answers count as neutral. Never raises. `checked` says the draft is
    known to pass check_partial (a stored wizard draft is), so its sections are not checked again.
    """
    try:
        lang = lang if lang in i18n.LANGS else "en"
        return _preview(draft, catalog, scoring, lang, _ok if checked else _partial_ok)
    except Exception:  # noqa: BLE001 - a draft preview must never break the wizard
        return None


def _ok(doc: Mapping[str, Any]) -> bool:
    return True


def _partial_ok(doc: Mapping[str, Any]) -> bool:
    return not A.check_partial(doc)


def _preview(
    draft: Mapping[str, Any],
    catalog: Catalog,
    scoring: ScoringModel,
    lang: str,
    valid: Callable[[Mapping[str, Any]], bool],
) -> dict[str, Any] | None:
    if not isinstance(draft, Mapping):
        return None
    raw_workloads = draft.get("workloads")
    workloads: list[tuple[str, str | None]] = []
    if isinstance(raw_workloads, list):
        for w in raw_workloads:
            kind = _enum_or(_get(w, "kind"), A.WORKLOAD_KINDS, None)
            if kind and kind not in (k for k, _ in workloads):
                workloads.append((kind, _enum_or(_get(w, "schedule"), A.SCHEDULES, None)))
    if not workloads:
        return None
    regions = _list_of(_get(draft, "organization", "regions"), A.REGIONS)
    modes = _list_of(_get(draft, "deployment", "allowed_modes"), A.MODES) or A.MODES
    residency = _enum_or(_get(draft, "deployment", "data_residency"), A.RESIDENCY, "none")
    if residency == "on_premises_only" and not {"on_premises", "private_cloud"} & set(modes):
        residency = "none"
    facts: dict[str, Any] = {
        "organization.industry": _enum_or(
            _get(draft, "organization", "industry"), A.INDUSTRIES, None
        ),
        "organization.regions": regions,
        "maturity.stack_changes": _enum_or(
            _get(draft, "maturity", "stack_changes"), A.STACK_CHANGES, None
        ),
        "maturity.pipeline": _enum_or(_get(draft, "maturity", "pipeline"), A.PIPELINES, None),
        "maturity.demand": _enum_or(_get(draft, "maturity", "demand"), A.DEMANDS, None),
        "frameworks.primary": _enum_or(_get(draft, "frameworks", "primary"), A.FRAMEWORKS, None),
        "frameworks.others": _list_of(_get(draft, "frameworks", "others"), A.FRAMEWORKS),
        "frameworks.custom_kernels": _bool_or(_get(draft, "frameworks", "custom_kernels"), False),
        "frameworks.serving": _enum_or(_get(draft, "frameworks", "serving"), A.SERVING, None),
        "deployment.allowed_modes": modes,
        "deployment.clouds": _list_of(_get(draft, "deployment", "clouds"), A.CLOUDS),
        "deployment.portability": _enum_or(
            _get(draft, "deployment", "portability"), A.PORTABILITY, None
        ),
        "deployment.china_connectivity": _bool_or(
            _get(draft, "deployment", "china_connectivity"),
            A.china_by_region(regions) if regions else None,
        ),
        "deployment.data_residency": residency,
        "cost.billing": _enum_or(_get(draft, "cost", "billing"), A.BILLING, None),
        "cost.hours_per_day": _number_or(_get(draft, "cost", "hours_per_day"), 0, 24, None),
        "cost.ops_capacity": _enum_or(_get(draft, "cost", "ops_capacity"), A.OPS_CAPACITY, None),
        "inference.traffic": _enum_or(_get(draft, "inference", "traffic"), A.TRAFFIC, None),
        "inference.p95_latency_ms": _number_or(
            _get(draft, "inference", "p95_latency_ms"), 1e-9, 600_000, None
        ),
        "workloads": tuple((k, s or "") for k, s in workloads),
    }
    ctx = SC.Context(
        region_tpus={k: tuple(v.get("tpus", ())) for k, v in catalog.regions.items()},
        training_flops=None,
    )
    d = SC.decide(facts, scoring, ctx)
    notes = [i18n.message("preview.partial", lang)]
    notes += [
        e["reason"] for e in X.exclusion_docs([e for e in d.excluded if e.option == "tpu"], lang)
    ][:3]
    memory: dict[str, float | None] = {"training": None, "inference": None}
    shape = _preview_shape(draft, catalog, valid)
    if shape is None:
        notes.append(i18n.message("preview.no_model", lang))
    else:
        kinds = {k for k, _ in workloads}
        memory = _preview_memory(draft, shape, catalog, valid, kinds)
        if any(
            memory[phase] is not None and not isinstance(_get(draft, phase), Mapping)
            for phase in ("training", "inference")
        ):
            notes.append(i18n.message("preview.memory_assumed", lang))
    return {
        "accelerator": d.accelerator,
        "deployment_mode": d.mode,
        "memory_gib": memory,
        "notes": list(dict.fromkeys(notes)),
    }


def _preview_shape(
    draft: Mapping[str, Any], catalog: Catalog, valid: Callable[[Mapping[str, Any]], bool]
) -> S.ModelShape | None:
    model = _get(draft, "model")
    if not isinstance(model, Mapping):
        return None
    preset = model.get("preset")
    if isinstance(preset, str) and preset in catalog.presets:
        return S.shape_from_preset(catalog.presets[preset])
    arch = model.get("architecture")
    if isinstance(arch, Mapping):
        doc = {"model": {"architecture": arch}}
        if not valid(doc):
            return None
        try:
            parsed = A.Architecture(
                parameters=int(arch["parameters"]),
                layers=int(arch["layers"]),
                hidden_size=int(arch["hidden_size"]),
                intermediate_size=int(arch["intermediate_size"]),
                attention_heads=int(arch["attention_heads"]),
                kv_heads=int(arch["kv_heads"]),
                vocab_size=int(arch["vocab_size"]),
                tied_embeddings=bool(arch["tied_embeddings"]),
                head_dim=int(arch["head_dim"]) if "head_dim" in arch else None,
                experts=int(arch.get("experts", 1)),
                experts_per_token=int(arch.get("experts_per_token", 1)),
                active_parameters=int(arch["active_parameters"])
                if "active_parameters" in arch
                else None,
            )
        except (KeyError, TypeError, ValueError):
            return None
        return S.shape_from_architecture(parsed)
    return None


def _preview_memory(
    draft: Mapping[str, Any],
    shape: S.ModelShape,
    catalog: Catalog,
    valid: Callable[[Mapping[str, Any]], bool],
    kinds: set[str],
) -> dict[str, float | None]:
    out: dict[str, float | None] = {"training": None, "inference": None}
    # The memory shows as soon as a model is chosen: a step not answered yet (training and
    # inference come after the model) is sized with the defaults below, and a note says so.
    t = _get(draft, "training")
    if not isinstance(t, Mapping) and kinds & A.TRAINING_KINDS:
        t = {}
    if isinstance(t, Mapping) and valid({"training": t}):
        method = t.get("method", "full")
        training = A.Training(
            method=method,
            lora_rank=int(t.get("lora_rank", 16)) if method in ("lora", "qlora") else None,
            precision=t.get("precision", "bf16_mixed"),
            optimizer=t.get("optimizer", "adamw"),
            micro_batch_size=int(t.get("micro_batch_size", 1)),
            sequence_length=int(t.get("sequence_length", 2048)),
            gradient_checkpointing=bool(t.get("gradient_checkpointing", False)),
            dataset_tokens=int(t.get("dataset_tokens", 1)),
        )
        out["training"] = S.to_gib(S.training_memory(shape, training, catalog).total)
    i = _get(draft, "inference")
    if not isinstance(i, Mapping) and kinds & A.INFERENCE_KINDS:
        i = {}
    if isinstance(i, Mapping) and valid({"inference": i}):
        ctx_tokens = int(i.get("context_tokens", 4096))
        inference = A.Inference(
            precision=i.get("precision", "bf16"),
            context_tokens=ctx_tokens,
            output_tokens=min(int(i.get("output_tokens", 1)), ctx_tokens),
            concurrent_sequences=int(i.get("concurrent_sequences", 1)),
            tokens_per_day=int(i.get("tokens_per_day", 0)),
            traffic=i.get("traffic", "steady"),
        )
        serving = _enum_or(_get(draft, "frameworks", "serving"), A.SERVING, None)
        out["inference"] = S.to_gib(S.inference_memory(shape, inference, catalog, serving).total)
    return out
