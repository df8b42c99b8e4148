"""The architect's invariants over a fixed seed of generated teams (the suite's share of
`make audit`), the shrunk examples the audit saved as regression cases, and the generator's own
promises: valid answers, weighted the way the site's users are."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.audit import invariants, run
from advisor.engine import parse_answers
from advisor.engine.answers import vocabulary

SEED = 20261206
TEAMS = 300
CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))
# Violations still open over the fixed seed, per invariant (none: every invariant holds at
# zero). A count may only fall: more is a regression, fewer means lowering the figure here.
OPEN: dict[str, int] = {}
# The tally of the seed is the module's cost (most of it): in a parallel run the module stays on
# one worker so the tally is drawn once.
pytestmark = pytest.mark.xdist_group("audit-seed")


@pytest.fixture(scope="module")
def audit() -> run.Tally:
    return run.tally(run.generate(TEAMS, SEED), jobs=1)


@pytest.fixture(scope="module")
def teams() -> list[dict[str, Any]]:
    return run.generate(TEAMS, SEED)


def test_generated_teams_are_valid_answers(teams: list[dict[str, Any]]) -> None:
    for doc in teams:
        assert parse_answers(doc).schema_version == vocabulary.SCHEMA_VERSION


def test_the_same_seed_draws_the_same_teams(teams: list[dict[str, Any]]) -> None:
    # Hypothesis adapts its draws to the number of examples: the same seed and the same number
    # give the same teams, which is what the audit's shrinking step relies on.
    assert run.generate(TEAMS, SEED) == teams


def test_at_least_two_in_five_teams_are_the_operators_core_customers(
    teams: list[dict[str, Any]],
) -> None:
    core = [
        doc
        for doc in teams
        if set(doc["organization"]["regions"]) & invariants.OPERATOR_REGIONS
        and set(doc["deployment"]["allowed_modes"]) & invariants.HOSTED
    ]
    china = [doc for doc in core if doc["deployment"]["china_connectivity"]]
    assert len(core) >= 0.4 * len(teams)
    assert len(china) >= 0.25 * len(core)


def test_the_generator_covers_every_answer_a_team_can_give(teams: list[dict[str, Any]]) -> None:
    seen: dict[str, set[Any]] = {}

    def note(path: str, value: Any) -> None:
        seen.setdefault(path, set()).add(json.dumps(value, sort_keys=True))

    for doc in teams:
        for region in doc["organization"]["regions"]:
            note("regions", region)
        for mode in doc["deployment"]["allowed_modes"]:
            note("modes", mode)
        for w in doc["workloads"]:
            note("kinds", w["kind"])
        note("billing", doc["cost"]["billing"])
        note("residency", doc["deployment"]["data_residency"])
        note("primary", doc["frameworks"]["primary"])
        note("ops", doc["cost"]["ops_capacity"])
        model = doc.get("model") or {}
        note("preset", model.get("preset"))
        arch = model.get("architecture") or {}
        if arch:
            note("moe", "inactive_experts" in arch)
            note("gqa", arch["kv_group_size"] > 1)
        if "work" in doc:
            note("work", doc["work"]["model"])
        if "inference" in doc:
            note("precision", doc["inference"]["precision"])
    assert {json.loads(v) for v in seen["regions"]} == set(vocabulary.REGIONS)
    assert {json.loads(v) for v in seen["modes"]} == set(vocabulary.MODES)
    assert {json.loads(v) for v in seen["kinds"]} == set(vocabulary.WORKLOAD_KINDS)
    assert {json.loads(v) for v in seen["billing"]} == set(vocabulary.BILLING)
    assert {json.loads(v) for v in seen["residency"]} == set(vocabulary.RESIDENCY)
    assert {json.loads(v) for v in seen["ops"]} == set(vocabulary.OPS_CAPACITY)
    assert {json.loads(v) for v in seen["preset"]} >= set(vocabulary.preset_ids())
    assert {json.loads(v) for v in seen["work"]} == set(vocabulary.WORK_MODELS)
    assert {json.loads(v) for v in seen["moe"]} == {True, False}
    assert {json.loads(v) for v in seen["gqa"]} == {True, False}


@pytest.mark.parametrize("invariant", list(invariants.TITLES))
def test_invariant_holds_over_the_fixed_seed(invariant: str, audit: run.Tally) -> None:
    count = audit.violations[invariant]
    expected = OPEN.get(invariant, 0)
    first = audit.first.get(invariant)
    example = f" (first: team {first[0]}, {first[1].sentence})" if first else ""
    assert count <= expected, f"{invariant}: {count} violations, {expected} recorded{example}"
    assert count == expected, f"{invariant} fell to {count} from {expected}: lower OPEN"
    if expected:
        pytest.xfail(f"{invariant}: {count} violations over {TEAMS} teams, still open")


def _cases() -> Iterator[Any]:
    for path in CASES:
        invariant = path.name.split("-", 1)[0]
        marks = [pytest.mark.xfail(strict=True, reason="still open")] if invariant in OPEN else []
        yield pytest.param(path, invariant, id=path.stem, marks=marks)


@pytest.mark.parametrize(("path", "invariant"), list(_cases()))
def test_shrunk_example_keeps_its_invariant(path: Path, invariant: str) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    found = [v.sentence for v in run.violations(doc) if v.invariant == invariant]
    assert not found, found
