from __future__ import annotations

import copy
from typing import Any

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog
from tests.engine.conftest import JAX_PRETRAIN, sample


def all_prices(result: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for w in result["workloads"]:
        for o in w["options"] + w["alternatives"]:
            out += [p for p in o["prices"].values() if p is not None]
    return out


def test_every_price_has_a_source_and_a_date_field(catalog: Catalog, scoring: ScoringModel) -> None:
    prices = all_prices(evaluate(sample(), catalog, scoring))
    assert prices
    for p in prices:
        assert p["source"] and "as_of" in p and isinstance(p["stale"], bool)


def test_old_prices_are_flagged_stale_relative_to_today(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    early = evaluate(sample(), catalog, scoring, today="2026-10-09")
    late = evaluate(sample(), catalog, scoring, today="2028-01-01")
    dated = [
        p for p in all_prices(early) if p["as_of"] and "2026-05-01" <= p["as_of"] <= "2026-10-09"
    ]
    assert dated and not any(p["stale"] for p in dated)
    assert all(p["stale"] for p in all_prices(late))
    assert early["cost"]["today"] == "2026-10-09"


def test_today_defaults_to_the_newest_catalog_price(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    assert evaluate(sample(), catalog, scoring)["cost"]["today"] == catalog.newest_price_date()


def test_missing_prices_are_reported_not_invented(catalog: Catalog, scoring: ScoringModel) -> None:
    doc = sample(**{"deployment.allowed_modes": ["on_premises"]})
    result = evaluate(doc, catalog, scoring)
    assert result["recommendation"]["billing"] == "purchase"
    for w in result["workloads"]:
        for o in w["options"]:
            # Owned hardware has no rental row; a card with a sourced purchase price is priced
            # as a total cost of ownership, any other stays unpriced and says so.
            assert "on_demand" in o["missing_prices"]
            if o.get("tco"):
                assert o["monthly_cost_usd"] > o["tco"]["usd_per_month"] > 0
            else:
                assert o["monthly_cost_usd"] is None
                assert o["unpriced"]["reason"] == "no_purchase_price"


def test_tpu7x_has_no_commitment_price(catalog: Catalog, scoring: ScoringModel) -> None:
    result = evaluate(JAX_PRETRAIN, catalog, scoring)
    [tpu7x] = [o for o in result["workloads"][0]["options"] if o["accelerator_id"] == "tpu-7x"]
    assert tpu7x["prices"]["commit_1y"] is None and "commit_1y" in tpu7x["missing_prices"]


def test_break_even_utilisation_is_monthly_over_hourly(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    result = evaluate(sample(**{"deployment.allowed_modes": ["public_cloud"]}), catalog, scoring)
    for w in result["workloads"]:
        for o in w["options"]:
            od, c1 = o["prices"]["on_demand"], o["prices"]["commit_1y"]
            if od and c1:
                expected = c1["usd_per_device_month"] / (od["usd_per_device_hour"] * 730)
                assert abs(o["break_even_utilisation"]["commit_1y"] - expected) < 1e-3


def test_a_dearer_card_that_finishes_sooner_can_win(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = sample(
        **{
            "deployment.allowed_modes": ["public_cloud"],
            "deployment.china_connectivity": False,
            "training.deadline_hours": None,
            "training.method": "full",
            "training.precision": "bf16",
            "training.dataset_tokens": 2_000_000_000,
        }
    )
    del doc["training"]["lora_rank"]
    options = evaluate(doc, catalog, scoring)["workloads"][0]["options"]
    priced = [o for o in options if o["cost_per_run_usd"]["on_demand"] is not None]

    def hourly(o: dict[str, Any]) -> float:
        return float(o["prices"]["on_demand"]["usd_per_device_hour"])

    # Some card ranks above a cheaper-by-the-hour one because it finishes the run sooner.
    assert any(
        hourly(a) > hourly(b) and a["hours"] < b["hours"]
        for i, a in enumerate(priced)
        for b in priced[i + 1 :]
    )


def test_costs_include_storage_egress_idle_and_staff(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    result = evaluate(sample(), catalog, scoring)
    [inference] = [
        c for c in result["cost"]["by_workload"] if c["workload"] == "realtime_inference"
    ]
    for key in (
        "storage_usd_per_month",
        "egress_usd_per_month",
        "idle_usd_per_month",
        "staff_usd_per_month",
    ):
        assert inference[key] is not None
    assert inference["staff_usd_per_month"] > 0
    assert inference["cost_per_million_output_tokens_usd"]


def test_an_admin_catalog_can_fill_a_gap(scoring: ScoringModel) -> None:
    data = load_catalog().to_dict()
    data["version"] = "admin-1"
    data["prices"].append(
        {
            "id": "admin-1",
            "accelerator_id": "tpu-7x",
            "provider": "Google Cloud",
            "cloud": "gcp",
            "modes": ["public_cloud"],
            "billing": "commit_1y",
            "usd_per_device_hour": 8.0,
            "source": "admin: quote from Google Cloud Sales",
            "as_of": "2026-11-01",
        }
    )
    custom = load_catalog(data)
    result = evaluate(copy.deepcopy(JAX_PRETRAIN), custom, scoring)
    [tpu7x] = [o for o in result["workloads"][0]["options"] if o["accelerator_id"] == "tpu-7x"]
    assert tpu7x["prices"]["commit_1y"]["source"] == "admin: quote from Google Cloud Sales"
    assert result["versions"]["catalog"] == "admin-1"


def test_the_server_is_balanced_around_the_devices(catalog: Catalog, scoring: ScoringModel) -> None:
    server = evaluate(sample(), catalog, scoring)["server"]
    assert server["cpu_cores"] > 0 and server["ram_gib"] > 0 and server["nvme_tb"] > 0
    assert server["notes"]


def test_a_catalog_month_of_other_length_reprices_every_conversion(scoring: ScoringModel) -> None:
    # Billing months are the catalog's sourced `hours_per_month` figure, not a constant: a
    # catalog that counts 720 hours converts hourly and monthly prices, break-evens and the
    # hours a commitment pays for with 720.
    data = load_catalog().to_dict()
    data["version"] = "month-720"
    data["figures"]["hours_per_month"]["value"] = 720
    custom = load_catalog(data)
    doc = sample(**{"deployment.allowed_modes": ["public_cloud"]})
    result = evaluate(doc, custom, scoring)
    assert result["cost"]["figures_used"]["hours_per_month"]["value"] == 720
    checked = 0
    for w in result["workloads"]:
        for o in w["options"]:
            for slot, p in o["prices"].items():
                if p is None:
                    continue
                if p["unit"] == "device-month":
                    assert abs(p["usd_per_device_hour"] - p["usd_per_device_month"] / 720) < 1e-4
                else:
                    assert abs(p["usd_per_device_month"] - p["usd_per_device_hour"] * 720) < 0.01
                checked += 1
                if slot == "commit_1y" and o["prices"]["on_demand"]:
                    od = o["prices"]["on_demand"]["usd_per_device_hour"]
                    expected = p["usd_per_device_month"] / (od * 720)
                    assert abs(o["break_even_utilisation"]["commit_1y"] - expected) < 1e-3
    assert checked
