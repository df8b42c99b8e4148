"""evaluate shares one re-plan between flips and relaxations whose answers have the same
planning key, so the key must change with every answer that sizing, the cost inputs or the
options read: all of them but the three only the scores read."""

from __future__ import annotations

import dataclasses
from typing import Any

from advisor.engine import parse_answers
from advisor.engine.options import planning_key
from advisor.engine.samples import sample

# Read by the scores alone (the decision's feasible modes carry the allowed modes in).
SCORES_ONLY = {
    "deployment.allowed_modes",
    "deployment.portability",
    "organization.industry",
}


def _changed(value: Any, path: str) -> list[tuple[str, Any]]:
    """(path, the value with that one field replaced) for every field, nested sections too."""
    out: list[tuple[str, Any]] = []
    for f in dataclasses.fields(value):
        inner = getattr(value, f.name)
        name = f"{path}.{f.name}" if path else f.name
        if not dataclasses.is_dataclass(inner):
            out.append((name, dataclasses.replace(value, **{f.name: object()})))
        else:
            out += [
                (sub, dataclasses.replace(value, **{f.name: changed}))
                for sub, changed in _changed(inner, name)
            ]
    return out


def test_the_planning_key_moves_with_every_answer_but_the_scores_own() -> None:
    answers = parse_answers(sample())
    base = planning_key(answers)
    moved = {path: planning_key(changed) != base for path, changed in _changed(answers, "")}
    assert {path for path, yes in moved.items() if not yes} == SCORES_ONLY
    assert len(moved) > 40  # every section was walked
