"""The result document's types (engine/result/document/) describe what evaluate returns: every
required key is there, no key is unknown, and values have the stated types. A schema-1 document
is brought up to them by normalise."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate
from advisor.engine.result.document import ResultDocument, normalise
from advisor.starters import STARTERS
from tests.engine.conftest import JAX_PRETRAIN, sample

V1 = Path(__file__).parents[1] / "reports" / "data" / "result_v1_fine_tuning_en.json"


def conforms(value: Any, hint: Any, path: str = "$") -> list[str]:
    """Where `value` departs from the type `hint` (TypedDicts, lists, dicts, unions, scalars)."""
    origin = get_origin(hint)
    if hint is Any:
        return []
    if origin is NotRequired:
        return conforms(value, get_args(hint)[0], path)
    if origin in (Union, types.UnionType):
        found = [conforms(value, arg, path) for arg in get_args(hint)]
        return [] if any(not f for f in found) else min(found, key=len)
    if hint is None or hint is type(None):
        return [] if value is None else [f"{path}: {value!r} is not None"]
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        # With postponed annotations TypedDict cannot see NotRequired itself: read the hints.
        hints = get_type_hints(hint, include_extras=True)
        required = [k for k, h in hints.items() if get_origin(h) is not NotRequired]
        problems = [f"{path}.{k}: missing" for k in required if k not in value]
        problems += [f"{path}.{k}: not in {hint.__name__}" for k in value if k not in hints]
        for key, item in value.items():
            if key in hints:
                problems += conforms(item, hints[key], f"{path}.{key}")
        return problems
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: not a list"]
        return [
            p for i, v in enumerate(value) for p in conforms(v, get_args(hint)[0], f"{path}[{i}]")
        ]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        item = get_args(hint)[1]
        return [p for k, v in value.items() for p in conforms(v, item, f"{path}.{k}")]
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return [] if ok else [f"{path}: {value!r} is not a number"]
    if isinstance(hint, type):
        return [] if isinstance(value, hint) else [f"{path}: {value!r} is not {hint.__name__}"]
    raise AssertionError(f"{path}: unhandled type {hint!r}")  # pragma: no cover


CASES = [pytest.param(s.answers, id=s.slug) for s in STARTERS] + [
    pytest.param(JAX_PRETRAIN, id="jax-pretrain"),
    pytest.param(sample(), id="sample"),
]


@pytest.mark.parametrize("answers", CASES)
@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_every_result_document_has_the_types_it_states(
    answers: dict[str, Any], lang: str, catalog: Catalog, scoring: ScoringModel
) -> None:
    result = evaluate(json.loads(json.dumps(answers)), catalog, scoring, lang=lang)
    # As stored: through JSON.
    assert conforms(json.loads(json.dumps(result)), ResultDocument) == []


def test_a_schema_1_document_is_normalised_to_the_types() -> None:
    stored = json.loads(V1.read_text(encoding="utf-8"))
    assert stored["schema_version"] == 1
    assert conforms(stored, ResultDocument) != []
    doc = normalise(stored)
    assert conforms(doc, ResultDocument) == []
    assert doc["workloads"][0]["rules"] == [] and doc["workloads"][0]["mode_decision"] is None
    assert doc["servers"] == [stored["server"]]
    assert "rules" not in stored["recommendation"]  # the stored document is left as it was


def test_a_schema_2_document_comes_back_as_it_is(catalog: Catalog, scoring: ScoringModel) -> None:
    result = evaluate(sample(), catalog, scoring)
    assert normalise(result) is result
