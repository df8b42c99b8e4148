"""Costs that mean what they say: operations staff from the team's answered capacity, counted
once per team, never a silent hire for a team without staff, and a budget check that compares
compute and hosting with the budget and names operations apart."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog, load_scoring_model
from advisor.engine.answers.parse import parse_answers
from advisor.engine.answers.samples import DELETE, sample
from advisor.engine.planning.decide import cost_inputs
from advisor.engine.pricing.asked import budget_statement
from advisor.engine.pricing.costing import team_staff
from tests.engine.strategies import answers_docs

CATALOG = load_catalog()
SCORING = load_scoring_model()


def _no_staff(doc: dict[str, Any]) -> bool:
    return bool(doc["cost"]["ops_capacity"] == "none" or doc["cost"].get("ops_headcount") == 0)


def _all_options(result: Any) -> list[dict[str, Any]]:
    return [o for w in result["workloads"] for o in w["options"] + w.get("dominated_options", [])]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers_docs())
def test_staff_is_counted_once_per_team_and_never_hidden_from_a_team_without_staff(
    doc: dict[str, Any],
) -> None:
    result = evaluate(doc, CATALOG, SCORING, today=date(2026, 12, 1))
    cost = result["cost"]
    staff = cost["staff_usd_per_month"]
    bought = cost["ops_bought_in_usd_per_month"]
    # The month is compute and hosting plus the two named operations lines, nothing else.
    assert cost["monthly_total_usd"] == pytest.approx(
        cost["compute_and_hosting_usd_per_month"] + staff + bought, abs=0.02
    )
    if _no_staff(doc):
        assert staff == 0
        assert all(not o.get("staff_usd_per_month") for o in _all_options(result))
        assert all(not r["staff_usd_per_month"] for r in cost["by_workload"])
    # Once per team: the team's operations are those of its workloads' fleets taken together.
    fleets = []
    for row in cost["by_workload"]:
        if row["monthly_cost_usd"] is None:
            continue
        w = next(w for w in result["workloads"] if w["kind"] == row["workload"])
        match = [
            o
            for o in w["options"]
            if o["accelerator_id"] == row["accelerator_id"]
            and o["monthly_cost_usd"] == row["monthly_cost_usd"]
            and o.get("staff_basis")
        ]
        assume(match)
        basis = match[0]["staff_basis"]
        fleets.append((w["deployment_mode"], int(basis["units"]), float(basis["share"])))
    once = team_staff(fleets, cost_inputs(parse_answers(doc), CATALOG, date(2026, 12, 1), 180.0))
    assert staff == pytest.approx(once.in_house_usd, abs=0.02)
    assert bought == pytest.approx(once.bought_in_usd, abs=0.02)


STUDENT = sample(
    **{
        "workloads": [{"kind": "fine_tuning", "schedule": "weekly"}],
        "inference": DELETE,
        "model.preset": "llama-3.2-1b",
        "training.dataset_tokens": 2_000_000,
        "training.epochs": 1,
        "training.deadline_hours": DELETE,
        "cost.monthly_budget_usd": 300,
        "cost.ops_capacity": "none",
        "cost.hours_per_day": 2,
        "deployment.allowed_modes": ["public_cloud"],
        "organization.regions": ["us_east"],
        "deployment.china_connectivity": False,
    }
)


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_a_student_without_ops_staff_is_not_charged_a_salary_against_the_budget(
    catalog: Catalog, scoring: ScoringModel, lang: str
) -> None:
    result = evaluate(STUDENT, catalog, scoring, lang=lang, today=date(2026, 12, 1))
    cost = result["cost"]
    assert cost["staff_usd_per_month"] == 0
    # A managed cloud keeps no practice for a team without staff: only the hours its instance
    # exists are bought in, a few dollars at most beside the compute.
    assert 0 < cost["ops_bought_in_usd_per_month"] < 5
    assert cost["compute_and_hosting_usd_per_month"] < 300
    words = "over the" if lang == "en" else "超出"
    assert not any(words in n for n in cost["notes"])
    assert words not in result["recommendation"]["billing_reason"]


def test_a_team_without_staff_on_its_own_servers_buys_in_every_hour_as_a_named_line(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = sample(**{"cost.ops_capacity": "none", "deployment.allowed_modes": ["bare_metal"]})
    cost = evaluate(doc, catalog, scoring, today=date(2026, 12, 1))["cost"]
    assert cost["staff_usd_per_month"] == 0
    assert cost["ops_bought_in_usd_per_month"] > 1000  # bare metal needs someone to run it
    assert all(r["ops_bought_in_usd_per_month"] for r in cost["by_workload"])


def test_a_team_of_one_does_its_hours_and_buys_in_only_the_rest(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = sample(
        **{
            "cost.ops_headcount": 1,
            "deployment.allowed_modes": ["on_premises"],
            "cost.amortisation_months": 36,
        }
    )
    cost = evaluate(doc, catalog, scoring, today=date(2026, 12, 1))["cost"]
    rate = cost["staff"]["usd_per_hour"]
    # One person's month at the team's own rate, at most; anything beyond is its own line.
    assert 0 < cost["staff_usd_per_month"] <= rate * 173.33 + 1


@pytest.mark.parametrize(
    ("lang", "compute_word", "staff_word", "bought_word"),
    [
        ("en", "Compute and hosting", "operations staff", "bought in"),
        ("zh-hant", "運算與託管", "維運人員", "向外採購"),
    ],
)
def test_the_budget_check_compares_compute_and_names_operations_apart(
    lang: str, compute_word: str, staff_word: str, bought_word: str
) -> None:
    # Compute within the budget, operations would tip the month over: said as within.
    within = budget_statement(250.0, 300.0, lang, staff=400.0, bought_in=50.0)
    assert within is not None and compute_word in within
    assert staff_word in within and bought_word in within
    assert "400" in within and "50" in within
    assert "over the" not in within and "超出" not in within
    # Compute over the budget: the gap is compute's alone.
    over = budget_statement(450.0, 300.0, lang, staff=400.0)
    assert over is not None and "150" in over and "850" not in over
    assert budget_statement(250.0, 300.0, lang) is None
    assert budget_statement(250.0, None, lang, staff=400.0) is None
