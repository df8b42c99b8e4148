"""Validating an answers document: the schema's errors rewritten for people, bounds on hostile
input, the cross-field rules (cross_field.py) run after them, and the problems a draft may have.

Problem and AnswersError (problem.py) are exported from here too: pages and forms name this
module only. A document is checked against the schema of the version it states
(schema.version_of).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from jsonschema.exceptions import ValidationError

from advisor.engine.answers.cross_field import cross_field_problems
from advisor.engine.answers.problem import AnswersError, Problem, join_path
from advisor.engine.answers.schema import (
    root_validator,
    schema_doc,
    section_validator,
    sections,
    version_of,
)
from advisor.engine.answers.vocabulary import (
    MAX_KEY_CHARS,
    MAX_PROBLEMS,
    MAX_UNKNOWN_KEYS,
    SCHEMA_VERSION,
    SCHEMA_VERSIONS,
)
from advisor.engine.text import i18n

__all__ = [
    "AnswersError",
    "Problem",
    "check_partial",
    "draft_problems",
    "first_problems",
    "join_path",
    "validate",
]


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
