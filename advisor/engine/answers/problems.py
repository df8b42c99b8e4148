"""Validating an answers document: Problem (a field path and a message in the user's terms), the
schema's errors rewritten for people, bounds on hostile input and the cross-field rules.

Only comparisons between two numbers are beyond JSON Schema, and only documents of an older
version hold any (version 1: output <= context; versions 1 and 2: kv_heads divides
attention_heads, attention_heads divides hidden_size, experts_per_token <= experts,
active_parameters <= parameters); their schemas say them in the fields' descriptions and
`cross_field_problems` checks them. Version 3 states every rule in the schema's own terms: a
document valid by its schema meets every rule here. A document is checked against the schema of
the version it states (schema.version_of).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from jsonschema.exceptions import ValidationError

from advisor.engine.answers.schema import (
    root_validator,
    schema_doc,
    section_validator,
    sections,
    version_of,
)
from advisor.engine.answers.upgrade import v2_head_dim
from advisor.engine.answers.vocabulary import (
    INFERENCE_KINDS,
    MAX_HEAD_DIM,
    MAX_KEY_CHARS,
    MAX_PROBLEMS,
    MAX_UNKNOWN_KEYS,
    MIN_HEAD_DIM,
    SCHEMA_VERSION,
    SCHEMA_VERSIONS,
    TRAINING_KINDS,
    WORK_MODEL_UNIT,
    WORK_UNITS,
    WORKLOAD_KINDS,
)
from advisor.engine.text import i18n


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an answers document: where (`path`), what (`code`) and details."""

    path: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        """The problem as a sentence in `lang` ("en" or "zh-hant")."""
        return i18n.problem_message(self.code, self.path, self.params, lang)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """JSON form: path, code, params and the message in `lang`."""
        return {
            "path": self.path,
            "code": self.code,
            "params": dict(self.params),
            "message": self.message(lang),
        }


class AnswersError(ValueError):
    """An answers document is invalid; `.problems` lists every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        summary = "; ".join(f"{p.path or '(root)'}: {p.message()}" for p in self.problems[:5])
        super().__init__(f"{len(self.problems)} problem(s): {summary}")


def join_path(parts: Iterable[str | int]) -> str:
    """Render a JSON path as `workloads[1].kind`."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _fmt_value(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return i18n.fmt_number(value)
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def _schema_problems(error: ValidationError) -> list[Problem]:
    parts = list(error.absolute_path)
    path = join_path(parts)
    kind = error.validator
    value: Any = error.instance
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    rule: Any = error.validator_value
    if kind == "additionalProperties":
        known = set(schema.get("properties", {}))
        extras = (
            sorted(str(k) for k in value if k not in known) if isinstance(value, Mapping) else []
        )
        return [
            Problem(
                join_path([*parts, _short_key(k)]),
                "unknown_key",
                {"key": _short_key(k), "allowed": sorted(known)},
            )
            for k in extras
        ]
    if kind == "required":
        missing = [r for r in rule if r not in value]
        return [Problem(join_path([*parts, r]), "required", {"field": r}) for r in missing]
    if kind == "type":
        expected = rule
        expected_text = " | ".join(expected) if isinstance(expected, list) else str(expected)
        return [Problem(path, "type", {"expected": expected_text, "actual": _type_name(value)})]
    if kind == "enum":
        return [
            Problem(
                path,
                "enum",
                {"value": _fmt_value(value), "allowed": ", ".join(map(str, rule))},
            )
        ]
    if kind == "const":
        return [
            Problem(
                path,
                "schema_version",
                {
                    "expected": SCHEMA_VERSION,
                    # The earlier versions still read (upgrade.py), named so that a client
                    # sending neither learns both.
                    "older": ", ".join(str(v) for v in SCHEMA_VERSIONS if v != SCHEMA_VERSION),
                    "value": _fmt_value(value),
                },
            )
        ]
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return [
            Problem(
                path,
                kind.replace("M", "_m").lower(),
                {"limit": i18n.fmt_number(rule), "value": _fmt_value(value)},
            )
        ]
    if kind in ("minItems", "maxItems"):
        return [
            Problem(
                path,
                "min_items" if kind == "minItems" else "max_items",
                {"limit": rule, "count": len(value)},
            )
        ]
    if kind == "maxLength":
        return [Problem(path, "max_length", {"limit": rule, "count": len(value)})]
    if kind == "uniqueItems":
        return [Problem(path, "unique_items", {})]
    if kind == "oneOf":
        return [Problem(path, "model_one_of", {})]
    return [Problem(path, "invalid", {"detail": _short_key(error.message)})]


def _short_key(text: str) -> str:
    return text if len(text) <= MAX_KEY_CHARS else text[: MAX_KEY_CHARS - 1] + "…"


def _bounded(
    node: Any, schema: Mapping[str, Any], parts: list[str | int]
) -> tuple[Any, list[Problem]]:
    """`node` cut down to what its schema allows, with a problem for each cut.

    Arrays keep their first maxItems items and objects their known keys plus the first few
    unknown ones, so that validating (and reporting on) the result takes bounded work whatever
    the input holds: 190,000 bad regions were once 190,000 problems and a 65 MB answer.
    Only nodes the schema describes are walked; the values of unknown keys are never read.
    """
    problems: list[Problem] = []
    if isinstance(node, list) and schema.get("type") == "array":
        limit = schema.get("maxItems")
        if isinstance(limit, int) and len(node) > limit:
            problems.append(
                Problem(join_path(parts), "max_items", {"limit": limit, "count": len(node)})
            )
            node = node[:limit]
        items = schema.get("items")
        if not isinstance(items, Mapping):
            return node, problems
        out: list[Any] = []
        for i, value in enumerate(node):
            value, found = _bounded(value, items, [*parts, i])
            out.append(value)
            problems.extend(found)
        return out, problems
    properties = schema.get("properties")
    if isinstance(node, Mapping) and isinstance(properties, Mapping):
        node, problems = _known_keys(node, schema, parts)
        kept: dict[str, Any] = {}
        for key, value in node.items():
            if key in properties:
                value, found = _bounded(value, properties[key], [*parts, key])
                problems.extend(found)
            kept[key] = value
        return kept, problems
    return node, problems


def _known_keys(
    node: Mapping[str, Any], schema: Mapping[str, Any], parts: list[str | int]
) -> tuple[Mapping[str, Any], list[Problem]]:
    """`node` with its known keys and the first few unknown ones (a problem for the rest)."""
    properties = schema["properties"]
    unknown = [k for k in node if k not in properties]
    if schema.get("additionalProperties") is False and len(unknown) > MAX_UNKNOWN_KEYS:
        dropped = set(unknown[MAX_UNKNOWN_KEYS:])
        problem = Problem(
            join_path(parts),
            "unknown_keys",
            {"count": len(unknown) - MAX_UNKNOWN_KEYS, "allowed": sorted(properties)},
        )
        return {k: v for k, v in node.items() if k not in dropped}, [problem]
    return node, []


def first_problems(
    problems: Sequence[Problem], limit: int = MAX_PROBLEMS
) -> tuple[list[Problem], int]:
    """The problems a caller lists (at most `limit`) and how many more there are."""
    return list(problems[:limit]), max(0, len(problems) - limit)


def _as_mapping(value: Any) -> Mapping[str, Any] | None:
    return value if isinstance(value, Mapping) else None


def cross_field_problems(
    doc: Mapping[str, Any], *, partial: bool, version: int = SCHEMA_VERSION
) -> list[Problem]:
    """Rules across fields. Each rule only runs on values that are structurally valid."""
    problems: list[Problem] = []
    workloads = doc.get("workloads")
    kinds: list[str] = []
    if isinstance(workloads, list):
        first_seen: dict[str, int] = {}
        for i, w in enumerate(workloads):
            kind = w.get("kind") if isinstance(w, Mapping) else None
            if not isinstance(kind, str) or kind not in WORKLOAD_KINDS:
                continue
            if kind in first_seen:
                problems.append(
                    Problem(
                        f"workloads[{i}].kind",
                        "duplicate_workload",
                        {"kind": kind, "first": f"workloads[{first_seen[kind]}]"},
                    )
                )
            else:
                first_seen[kind] = i
                kinds.append(kind)
    training = _as_mapping(doc.get("training"))
    inference = _as_mapping(doc.get("inference"))
    if not partial:
        needs_training = [k for k in kinds if k in TRAINING_KINDS]
        if needs_training and "training" not in doc:
            problems.append(
                Problem(
                    "training",
                    "section_required",
                    {"section": "training", "kinds": ", ".join(needs_training)},
                )
            )
        needs_inference = [k for k in kinds if k in INFERENCE_KINDS]
        if needs_inference and "inference" not in doc and "work" not in doc:
            problems.append(
                Problem(
                    "inference",
                    "section_required",
                    {"section": "inference", "kinds": ", ".join(needs_inference)},
                )
            )
        # Work counted in its own unit needs no token inference section (nor a model for it).
        applicable = {
            "training": bool(needs_training),
            "inference": bool(needs_inference) and "work" not in doc,
        }
        present = [s for s in ("training", "inference") if s in doc and applicable[s]]
        if present and "model" not in doc:
            problems.append(Problem("model", "model_required", {"sections": ", ".join(present)}))
    if training is not None:
        method = training.get("method")
        if method in ("lora", "qlora") and "lora_rank" not in training and not partial:
            problems.append(Problem("training.lora_rank", "lora_rank_required", {"method": method}))
    if inference is not None:
        # Version 1 only: its context included the output, so the two could contradict.
        ctx, out = inference.get("context_tokens"), inference.get("output_tokens")
        if version == 1 and _is_int(ctx) and _is_int(out) and out > ctx:
            problems.append(
                Problem(
                    "inference.output_tokens",
                    "output_exceeds_context",
                    {"output": i18n.fmt_number(out), "context": i18n.fmt_number(ctx)},
                )
            )
        if "batch_window_hours" not in inference and not partial:
            # The start and the firmness describe a window: without its length there is none.
            for key in ("batch_window_start_hour", "batch_window_firmness"):
                if key in inference:
                    problems.append(Problem(f"inference.{key}", "batch_window_hours_required", {}))
    problems.extend(_work_problems(doc, kinds))
    model = _as_mapping(doc.get("model"))
    arch = _as_mapping(model.get("architecture")) if model is not None else None
    if arch is not None and version >= 3:
        # Version 3's numbers are free within their bounds; a mixture of experts states both
        # of its routing numbers (the schema's allOf says so too).
        if not partial:
            for given, needed, code in (
                ("inactive_experts", "experts_per_token", "experts_k_required"),
                ("experts_per_token", "inactive_experts", "inactive_experts_required"),
            ):
                if given in arch and needed not in arch:
                    problems.append(Problem(f"model.architecture.{needed}", code, {}))
    elif arch is not None:
        problems.extend(_v2_architecture_problems(arch, partial=partial))
    deployment = _as_mapping(doc.get("deployment"))
    if deployment is not None:
        modes = deployment.get("allowed_modes")
        if (
            deployment.get("data_residency") == "on_premises_only"
            and isinstance(modes, list)
            and modes
            and not {"on_premises", "private_cloud"} & {m for m in modes if isinstance(m, str)}
        ):
            problems.append(Problem("deployment.data_residency", "residency_needs_on_premises", {}))
    return problems


def _v2_architecture_problems(arch: Mapping[str, Any], *, partial: bool) -> list[Problem]:
    """Version 1 and 2's architecture rules: four comparisons of two numbers, and a head
    dimension that version 3 (which asks it) can hold."""
    problems: list[Problem] = []
    heads, kv = arch.get("attention_heads"), arch.get("kv_heads")
    if _is_int(heads) and _is_int(kv) and kv > 0 and heads % kv != 0:
        problems.append(
            Problem(
                "model.architecture.kv_heads",
                "kv_heads_divide",
                {"kv_heads": kv, "heads": heads},
            )
        )
    experts, top_k = arch.get("experts", 1), arch.get("experts_per_token")
    if _is_int(experts) and _is_int(top_k) and top_k > experts:
        problems.append(
            Problem(
                "model.architecture.experts_per_token",
                "experts_per_token_exceed",
                {"k": top_k, "experts": experts},
            )
        )
    if _is_int(experts) and experts > 1 and top_k is None and not partial:
        problems.append(Problem("model.architecture.experts_per_token", "experts_k_required", {}))
    total, active = arch.get("parameters"), arch.get("active_parameters")
    if _is_int(total) and _is_int(active) and active > total:
        problems.append(
            Problem(
                "model.architecture.active_parameters",
                "active_exceeds_total",
                {"active": i18n.fmt_number(active), "total": i18n.fmt_number(total)},
            )
        )
    hidden = arch.get("hidden_size")
    if (
        "head_dim" not in arch
        and _is_int(hidden)
        and _is_int(heads)
        and heads > 0
        and hidden % heads != 0
    ):
        problems.append(
            Problem(
                "model.architecture.hidden_size",
                "heads_divide_hidden",
                {"hidden": hidden, "heads": heads},
            )
        )
    head_dim = v2_head_dim(arch)
    if (
        "head_dim" not in arch
        and head_dim is not None
        and not (MIN_HEAD_DIM <= head_dim <= MAX_HEAD_DIM)
    ):
        problems.append(
            Problem(
                "model.architecture.hidden_size",
                "head_dim_out_of_range",
                {
                    "hidden": hidden,
                    "heads": heads,
                    "head_dim": head_dim,
                    "low": MIN_HEAD_DIM,
                    "high": i18n.fmt_number(MAX_HEAD_DIM),
                },
            )
        )
    return problems


def _work_problems(doc: Mapping[str, Any], kinds: Sequence[Any]) -> list[Problem]:
    """The work section's own rules: its model works in the unit given, and training (sized in
    tokens) does not come with it."""
    work = _as_mapping(doc.get("work"))
    if work is None:
        return []
    out = []
    model, unit = work.get("model"), work.get("unit")
    expected = WORK_MODEL_UNIT.get(model) if isinstance(model, str) else None
    if expected is not None and unit in WORK_UNITS and unit != expected:
        out.append(
            Problem("work.model", "work_model_unit", {"work_model": model, "work_unit": unit})
        )
    training = [k for k in kinds if k in TRAINING_KINDS]
    if training:
        out.append(Problem("work", "work_with_training", {"kinds": ", ".join(training)}))
    return out


def _is_int(value: Any) -> TypeGuard[int | float]:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )


def _collect(doc: Any, *, partial: bool) -> list[Problem]:
    if not isinstance(doc, Mapping):
        return [Problem("", "not_object", {"actual": _type_name(doc)})]
    problems: list[Problem] = []
    try:
        # The document's own keys, then each section on its own: what validator(partial) checks
        # in one pass (the schema states no rule across sections; those are the cross-field
        # rules below), so that a section seen before is not checked again.
        version = version_of(doc)
        doc, problems = _known_keys(doc, schema_doc(version), [])
        problems.extend(_root_checked(doc, partial, version))
        bounded: dict[str, Any] = {}
        for key, value in doc.items():
            if key in sections():
                value = _section_checked(key, value, partial, problems, version)
            bounded[key] = value
        doc = bounded
    except Exception as exc:  # noqa: BLE001 - arbitrary draft input must never escape as a crash
        problems.append(Problem("", "invalid", {"detail": type(exc).__name__}))
        return problems
    try:
        problems.extend(cross_field_problems(doc, partial=partial, version=version))
    except Exception as exc:  # noqa: BLE001
        problems.append(Problem("", "invalid", {"detail": type(exc).__name__}))
    # Stable order (document order is not guaranteed by iter_errors) and no duplicates; a wrong type
    # makes enum and bound checks at the same path noise, so only the type problem is kept.
    # The same goes for enum problems on a string far longer than any allowed value.
    typed = {p.path for p in problems if p.code == "type"}
    problems = [p for p in problems if p.code == "type" or p.path not in typed]
    too_long = {p.path for p in problems if p.code == "max_length"}
    problems = [p for p in problems if p.code != "enum" or p.path not in too_long]
    seen: set[tuple[str, str, str]] = set()
    unique: list[Problem] = []
    # A version that is neither comes first: the rest were judged by the current version's
    # schema, which the sender may not have meant (a v1 document's context_tokens is unknown there).
    for p in sorted(problems, key=lambda p: (p.code != "schema_version", p.path, p.code)):
        key = (p.path, p.code, json.dumps(p.params, sort_keys=True, default=str))
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


# Problems remembered by what they depend on: a section's by its value (repr: it tells 1 from 1.0,
# True and "1", a list from a tuple), the document's own by its keys and schema_version. A person's
# wizard saves one section at a time, and every page that counts their progress validates the
# whole document: the sections they did not touch are found here. Bounded: small values only
# (what a person types), and a full table is emptied.
_MEMO: dict[tuple[Any, ...], tuple[Problem, ...]] = {}
_MEMO_SIZE = 4096
_MEMO_CHARS = 4096


def _remembered(
    key: tuple[Any, ...] | None, check: Callable[[], tuple[Problem, ...]]
) -> tuple[Problem, ...]:
    found = _MEMO.get(key) if key is not None else None
    if found is None:
        found = check()
        if key is not None:
            if len(_MEMO) >= _MEMO_SIZE:
                _MEMO.clear()
            _MEMO[key] = found
    return found


def _memo_key(*parts: Any) -> tuple[Any, ...] | None:
    try:
        text = repr(parts)
    except Exception:  # noqa: BLE001 - a value too deep to print is checked, not remembered
        return None
    return (text,) if len(text) <= _MEMO_CHARS else None


def _root_checked(doc: Mapping[str, Any], partial: bool, version: int) -> tuple[Problem, ...]:
    """The document's own problems: the sections it requires, unknown keys, schema_version."""
    stated = (doc["schema_version"],) if "schema_version" in doc else ()
    return _remembered(
        _memo_key("root", partial, type(doc) is dict, tuple(doc), stated),
        lambda: tuple(
            p
            for error in root_validator(partial, version).iter_errors(doc)
            for p in _schema_problems(error)
        ),
    )


def _section_checked(
    key: str, value: Any, partial: bool, problems: list[Problem], version: int
) -> Any:
    """Add the section's problems to `problems`; return the value cut down to its schema's
    bounds (`_bounded`), which the cross-field rules then read."""
    memo = _memo_key(key, partial, version, value)
    found = _MEMO.get(memo) if memo is not None else None
    if found is not None:
        problems.extend(found)
        return value  # only a value that nothing was cut from is remembered: it is its bounds
    bounded, cut = _bounded(value, schema_doc(version)["properties"][key], [key])
    found = _remembered(
        None if cut else memo,
        lambda: (
            tuple(cut)
            + tuple(
                p
                for error in section_validator(partial, key, version).iter_errors({key: bounded})
                for p in _schema_problems(error)
            )
        ),
    )
    problems.extend(found)
    return bounded


def check_partial(doc: Mapping[str, Any]) -> list[Problem]:
    """Validate a wizard draft: only what is present. Never raises; missing sections are fine."""
    return _collect(doc, partial=True)


def validate(doc: Mapping[str, Any]) -> list[Problem]:
    """Every problem of a complete answers document (empty list = valid)."""
    return _collect(doc, partial=False)


# What a complete validation reports that a draft may still lack (a missing key or section, a
# list not filled in yet, neither preset nor architecture chosen); every other problem is a value
# present and wrong, which check_partial reports too.
_MISSING = frozenset(
    {
        "required",
        "min_items",
        "model_one_of",
        "section_required",
        "model_required",
        "lora_rank_required",
        "experts_k_required",
        "inactive_experts_required",
    }
)


def draft_problems(problems: Iterable[Problem]) -> list[Problem]:
    """`check_partial`'s problems out of `validate`'s for the same document, without a second
    pass: `draft_problems(validate(doc)) == check_partial(doc)`."""
    return [p for p in problems if p.code not in _MISSING]
