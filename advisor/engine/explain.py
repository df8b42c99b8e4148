"""Explanations: attributed reasons, exclusions, `would_change_if` (found by re-scoring) and the
plain-text summary the CLI prints.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache, partial
from itertools import combinations
from typing import Any

from advisor.engine import answers as A
from advisor.engine import i18n
from advisor.engine import scoring as SC
from advisor.engine.document import ResultDocument

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


def workload_reasons(
    model: SC.ScoringModel,
    facts: Mapping[str, Any],
    index: int,
    kind: str,
    schedule: str,
    lang: str,
) -> list[dict[str, Any]]:
    """One reason per criterion that applies to the workload, with its attributed points."""
    out = []
    for c in model.by_phase[SC.PHASE_OF[kind]]:
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


def _reason(c: SC.Criterion, path: str, value: Any, lang: str) -> dict[str, Any]:
    contrib: dict[str, float] = {}
    for key in SC._value_keys(value):
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


def strip_private(reason: Mapping[str, Any]) -> dict[str, Any]:
    """Drop the helper fields used while merging."""
    out = dict(reason)
    out.pop("_text", None)
    return out


def exclusion_docs(excluded: Sequence[SC.Exclusion], lang: str) -> list[dict[str, Any]]:
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


Variant = tuple[Change, dict[str, Any]]
Vector = tuple[float, ...]


def _variants(facts: Mapping[str, Any]) -> Iterator[Variant]:
    """Every single-answer change worth trying, with its facts."""
    for _path, _key, make in _groups(facts):
        yield from make()


def _groups(
    facts: Mapping[str, Any],
) -> Iterator[tuple[str, Any, Callable[[], list[Variant]]]]:
    """The single-answer changes by answer: (facts path, what the changes depend on besides
    the path, a function making them), in a fixed order."""
    for path, values in _ENUM_PATHS.items():
        yield path, facts[path], partial(_enum_changes, path, facts[path], values)
    for path in ("frameworks.custom_kernels", "deployment.china_connectivity"):
        yield (
            path,
            facts[path],
            partial(_flip_changes, path, facts[path]),
        )
    if facts.get("inference.traffic") is not None:
        traffic = facts["inference.traffic"]
        yield (
            "inference.traffic",
            traffic,
            lambda: [
                (("inference.traffic", traffic, v, 1.0), {"inference.traffic": v})
                for v in A.TRAFFIC
                if v != traffic
            ],
        )
    hours = float(facts["cost.hours_per_day"])
    yield (
        "cost.hours_per_day",
        hours,
        lambda: [
            (("cost.hours_per_day", hours, h, abs(h - hours) / 8.0), {"cost.hours_per_day": h})
            for h in _HOURS
            if abs(h - hours) > 1e-9
        ],
    )
    for path, (values, min_len) in _LIST_PATHS.items():
        current = tuple(facts[path])
        yield (
            path,
            current,
            partial(_list_changes, path, current, values, min_len),
        )
    workloads = facts["workloads"]
    for i in range(len(workloads)):
        yield "workloads", (workloads, i), partial(_schedule_changes, workloads, i)


def _flip_changes(path: str, current: bool) -> list[Variant]:
    return [((path, current, not current, 1.0), {path: not current})]


def _enum_changes(path: str, current: Any, values: Sequence[str]) -> list[Variant]:
    order = _ORDERED.get(path)
    return [
        (
            (path, current, v, float(abs(order.index(v) - order.index(current))) if order else 1.0),
            {path: v},
        )
        for v in values
        if v != current
    ]


def _list_changes(
    path: str, current: tuple[str, ...], values: Sequence[str], min_len: int
) -> list[Variant]:
    out: list[Variant] = []
    for v in values:
        new = tuple([x for x in current if x != v]) if v in current else (*current, v)
        if len(new) >= min_len:
            out.append(((path, list(current), list(new), 1.0), {path: new}))
    return out


def _schedule_changes(workloads: tuple[tuple[str, str], ...], i: int) -> list[Variant]:
    schedule = workloads[i][1]
    out: list[Variant] = []
    for s in A.SCHEDULES:
        if s != schedule:
            changed = tuple((k, s if j == i else sch) for j, (k, sch) in enumerate(workloads))
            dist = abs(A.SCHEDULES.index(s) - A.SCHEDULES.index(schedule))
            out.append(
                ((f"workloads[{i}].schedule", schedule, s, float(dist)), {"workloads": changed})
            )
    return out


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


def _add(*vectors: Vector | None) -> Vector | None:
    present = [v for v in vectors if v is not None]
    if len(present) <= 1:
        return present[0] if present else None
    return tuple(sum(col) for col in zip(*present, strict=True))


class _Rescorer:
    """Re-scores answer changes from the base decision instead of scoring from scratch.

    Scores are additive per criterion, so a changed answer moves a workload's scores by the
    points its criteria give the new value less those they give the old one, and each pair's
    overall total by that difference summed over the workloads (its "gains"). The hard
    constraints only decide which pairs compete. A change whose best gain over the base pair
    stays below the base pair's lead, with the same pairs competing, cannot flip it.
    """

    def __init__(
        self,
        facts: Mapping[str, Any],
        decision: SC.Decision,
        model: SC.ScoringModel,
        ctx: SC.Context,
    ) -> None:
        self.facts, self.model, self.ctx = facts, model, ctx
        self.kinds = tuple(w.kind for w in decision.workloads)
        self.phases = tuple(SC.PHASE_OF[k] for k in self.kinds)
        self.scores = [w.scores for w in decision.workloads]
        self.key = SC.feasibility_key(decision.excluded)
        self.exclusion_inputs = SC.exclusion_inputs(facts, ctx)  # what the hard sweeps key on
        self.index = tuple((SC._INDEX[a], SC._INDEX[m]) for a, m in SC.ALL_PAIRS)
        self.totals = [sum(SC._total(s, p) for s in self.scores) for p in SC.ALL_PAIRS]
        self.base = (decision.accelerator, decision.mode)
        self.live = tuple(SC.PAIR_INDEX[p] for p in decision.pairs)
        self.at = SC.PAIR_INDEX[self.base]
        # No pair feasible for every workload (unreachable for valid answers: GPUs are never
        # excluded): the base pair is a fallback, so every change is picked from scratch.
        self.forced = not SC._feasible_for(self.kinds, self.key)[1]
        lead = min(
            (self.totals[self.at] - self.totals[i] for i in self.live if i != self.at),
            default=math.inf,
        )
        self.lead = -math.inf if self.forced else lead

    def changed(self, patch: Mapping[str, Any]) -> list[tuple[Any, Any, Any]]:
        """(answer, old, new) for every answer a criterion may read, derived ones included,
        and (workload index, old schedule, new schedule) for each schedule change."""
        facts = self.facts
        out: list[tuple[Any, Any, Any]] = [
            (k, facts.get(k), v) for k, v in patch.items() if k != "workloads"
        ]
        if _DERIVE_INPUTS.intersection(patch):
            for k, v in SC.derive({**facts, **patch}, self.model, self.ctx).items():
                if facts.get(k) != v:
                    out.append((k, facts.get(k), v))
        if "workloads" in patch:
            pairs = zip(facts["workloads"], patch["workloads"], strict=True)
            out += [(i, old[1], new[1]) for i, (old, new) in enumerate(pairs) if old != new]
        return out

    def deltas(self, patch: Mapping[str, Any]) -> list[Vector | None]:
        """Per workload, how its scores move under `patch` (None = not at all)."""
        model, phases = self.model, self.phases
        changed = self.changed(patch)
        answers = [c for c in changed if isinstance(c[0], str)]
        by_phase = {
            phase: _add(*(model.swap(a, phase, old, new) for a, old, new in answers))
            for phase in set(phases)
        }
        moves = [by_phase[p] for p in phases]
        for i, old, new in changed:
            if isinstance(i, int):
                moves[i] = _add(moves[i], model.swap("workload.schedule", phases[i], old, new))
        return moves

    def gains(self, patch: Mapping[str, Any]) -> Vector | None:
        """How every pair's overall total (indexed like SC.ALL_PAIRS) moves under `patch`;
        None = none moves. Memoised: it depends only on the changed answers and the phases."""
        key = ("gains", tuple(self.changed(patch)), self.phases)
        return self.model.memo(key, lambda: self._gains(self.deltas(patch)))

    def _gains(self, deltas: Sequence[Vector | None]) -> Vector | None:
        total = _add(*deltas)
        return None if total is None else tuple(total[a] + total[m] for a, m in self.index)

    def bound(self, gains: Vector | None) -> float:
        """The most a competing base pair gains on the base pair."""
        if gains is None:
            return 0.0
        base = gains[self.at]
        return max((gains[i] - base for i in self.live if i != self.at), default=-math.inf)

    def feasibility(self, patched: Mapping[str, Any]) -> frozenset[Any] | None:
        """The changed facts' feasibility key; None when the same pairs compete as in the base."""
        key = SC.feasibility(patched, self.ctx)
        return None if key == self.key else key

    def score(self, variants: list[Variant], *, hard: bool, check_valid: bool) -> list[Scored]:
        """Each (valid) change with its gains, bound and feasibility."""
        out = []
        for change, patch in variants:
            patched = {**self.facts, **patch} if hard or check_valid else None
            if patched is not None and check_valid and not _valid(patched):
                continue
            gains = self.gains(patch)
            feasible = self.feasibility(patched) if patched is not None and hard else None
            out.append((change, patch, gains, self.bound(gains), feasible, hard))
        return out

    def result(
        self,
        gains: Vector | None,
        bound: float,
        feasible: frozenset[Any] | None,
        deltas: Callable[[], list[Vector | None]],
    ) -> SC.Pair:
        """The overall pair after a change with these gains; `feasible` = its feasibility key
        when other pairs compete than in the base (else None); `deltas` gives the per-workload
        moves for the fallback when no pair is feasible for every workload."""
        if feasible is None and not self.forced:
            if gains is None or bound < self.lead - _EPS:
                return self.base
            pairs: Sequence[SC.Pair] = [SC.ALL_PAIRS[i] for i in self.live]
        else:
            pairs = SC._feasible_for(self.kinds, self.key if feasible is None else feasible)[1]
            if not pairs:
                per_workload = [
                    s if d is None else [a + b for a, b in zip(s, d, strict=True)]
                    for s, d in zip(self.scores, deltas(), strict=True)
                ]
                return SC.pick(self.kinds, self.key if feasible is None else feasible, per_workload)
        totals = self.totals
        if gains is None:
            return SC._best(pairs, lambda p: totals[SC.PAIR_INDEX[p]])
        return SC._best(pairs, lambda p: totals[SC.PAIR_INDEX[p]] + gains[SC.PAIR_INDEX[p]])


# (change, patch, gains, bound, feasibility key or None, may move the hard constraints)
Scored = tuple[Change, dict[str, Any], Vector | None, float, frozenset[Any] | None, bool]


def _copy(value: Any) -> Any:
    # Changes may come from the model's memo: never hand out its lists.
    return list(value) if isinstance(value, list) else value


def _sweep(
    rs: _Rescorer, path: str, depends: Any, make: Callable[[], list[Variant]]
) -> list[Scored]:
    """The changes to one answer, scored; memoised on the model where the key determines them."""
    hard = path in _EXCLUSION_PATHS
    check_valid = path in _VALIDITY_PATHS
    base_key: tuple[Any, ...] = (path, depends, rs.phases, rs.live, rs.at)
    if path == "organization.regions":
        # Region TPU coverage comes from the catalog, which the model's memo cannot key on.
        return rs.score(make(), hard=hard, check_valid=check_valid)
    if hard:
        base_key += (rs.exclusion_inputs, rs.key)
    return rs.model.memo(
        ("sweep", *base_key), lambda: rs.score(make(), hard=hard, check_valid=check_valid)
    )


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
    criteria's points into the base totals (`_Rescorer`); tests/engine checks it against
    scoring every variant from scratch.
    """
    base = (decision.accelerator, decision.mode)
    rs = _Rescorer(facts, decision, model, ctx)
    singles: list[Scored] = []
    flips: list[tuple[tuple[Change, ...], tuple[str, str]]] = []
    for path, depends, make in _groups(facts):
        said: set[tuple[Vector | None, frozenset[Any] | None]] = set()
        for entry in _sweep(rs, path, depends, make):
            change, patch, gains, bound, feasible, _ = entry
            # Serving stacks the scores and the hard constraints treat alike (vLLM and SGLang
            # in scoring v1) would say the same: the first in answer order speaks for both.
            if path == "frameworks.serving":
                if (gains, feasible) in said:
                    continue
                said.add((gains, feasible))
            singles.append(entry)
            result = rs.result(gains, bound, feasible, partial(rs.deltas, patch))
            if result != base:
                flips.append(((change,), result))
    if not flips:
        influential = _influential_paths(decision, model)
        pool = [s for s in singles if s[0][0] in influential][:24]
        for (c1, p1, g1, b1, _, h1), (c2, p2, g2, b2, _, h2) in combinations(pool, 2):
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
                rs.feasibility(patched) if h1 or h2 else None,
                partial(rs.deltas, {**p1, **p2}),
            )
            if result != base:
                flips.append(((c1, c2), result))
    flips.sort(
        key=lambda f: (len(f[0]), sum(c[3] for c in f[0]), f[1][0] == base[0], [c[0] for c in f[0]])
    )
    return [flip_doc(changes, acc, mode, lang) for changes, (acc, mode) in flips[:limit]]


def flip_doc(
    changes: Sequence[tuple[str, Any, Any] | Change], acc: str, mode: str, lang: str
) -> dict[str, Any]:
    """One `would_change_if` entry: the answer changes (path, from, to) that together make the
    recommendation `acc` on `mode`, and the sentence that says so."""
    text = i18n.message("would_change.and", lang).join(
        i18n.message(
            "would_change.change",
            lang,
            path=i18n.field_label(c[0], lang),
            value=i18n.value_label(c[0], c[2], lang),
            current=i18n.value_label(c[0], c[1], lang),
        )
        for c in changes
    )
    return {
        "changes": [{"answer_path": c[0], "from": _copy(c[1]), "to": _copy(c[2])} for c in changes],
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


def text_summary(result: ResultDocument, lang: str) -> str:
    """A readable summary of a result document (the CLI's --format text)."""
    t = i18n.message
    rec = result["recommendation"]
    sized = [w for w in result["workloads"] if w["kind"] != "preprocessing"]
    # With no option for any workload there is no mode, billing or confidence to state.
    dead = bool(sized) and all(not w["options"] or w.get("dead_end") for w in sized)
    headline = (
        t("summary.headline_dead_end", lang)
        if dead
        else t(
            "summary.headline",
            lang,
            accelerator=i18n.label(rec["accelerator"], lang),
            mode=i18n.label(rec["deployment_mode"], lang),
            billing=i18n.label(rec["billing"], lang),
            confidence=f"{rec['confidence']:.2f}",
        )
    )
    lines = [
        f"== {t('summary.title', lang)} ==",
        headline,
        t(
            "summary.scores",
            lang,
            gpu=_fmt(rec["scores"]["gpu"]),
            tpu=_fmt(rec["scores"]["tpu"]) if rec["scores"]["tpu"] is not None else "—",
        ),
    ]
    split_note = rec["split_note"]
    if split_note:
        lines.append(split_note)
    if not dead:
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
        extra = i18n.list_separator(lang).join(
            f"{i18n.label('other_memory' if k == 'other' else k, lang)} {v}"
            for k, v in mem.items()
            if k not in ("weights", "total")
        )
        colon = "：" if lang == "zh-hant" else ": "
        lines.append(f"-- {t('summary.sizing', lang)}{colon}{i18n.label(phase, lang)} --")
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
                ids=i18n.list_separator(lang).join(s["fits_single_device"])
                or t("summary.none", lang),
            )
        )
        lines.append(f"  {t('summary.assumptions', lang)}{colon.strip()}")
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


def reason_in(
    model: SC.ScoringModel, criterion: str, path: str, value: Any, lang: str
) -> dict[str, Any] | None:
    """A stored reason worded again in `lang` (the compare page shows two versions, each
    generated in its own language, in the page's): None when the model has no such criterion."""
    found = next((c for c in model.criteria if c.id == criterion), None)
    if found is None:
        return None
    reason = _reason(found, path, tuple(value) if isinstance(value, list) else value, lang)
    reason.pop("_text", None)
    return reason
