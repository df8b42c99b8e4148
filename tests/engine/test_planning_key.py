"""evaluate shares one re-plan between flips and relaxations whose answers have the same
planning key, so the key must change with every answer that sizing, the cost inputs or the
options read: all of them but the three only the scores read, and the data residency only where
planning tells it apart (whether it keeps the data in the team's regions)."""

from __future__ import annotations

import dataclasses
from typing import Any

from advisor.engine import parse_answers
from advisor.engine.answers.samples import sample
from advisor.engine.planning.options import planning_key

# Read by the scores alone (the decision's feasible modes carry the allowed modes in).
SCORES_ONLY = {
    "deployment.allowed_modes",
    "deployment.portability",
    "organization.industry",
}
# Read by planning only as "in region or not" (test_replans holds the options to that): any
# other value plans as the sample's "none" does.
IN_REGION_ONLY = {"deployment.data_residency"}


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
    assert {path for path, yes in moved.items() if not yes} == SCORES_ONLY | IN_REGION_ONLY
    assert answers.deployment.data_residency == "none"
    in_region = dataclasses.replace(
        answers, deployment=dataclasses.replace(answers.deployment, data_residency="in_region")
    )
    assert planning_key(in_region) != base
    assert len(moved) > 40  # every section was walked
