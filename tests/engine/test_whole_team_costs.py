"""A team's month as one team pays it: operations staff once across its workloads, the
preprocessing CPU server in the total, and a continuous service never on capacity blocks."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog
from advisor.engine.answers.parse import parse_answers
from advisor.engine.planning.decide import cost_inputs
from advisor.engine.pricing.billing import CostInputs
from advisor.engine.pricing.costing import staff_hours, team_staff
from tests.engine.conftest import sample
from tests.engine.test_expert_cases import TRADING_3MS, workload

MODES = ("public_cloud", "dedicated_hosting", "bare_metal", "private_cloud", "on_premises")


def _inputs(catalog: Catalog, doc: dict[str, Any]) -> CostInputs:
    from datetime import date

    return cost_inputs(parse_answers(doc), catalog, date(2026, 12, 1), 180.0)


fleets = st.lists(
    st.tuples(st.sampled_from(MODES), st.integers(1, 64), st.sampled_from((0.05, 0.5, 1.0))),
    min_size=1,
    max_size=4,
)


CATALOG = load_catalog()


@settings(max_examples=60, deadline=None)
@given(fleets)
def test_a_teams_operations_hours_count_each_modes_practice_once(
    parts: list[tuple[str, int, float]],
) -> None:
    catalog = CATALOG
    fixed = catalog.rule("ops_hours_per_month")
    per_unit = catalog.rule("ops_hours_per_unit_month")
    alone = sum(staff_hours([part], catalog) for part in parts)
    together = staff_hours(parts, catalog)
    repeated = sum(fixed[m] for m, _u, _s in parts) - sum(
        fixed[m] for m in {m for m, _u, _s in parts}
    )
    assert together == pytest.approx(alone - repeated)
    assert together >= sum(u * per_unit[m] * s for m, u, s in parts)


def test_two_workloads_on_one_mode_pay_its_fixed_staff_hours_once(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # The shared sample: a weekly LoRA and a service, both on public cloud here.
    doc = sample(**{"deployment.allowed_modes": ["public_cloud"]})
    result = evaluate(doc, catalog, scoring)
    rows = result["cost"]["by_workload"]
    assert len(rows) == 2 and all(r["staff_usd_per_month"] > 0 for r in rows)
    once = result["cost"]["staff_usd_per_month"]
    assert once < sum(r["staff_usd_per_month"] for r in rows)
    firsts = [w["options"][0] for w in result["workloads"]]
    ci = _inputs(catalog, doc)
    fleet = [("public_cloud", o["staff_basis"]["units"], o["staff_basis"]["share"]) for o in firsts]
    assert once == round(team_staff(fleet, ci).in_house_usd, 2)
    compute = sum(r["monthly_cost_usd"] - r["staff_usd_per_month"] for r in rows)
    assert result["cost"]["monthly_total_usd"] == round(compute + once, 2)


def test_preprocessing_is_cpu_work_sized_in_vcpus_and_in_the_total(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = sample(
        workloads=[
            {"kind": "preprocessing", "schedule": "daily"},
            {"kind": "realtime_inference", "schedule": "continuous"},
        ],
        **{"deployment.allowed_modes": ["public_cloud"]},
    )
    result = evaluate(doc, catalog, scoring)
    pre = workload(result, "preprocessing")
    assert pre["accelerator"] == "cpu" and pre["deployment_mode"] == "public_cloud"
    plan = pre["cpu_plan"]
    assert plan["vcpu"] >= 4 and plan["usd_per_month"] > 0 and plan["billing"] == "on_demand"
    cost = result["cost"]
    assert cost["cpu_usd_per_month"] == plan["usd_per_month"]
    (row,) = cost["by_workload"]
    assert cost["monthly_total_usd"] == round(
        row["monthly_cost_usd"]
        - row["staff_usd_per_month"]
        + cost["staff_usd_per_month"]
        + plan["usd_per_month"],
        2,
    )


def test_a_continuous_service_beyond_on_demand_stock_needs_a_reservation_not_a_block(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # A 70B trading assistant at 5 ms a word needs hundreds of H100s/H200s: beyond what AWS rents
    # on demand. A capacity block lasts days; the service runs for good.
    doc = TRADING_3MS
    w = workload(evaluate(doc, catalog, scoring), "realtime_inference")
    everything = w["options"] + w["dominated_options"]
    assert all(o["billing_used"] != "capacity_block" for o in everything)
    beyond = [o for o in everything if o.get("capacity")]
    assert beyond and all(o["capacity"]["needs"] == "reservation" for o in beyond)
