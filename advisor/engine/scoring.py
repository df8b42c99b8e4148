"""Hard constraints, then soft scoring from a scoring model held as data.

Options scored: the accelerators ("gpu", "tpu") and the deployment modes. A workload's decision is
the feasible (accelerator, mode) pair with the most points; TPUs pair only with public_cloud because
they exist only as a Google Cloud service. The overall decision is the pair feasible for every
workload with the most points summed over workloads; `split` says when a workload's best differs.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from importlib import resources
from typing import Any, TypeVar, cast

from jsonschema import Draft202012Validator

from advisor.engine import answers as A
from advisor.engine.problems import Problem, join_path

Pair = tuple[str, str]  # (accelerator, deployment mode)
_T = TypeVar("_T")
ACCELERATORS = ("gpu", "tpu")
OPTIONS = ACCELERATORS + A.MODES
_INDEX = {o: i for i, o in enumerate(OPTIONS)}
PHASES = ("training", "inference", "preprocessing")
PHASE_OF = {
    "pretraining": "training",
    "fine_tuning": "training",
    "batch_inference": "inference",
    "realtime_inference": "inference",
    "preprocessing": "preprocessing",
}

# Answer paths a criterion may read, with the values each can take (None = free-form list).
_ANSWER_VALUES: dict[str, tuple[str, ...]] = {
    "maturity.stack_changes": A.STACK_CHANGES,
    "maturity.pipeline": A.PIPELINES,
    "maturity.demand": A.DEMANDS,
    "frameworks.primary": A.FRAMEWORKS,
    "frameworks.others": A.FRAMEWORKS,
    "frameworks.serving": A.SERVING,
    "frameworks.custom_kernels": ("true", "false"),
    "deployment.portability": A.PORTABILITY,
    "deployment.china_connectivity": ("true", "false"),
    "deployment.data_residency": A.RESIDENCY,
    "deployment.allowed_modes": A.MODES,
    "deployment.clouds": A.CLOUDS,
    "cost.billing": A.BILLING,
    "cost.ops_capacity": A.OPS_CAPACITY,
    "organization.industry": A.INDUSTRIES,
    "organization.regions": A.REGIONS,
    "inference.traffic": A.TRAFFIC,
    "workload.schedule": A.SCHEDULES,
    "workload.kind": A.WORKLOAD_KINDS,
    "derived.training_scale": ("small", "medium", "large", "unknown"),
    "derived.latency_class": ("tight", "moderate", "relaxed", "none"),
    "derived.tpu_region_coverage": ("all", "some", "none"),
    "derived.utilisation": ("low", "medium", "high"),
}


class ScoringModelError(ValueError):
    """A scoring model is invalid; `.problems` lists every problem."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(f"{p.path}: {p.message()}" for p in self.problems[:5]))


_LABEL = {
    "type": "object",
    "required": ["en", "zh-hant"],
    "properties": {
        "en": {"type": "string", "minLength": 1},
        "zh-hant": {"type": "string", "minLength": 1},
    },
}
_MODEL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "version", "criteria"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 100},
        "version": {"type": "integer", "minimum": 1},
        "confidence": {
            "type": "object",
            "properties": {
                "full_margin_fraction": {"type": "number", "exclusiveMinimum": 0, "maximum": 1}
            },
        },
        "criteria": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["id", "answer", "weight", "applies_to", "label", "contributions"],
                "properties": {
                    "id": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                    "answer": {"enum": sorted(_ANSWER_VALUES)},
                    "weight": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
                    "applies_to": {
                        "type": "array",
                        "minItems": 1,
                        "uniqueItems": True,
                        "items": {"enum": list(PHASES)},
                    },
                    "label": _LABEL,
                    "rationale": _LABEL,
                    "combine": {"enum": ["sum"]},
                    "contributions": {
                        "type": "object",
                        "minProperties": 1,
                        "additionalProperties": {
                            "type": "object",
                            "propertyNames": {"enum": list(OPTIONS)},
                            "additionalProperties": {"type": "number", "minimum": -5, "maximum": 5},
                        },
                    },
                },
            },
        },
    },
}


@dataclass(frozen=True, slots=True)
class Criterion:
    id: str
    answer: str
    weight: float
    applies_to: frozenset[str]
    combine: str | None
    # value -> ((option index, weight * contribution), ...)
    table: Mapping[str, tuple[tuple[int, float], ...]]
    spread: float  # largest swing in pair totals this criterion can make (for confidence)
    label: Mapping[str, str]
    rationale: Mapping[str, str]
    raw_contributions: Mapping[str, Mapping[str, float]]


@dataclass(frozen=True, repr=False)
class ScoringModel:
    """A named, versioned set of weighted criteria (see data/scoring_v1.json)."""

    def __repr__(self) -> str:
        n = len(self.criteria)
        return f"ScoringModel(name={self.name!r}, version={self.version}, criteria={n})"

    name: str
    version: int
    criteria: tuple[Criterion, ...]
    full_margin_fraction: float
    derived: Mapping[str, Any]
    raw: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The model as plain data."""
        return copy.deepcopy(dict(self.raw))

    # Lookups derived once per model; cached on the (frozen) instance, not part of its fields.

    @cached_property
    def by_phase(self) -> Mapping[str, tuple[Criterion, ...]]:
        """The criteria that apply to each phase, in model order."""
        return {p: tuple(c for c in self.criteria if p in c.applies_to) for p in PHASES}

    @cached_property
    def _max_margins(self) -> Mapping[str, float]:
        return {p: sum(c.spread for c in cs) for p, cs in self.by_phase.items()}

    def max_margin(self, phase: str) -> float:
        """The largest pair-total swing all criteria of a phase can make (for confidence)."""
        return self._max_margins[phase]

    @cached_property
    def _points(self) -> Mapping[tuple[str, str, str], tuple[float, ...]]:
        table: dict[tuple[str, str, str], list[float]] = {}
        for c in self.criteria:
            for phase in c.applies_to:
                for key, entries in c.table.items():
                    vec = table.setdefault((c.answer, phase, key), [0.0] * len(OPTIONS))
                    for idx, pts in entries:
                        vec[idx] += pts
        return {k: tuple(v) for k, v in table.items()}

    @cached_property
    def _memo(self) -> dict[Any, Any]:
        return {}

    def memo(self, key: Any, compute: Callable[[], _T]) -> _T:
        """`compute()`, memoised on this model under `key` (which must determine the result).
        Re-scoring memoises point swaps here: the same ones recur across assessments.
        """
        memo = self._memo
        try:
            return cast(_T, memo[key])
        except KeyError:
            pass
        except TypeError:  # an unhashable answer value: compute without memoising
            return compute()
        if len(memo) > 100_000:
            memo.clear()
        out = memo[key] = compute()
        return out

    def swap(self, answer: str, phase: str, old: Any, new: Any) -> tuple[float, ...] | None:
        """How a `phase` workload's points per option move when `answer` goes from `old` to
        `new` (None = they do not)."""
        return self.memo(
            ("swap", answer, phase, old, new), lambda: self._swap(answer, phase, old, new)
        )

    def _swap(self, answer: str, phase: str, old: Any, new: Any) -> tuple[float, ...] | None:
        before, after = self.points(answer, phase, old), self.points(answer, phase, new)
        if before is None and after is None:
            return None
        if before is None:
            return after
        if after is None:
            return tuple(-v for v in before)
        return tuple(a - b for a, b in zip(after, before, strict=True))

    def points(self, answer: str, phase: str, value: Any) -> tuple[float, ...] | None:
        """Points per option (indexed like OPTIONS) that every criterion reading `answer` gives
        a workload of `phase` for `value`; None when they give none. Scores are additive per
        criterion, so re-scoring one changed answer swaps this vector for the new value's.
        """
        keys = _value_keys(value)
        if len(keys) == 1:
            return self._points.get((answer, phase, keys[0]))
        out: list[float] | None = None
        for key in keys:
            vec = self._points.get((answer, phase, key))
            if vec is not None:
                out = list(vec) if out is None else [a + b for a, b in zip(out, vec, strict=True)]
        return None if out is None else tuple(out)


def _pair_points(contrib: Mapping[str, float]) -> list[float]:
    gpu, tpu = contrib.get("gpu", 0.0), contrib.get("tpu", 0.0)
    pairs = [gpu + contrib.get(m, 0.0) for m in A.MODES]
    pairs.append(tpu + contrib.get("public_cloud", 0.0))
    return pairs


def _validate_model(data: Any) -> list[Problem]:
    problems = [
        Problem(join_path(e.absolute_path), "scoring_invalid", {"detail": e.message})
        for e in Draft202012Validator(_MODEL_SCHEMA).iter_errors(data)
    ]
    if problems:
        return problems
    seen: set[str] = set()
    for i, c in enumerate(data["criteria"]):
        if c["id"] in seen:
            problems.append(Problem(f"criteria[{i}].id", "scoring_duplicate_id", {"id": c["id"]}))
        seen.add(c["id"])
        allowed = set(_ANSWER_VALUES[c["answer"]])
        for value in c["contributions"]:
            if value not in allowed:
                problems.append(
                    Problem(
                        f"criteria[{i}].contributions.{value}",
                        "scoring_unknown_value",
                        {
                            "value": value,
                            "answer": c["answer"],
                            "allowed": ", ".join(sorted(allowed)),
                        },
                    )
                )
        if all(not v for v in c["contributions"].values()):
            problems.append(
                Problem(f"criteria[{i}].contributions", "scoring_no_effect", {"id": c["id"]})
            )
    return problems


def _compile(data: Mapping[str, Any]) -> ScoringModel:
    criteria = []
    for c in data["criteria"]:
        weight = float(c["weight"])
        table = {
            value: tuple((_INDEX[o], weight * float(v)) for o, v in contrib.items() if v)
            for value, contrib in c["contributions"].items()
        }
        spreads = [max(pp) - min(pp) for pp in map(_pair_points, c["contributions"].values())]
        criteria.append(
            Criterion(
                id=c["id"],
                answer=c["answer"],
                weight=weight,
                applies_to=frozenset(c["applies_to"]),
                combine=c.get("combine"),
                table=table,
                spread=weight * max(spreads, default=0.0),
                label=c["label"],
                rationale=c.get("rationale", c["label"]),
                raw_contributions=c["contributions"],
            )
        )
    return ScoringModel(
        name=str(data["name"]),
        version=int(data["version"]),
        criteria=tuple(criteria),
        full_margin_fraction=float(data.get("confidence", {}).get("full_margin_fraction", 0.5)),
        derived=data.get("derived", {}),
        raw=copy.deepcopy(dict(data)),
    )


@cache
def _bundled_model() -> ScoringModel:
    raw = resources.files("advisor.engine").joinpath("data/scoring_v1.json").read_text("utf-8")
    return _compile(json.loads(raw))


def answer_values() -> dict[str, tuple[str, ...]]:
    """The answers a criterion may read, each with the values it can take (a copy)."""
    return dict(_ANSWER_VALUES)


def load_scoring_model(data: Mapping[str, Any] | None = None) -> ScoringModel:
    """Load and validate a scoring model (None = bundled v1); raises ScoringModelError."""
    if data is None:
        return _bundled_model()
    problems = _validate_model(data)
    if problems:
        raise ScoringModelError(problems)
    return _compile(data)


# --------------------------------------------------------------------------- facts


def answers_facts(answers: A.Answers) -> dict[str, Any]:
    """The answers a decision reads, flattened to answer paths."""
    facts: dict[str, Any] = {
        "organization.industry": answers.organization.industry,
        "organization.regions": answers.organization.regions,
        "maturity.stack_changes": answers.maturity.stack_changes,
        "maturity.pipeline": answers.maturity.pipeline,
        "maturity.demand": answers.maturity.demand,
        "frameworks.primary": answers.frameworks.primary,
        "frameworks.others": answers.frameworks.others,
        "frameworks.custom_kernels": answers.frameworks.custom_kernels,
        "frameworks.serving": answers.frameworks.serving,
        "deployment.allowed_modes": answers.deployment.allowed_modes,
        "deployment.clouds": answers.deployment.clouds,
        "deployment.portability": answers.deployment.portability,
        "deployment.china_connectivity": answers.deployment.china_connectivity,
        "deployment.data_residency": answers.deployment.data_residency,
        "cost.billing": answers.cost.billing,
        "cost.hours_per_day": answers.cost.hours_per_day,
        "cost.ops_capacity": answers.cost.ops_capacity,
        "inference.traffic": answers.inference.traffic if answers.inference else None,
        "inference.p95_latency_ms": answers.inference.p95_latency_ms if answers.inference else None,
        "workloads": tuple((w.kind, w.schedule) for w in answers.workloads),
    }
    return facts


def _bucket(value: float, buckets: Sequence[Mapping[str, Any]]) -> str:
    for b in buckets:
        if "below" not in b or value < float(b["below"]):
            return str(b["value"])
    return str(buckets[-1]["value"])


@dataclass(frozen=True, slots=True)
class Context:
    """What a decision needs besides the answers: region TPU coverage and the training scale."""

    region_tpus: Mapping[str, Sequence[str]]
    training_flops: float | None


def derive(facts: Mapping[str, Any], model: ScoringModel, ctx: Context) -> dict[str, Any]:
    """Derived answers (documented in the scoring model's `derived` buckets)."""
    derived = model.derived
    regions = facts["organization.regions"]
    covered = sum(1 for r in regions if ctx.region_tpus.get(r))
    coverage: str | None = "all" if covered == len(regions) else "none" if covered == 0 else "some"
    if not regions:  # a wizard draft may not have regions yet: neutral
        coverage = None
    p95 = facts.get("inference.p95_latency_ms")
    hours = facts.get("cost.hours_per_day")
    flops = ctx.training_flops
    return {
        "derived.utilisation": None
        if hours is None
        else _bucket(float(hours), derived["utilisation_buckets"]),
        "derived.latency_class": "none"
        if p95 is None
        else _bucket(float(p95), derived["latency_buckets_ms"]),
        "derived.tpu_region_coverage": coverage,
        "derived.training_scale": "unknown"
        if flops is None
        else _bucket(flops, derived["training_scale_flops"]),
    }


# --------------------------------------------------------------------------- hard constraints


@dataclass(frozen=True, slots=True)
class Exclusion:
    option: str
    kind: str | None  # None = every workload
    code: str
    params: Mapping[str, Any]
    answer_path: str


def exclusions(facts: Mapping[str, Any], ctx: Context) -> list[Exclusion]:
    """Hard constraints, in a fixed order. Each names the answer that causes it."""
    return [Exclusion(*row) for row in _exclusion_rows(facts, ctx)]


def feasibility(facts: Mapping[str, Any], ctx: Context) -> frozenset[tuple[str, str | None]]:
    """`feasibility_key(exclusions(facts, ctx))` without building the exclusions."""
    return frozenset((row[0], row[1]) for row in _exclusion_rows(facts, ctx))


_Row = tuple[str, str | None, str, Mapping[str, Any], str]


def exclusion_inputs(facts: Mapping[str, Any], ctx: Context) -> tuple[Any, ...]:
    """Everything `feasibility` reads, as a hashable key (keep in step with _exclusion_rows)."""
    regions = facts["organization.regions"]
    return (
        tuple(k for k, _ in facts["workloads"]),
        tuple(facts["deployment.allowed_modes"]),
        tuple(facts["deployment.clouds"]),
        facts["deployment.data_residency"],
        any(ctx.region_tpus.get(r) for r in regions),
        bool(facts["frameworks.custom_kernels"]),
        facts["frameworks.primary"],
        facts["frameworks.serving"],
    )


def _exclusion_rows(facts: Mapping[str, Any], ctx: Context) -> list[_Row]:
    out: list[_Row] = []
    kinds = [k for k, _ in facts["workloads"]]
    modes = facts["deployment.allowed_modes"]
    clouds = facts["deployment.clouds"]
    residency = facts["deployment.data_residency"]
    if "public_cloud" not in modes:
        out.append(("tpu", None, "exclude.tpu_needs_public_cloud", {}, "deployment.allowed_modes"))
    if clouds and "gcp" not in clouds:
        out.append(("tpu", None, "exclude.tpu_needs_gcp", {}, "deployment.clouds"))
    if residency == "on_premises_only":
        out.append(("tpu", None, "exclude.tpu_on_premises_only", {}, "deployment.data_residency"))
    elif residency == "in_region":
        regions = facts["organization.regions"]
        if not any(ctx.region_tpus.get(r) for r in regions):
            out.append(
                (
                    "tpu",
                    None,
                    "exclude.tpu_no_region",
                    {"regions": tuple(regions)},
                    "organization.regions",
                )
            )
    if facts["frameworks.custom_kernels"]:
        out.append(("tpu", None, "exclude.tpu_custom_kernels", {}, "frameworks.custom_kernels"))
    inference_kinds = [k for k in kinds if PHASE_OF[k] == "inference"]
    for kind in inference_kinds:
        if facts["frameworks.primary"] == "onnx":
            out.append(("tpu", kind, "exclude.tpu_onnx", {}, "frameworks.primary"))
        serving = facts["frameworks.serving"]
        if serving in ("tensorrt_llm", "triton"):
            out.append(
                ("tpu", kind, "exclude.tpu_serving", {"serving": serving}, "frameworks.serving")
            )
    for mode in A.MODES:
        if mode not in modes:
            out.append(
                (
                    mode,
                    None,
                    "exclude.mode_not_allowed",
                    {"mode": mode},
                    "deployment.allowed_modes",
                )
            )
        elif residency == "on_premises_only" and mode in (
            "public_cloud",
            "dedicated_hosting",
            "bare_metal",
        ):
            out.append(
                (
                    mode,
                    None,
                    "exclude.mode_on_premises_only",
                    {"mode": mode},
                    "deployment.data_residency",
                )
            )
    return out


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


def _value_keys(value: Any) -> tuple[str, ...]:
    if isinstance(value, bool):
        return ("true" if value else "false",)
    if isinstance(value, tuple | list):
        return tuple(str(v) for v in value)
    return () if value is None else (str(value),)


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
ALL_PAIRS: tuple[Pair, ...] = (*(("gpu", m) for m in A.MODES), ("tpu", "public_cloud"))
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
        modes = tuple(m for m in A.MODES if m not in out)
        pairs = _pairs(accs, modes)
        if not pairs:  # cannot happen for valid answers (GPU is never excluded); stay total anyway
            pairs = [("gpu", modes[0] if modes else "public_cloud")]
        per.append((tuple(pairs), tuple(a for a in accs if any(p[0] == a for p in pairs)), modes))
    common_accs = [a for a in ACCELERATORS if all(a in f[1] for f in per)]
    common_modes = [m for m in A.MODES if all(m in f[2] for f in per)]
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
