"""Bounds and nullability are stated once, in the answers schema: the wizard's preview and the
step forms read them there."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.engine import load_catalog, load_scoring_model, preview
from advisor.engine.answers import schema

CATALOG = load_catalog()
SCORING = load_scoring_model()


def test_the_schema_states_the_bounds_the_preview_reads() -> None:
    assert schema.number_range("cost.hours_per_day") == (0, 24, False)
    assert schema.number_range("inference.p95_latency_ms") == (0, 600_000, True)
    assert schema.number_range("work.p95_latency_ms")[2] is True
    assert schema.nullable_fields("inference") == {"p95_latency_ms"}
    assert schema.nullable_fields("cost") == {"monthly_budget_usd", "capex_budget_usd"}
    assert schema.nullable_fields("workloads") == frozenset()


def _draft(**cost: Any) -> dict[str, Any]:
    return {
        "workloads": [{"kind": "realtime_inference"}],
        "organization": {"regions": ["hong_kong"]},
        "cost": {"billing": "on_demand", **cost},
    }


@pytest.mark.parametrize(("hours", "counted"), [(24, True), (0, True), (24.5, False), (-1, False)])
def test_the_preview_counts_a_number_only_inside_the_schema_bounds(
    hours: float, counted: bool
) -> None:
    # A number the schema refuses is read as not answered yet: the same lean as without it.
    without = preview(_draft(), CATALOG, SCORING)
    within = preview(_draft(hours_per_day=hours), CATALOG, SCORING)
    assert without is not None and within is not None
    if not counted:
        assert within == without
