"""Explanations: attributed reasons, exclusions, `would_change_if` (found by re-scoring) and the
plain-text summary the CLI prints.
"""

from __future__ import annotations

import math
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


# Answers the hard constraints read (workload kinds never change here), the answers derived
# values are computed from, and the answers the validity rule reads.
_EXCLUSION_PATHS = frozenset(
    {
        "deployment.allowed_modes",
        "deployment.clouds",
        "deployment.data_residency",
        "organization.regions",
        "frameworks.custom_kernels",
        "frameworks.primary",
        "frameworks.serving",
    }
)
_DERIVE_INPUTS = frozenset(
    {"cost.hours_per_day", "organization.regions", "inference.p95_latency_ms"}
)
_VALIDITY_PATHS = frozenset({"deployment.data_residency", "deployment.allowed_modes"})
_EPS = 1e-6  # slack for the no-flip bound: far above float noise, far below any point step

Vector = tuple[float, ...]


def _add(*vectors: Vector | None) -> Vector | None:
    present = [v for v in vectors if v is not None]
    if len(present) <= 1:
        return present[0] if present else None
    return tuple(sum(col) for col in zip(*present, strict=True))


class _Rescorer:
    """Re-scores answer changes from the base decision instead of scoring from scratch.

    Scores are additive per criterion, so a changed answer moves a workload's scores by the
    points its criteria give the new value less those they give the old one. While the hard
    constraints leave the same options feasible, the candidate pairs are the base decision's,
    and each pair's overall total moves by that difference summed over the workloads. A change
    whose best gain over the base pair stays below the base pair's lead cannot flip it.
    """

    def __init__(
        self,
        facts: Mapping[str, Any],
        decision: SC.Decision,
        model: SC.ScoringModel,
        ctx: SC.Context,
    ) -> None:
        self.facts, self.model, self.ctx = facts, model, ctx
        self.kinds = [w.kind for w in decision.workloads]
        self.phases = tuple(SC.PHASE_OF[k] for k in self.kinds)
        self.scores = [w.scores for w in decision.workloads]
        self.excluded = list(decision.excluded)
        self.key = SC.feasibility_key(decision.excluded)
        self.pairs = tuple(decision.pairs)
        self.index = tuple((SC._INDEX[a], SC._INDEX[m]) for a, m in self.pairs)
        self.base = (decision.accelerator, decision.mode)
        self.totals = [sum(SC._total(s, p) for s in self.scores) for p in self.pairs]
        # No pair feasible for every workload (unreachable for valid answers: GPUs are never
        # excluded): the base pairs are a fallback, so always pick from scratch.
        self.forced = not SC._feasible(self.kinds, self.excluded)[1] or self.base not in self.pairs
        self.at = self.pairs.index(self.base) if self.base in self.pairs else 0
        lead = math.inf
        for i, t in enumerate(self.totals):
            if i != self.at:
                lead = min(lead, self.totals[self.at] - t)
        self.lead = -math.inf if self.forced else lead

    def changed(self, patch: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
        """(answer, old, new) for every answer a criterion may read, derived ones included."""
        facts = self.facts
        out = [(k, facts.get(k), v) for k, v in patch.items() if k != "workloads"]
        if _DERIVE_INPUTS.intersection(patch):
            for k, v in SC.derive({**facts, **patch}, self.model, self.ctx).items():
                if facts.get(k) != v:
                    out.append((k, facts.get(k), v))
        return out

    def deltas(self, patch: Mapping[str, Any]) -> list[Vector | None]:
        """Per workload, how its scores move under `patch` (None = not at all)."""
        model = self.model
        changed = self.changed(patch)
        by_phase = {
            phase: _add(*(model.swap(a, phase, old, new) for a, old, new in changed))
            for phase in set(self.phases)
        }
        if "workloads" not in patch:
            return [by_phase[p] for p in self.phases]
        out = []
        for i, phase in enumerate(self.phases):
            old, new = self.facts["workloads"][i][1], patch["workloads"][i][1]
            d = by_phase[phase]
            if old != new:
                d = _add(d, model.swap("workload.schedule", phase, old, new))
            out.append(d)
        return out

    def gains(self, patch: Mapping[str, Any]) -> tuple[Vector | None, float]:
        """How each base pair's overall total moves under `patch` (None = none moves), and the
        most any pair gains on the base pair. Memoised: it depends only on the changed answers,
        the workloads' phases and the base pairs, which recur across assessments.
        """
        if "workloads" in patch:
            changes: tuple[Any, ...] = tuple(
                (i, old[1], new[1])
                for i, (old, new) in enumerate(zip(self.facts["workloads"], patch["workloads"]))
                if old != new
            )
        else:
            changes = tuple(self.changed(patch))
        key = ("gains", changes, self.phases, self.pairs, self.at)
        return self.model.memo(key, lambda: self._gains(self.deltas(patch)))

    def _gains(self, deltas: Sequence[Vector | None]) -> tuple[Vector | None, float]:
        total = _add(*deltas)
        if total is None:
            return None, 0.0
        gains = tuple(total[a] + total[m] for a, m in self.index)
        return gains, self.bound(gains)

    def bound(self, gains: Vector | None) -> float:
        """The most any pair gains on the base pair."""
        if gains is None:
            return 0.0
        base = gains[self.at]
        return max((g - base for i, g in enumerate(gains) if i != self.at), default=-math.inf)

    def result(
        self,
        gains: Vector | None,
        bound: float,
        patched: Mapping[str, Any] | None,
        deltas: Any,
    ) -> SC.Pair:
        """The overall pair after a change. `patched` is the changed facts when the change may
        move the hard constraints (else None); `deltas` is called for per-workload deltas when
        it does."""
        if patched is not None:
            key = SC.feasibility(patched, self.ctx)
            if key != self.key or self.forced:
                per_workload = [
                    s if d is None else [a + b for a, b in zip(s, d, strict=True)]
                    for s, d in zip(self.scores, deltas(), strict=True)
                ]
                return SC.pick(self.kinds, SC.exclusions(patched, self.ctx), per_workload)
        elif self.forced:
            return SC.pick(
                self.kinds,
                self.excluded,
                [
                    s if d is None else [a + b for a, b in zip(s, d, strict=True)]
                    for s, d in zip(self.scores, deltas(), strict=True)
                ],
            )
        if gains is None or bound < self.lead - _EPS:
            return self.base
        totals = self.totals
        i = SC._best(range(len(totals)), lambda j: totals[j] + gains[j])
        return self.pairs[i]


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
    among the changes to the answers that carry the most points. Re-scoring swaps the changed
    criteria's points into the base scores (`_Rescorer`); tests/engine checks it against
    scoring every variant from scratch.
    """
    base = (decision.accelerator, decision.mode)
    rs = _Rescorer(facts, decision, model, ctx)
    # (change, patch, gains, bound, may move the hard constraints)
    singles: list[tuple[Change, dict[str, Any], Any, float, bool]] = []
    flips: list[tuple[tuple[Change, ...], tuple[str, str]]] = []
    for change, patch in _variants(facts):
        path = change[0] if change[0] in facts else "workloads"
        if path in _VALIDITY_PATHS and not _valid({**facts, **patch}):
            continue
        gains, bound = rs.gains(patch)
        hard = path in _EXCLUSION_PATHS
        singles.append((change, patch, gains, bound, hard))
        result = rs.result(
            gains, bound, {**facts, **patch} if hard else None, lambda p=patch: rs.deltas(p)
        )
        if result != base:
            flips.append(((change,), result))
    if not flips:
        influential = _influential_paths(decision, model)
        pool = [s for s in singles if s[0][0] in influential][:24]
        for (c1, p1, g1, b1, h1), (c2, p2, g2, b2, h2) in combinations(pool, 2):
            if c1[0] == c2[0]:
                continue
            if not (h1 or h2) and b1 + b2 < rs.lead - _EPS:
                continue  # the two gains together cannot overtake the base pair's lead
            patched = {**facts, **p1, **p2}
            if (c1[0] in _VALIDITY_PATHS or c2[0] in _VALIDITY_PATHS) and not _valid(patched):
                continue
            gains = _add(g1, g2)
            result = rs.result(
                gains,
                rs.bound(gains),
                patched if h1 or h2 else None,
                lambda a=p1, b=p2: [
                    _add(x, y) for x, y in zip(rs.deltas(a), rs.deltas(b), strict=True)
                ],
            )
            if result != base:
                flips.append(((c1, c2), result))
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
