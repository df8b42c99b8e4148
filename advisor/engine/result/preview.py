"""preview: the wizard's live estimate from a draft, tolerant of missing and malformed answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from advisor.engine import explain, sizing
from advisor.engine.answers import parse, problems, schema, vocabulary
from advisor.engine.answers.upgrade import upgrade_answers
from advisor.engine.catalog import Catalog
from advisor.engine.ranking.scoring import Context, ScoringModel
from advisor.engine.ranking.scoring import decide as decide_by_scores
from advisor.engine.text import i18n

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


def _number_at(draft: Mapping[str, Any], section: str, key: str) -> float | None:
    """A number the draft answers within the bounds the answers schema states, else None."""
    value = _get(draft, section, key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    lo, hi, open_lo = schema.number_range(f"{section}.{key}")
    above = value > lo if open_lo else value >= lo
    return float(value) if above and value <= hi else None


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
        # A version 1 draft (context_tokens) is read as version 2 (prompt_tokens).
        draft = upgrade_answers(draft)
        return _preview(draft, catalog, scoring, lang, _ok if checked else _partial_ok)
    except Exception:  # noqa: BLE001 - a draft preview must never break the wizard
        return None


def _ok(doc: Mapping[str, Any]) -> bool:
    return True


def _partial_ok(doc: Mapping[str, Any]) -> bool:
    return not problems.check_partial(doc)


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
            kind = _enum_or(_get(w, "kind"), vocabulary.WORKLOAD_KINDS, None)
            if kind and kind not in (k for k, _ in workloads):
                workloads.append((kind, _enum_or(_get(w, "schedule"), vocabulary.SCHEDULES, None)))
    if not workloads:
        return None
    regions = _list_of(_get(draft, "organization", "regions"), vocabulary.REGIONS)
    modes = (
        _list_of(_get(draft, "deployment", "allowed_modes"), vocabulary.MODES) or vocabulary.MODES
    )
    residency = _enum_or(_get(draft, "deployment", "data_residency"), vocabulary.RESIDENCY, "none")
    if residency == "on_premises_only" and not {"on_premises", "private_cloud"} & set(modes):
        residency = "none"
    facts: dict[str, Any] = {
        "organization.industry": _enum_or(
            _get(draft, "organization", "industry"), vocabulary.INDUSTRIES, None
        ),
        "organization.regions": regions,
        "maturity.stack_changes": _enum_or(
            _get(draft, "maturity", "stack_changes"), vocabulary.STACK_CHANGES, None
        ),
        "maturity.pipeline": _enum_or(
            _get(draft, "maturity", "pipeline"), vocabulary.PIPELINES, None
        ),
        "maturity.demand": _enum_or(_get(draft, "maturity", "demand"), vocabulary.DEMANDS, None),
        "frameworks.primary": _enum_or(
            _get(draft, "frameworks", "primary"), vocabulary.FRAMEWORKS, None
        ),
        "frameworks.others": _list_of(_get(draft, "frameworks", "others"), vocabulary.FRAMEWORKS),
        "frameworks.custom_kernels": _bool_or(_get(draft, "frameworks", "custom_kernels"), False),
        "frameworks.serving": _enum_or(
            _get(draft, "frameworks", "serving"), vocabulary.SERVING, None
        ),
        "deployment.allowed_modes": modes,
        "deployment.clouds": _list_of(_get(draft, "deployment", "clouds"), vocabulary.CLOUDS),
        "deployment.portability": _enum_or(
            _get(draft, "deployment", "portability"), vocabulary.PORTABILITY, None
        ),
        "deployment.china_connectivity": _bool_or(
            _get(draft, "deployment", "china_connectivity"),
            parse.china_by_region(regions) if regions else None,
        ),
        "deployment.data_residency": residency,
        "cost.billing": _enum_or(_get(draft, "cost", "billing"), vocabulary.BILLING, None),
        "cost.hours_per_day": _number_at(draft, "cost", "hours_per_day"),
        "cost.ops_capacity": _enum_or(
            _get(draft, "cost", "ops_capacity"), vocabulary.OPS_CAPACITY, None
        ),
        "inference.traffic": _enum_or(
            _get(draft, "inference", "traffic"), vocabulary.TRAFFIC, None
        ),
        "inference.p95_latency_ms": _number_at(draft, "inference", "p95_latency_ms"),
        "workloads": tuple((k, s or "") for k, s in workloads),
    }
    ctx = Context(
        region_tpus={k: tuple(v.get("tpus", ())) for k, v in catalog.regions.items()},
        training_flops=None,
    )
    d = decide_by_scores(facts, scoring, ctx)
    notes = [i18n.message("preview.partial", lang)]
    notes += [
        e["reason"]
        for e in explain.exclusion_docs([e for e in d.excluded if e.option == "tpu"], lang)
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
) -> sizing.ModelShape | None:
    model = _get(draft, "model")
    if not isinstance(model, Mapping):
        return None
    preset = model.get("preset")
    if isinstance(preset, str) and preset in catalog.presets:
        return sizing.shape_from_preset(catalog.presets[preset])
    arch = model.get("architecture")
    if isinstance(arch, Mapping):
        doc = {"model": {"architecture": arch}}
        if not valid(doc):
            return None
        try:
            parsed = vocabulary.architecture_from(arch)
        except (KeyError, TypeError, ValueError):
            return None
        return sizing.shape_from_architecture(parsed)
    return None


def _preview_memory(
    draft: Mapping[str, Any],
    shape: sizing.ModelShape,
    catalog: Catalog,
    valid: Callable[[Mapping[str, Any]], bool],
    kinds: set[str],
) -> dict[str, float | None]:
    out: dict[str, float | None] = {"training": None, "inference": None}
    # The memory shows as soon as a model is chosen: a step not answered yet (training and
    # inference come after the model) is sized with the defaults below, and a note says so.
    t = _get(draft, "training")
    if not isinstance(t, Mapping) and kinds & vocabulary.TRAINING_KINDS:
        t = {}
    if isinstance(t, Mapping) and valid({"training": t}):
        method = t.get("method", "full")
        training = vocabulary.Training(
            method=method,
            lora_rank=int(t.get("lora_rank", 16)) if method in ("lora", "qlora") else None,
            precision=t.get("precision", "bf16_mixed"),
            optimizer=t.get("optimizer", "adamw"),
            micro_batch_size=int(t.get("micro_batch_size", 1)),
            sequence_length=int(t.get("sequence_length", 2048)),
            gradient_checkpointing=bool(t.get("gradient_checkpointing", False)),
            dataset_tokens=int(t.get("dataset_tokens", 1)),
        )
        out["training"] = sizing.to_gib(sizing.training_memory(shape, training, catalog).total)
    i = _get(draft, "inference")
    if not isinstance(i, Mapping) and kinds & vocabulary.INFERENCE_KINDS:
        i = {}
    if isinstance(i, Mapping) and valid({"inference": i}):
        output_tokens = int(i.get("output_tokens", 1))
        # An unanswered prompt: a context of 4,096 tokens, the output included.
        prompt = int(i["prompt_tokens"]) if "prompt_tokens" in i else max(0, 4096 - output_tokens)
        inference = vocabulary.Inference(
            precision=i.get("precision", "bf16"),
            prompt_tokens=prompt,
            output_tokens=output_tokens,
            concurrent_sequences=int(i.get("concurrent_sequences", 1)),
            tokens_per_day=int(i.get("tokens_per_day", 0)),
            traffic=i.get("traffic", "steady"),
        )
        serving = _enum_or(_get(draft, "frameworks", "serving"), vocabulary.SERVING, None)
        out["inference"] = sizing.to_gib(
            sizing.inference_memory(shape, inference, catalog, serving).total
        )
    return out
