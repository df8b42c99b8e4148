"""The operating organisation's own servers (house offers) are catalog prices
like any other: they rank on cost and fit with no thumb on the scale, name their provider, and
one sold on request is listed beside its option, unpriced, never above a priced option."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog
from advisor.engine.catalog import CatalogError
from tests.engine.test_expert_cases import team, workload

SERVER = {
    "name": "HK-H100-8",
    "cpu": "2x AMD EPYC 9354",
    "ram_gb": 1536,
    "nvme_tb": 15.36,
    "network_gbps": 25,
    "china_bandwidth_mbps": 100,
    "china_bandwidth_type": "cn2_gia",
}


def _house(price_id: str, acc_id: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": price_id,
        "accelerator_id": acc_id,
        "provider": "Harbour Compute",
        "cloud": "other",
        "modes": ["dedicated_hosting", "bare_metal"],
        "billing": "monthly",
        "usd_per_device_hour": None,
        "usd_per_device_month": None,
        "region": "Hong Kong (Tseung Kwan O)",
        "region_key": "hong_kong",
        "source": "Harbour Compute price list",
        "as_of": "2026-11-01",
        "estimated": False,
        "derived": True,
        "note": None,
        "gpus_per_unit": 8,
        "unit": "HK-H100-8",
        "house": True,
        "server": SERVER,
        **fields,
    }


def _with(catalog: Catalog, *prices: dict[str, Any]) -> Catalog:
    data = catalog.to_dict()
    data["prices"] = [*data["prices"], *prices]
    return load_catalog(data)


def _hosted_team() -> dict[str, Any]:
    return team(deployment={"allowed_modes": ["dedicated_hosting"]})


def _options(result: dict[str, Any]) -> list[dict[str, Any]]:
    return workload(result, "realtime_inference")["options"]


def _option(result: dict[str, Any], acc_id: str) -> dict[str, Any]:
    return next(o for o in _options(result) if o["accelerator_id"] == acc_id)


def test_a_house_offer_prices_its_option_and_names_its_provider(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    house = _with(catalog, _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=1500))
    h100 = _option(evaluate(_hosted_team(), house, scoring), "nvidia-h100-sxm")
    price = h100["prices"]["monthly"]
    assert price["price_id"] == "house-h100"
    assert price["provider"] == "Harbour Compute"
    assert price["house"] is True and price["server"]["china_bandwidth_type"] == "cn2_gia"
    assert h100["cost_to_result"]["usd"] is not None


@pytest.mark.parametrize(("house_usd", "saves"), [(1500, None), (2500, 500 * 8)])
def test_the_house_offer_prices_the_card_and_says_what_a_cheaper_host_saves(
    catalog: Catalog, scoring: ScoringModel, house_usd: float, saves: float | None
) -> None:
    # The operator's own server prices its card where the customer is, dearer or not; when
    # another host's offer of the same card costs less, the option says by how much.
    other = {
        **_house("other-h100", "nvidia-h100-sxm", usd_per_device_month=2000),
        "provider": "Another Host",
        "house": False,
        "server": None,
    }
    both = _with(
        catalog, _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=house_usd), other
    )
    result = evaluate(_hosted_team(), both, scoring)
    h100 = _option(result, "nvidia-h100-sxm")
    assert h100["prices"]["monthly"]["price_id"] == "house-h100"
    cheaper = h100.get("cheaper_elsewhere")
    if saves is None:
        assert cheaper is None
    else:
        servers = h100["unit"]["count"]
        assert cheaper["provider"] == "Another Host"
        assert cheaper["saves_usd_per_month"] == pytest.approx(saves * servers)
        said = [n for n in result["cost"]["notes"] if "Another Host" in n]
        assert said and f"{saves * servers:,.0f} USD a month less" in said[0]


def test_a_price_on_request_offer_ranks_on_an_indicative_price_that_names_its_basis(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    both = _with(
        catalog,
        _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=1500),
        _house("house-h200", "nvidia-h200", price_on_request=True),
    )
    options = _options(evaluate(_hosted_team(), both, scoring))
    h200 = next(o for o in options if o["accelerator_id"] == "nvidia-h200")
    price = h200["prices"]["monthly"]
    assert price is not None and price["price_id"] == "house-h200"
    assert price["indicative"] and price["on_request"] and price["estimated"]
    # The basis: the lower median of the card's sourced, located and dated on-demand rates over
    # a month (no rented H200 server has a monthly price in the catalog), named by its row.
    rates = sorted(
        (p.usd_per_device_hour * catalog.hours_per_month, p.id)
        for p in catalog.prices
        if p.accelerator_id == "nvidia-h200"
        and p.billing == "on_demand"
        and p.region is not None
        and p.as_of is not None
        and p.usd_per_device_hour
    )
    figure, row = rates[(len(rates) - 1) // 2]
    assert price["usd_per_device_month"] == pytest.approx(figure, abs=0.01)
    assert price["source"].startswith("Indicative, not a quote") and row in price["source"]
    assert h200["cost_to_result"]["usd"] is not None and "unpriced" not in h200
    # Still an offer to ask a quote for.
    (offer,) = h200["on_request"]
    assert offer["price_id"] == "house-h200" and offer["provider"] == "Harbour Compute"
    assert offer["region_match"] == "exact" and offer["server"]["ram_gb"] == 1536
    assert h200["availability"]["available"] is True


def test_only_a_price_on_request_row_may_have_no_figure(catalog: Catalog) -> None:
    with pytest.raises(CatalogError, match="no price value"):
        _with(catalog, _house("house-h200", "nvidia-h200"))
    assert _with(catalog, _house("house-h200", "nvidia-h200", price_on_request=True))


def test_no_house_offer_leaves_options_without_the_new_keys(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # Results priced without house offers keep their bytes (tests/engine/test_result_digests.py).
    for o in _options(evaluate(_hosted_team(), catalog, scoring)):
        assert "on_request" not in o
        assert all(p is None or "house" not in p for p in o["prices"].values())


# --------------------------------------------------------------------------- on request


def test_an_on_request_house_server_that_fits_is_listed_on_the_first_priced_option(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    both = _with(
        catalog,
        _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=1500),
        _house("house-h200", "nvidia-h200", price_on_request=True, unit="HK-H200-8"),
    )
    options = _options(evaluate(_hosted_team(), both, scoring))
    first = options[0]
    assert first["cost_to_result"]["usd"] is not None
    (house,) = first["house_on_request"]
    h200 = next(o for o in options if o["accelerator_id"] == "nvidia-h200")
    assert house["price_id"] == "house-h200" and house["sold_as"] == "HK-H200-8"
    assert house["server"]["china_bandwidth_type"] == "cn2_gia"
    assert house["needed_count"] == h200["count"] and house["servers"] == -(-h200["count"] // 8)
    assert house["option_rank"] == h200["rank"] > first["rank"]
    assert all("house_on_request" not in o for o in options[1:])


def test_a_priced_house_server_competes_on_cost_and_an_on_request_one_is_not_surfaced(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # Priced: it is an option like any other (no "ask for a price" beside the first).
    priced = _with(catalog, _house("house-h200", "nvidia-h200", usd_per_device_month=1800))
    options = _options(evaluate(_hosted_team(), priced, scoring))
    assert all("house_on_request" not in o for o in options)
    h200 = next(o for o in options if o["accelerator_id"] == "nvidia-h200")
    assert h200["prices"]["monthly"]["house"] is True
    # On request, but where the team's data may not go (Tokyo only, residency in region).
    away = _with(
        catalog,
        _house("house-h200", "nvidia-h200", price_on_request=True),
    )
    tokyo = team(
        organization={"regions": ["tokyo"]},
        deployment={"allowed_modes": ["dedicated_hosting"], "data_residency": "in_region"},
    )
    result = evaluate(tokyo, away, scoring)
    assert all("house_on_request" not in o for o in _options(result))


def test_the_on_request_house_server_stands_beside_a_public_cloud_first_option(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    """Whatever the first option's mode, the operator's server sold on request
    in the customer's region is listed beside it, naming the mode it is sold in, when the team
    allows that mode; not when it does not."""
    on_request = _with(
        catalog, _house("house-l40s", "nvidia-l40s", price_on_request=True, gpus_per_unit=4)
    )
    # Data stays in Hong Kong: no priced hosting there, and a load a few public cloud GPUs
    # serve, so the first option is on public cloud.
    doc = team(
        deployment={
            "allowed_modes": ["public_cloud", "dedicated_hosting"],
            "data_residency": "in_region",
        },
        inference={"tokens_per_day": 5_000_000},
    )
    result = evaluate(doc, on_request, scoring)
    w = workload(result, "realtime_inference")
    assert w["deployment_mode"] == "public_cloud"
    first = w["options"][0]
    (house,) = first["house_on_request"]
    assert house["price_id"] == "house-l40s" and house["deployment_mode"] == "dedicated_hosting"
    assert house["accelerator_id"] == "nvidia-l40s" and house["servers"] >= 1
    assert house["needed_count"] >= 1 and house["server"]["china_bandwidth_type"] == "cn2_gia"
    assert all("house_on_request" not in o for o in w["options"][1:])
    public_only = evaluate(team(deployment={"data_residency": "in_region"}), on_request, scoring)
    assert all("house_on_request" not in o for o in _options(public_only))


def test_a_mainland_team_sees_the_hong_kong_house_server_next_door(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    """A team whose users are in mainland China only is shown the operator's
    Hong Kong server (Hong Kong is mainland China's neighbour for hosting) beside its first
    option."""
    on_request = _with(
        catalog, _house("house-l40s", "nvidia-l40s", price_on_request=True, gpus_per_unit=4)
    )
    doc = team(
        organization={"regions": ["mainland_china"]},
        deployment={
            "allowed_modes": ["public_cloud", "bare_metal"],
            "china_connectivity": True,
        },
    )
    w = workload(evaluate(doc, on_request, scoring), "realtime_inference")
    first = next(o for o in w["options"] if o["cost_to_result"]["usd"] is not None)
    (house,) = first["house_on_request"]
    assert house["price_id"] == "house-l40s" and house["region_key"] == "hong_kong"
    assert house["deployment_mode"] == "bare_metal"


def _one_card_fine_tune() -> dict[str, Any]:
    from advisor.starters import BY_SLUG

    doc = BY_SLUG["llm-fine-tuning-startup"].document()
    doc["organization"]["regions"] = ["hong_kong"]
    doc["deployment"]["allowed_modes"] = ["dedicated_hosting"]
    return doc


def test_a_house_server_sold_as_eight_for_a_one_card_job_says_so_and_is_not_sure(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # A job that fits one 80 GB card got "8 cards needed" at $17,114/month,
    # over its $15,000 budget with no warning, and confidence went from 50% to 100%.
    house = _with(catalog, _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=2139.25))
    result = evaluate(_one_card_fine_tune(), house, scoring)
    tune = workload(result, "fine_tuning")
    first = tune["options"][0]
    assert first["prices"]["monthly"]["price_id"] == "house-h100"
    assert first["min_count"] == 1 and first["billed_count"] == 8
    notes = [n for n in result["cost"]["notes"] if "sold only as servers of 8" in n]
    (note,) = [n for n in notes if "needs 1," in n]  # the serving workload has its own
    assert "7 card(s) stand idle" in note
    assert "cheapest smaller priced option: NVIDIA L40S" in note
    assert "over the budget of $15,000" in note
    assert tune["confidence"] <= 0.5
    zh = evaluate(_one_card_fine_tune(), house, scoring, lang="zh-hant")
    assert any("僅以每台 8 顆的伺服器出售" in n for n in zh["cost"]["notes"])
