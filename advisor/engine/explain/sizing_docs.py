"""The result document's sizing sections: training and serving memory, FLOPs and the assumptions
behind them, copied from a sibling workload where the same model is sized twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.text import i18n

# --------------------------------------------------------------------------- sizing section


def _fits(catalog: Catalog, total: float) -> list[str]:
    return [
        a.id for a in catalog.accelerators if total <= sizing.usable_gib(a, catalog) * sizing.GIB
    ]


def _common_assumptions(catalog: Catalog, shape: sizing.ModelShape, lang: str) -> list[str]:
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


def training_sizing_doc(
    shape: sizing.ModelShape, t: vocabulary.Training, kind: str, catalog: Catalog, lang: str
) -> tuple[dict[str, Any], sizing.TrainingMemory, sizing.TrainingFlops]:
    """The training sizing section, memoised on the catalog (a copy is handed out)."""
    doc, mem, flops = catalog.memo(
        ("training_sizing", shape, t, kind, lang),
        lambda: _new_training_sizing(shape, t, kind, catalog, lang),
    )
    return _copy_sizing(doc), mem, flops


def _new_training_sizing(
    shape: sizing.ModelShape, t: vocabulary.Training, kind: str, catalog: Catalog, lang: str
) -> tuple[dict[str, Any], sizing.TrainingMemory, sizing.TrainingFlops]:
    mem = sizing.training_memory(shape, t, catalog)
    flops = sizing.training_flops(shape, t)
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
            fb=sizing.to_gib(mem.phases["forward_backward"]),
            step=sizing.to_gib(mem.phases["optimizer_step"]),
        ),
        i18n.message("assume.sharding", lang),
        i18n.message(
            "assume.train_time",
            lang,
            factor=f"{flops.factor:g}",
            flops=f"{flops.total:.3g}",
            tokens=i18n.fmt_number(int(t.dataset_tokens * t.epochs)),
            micro=i18n.fmt_number(t.micro_batch_size * t.sequence_length),
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
        n = sizing.min_training_devices(mem, acc, catalog)
        min_devices[acc.id] = n
        interconnect[acc.id] = i18n.message(sizing.interconnect_need(acc, n, training=True), lang)
    doc = {
        "memory_gib": sizing.parts_gib(mem.parts),
        "peak_phase": mem.peak_phase,
        "phases_gib": {k: sizing.to_gib(v) for k, v in mem.phases.items()},
        "detail_gib": {
            k: sizing.to_gib(v)
            for k, v in mem.detail.items()
            if k != "activations_per_token_per_layer"
        },
        "trainable_parameters": mem.trainable_params,
        "fits_single_device": _fits(catalog, mem.total),
        "min_devices": min_devices,
        "interconnect": interconnect,
        "flops": {"dense": flops.dense, "attention": flops.attention, "total": flops.total},
        "assumptions": assumptions,
    }
    return doc, mem, flops


def inference_sizing_doc(
    shape: sizing.ModelShape, inf: vocabulary.Inference, catalog: Catalog, lang: str, serving: str
) -> tuple[dict[str, Any], sizing.InferenceMemory]:
    """The inference sizing section, memoised on the catalog (a copy is handed out)."""
    doc, mem = catalog.memo(
        ("inference_sizing", shape, inf, lang, serving),
        lambda: _new_inference_sizing(shape, inf, catalog, lang, serving),
    )
    return _copy_sizing(doc), mem


def _new_inference_sizing(
    shape: sizing.ModelShape, inf: vocabulary.Inference, catalog: Catalog, lang: str, serving: str
) -> tuple[dict[str, Any], sizing.InferenceMemory]:
    mem = sizing.inference_memory(shape, inf, catalog, serving)
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
        n = sizing.min_inference_devices(mem, shape, acc, catalog)
        min_devices[acc.id] = n
        interconnect[acc.id] = i18n.message(sizing.interconnect_need(acc, n, training=False), lang)
    doc = {
        "memory_gib": sizing.parts_gib(mem.parts),
        "kv_cache_bytes_per_token": mem.kv_bytes_per_token,
        "fits_single_device": _fits(catalog, mem.total),
        "min_devices": min_devices,
        "interconnect": interconnect,
        "assumptions": assumptions,
    }
    return doc, mem


def _prefill_assumption(
    inf: vocabulary.Inference, catalog: Catalog, lang: str, serving: str
) -> str:
    tokens = f"{sizing.prefill_tokens(inf, catalog, serving):,.0f}"
    if serving in sizing.CHUNKED_PREFILL_SERVING:
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
