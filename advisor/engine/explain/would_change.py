"""`would_change_if`: the smallest answer changes that flip the overall accelerator or
deployment mode, found by re-scoring changes from the base decision, and the entry that
states one."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from itertools import combinations
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.ranking import scoring
from advisor.engine.ranking.scoring.decision import _best, _feasible_for, _total
from advisor.engine.ranking.scoring.model import _INDEX
from advisor.engine.text import i18n

_ORDERED = {
    "maturity.stack_changes": vocabulary.STACK_CHANGES,
    "maturity.pipeline": vocabulary.PIPELINES,
    "maturity.demand": vocabulary.DEMANDS,
    "deployment.portability": vocabulary.PORTABILITY,
    "deployment.data_residency": vocabulary.RESIDENCY,
    "cost.ops_capacity": vocabulary.OPS_CAPACITY,
    "workload.schedule": vocabulary.SCHEDULES,
}
_ENUM_PATHS = {
    "organization.industry": vocabulary.INDUSTRIES,
    "maturity.stack_changes": vocabulary.STACK_CHANGES,
    "maturity.pipeline": vocabulary.PIPELINES,
    "maturity.demand": vocabulary.DEMANDS,
    "frameworks.primary": vocabulary.FRAMEWORKS,
    "frameworks.serving": vocabulary.SERVING,
    "deployment.portability": vocabulary.PORTABILITY,
    "deployment.data_residency": vocabulary.RESIDENCY,
    "cost.billing": vocabulary.BILLING,
    "cost.ops_capacity": vocabulary.OPS_CAPACITY,
}
_LIST_PATHS = {
    "deployment.allowed_modes": (vocabulary.MODES, 1),
    "deployment.clouds": (vocabulary.CLOUDS, 0),
    "organization.regions": (vocabulary.REGIONS, 1),
    "frameworks.others": (vocabulary.FRAMEWORKS, 0),
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
                for v in vocabulary.TRAFFIC
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
    for s in vocabulary.SCHEDULES:
        if s != schedule:
            changed = tuple((k, s if j == i else sch) for j, (k, sch) in enumerate(workloads))
            dist = abs(vocabulary.SCHEDULES.index(s) - vocabulary.SCHEDULES.index(schedule))
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
        decision: scoring.Decision,
        model: scoring.ScoringModel,
        ctx: scoring.Context,
    ) -> None:
        self.facts, self.model, self.ctx = facts, model, ctx
        self.kinds = tuple(w.kind for w in decision.workloads)
        self.phases = tuple(scoring.PHASE_OF[k] for k in self.kinds)
        self.scores = [w.scores for w in decision.workloads]
        self.key = scoring.feasibility_key(decision.excluded)
        self.exclusion_inputs = scoring.exclusion_inputs(facts, ctx)  # what the hard sweeps key on
        self.index = tuple((_INDEX[a], _INDEX[m]) for a, m in scoring.ALL_PAIRS)
        self.totals = [sum(_total(s, p) for s in self.scores) for p in scoring.ALL_PAIRS]
        self.base = (decision.accelerator, decision.mode)
        self.live = tuple(scoring.PAIR_INDEX[p] for p in decision.pairs)
        self.at = scoring.PAIR_INDEX[self.base]
        # No pair feasible for every workload (unreachable for valid answers: GPUs are never
        # excluded): the base pair is a fallback, so every change is picked from scratch.
        self.forced = not _feasible_for(self.kinds, self.key)[1]
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
            for k, v in scoring.derive({**facts, **patch}, self.model, self.ctx).items():
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
        """How every pair's overall total (indexed like scoring.ALL_PAIRS) moves under `patch`;
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
        key = scoring.feasibility(patched, self.ctx)
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
    ) -> scoring.Pair:
        """The overall pair after a change with these gains; `feasible` = its feasibility key
        when other pairs compete than in the base (else None); `deltas` gives the per-workload
        moves for the fallback when no pair is feasible for every workload."""
        if feasible is None and not self.forced:
            if gains is None or bound < self.lead - _EPS:
                return self.base
            pairs: Sequence[scoring.Pair] = [scoring.ALL_PAIRS[i] for i in self.live]
        else:
            pairs = _feasible_for(self.kinds, self.key if feasible is None else feasible)[1]
            if not pairs:
                per_workload = [
                    s if d is None else [a + b for a, b in zip(s, d, strict=True)]
                    for s, d in zip(self.scores, deltas(), strict=True)
                ]
                return scoring.pick(
                    self.kinds, self.key if feasible is None else feasible, per_workload
                )
        totals = self.totals
        if gains is None:
            return _best(pairs, lambda p: totals[scoring.PAIR_INDEX[p]])
        return _best(pairs, lambda p: totals[scoring.PAIR_INDEX[p]] + gains[scoring.PAIR_INDEX[p]])


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
    decision: scoring.Decision,
    model: scoring.ScoringModel,
    ctx: scoring.Context,
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


def _influential_paths(decision: scoring.Decision, model: scoring.ScoringModel) -> set[str]:
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
