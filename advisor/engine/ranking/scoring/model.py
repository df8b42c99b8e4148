"""The scoring model held as data: the options and phases it scores, its criteria and their
JSON Schema, compiled for scoring by `load_scoring_model`."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any, TypeVar, cast

from jsonschema import Draft202012Validator

from advisor.engine.answers import vocabulary
from advisor.engine.answers.problems import Problem, join_path

Pair = tuple[str, str]  # (accelerator, deployment mode)
_T = TypeVar("_T")
ACCELERATORS = ("gpu", "tpu")
OPTIONS = ACCELERATORS + vocabulary.MODES
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
    "maturity.stack_changes": vocabulary.STACK_CHANGES,
    "maturity.pipeline": vocabulary.PIPELINES,
    "maturity.demand": vocabulary.DEMANDS,
    "frameworks.primary": vocabulary.FRAMEWORKS,
    "frameworks.others": vocabulary.FRAMEWORKS,
    "frameworks.serving": vocabulary.SERVING,
    "frameworks.custom_kernels": ("true", "false"),
    "deployment.portability": vocabulary.PORTABILITY,
    "deployment.china_connectivity": ("true", "false"),
    "deployment.data_residency": vocabulary.RESIDENCY,
    "deployment.allowed_modes": vocabulary.MODES,
    "deployment.clouds": vocabulary.CLOUDS,
    "cost.billing": vocabulary.BILLING,
    "cost.ops_capacity": vocabulary.OPS_CAPACITY,
    "organization.industry": vocabulary.INDUSTRIES,
    "organization.regions": vocabulary.REGIONS,
    "inference.traffic": vocabulary.TRAFFIC,
    "workload.schedule": vocabulary.SCHEDULES,
    "workload.kind": vocabulary.WORKLOAD_KINDS,
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


def _value_keys(value: Any) -> tuple[str, ...]:
    if isinstance(value, bool):
        return ("true" if value else "false",)
    if isinstance(value, tuple | list):
        return tuple(str(v) for v in value)
    return () if value is None else (str(value),)


def _pair_points(contrib: Mapping[str, float]) -> list[float]:
    gpu, tpu = contrib.get("gpu", 0.0), contrib.get("tpu", 0.0)
    pairs = [gpu + contrib.get(m, 0.0) for m in vocabulary.MODES]
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
