"""Soft scoring and the choice: points per option for each workload, the best feasible
(accelerator, mode) per workload and overall, its margins and the confidence."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.ranking.scoring.constraints import Exclusion, exclusions
from advisor.engine.ranking.scoring.facts import Context, derive
from advisor.engine.ranking.scoring.model import (
    _INDEX,
    ACCELERATORS,
    OPTIONS,
    PHASE_OF,
    Pair,
    ScoringModel,
    _value_keys,
)

# --------------------------------------------------------------------------- decision


@dataclass(frozen=True, slots=True)
class WorkloadDecision:
    kind: str
    schedule: str
    accelerator: str
    mode: str
    scores: tuple[float, ...]  # indexed like OPTIONS
    feasible_accelerators: tuple[str, ...]
    feasible_modes: tuple[str, ...]
    accelerator_margin: float | None  # None when only one accelerator is feasible
    mode_margin: float | None
    max_margin: float


@dataclass(frozen=True, slots=True)
class Decision:
    accelerator: str
    mode: str
    workloads: tuple[WorkloadDecision, ...]
    excluded: tuple[Exclusion, ...]
    accelerator_margin: float | None
    mode_margin: float | None
    max_margin: float
    facts: Mapping[str, Any]
    pairs: tuple[tuple[str, str], ...] = ()

    @property
    def split(self) -> bool:
        return any(w.accelerator != self.accelerator or w.mode != self.mode for w in self.workloads)


def score_workload(
    model: ScoringModel, facts: Mapping[str, Any], kind: str, schedule: str
) -> list[float]:
    """Points per option (indexed like OPTIONS) for one workload."""
    scores = [0.0] * len(OPTIONS)
    for c in model.by_phase[PHASE_OF[kind]]:
        if c.answer == "workload.schedule":
            keys: tuple[str, ...] = (schedule,)
        elif c.answer == "workload.kind":
            keys = (kind,)
        else:
            keys = _value_keys(facts.get(c.answer))
        table = c.table
        for key in keys:
            for idx, pts in table.get(key, ()):
                scores[idx] += pts
    return scores


# Every (accelerator, mode) pair an assessment can end up with, in the order `decide` tries them.
ALL_PAIRS: tuple[Pair, ...] = (*(("gpu", m) for m in vocabulary.MODES), ("tpu", "public_cloud"))
PAIR_INDEX = {p: i for i, p in enumerate(ALL_PAIRS)}


def best_pair(
    pairs: Sequence[tuple[str, str]], per_workload: Sequence[Sequence[float]]
) -> tuple[str, str]:
    """The pair with the most points summed over workloads (ties: earlier pair)."""
    return _best(list(pairs), lambda p: sum(_total(s, p) for s in per_workload))


def _pairs(accs: Sequence[str], modes: Sequence[str]) -> list[tuple[str, str]]:
    pairs = [("gpu", m) for m in modes] if "gpu" in accs else []
    if "tpu" in accs and "public_cloud" in modes:
        pairs.append(("tpu", "public_cloud"))
    return pairs


def _total(scores: Sequence[float], pair: tuple[str, str]) -> float:
    return scores[_INDEX[pair[0]]] + scores[_INDEX[pair[1]]]


def _best(pairs: Sequence[tuple[str, str]], total: Any) -> tuple[str, str]:
    # Ties go to the earlier pair: GPU before TPU (portable), modes in MODES order.
    best = pairs[0]
    best_v = total(best)
    for p in pairs[1:]:
        v = total(p)
        if v > best_v + 1e-9:
            best, best_v = p, v
    return best


def _margins(
    pairs: Sequence[tuple[str, str]], best: tuple[str, str], total: Any
) -> tuple[float | None, float | None]:
    best_v = total(best)
    other_acc = [total(p) for p in pairs if p[0] != best[0]]
    other_mode = [total(p) for p in pairs if p[0] == best[0] and p[1] != best[1]]
    return (
        best_v - max(other_acc) if other_acc else None,
        best_v - max(other_mode) if other_mode else None,
    )


Feasibility = tuple[
    tuple[tuple[tuple[Pair, ...], tuple[str, ...], tuple[str, ...]], ...], tuple[Pair, ...]
]


def feasibility_key(excluded: Sequence[Exclusion]) -> frozenset[tuple[str, str | None]]:
    """What of the hard constraints the choice depends on: which option is out, for whom."""
    return frozenset((e.option, e.kind) for e in excluded)


def _feasible(kinds: Sequence[str], excluded: Sequence[Exclusion]) -> Feasibility:
    return _feasible_for(tuple(kinds), feasibility_key(excluded))


@lru_cache(maxsize=4096)
def _feasible_for(kinds: tuple[str, ...], out_by: frozenset[tuple[str, str | None]]) -> Feasibility:
    """Per workload (pairs, feasible accelerators, feasible modes), and the pairs all share."""
    global_out = {o for o, k in out_by if k is None}
    per = []
    for kind in kinds:
        out = global_out | {o for o, k in out_by if k == kind}
        accs = tuple(a for a in ACCELERATORS if a not in out)
        modes = tuple(m for m in vocabulary.MODES if m not in out)
        pairs = _pairs(accs, modes)
        if not pairs:  # cannot happen for valid answers (GPU is never excluded); stay total anyway
            pairs = [("gpu", modes[0] if modes else "public_cloud")]
        per.append((tuple(pairs), tuple(a for a in accs if any(p[0] == a for p in pairs)), modes))
    common_accs = [a for a in ACCELERATORS if all(a in f[1] for f in per)]
    common_modes = [m for m in vocabulary.MODES if all(m in f[2] for f in per)]
    return tuple(per), tuple(_pairs(common_accs, common_modes))


def pick(
    kinds: Sequence[str],
    excluded: Sequence[Exclusion] | frozenset[tuple[str, str | None]],
    per_workload: Sequence[Sequence[float]],
) -> Pair:
    """The overall (accelerator, mode) `decide` would pick for these exclusions (or their
    `feasibility_key`) and per-workload scores: the fast path for re-scoring variants.
    """
    key = excluded if isinstance(excluded, frozenset) else feasibility_key(excluded)
    per, pairs = _feasible_for(tuple(kinds), key)
    if not pairs:
        first = per_workload[0]
        return _best(per[0][0], lambda p: _total(first, p))
    return best_pair(pairs, per_workload)


def decide(
    facts: Mapping[str, Any], model: ScoringModel, ctx: Context, *, derived: bool = False
) -> Decision:
    """Hard constraints, then soft scores; pick per-workload and overall (accelerator, mode)."""
    full = facts if derived else {**facts, **derive(facts, model, ctx)}
    excluded = exclusions(full, ctx)
    per, common = _feasible([k for k, _ in full["workloads"]], excluded)
    decisions = []
    for (kind, schedule), (pairs, feasible_accs, modes) in zip(full["workloads"], per, strict=True):
        scores = score_workload(model, full, kind, schedule)
        best = _best(pairs, lambda p, s=scores: _total(s, p))
        acc_m, mode_m = _margins(pairs, best, lambda p, s=scores: _total(s, p))
        decisions.append(
            WorkloadDecision(
                kind=kind,
                schedule=schedule,
                accelerator=best[0],
                mode=best[1],
                scores=tuple(scores),
                feasible_accelerators=feasible_accs,
                feasible_modes=modes,
                accelerator_margin=acc_m,
                mode_margin=mode_m,
                max_margin=model.max_margin(PHASE_OF[kind]),
            )
        )
    pairs = common or ((decisions[0].accelerator, decisions[0].mode),)

    def overall(p: tuple[str, str]) -> float:
        return sum(_total(d.scores, p) for d in decisions)

    best = _best(pairs, overall)
    acc_m, mode_m = _margins(pairs, best, overall)
    return Decision(
        accelerator=best[0],
        mode=best[1],
        workloads=tuple(decisions),
        excluded=tuple(excluded),
        accelerator_margin=acc_m,
        mode_margin=mode_m,
        max_margin=sum(d.max_margin for d in decisions),
        facts=full,
        pairs=tuple(pairs),
    )


def confidence(margin: float | None, max_margin: float, model: ScoringModel) -> float:
    """0.5 + 0.5 * min(1, margin / (f * max_margin)); 1.0 when the choice is forced."""
    if margin is None:
        return 1.0
    scale = model.full_margin_fraction * max_margin
    if scale <= 0 or not math.isfinite(margin):
        return 0.5
    return round(0.5 + 0.5 * min(1.0, max(0.0, margin) / scale), 3)
