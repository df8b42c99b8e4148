"""Explanations: attributed reasons, exclusions, `would_change_if` (found by re-scoring) and the
plain-text summary the CLI prints.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import Any

from advisor.engine import answers as A
from advisor.engine import i18n
from advisor.engine import scoring as SC

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
    modes = {m: v for m, v in contrib.items() if m in A.MODES and v}
    if not modes:
        return None
    best = max(modes, key=lambda m: modes[m])
    return f"favours_{best}" if modes[best] > 0 else f"against_{min(modes, key=lambda m: modes[m])}"


def _value_text(value: Any, lang: str) -> str:
    if isinstance(value, tuple | list):
        return ", ".join(i18n.label(v, lang) for v in value) or "—"
    if value is None:
        return "—"
    return i18n.label(value, lang)


def workload_reasons(
    model: SC.ScoringModel,
    facts: Mapping[str, Any],
    index: int,
    kind: str,
    schedule: str,
    lang: str,
) -> list[dict[str, Any]]:
    """One reason per criterion that applies to the workload, with its attributed points."""
    phase = SC.PHASE_OF[kind]
    out = []
    for c in model.criteria:
        if phase not in c.applies_to:
            continue
        value: Any
        keys: tuple[str, ...]
        if c.answer == "workload.schedule":
            path, value, keys = f"workloads[{index}].schedule", schedule, (schedule,)
        elif c.answer == "workload.kind":
            path, value, keys = f"workloads[{index}].kind", kind, (kind,)
        else:
            path, value = c.answer, facts.get(c.answer)
            keys = SC._value_keys(value)
        contrib: dict[str, float] = {}
        for key in keys:
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
        _explain(reason, _value_text(value, lang), c.rationale.get(lang, c.rationale["en"]), lang)
        if path in _DERIVED_FROM:
            reason["derived_from"] = _DERIVED_FROM[path]
        out.append(reason)
    return out


def _explain(reason: dict[str, Any], value_text: str, rationale: str, lang: str) -> None:
    contrib = reason["contribution"]
    effects = ", ".join(
        i18n.message("reason.points", lang, option=i18n.label(o, lang), points=_points(v))
        for o, v in sorted(contrib.items(), key=lambda kv: -abs(kv[1]))
    ) or i18n.message("reason.no_effect", lang)
    reason["explanation"] = i18n.message(
        "reason.line",
        lang,
        label=reason["label"],
        value=value_text,
        weight=f"{reason['weight']:g}",
        effects=effects,
        rationale=rationale,
    )
    reason["_text"] = (value_text, rationale)


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
            m["effect"] = _effect(m["contribution"])
            m["mode_effect"] = _mode_effect(m["contribution"])
    out = [r for r in merged.values() if r["contribution"]]
    for r in out:
        if len(r["workloads"]) > 1:
            _explain(r, r["_text"][0], r["_text"][1], lang)
    out.sort(
        key=lambda r: (
            -abs(r["contribution"].get("gpu", 0.0) - r["contribution"].get("tpu", 0.0)),
            -max((abs(v) for v in r["contribution"].values()), default=0.0),
            r["criterion"],
        )
    )
    return [strip_private(r) for r in out]


def strip_private(reason: Mapping[str, Any]) -> dict[str, Any]:
    """Drop the helper fields used while merging."""
    return {k: v for k, v in reason.items() if not k.startswith("_")}


def exclusion_docs(excluded: Sequence[SC.Exclusion], lang: str) -> list[dict[str, Any]]:
    """The hard constraints as result entries, one per (option, workload, reason)."""
    out = []
    for e in excluded:
        params = {
            k: i18n.label(v, lang) if k in ("mode", "serving") else v for k, v in e.params.items()
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


# --------------------------------------------------------------------------- would_change_if

_ORDERED = {
    "maturity.stack_changes": A.STACK_CHANGES,
    "maturity.pipeline": A.PIPELINES,
    "maturity.demand": A.DEMANDS,
    "deployment.portability": A.PORTABILITY,
    "deployment.data_residency": A.RESIDENCY,
    "cost.ops_capacity": A.OPS_CAPACITY,
    "workload.schedule": A.SCHEDULES,
}
_ENUM_PATHS = {
    "organization.industry": A.INDUSTRIES,
    "maturity.stack_changes": A.STACK_CHANGES,
    "maturity.pipeline": A.PIPELINES,
    "maturity.demand": A.DEMANDS,
    "frameworks.primary": A.FRAMEWORKS,
    "frameworks.serving": A.SERVING,
    "deployment.portability": A.PORTABILITY,
    "deployment.data_residency": A.RESIDENCY,
    "cost.billing": A.BILLING,
    "cost.ops_capacity": A.OPS_CAPACITY,
}
_LIST_PATHS = {
    "deployment.allowed_modes": (A.MODES, 1),
    "deployment.clouds": (A.CLOUDS, 0),
    "organization.regions": (A.REGIONS, 1),
    "frameworks.others": (A.FRAMEWORKS, 0),
}
_HOURS = (4.0, 12.0, 24.0)

Change = tuple[str, Any, Any, float]  # (display path, from, to, distance)


def _variants(facts: Mapping[str, Any]) -> Iterator[tuple[Change, dict[str, Any]]]:
    """Every single-answer change worth trying, with its facts."""
    for path, values in _ENUM_PATHS.items():
        current = facts[path]
        for v in values:
            if v != current:
                order = _ORDERED.get(path)
                dist = abs(order.index(v) - order.index(current)) if order else 1.0
                yield (path, current, v, float(dist)), {path: v}
    for path in ("frameworks.custom_kernels", "deployment.china_connectivity"):
        yield (path, facts[path], not facts[path], 1.0), {path: not facts[path]}
    if facts.get("inference.traffic") is not None:
        for v in A.TRAFFIC:
            if v != facts["inference.traffic"]:
                yield (
                    ("inference.traffic", facts["inference.traffic"], v, 1.0),
                    {"inference.traffic": v},
                )
    hours = float(facts["cost.hours_per_day"])
    for h in _HOURS:
        if abs(h - hours) > 1e-9:
            yield ("cost.hours_per_day", hours, h, abs(h - hours) / 8.0), {"cost.hours_per_day": h}
    for path, (values, min_len) in _LIST_PATHS.items():
        current = tuple(facts[path])
        for v in values:
            new = tuple(x for x in current if x != v) if v in current else (*current, v)
            if len(new) < min_len:
                continue
            yield (path, list(current), list(new), 1.0), {path: new}
    workloads = facts["workloads"]
    for i, (_kind, schedule) in enumerate(workloads):
        for s in A.SCHEDULES:
            if s != schedule:
                changed = tuple((k, s if j == i else sch) for j, (k, sch) in enumerate(workloads))
                dist = abs(A.SCHEDULES.index(s) - A.SCHEDULES.index(schedule))
                yield (f"workloads[{i}].schedule", schedule, s, float(dist)), {"workloads": changed}


def _valid(facts: Mapping[str, Any]) -> bool:
    # Same rule as the answers cross-field check: on-premises-only data needs an owned mode.
    if facts["deployment.data_residency"] == "on_premises_only":
        return bool({"on_premises", "private_cloud"} & set(facts["deployment.allowed_modes"]))
    return True


def would_change_if(
    facts: Mapping[str, Any],
    decision: SC.Decision,
    model: SC.ScoringModel,
    ctx: SC.Context,
    lang: str,
    *,
    limit: int = 8,
) -> list[dict[str, Any]]:
    """Smallest answer changes that flip the overall accelerator or deployment mode.

    Every single-answer change is re-scored; pairs are tried only when no single change flips,
    among the changes to the answers that carry the most points.
    """
    base = (decision.accelerator, decision.mode)
    singles: list[tuple[Change, dict[str, Any]]] = []
    flips: list[tuple[tuple[Change, ...], tuple[str, str]]] = []
    base_excluded = SC.exclusions(facts, ctx)
    for change, patch in _variants(facts):
        variant = {**facts, **patch}
        if not _valid(variant):
            continue
        singles.append((change, patch))
        variant.update(SC.derive(variant, model, ctx))
        if SC.exclusions(variant, ctx) == base_excluded:
            # Same hard constraints, so the same feasible pairs: only the points move.
            result = SC.best_pair(decision.pairs, _shifted_scores(facts, variant, decision, model))
        else:
            d = SC.decide(variant, model, ctx, derived=True)
            result = (d.accelerator, d.mode)
        if result != base:
            flips.append(((change,), result))
    if not flips:
        influential = _influential_paths(decision, model)
        pool = [s for s in singles if s[0][0] in influential][:24]
        for (c1, p1), (c2, p2) in combinations(pool, 2):
            if c1[0] == c2[0]:
                continue
            variant = {**facts, **p1, **p2}
            if not _valid(variant):
                continue
            d = SC.decide(variant, model, ctx)
            if (d.accelerator, d.mode) != base:
                flips.append(((c1, c2), (d.accelerator, d.mode)))
    flips.sort(
        key=lambda f: (len(f[0]), sum(c[3] for c in f[0]), f[1][0] == base[0], [c[0] for c in f[0]])
    )
    out = []
    for changes, (acc, mode) in flips[:limit]:
        text = i18n.message("would_change.and", lang).join(
            i18n.message(
                "would_change.change",
                lang,
                path=c[0],
                value=_value_text(c[2], lang),
                current=_value_text(c[1], lang),
            )
            for c in changes
        )
        out.append(
            {
                "changes": [{"answer_path": c[0], "from": c[1], "to": c[2]} for c in changes],
                "accelerator": acc,
                "deployment_mode": mode,
                "explanation": i18n.message(
                    "would_change.line",
                    lang,
                    changes=text,
                    accelerator=i18n.label(acc, lang),
                    mode=i18n.label(mode, lang),
                ),
            }
        )
    return out


def _shifted_scores(
    facts: Mapping[str, Any],
    variant: Mapping[str, Any],
    decision: SC.Decision,
    model: SC.ScoringModel,
) -> list[list[float]]:
    """Each workload's scores after the variant, from the base scores plus the changed criteria."""
    changed = {k for k, v in variant.items() if k != "workloads" and facts.get(k) != v}
    out = []
    for (kind, schedule), w in zip(variant["workloads"], decision.workloads, strict=True):
        scores = list(w.scores)
        phase = SC.PHASE_OF[kind]
        for c in model.criteria:
            if phase not in c.applies_to:
                continue
            old: Any
            new: Any
            if c.answer == "workload.schedule":
                if schedule == w.schedule:
                    continue
                old, new = w.schedule, schedule
            elif c.answer in changed:
                old, new = facts.get(c.answer), variant.get(c.answer)
            else:
                continue
            before, after = SC.criterion_points(c, old), SC.criterion_points(c, new)
            for i in range(len(scores)):
                scores[i] += after[i] - before[i]
        out.append(scores)
    return out


def _influential_paths(decision: SC.Decision, model: SC.ScoringModel) -> set[str]:
    weights: dict[str, float] = {}
    for c in model.criteria:
        path = c.answer
        if path.startswith("workload."):
            continue
        path = {
            "derived.utilisation": "cost.hours_per_day",
            "derived.tpu_region_coverage": "organization.regions",
        }.get(path, path)
        weights[path] = weights.get(path, 0.0) + c.spread
    for e in decision.excluded:
        weights[e.answer_path] = weights.get(e.answer_path, 0.0) + 100.0
    return set(sorted(weights, key=lambda p: -weights[p])[:6])


# --------------------------------------------------------------------------- text summary


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def text_summary(result: Mapping[str, Any], lang: str) -> str:
    """A readable summary of a result document (the CLI's --format text)."""
    t = i18n.message
    rec = result["recommendation"]
    lines = [
        f"== {t('summary.title', lang)} ==",
        t(
            "summary.headline",
            lang,
            accelerator=i18n.label(rec["accelerator"], lang),
            mode=i18n.label(rec["deployment_mode"], lang),
            billing=i18n.label(rec["billing"], lang),
            confidence=f"{rec['confidence']:.2f}",
        ),
        t(
            "summary.scores",
            lang,
            gpu=_fmt(rec["scores"]["gpu"]),
            tpu=_fmt(rec["scores"]["tpu"]) if rec["scores"]["tpu"] is not None else "—",
        ),
    ]
    if rec.get("split_note"):
        lines.append(rec["split_note"])
    lines.append(rec["billing_reason"])
    if rec["excluded"]:
        lines.append(f"-- {t('summary.excluded', lang)} --")
        seen = set()
        for e in rec["excluded"]:
            if e["reason"] in seen:
                continue
            seen.add(e["reason"])
            lines.append(f"  - {i18n.label(e['option'], lang)}: {e['reason']}")
    lines.append(f"-- {t('summary.reasons', lang)} --")
    lines.extend(f"  - {r['explanation']}" for r in rec["reasons"][:8])
    lines.append(f"-- {t('summary.would_change', lang)} --")
    if rec["would_change_if"]:
        lines.extend(f"  - {w['explanation']}" for w in rec["would_change_if"])
    else:
        lines.append("  - " + t("would_change.none", lang))
    lines.append(f"-- {t('summary.workloads', lang)} --")
    for w in result["workloads"]:
        lines.append(
            "  "
            + t(
                "summary.workload",
                lang,
                kind=i18n.label(w["kind"], lang),
                accelerator=i18n.label(w["accelerator"], lang),
                mode=i18n.label(w["deployment_mode"], lang),
            )
        )
        for o in w["options"][:3]:
            cost = (
                t("summary.option_cost_month", lang, usd=_fmt(o["monthly_cost_usd"]))
                if o["monthly_cost_usd"] is not None
                else t("summary.option_cost_missing", lang)
            )
            lines.append(
                "    - "
                + t(
                    "summary.option",
                    lang,
                    count=o["count"],
                    name=o["name"],
                    hours=_fmt(o["hours"]),
                    cost=cost,
                )
            )
    for phase in ("training", "inference"):
        s = result["sizing"][phase]
        if s is None:
            continue
        mem = s["memory_gib"]
        extra = ", ".join(f"{k} {v}" for k, v in mem.items() if k not in ("weights", "total"))
        lines.append(f"-- {t('summary.sizing', lang)}: {i18n.label(phase, lang)} --")
        lines.append(
            "  "
            + t(
                "summary.memory",
                lang,
                phase=i18n.label(s.get("peak_phase", phase), lang),
                total=mem["total"],
                weights=mem["weights"],
                extra=extra,
            )
        )
        lines.append(
            "  "
            + t(
                "summary.fits",
                lang,
                ids=", ".join(s["fits_single_device"]) or t("summary.none", lang),
            )
        )
        lines.append(f"  {t('summary.assumptions', lang)}:")
        lines.extend(f"    * {a}" for a in s["assumptions"])
    srv = result["server"]
    if srv is not None:
        lines.append(
            t(
                "summary.server",
                lang,
                cpu=srv["cpu_cores"],
                ram=srv["ram_gib"],
                nvme=srv["nvme_tb"],
                net=srv["network_gbps"],
            )
        )
    for note in result["cost"]["notes"]:
        lines.append(f"! {note}")
    return "\n".join(lines) + "\n"
