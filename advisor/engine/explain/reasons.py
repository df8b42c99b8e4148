"""Reasons: each criterion's points for a workload with the sentence that states them, merged
across workloads; the hard constraints as result entries; a stored reason worded again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache, partial
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.ranking import scoring
from advisor.engine.ranking.scoring.model import _value_keys
from advisor.engine.text import i18n

_DERIVED_FROM = {
    "derived.utilisation": "cost.hours_per_day",
    "derived.latency_class": "inference.p95_latency_ms",
    "derived.tpu_region_coverage": "organization.regions",
    "derived.training_scale": "training.dataset_tokens",
}


def _points(value: float) -> str:
    return f"{value:+.2f}"


def _effect(contrib: Mapping[str, float]) -> str:
    diff = contrib.get("gpu", 0.0) - contrib.get("tpu", 0.0)
    if diff > 1e-9:
        return "favours_gpu"
    if diff < -1e-9:
        return "favours_tpu"
    return "neutral"


def _mode_effect(contrib: Mapping[str, float]) -> str | None:
    modes = {m: v for m, v in contrib.items() if m in vocabulary.MODES and v}
    if not modes:
        return None
    best = max(modes, key=lambda m: modes[m])
    return f"favours_{best}" if modes[best] > 0 else f"against_{min(modes, key=lambda m: modes[m])}"


def workload_reasons(
    model: scoring.ScoringModel,
    facts: Mapping[str, Any],
    index: int,
    kind: str,
    schedule: str,
    lang: str,
) -> list[dict[str, Any]]:
    """One reason per criterion that applies to the workload, with its attributed points."""
    out = []
    for c in model.by_phase[scoring.PHASE_OF[kind]]:
        value: Any
        if c.answer == "workload.schedule":
            path, value = f"workloads[{index}].schedule", schedule
        elif c.answer == "workload.kind":
            path, value = f"workloads[{index}].kind", kind
        else:
            path, value = c.answer, facts.get(c.answer)
        # A reason depends only on the criterion, the answer and the language: memoised on the
        # model, copied out so callers may change what they get.
        reason = model.memo(
            ("reason", c.id, path, value, lang),
            partial(_reason, c, path, value, lang),
        )
        out.append(_copy_reason(reason))
    return out


def _copy_reason(reason: Mapping[str, Any]) -> dict[str, Any]:
    value = reason["answer_value"]
    return {
        **reason,
        "contribution": dict(reason["contribution"]),
        "answer_value": list(value) if isinstance(value, list) else value,
    }


def _reason(c: scoring.Criterion, path: str, value: Any, lang: str) -> dict[str, Any]:
    contrib: dict[str, float] = {}
    for key in _value_keys(value):
        for opt, raw in c.raw_contributions.get(key, {}).items():
            contrib[opt] = contrib.get(opt, 0.0) + c.weight * float(raw)
    contrib = {o: round(v, 3) for o, v in contrib.items() if abs(v) > 1e-12}
    reason: dict[str, Any] = {
        "criterion": c.id,
        "label": c.label.get(lang, c.label["en"]),
        "answer_path": path,
        "answer_value": list(value) if isinstance(value, tuple) else value,
        "weight": c.weight,
        "contribution": contrib,
        "effect": _effect(contrib),
        "mode_effect": _mode_effect(contrib),
        "explanation": "",
    }
    value_text = i18n.value_label(path, value, lang)
    _explain(reason, value_text, c.rationale.get(lang, c.rationale["en"]), lang)
    if path in _DERIVED_FROM:
        reason["derived_from"] = _DERIVED_FROM[path]
    return reason


def _explain(reason: dict[str, Any], value_text: str, rationale: str, lang: str) -> None:
    reason["explanation"] = _explanation(
        reason["label"],
        value_text,
        reason["weight"],
        tuple(reason["contribution"].items()),
        rationale,
        lang,
    )
    reason["_text"] = (value_text, rationale)


@lru_cache(maxsize=8192)
def _explanation(
    label: str,
    value_text: str,
    weight: float,
    contribution: tuple[tuple[str, float], ...],
    rationale: str,
    lang: str,
) -> str:
    effects = i18n.list_separator(lang).join(
        i18n.message("reason.points", lang, option=i18n.label(o, lang), points=_points(v))
        for o, v in sorted(contribution, key=lambda kv: -abs(kv[1]))
    ) or i18n.message("reason.no_effect", lang)
    return i18n.message(
        "reason.line",
        lang,
        label=label,
        value=value_text,
        weight=f"{weight:g}",
        effects=effects,
        rationale=rationale,
    )


def aggregate_reasons(
    per_workload: Sequence[tuple[str, list[dict[str, Any]]]], lang: str
) -> list[dict[str, Any]]:
    """Merge reasons by (criterion, answer path), summing points; biggest GPU/TPU swing first."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for kind, reasons in per_workload:
        for r in reasons:
            key = (r["criterion"], r["answer_path"])
            if key not in merged:
                merged[key] = {**r, "contribution": dict(r["contribution"]), "workloads": [kind]}
                continue
            m = merged[key]
            m["workloads"].append(kind)
            for o, v in r["contribution"].items():
                m["contribution"][o] = round(m["contribution"].get(o, 0.0) + v, 3)
    out = [r for r in merged.values() if r["contribution"]]
    for r in out:
        if len(r["workloads"]) > 1:
            # Effects from the summed points (once per merged reason, after every workload).
            r["effect"] = _effect(r["contribution"])
            r["mode_effect"] = _mode_effect(r["contribution"])
            _explain(r, r["_text"][0], r["_text"][1], lang)
    out.sort(
        key=lambda r: (
            -abs(r["contribution"].get("gpu", 0.0) - r["contribution"].get("tpu", 0.0)),
            -max((abs(v) for v in r["contribution"].values()), default=0.0),
            r["criterion"],
        )
    )
    for r in out:  # the merged reasons are this function's own copies
        r.pop("_text", None)
    return out


def exclusion_docs(excluded: Sequence[scoring.Exclusion], lang: str) -> list[dict[str, Any]]:
    """The hard constraints as result entries, one per (option, workload, reason)."""
    out = []
    for e in excluded:
        params = {
            k: i18n.value_label(e.answer_path, v, lang)
            if k in ("mode", "serving", "regions")
            else v
            for k, v in e.params.items()
        }
        out.append(
            {
                "option": e.option,
                "workload": e.kind,
                "code": e.code.removeprefix("exclude."),
                "answer_path": e.answer_path,
                "reason": i18n.message(e.code, lang, **params),
            }
        )
    return out


def reason_in(
    model: scoring.ScoringModel, criterion: str, path: str, value: Any, lang: str
) -> dict[str, Any] | None:
    """A stored reason worded again in `lang` (the compare page shows two versions, each
    generated in its own language, in the page's): None when the model has no such criterion."""
    found = next((c for c in model.criteria if c.id == criterion), None)
    if found is None:
        return None
    reason = _reason(found, path, tuple(value) if isinstance(value, list) else value, lang)
    reason.pop("_text", None)
    return reason
